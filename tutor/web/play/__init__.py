"""Play a deal with the tutor: the pages of one deal, every state a URL."""
