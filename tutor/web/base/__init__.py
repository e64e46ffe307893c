"""What several features of the web layer share: the language of a request (i18n.py), htmx's
headers (htmx.py), security headers and cookies (security.py), the response cache
(shared.py), signed cookies (signed.py), the visitor's rules and their text form.

Feature packages import from here (and from `tutor.web.words`), never from each other.
"""
