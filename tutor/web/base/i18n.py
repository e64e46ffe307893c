"""Languages: which ones the app speaks, how a request picks one, and the language cookie.

The locale lives in the URL (`/de/…`). Only a bare `/` (and the API, which has no language in
its URLs) falls back to the `lang` cookie and then `Accept-Language`.

The language cookie is written around the app, by `LanguageCookie` (WSGI): the app only names
the language of a page it answered, so that page's response itself stays the same for every
visitor and can be served again from the response cache (tutor/web/base/shared.py).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any, Final

from babel import Locale
from flask import Request, Response, g, request
from werkzeug.http import parse_cookie

from tutor.web.base import security

LANGUAGES: Final = ("de", "en", "it", "es", "fr", "pt")
DEFAULT_LANGUAGE: Final = "en"
COOKIE: Final = "lang"
COOKIE_MAX_AGE: Final = 2 * 365 * 24 * 3600
# The WSGI environ's key for the language of the page answered (set by `remember_language`).
PAGE_LANG: Final = "tutor.page_lang"

# The URL prefix of every page: an unknown language is a plain 404.
LANG_PREFIX: Final = "/<any(" + ", ".join(LANGUAGES) + "):lang>"


@lru_cache(maxsize=64)
def native_name(lang: str) -> str:
    """The language's name in itself ("Deutsch", "Français"), as a language menu shows it."""
    name = Locale.parse(lang).get_display_name(lang) or lang
    return name[:1].upper() + name[1:]


def preferred_language(req: Request) -> str:
    """The language for a request without one in its URL: cookie, then Accept-Language."""
    cookie = security.cookie(req, COOKIE)
    if cookie in LANGUAGES:
        return str(cookie)
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
    """The language of the last page read is the one a bare `/` opens next time: a page (HTML,
    200, or 304 for a kept page the browser has) names its language for `LanguageCookie`."""
    lang = g.get("lang")
    if lang in LANGUAGES and response.status_code in (200, 304) and _is_html(response.headers.get("Content-Type")):
        request.environ[PAGE_LANG] = lang
    return response


@lru_cache(maxsize=64)
def _is_html(content_type: str | None) -> bool:
    """Whether a Content-Type is HTML's (`response.mimetype == "text/html"`, kept per value)."""
    return (content_type or "").split(";", 1)[0].strip().lower() == "text/html"


def cookie_for(environ: dict[str, Any]) -> str | None:
    """The language cookie this request's answer sets, if any. Only a page the visitor opens
    counts (the service worker precaching every language does not), and only when the cookie
    names another language."""
    lang = environ.get(PAGE_LANG)
    if lang not in LANGUAGES or environ.get("HTTP_SEC_FETCH_DEST", "document") != "document":
        return None
    sent = environ.get("HTTP_COOKIE", "")
    if f"{COOKIE}=" in sent and parse_cookie(sent).get(COOKIE) == lang:  # no cookie to parse, mostly
        return None
    return security.cookie_header(COOKIE, lang, COOKIE_MAX_AGE, environ.get("wsgi.url_scheme") in ("https", "wss"))


class LanguageCookie:
    """WSGI: adds the language cookie to a page's answer, whether the app made the answer
    or the response cache kept it."""

    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            cookie = cookie_for(environ)
            if cookie:
                headers = [*headers, ("Set-Cookie", cookie)]
            return start_response(status, headers, exc_info)

        return self.app(environ, start)
