"""Languages: which ones the app speaks, how a request picks one, and the language cookie.

The locale lives in the URL (`/de/…`). Only a bare `/` (and the API, which has no language in
its URLs) falls back to the `lang` cookie and then `Accept-Language`.
"""
from __future__ import annotations

from typing import Final

from babel import Locale
from flask import Request, Response, g, request

from tutor import security

LANGUAGES: Final = ("de", "en", "it", "es", "fr", "pt")
DEFAULT_LANGUAGE: Final = "en"
COOKIE: Final = "lang"
COOKIE_MAX_AGE: Final = 2 * 365 * 24 * 3600

# The URL prefix of every page: an unknown language is a plain 404.
LANG_PREFIX: Final = "/<any(" + ", ".join(LANGUAGES) + "):lang>"


def native_name(lang: str) -> str:
    """The language's name in itself ("Deutsch", "Français"), as a language menu shows it."""
    name = Locale.parse(lang).get_display_name(lang) or lang
    return name[:1].upper() + name[1:]


def preferred_language(req: Request) -> str:
    """The language for a request without one in its URL: cookie, then Accept-Language."""
    cookie = req.cookies.get(COOKIE, "")
    if cookie in LANGUAGES:
        return cookie
    return req.accept_languages.best_match(LANGUAGES, default=DEFAULT_LANGUAGE) or DEFAULT_LANGUAGE


def select_locale() -> str:
    """flask-babel's locale selector: the URL's language, else the visitor's preference."""
    lang = g.get("lang")
    if lang in LANGUAGES:
        return str(lang)
    # A page that does not exist (404) still speaks the language its URL asked for.
    first = request.path.split("/")[1] if request else ""
    if first in LANGUAGES:
        return first
    return preferred_language(request)


def remember_language(response: Response) -> Response:
    """The language of the last page read is the one a bare `/` opens next time. Only a page
    the visitor opens counts: the service worker precaching every language does not."""
    lang = g.get("lang")
    if (
        lang in LANGUAGES
        and request.headers.get("Sec-Fetch-Dest", "document") == "document"
        and request.cookies.get(COOKIE) != lang
        and response.status_code == 200
        and response.mimetype == "text/html"
    ):
        security.set_cookie(response, request, COOKIE, lang, COOKIE_MAX_AGE)
    return response
