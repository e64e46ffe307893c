"""What several features of the web layer share: the visitor's rules and their text form.

Feature packages import from here (and from `tutor.web.words`), never from each other.
"""
