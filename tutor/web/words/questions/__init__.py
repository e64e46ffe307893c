"""Questions in words (being split into the modules of this package)."""

from tutor.web.words.questions.misses import *  # noqa: F403
from tutor.web.words.questions.misses import signed  # noqa: F401
