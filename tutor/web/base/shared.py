"""Answers that many visitors share, kept whole in front of Flask (a WSGI middleware).

A view says its answer may be served again with `@shared("rules", ...)` (or `share(...)`):
everything in it follows from the request's method GET, path, query string, host, scheme and
script root, the htmx headers (HX-Request, HX-Boosted, HX-History-Restore-Request), the
Accept-Encoding header, the asset version, and the values of the cookies it names; nothing
else. The next GET that agrees on all of these gets the kept status, headers and bytes without
reaching Flask (its body already compressed as that Accept-Encoding asked).

Only what is clearly the same for everyone is kept: status 200 with a Content-Length, no
Set-Cookie, no `private`, `no-store` or `no-cache`, no Vary on anything outside the key, and
no conditional or range request. The language cookie is not the answer's: i18n.LanguageCookie
adds it outside this cache, for kept and fresh answers alike. The cache is bounded in entries
and bytes (least recently used goes first), so cycling cookies or query strings costs CPU,
never memory, and each asset version has its own keys.
"""
from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from flask import Flask, request
from werkzeug.http import parse_cookie

from tutor import i18n
from tutor.web.base.rendered import VERSION_KEY

MAX_ENTRIES: Final = 512
MAX_BYTES: Final = 8 * 1024 * 1024  # bodies, mostly compressed: 2–10 kB each
MAX_BODY: Final = 256 * 1024  # a larger answer is served, never kept
MAX_PATHS: Final = 2048
SHARE_KEY: Final = "tutor.shared"  # the WSGI environ's key for the cookie names a view gave

HX_HEADERS: Final = ("HTTP_HX_REQUEST", "HTTP_HX_BOOSTED", "HTTP_HX_HISTORY_RESTORE_REQUEST")
CONDITIONAL: Final = ("HTTP_IF_NONE_MATCH", "HTTP_IF_MODIFIED_SINCE", "HTTP_IF_MATCH", "HTTP_IF_UNMODIFIED_SINCE",
                      "HTTP_RANGE", "HTTP_IF_RANGE")
KEYED_VARY: Final = frozenset(("accept-encoding", "hx-request", "cookie"))
REFUSED_CACHE_CONTROL: Final = ("private", "no-store", "no-cache")

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]
View = TypeVar("View", bound=Callable[..., Any])


def share(*cookies: str) -> None:
    """This request's answer may be served again to every request that agrees on the module's
    key and on the values of these cookies (the view promises it reads no other)."""
    request.environ[SHARE_KEY] = tuple(sorted(set(cookies)))


def shared(*cookies: str) -> Callable[[View], View]:
    """A view whose answers may be shared (see `share`)."""
    def decorate(view: View) -> View:
        @functools.wraps(view)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            share(*cookies)
            return view(*args, **kwargs)
        return wrapper  # type: ignore[return-value]
    return decorate


@dataclass(frozen=True, slots=True)
class Kept:
    status: str
    headers: tuple[tuple[str, str], ...]
    body: bytes
    page_lang: str | None  # for i18n.LanguageCookie, as the app named it


def storable(status: str, headers: list[tuple[str, str]], size: int) -> bool:
    """Whether an answer is the same for everyone that shares its key."""
    if not status.startswith("200 "):
        return False
    length = None
    for name, value in headers:
        lower = name.lower()
        if lower == "set-cookie":
            return False
        if lower == "cache-control" and any(word in value.lower() for word in REFUSED_CACHE_CONTROL):
            return False
        if lower == "vary" and not {v.strip().lower() for v in value.split(",")} <= KEYED_VARY:
            return False
        if lower == "content-length":
            length = value
    return length == str(size)


class ResponseCache:
    """The WSGI middleware; `app` is the Flask app (for the asset version)."""

    def __init__(self, wsgi_app: WSGIApp, app: Flask, max_entries: int = MAX_ENTRIES,
                 max_bytes: int = MAX_BYTES) -> None:
        self.wsgi_app = wsgi_app
        self.app = app
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self.entries: OrderedDict[Hashable, Kept] = OrderedDict()
        self.paths: OrderedDict[str, tuple[str, ...]] = OrderedDict()  # path: cookie names last given
        self.size = 0
        self.lock = threading.Lock()

    def version(self) -> str:
        version: Callable[[], str] | None = self.app.extensions.get(VERSION_KEY)
        if version is None:
            return ""
        with self.app.app_context():
            return version()

    def key(self, environ: dict[str, Any], cookies: tuple[str, ...]) -> Hashable:
        header = environ.get("HTTP_COOKIE")
        jar = parse_cookie(header) if header and cookies else None
        values = tuple(jar.get(name) for name in cookies) if jar is not None else (None,) * len(cookies)
        return (
            environ.get("PATH_INFO", ""), environ.get("QUERY_STRING", ""), environ.get("SCRIPT_NAME", ""),
            environ.get("wsgi.url_scheme"), environ.get("HTTP_HOST"), environ.get("SERVER_NAME"),
            environ.get("SERVER_PORT"), *(environ.get(h) for h in HX_HEADERS), environ.get("HTTP_ACCEPT_ENCODING"),
            self.version(), cookies, values,
        )

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") != "GET" or any(h in environ for h in CONDITIONAL):
            return self.wsgi_app(environ, start_response)
        path = environ.get("PATH_INFO", "")
        cookies = self.paths.get(path)
        if cookies is not None:
            key = self.key(environ, cookies)
            with self.lock:
                kept = self.entries.get(key)
                if kept is not None:
                    self.entries.move_to_end(key)
            if kept is not None:
                if kept.page_lang:
                    environ[i18n.PAGE_LANG] = kept.page_lang
                start_response(kept.status, list(kept.headers))
                return [kept.body]
        answer: list[Any] = []

        def capture(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            answer[:] = [status, list(headers)]  # a copy: layers outside may add their own
            return start_response(status, headers, exc_info)

        result = self.wsgi_app(environ, capture)
        named: tuple[str, ...] | None = environ.get(SHARE_KEY)
        if named is None or not answer or not answer[0].startswith("200 "):
            return result
        try:
            body = b"".join(result)
        finally:
            close = getattr(result, "close", None)
            if close:
                close()
        if storable(answer[0], answer[1], len(body)) and len(body) <= MAX_BODY:
            self.keep(path, named, self.key(environ, named),
                      Kept(answer[0], tuple(answer[1]), body, environ.get(i18n.PAGE_LANG)))
        return [body]

    def keep(self, path: str, cookies: tuple[str, ...], key: Hashable, kept: Kept) -> None:
        with self.lock:
            self.paths[path] = cookies
            self.paths.move_to_end(path)
            while len(self.paths) > MAX_PATHS:
                self.paths.popitem(last=False)
            old = self.entries.pop(key, None)
            if old is not None:
                self.size -= len(old.body)
            self.entries[key] = kept
            self.size += len(kept.body)
            while self.entries and (len(self.entries) > self.max_entries or self.size > self.max_bytes):
                _key, dropped = self.entries.popitem(last=False)
                self.size -= len(dropped.body)


def init_app(app: Flask) -> None:
    """Put the cache in front of the app, and the language cookie in front of both."""
    app.wsgi_app = i18n.LanguageCookie(ResponseCache(app.wsgi_app, app))  # type: ignore[method-assign]
    app.extensions["response_cache"] = app.wsgi_app.app
