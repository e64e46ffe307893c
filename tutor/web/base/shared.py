"""What the app keeps to answer again: one response cache in front of Flask, keyed the way
Django's cache keys its pages, and the stores of rendered parts that key the same way.

**The response cache** (a WSGI middleware). A view says its answer may be served again to
others with `@shared("rules", ...)` (or `share(...)`), naming the cookies it may read. The
answer is kept under:

- its absolute address: scheme, host, script root, path and query string;
- the asset version (a release never serves an older page);
- the value of every request header the answer says it varies on (`Vary`: HX-Request and
  htmx's other headers, Accept-Encoding, …), as the answer named them;
- the value of every cookie the answer *actually read* (security.cookie records each read),
  present or absent.

That is Django's `learn_cache_key`: what an address's answer varied on is learned when it is
stored and used to look the next request up. An answer that read a cookie its view did not
name is not kept (and in tests, `UndeclaredCookie` fails the test that made it). Only what is
safe to share is kept: status 200 to a GET with a Content-Length, no Set-Cookie, no
`private`, `no-store` or `no-cache`, no `Vary: *`. A kept answer with an ETag also answers
`If-None-Match` with a 304, and a HEAD with its headers. The language cookie is not the
answer's: i18n.LanguageCookie adds it outside this cache, for kept and fresh answers alike.

**Stores of rendered parts** (`store(name, size)`, `address_key()`): the quiz keeps rendered
question fragments and the quiz pack; their keys start with `address_key()`, the same
address the response cache keys on (scheme, host, script root, language, asset version), so
a part rendered for one address is never shown at another. A body that follows from such a
key is compressed once and kept (`send_compressed`).

Every store is a cachetools LRU bounded in bytes: cycling cookies or query strings costs
CPU, never memory.
"""
from __future__ import annotations

import functools
import gzip
import threading
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Any, Final, TypeVar

import brotli  # type: ignore[import-untyped]
from cachetools import LRUCache
from flask import Flask, current_app, g, request
from werkzeug.http import generate_etag, is_resource_modified, parse_accept_header, parse_cookie, unquote_etag
from werkzeug.wrappers import Response
from werkzeug.wsgi import get_host

from tutor.web.base import i18n
from tutor.web.base.security import COOKIES_READ, cookies_read

MAX_BYTES: Final = 8 * 1024 * 1024  # bodies, mostly compressed: 2–10 kB each
MAX_BODY: Final = 256 * 1024  # a larger answer is served, never kept
ENTRY_OVERHEAD: Final = 512  # what an entry costs besides its body and headers, roughly
MAX_ADDRESSES: Final = 4096  # addresses whose Vary and cookies are learned
SHARE_KEY: Final = "tutor.shared"  # the WSGI environ's key for the cookie names a view gave
VERSION_KEY: Final = "asset_version"  # app.extensions[...]: the asset version, a function of nothing

CONDITIONAL: Final = ("HTTP_IF_MATCH", "HTTP_IF_UNMODIFIED_SINCE", "HTTP_RANGE", "HTTP_IF_RANGE")
REFUSED_CACHE_CONTROL: Final = ("private", "no-store", "no-cache")
# Headers a 304 repeats from the answer it stands for (RFC 9110, 15.4.5), besides those the
# layers outside add (security headers, the language cookie).
NOT_MODIFIED_HEADERS: Final = frozenset(("cache-control", "content-location", "date", "etag", "expires", "vary"))

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]
View = TypeVar("View", bound=Callable[..., Any])


class UndeclaredCookie(AssertionError):
    """A shared view read a cookie it did not name: its answer would be kept without it."""


def share(*cookies: str) -> None:
    """This request's answer may be served again to every request that agrees on its key
    (the module's words); the view may read these cookies, and no other."""
    request.environ[SHARE_KEY] = frozenset(cookies)


def shared(*cookies: str) -> Callable[[View], View]:
    """A view whose answers may be shared (see `share`)."""
    def decorate(view: View) -> View:
        @functools.wraps(view)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            share(*cookies)
            return view(*args, **kwargs)
        return wrapper  # type: ignore[return-value]
    return decorate


def asset_version(app: Flask) -> str:
    version: Callable[[], str] | None = app.extensions.get(VERSION_KEY)
    return version() if version else ""


@dataclass(frozen=True, slots=True)
class Kept:
    status: str
    headers: tuple[tuple[str, str], ...]
    body: bytes
    etag: str | None  # as the ETag header gives it, to answer If-None-Match
    page_lang: str | None  # for i18n.LanguageCookie, as the app named it

    def size(self) -> int:
        return len(self.body) + sum(len(name) + len(value) for name, value in self.headers) + ENTRY_OVERHEAD


@dataclass(frozen=True, slots=True)
class Learned:
    """What the answers at one address varied on: request headers (as WSGI environ keys) and
    cookie names, in a fixed order."""

    headers: tuple[str, ...]
    cookies: tuple[str, ...]


def _environ_key(header: str) -> str:
    return "HTTP_" + header.strip().upper().replace("-", "_")


def learn(status: str, headers: list[tuple[str, str]], size: int, read: frozenset[str]) -> Learned | None:
    """What a response varies on, if it may be shared at all; None if it may not."""
    if not status.startswith("200 "):
        return None
    length = None
    varies: set[str] = set()
    for name, value in headers:
        lower = name.lower()
        if lower == "set-cookie":
            return None
        if lower == "cache-control" and any(word in value.lower() for word in REFUSED_CACHE_CONTROL):
            return None
        if lower == "vary":
            for part in value.split(","):
                part = part.strip().lower()
                if part == "*":
                    return None
                if part and part != "cookie":  # the cookies are keyed one by one, by what was read
                    varies.add(_environ_key(part))
        if lower == "content-length":
            length = value
    if length != str(size):
        return None
    return Learned(tuple(sorted(varies)), tuple(sorted(read)))


def address(environ: dict[str, Any], version: str) -> tuple[str, ...]:
    """The absolute address an answer was given at (Django's build_absolute_uri), with the
    asset version."""
    return (environ.get("wsgi.url_scheme", "http"), get_host(environ), environ.get("SCRIPT_NAME", ""),
            environ.get("PATH_INFO", ""), environ.get("QUERY_STRING", ""), version)


def request_key(environ: dict[str, Any], where: tuple[str, ...], learned: Learned) -> Hashable:
    header = environ.get("HTTP_COOKIE")
    jar = parse_cookie(header) if header and learned.cookies else {}
    return (where, learned, tuple(environ.get(name) for name in learned.headers),
            tuple(jar.get(name) for name in learned.cookies))


class ResponseCache:
    """The WSGI middleware; `app` is the Flask app (its asset version, whether it is testing)."""

    def __init__(self, wsgi_app: WSGIApp, app: Flask, max_bytes: int = MAX_BYTES) -> None:
        self.wsgi_app = wsgi_app
        self.app = app
        self.entries: LRUCache[Hashable, Kept] = LRUCache(maxsize=max_bytes, getsizeof=Kept.size)
        self.learned: LRUCache[tuple[str, ...], Learned] = LRUCache(maxsize=MAX_ADDRESSES)
        self.lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        method = environ.get("REQUEST_METHOD")
        if method not in ("GET", "HEAD") or any(h in environ for h in CONDITIONAL):
            return self.wsgi_app(environ, start_response)
        try:
            where = address(environ, asset_version(self.app))
        except (UnicodeError, ValueError):  # a Host no URL can name: the app refuses it
            return self.wsgi_app(environ, start_response)
        with self.lock:
            learned = self.learned.get(where)
            kept = self.entries.get(request_key(environ, where, learned)) if learned is not None else None
        if kept is not None:
            return self.serve(kept, environ, start_response, method == "HEAD")
        if method == "HEAD":
            return self.wsgi_app(environ, start_response)
        answer: list[Any] = []

        def capture(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            answer[:] = [status, list(headers)]  # a copy: layers outside may add their own
            return start_response(status, headers, exc_info)

        result = self.wsgi_app(environ, capture)
        declared: frozenset[str] | None = environ.get(SHARE_KEY)
        if declared is None or not answer or not answer[0].startswith("200 "):
            return result
        read = cookies_read(environ)
        if not read <= declared:
            if self.app.testing:
                raise UndeclaredCookie(f"{environ.get('PATH_INFO')} read {sorted(read - declared)}, "
                                       f"not named by its view ({sorted(declared)})")
            return result
        try:
            body = b"".join(result)
        finally:
            close = getattr(result, "close", None)
            if close:
                close()
        learned = learn(answer[0], answer[1], len(body), read)
        if learned is not None and len(body) <= MAX_BODY:
            etag = next((value for name, value in answer[1] if name.lower() == "etag"), None)
            kept = Kept(answer[0], tuple(answer[1]), body, etag, environ.get(i18n.PAGE_LANG))
            with self.lock:
                self.learned[where] = learned
                self.entries[request_key(environ, where, learned)] = kept
        return [body]

    @staticmethod
    def serve(kept: Kept, environ: dict[str, Any], start_response: StartResponse, head: bool) -> Iterable[bytes]:
        if kept.page_lang:
            environ[i18n.PAGE_LANG] = kept.page_lang
        if kept.etag is not None and not is_resource_modified(environ, etag=unquote_etag(kept.etag)[0]):
            start_response("304 Not Modified", [(name, value) for name, value in kept.headers
                                                if name.lower() in NOT_MODIFIED_HEADERS])
            return []
        start_response(kept.status, list(kept.headers))
        return [] if head else [kept.body]


def init_app(app: Flask) -> None:
    """Put the cache in front of the app, and the language cookie in front of both; tag pages
    for revalidation."""
    app.wsgi_app = i18n.LanguageCookie(ResponseCache(app.wsgi_app, app))  # type: ignore[method-assign]
    app.extensions["response_cache"] = app.wsgi_app.app
    app.after_request(tag_page)  # registered after Flask-Compress's hook, so it runs before it


def tag_page(response: Response) -> Response:
    """A page (or fragment) answered to a GET gets an ETag, so a browser revalidating it gets a
    304: strong when the body is the same for everyone at its address, weak when it read a
    cookie (the same visitor may still revalidate it). Registered after Flask-Compress, so it
    runs first: Flask-Compress then marks a strong ETag with its encoding."""
    environ = request.environ
    if "ETag" not in response.headers and taggable(response):
        response.add_etag(weak=bool(environ.get(COOKIES_READ)))
    if "ETag" in response.headers and ("HTTP_IF_NONE_MATCH" in environ or "HTTP_IF_MODIFIED_SINCE" in environ):
        response.make_conditional(request)
    return response


def taggable(response: Response) -> bool:
    """A page or fragment answered whole to a GET, that caches may keep."""
    return (request.method in ("GET", "HEAD") and response.status_code == 200 and not response.is_streamed
            and not response.direct_passthrough and "no-store" not in (response.headers.get("Cache-Control") or "")
            and response.mimetype == "text/html")


# --- stores of rendered parts ---------------------------------------------------------

_stores_lock = threading.Lock()


ADDRESS_KEY: Final = "tutor.address_key"  # the WSGI environ's copy of `address_key()`, made once a request


def address_key() -> tuple[str, ...]:
    """What any rendered part depends on besides its own inputs: the address it is shown at
    (scheme, host, script root: its links) and its language, with the asset version."""
    req = request._get_current_object()  # type: ignore[attr-defined]  # one look-up of the proxy, not five
    key: tuple[str, ...] | None = req.environ.get(ADDRESS_KEY)
    if key is None:
        key = req.environ[ADDRESS_KEY] = (req.scheme, req.host, req.script_root, str(g.get("lang")),
                                          asset_version(current_app))
    return key


def store(name: str, size: int, measure: Callable[[Any], int] = len) -> LRUCache[Hashable, Any]:
    """The app's store of this name: a cachetools LRU of at most `size` (by `measure`)."""
    kept: LRUCache[Hashable, Any] | None = current_app.extensions.get(name)
    if kept is None:
        with _stores_lock:
            kept = current_app.extensions.setdefault(name, LRUCache(maxsize=size, getsizeof=measure))
    return kept


COMPRESSED_BYTES: Final = 4 * 1024 * 1024  # compressed bodies: 1–3 kB a question
ENCODINGS: Final = ("br", "gzip")  # as Flask-Compress is configured (assets.py), best first


def send_compressed(response: Response, key: Hashable) -> Response:
    """A body that follows from `key` alone (a key that starts with `address_key()`),
    compressed once per encoding and kept: the encoding the request accepts best, at
    Flask-Compress's own levels. Flask-Compress then leaves the body as it is (it only adds
    `Vary: Accept-Encoding`)."""
    encoding = _encoding_for(request.environ.get("HTTP_ACCEPT_ENCODING", ""))
    config = current_app.config
    if encoding is None or (response.content_length or 0) < config["COMPRESS_MIN_SIZE"]:
        return response
    bodies = store("compressed_bodies", COMPRESSED_BYTES, _compressed_size)
    kept: tuple[bytes, str] | None = look(bodies, (key, encoding))
    if kept is None:
        raw = response.get_data()
        data = brotli.compress(raw, quality=config["COMPRESS_BR_LEVEL"]) if encoding == "br" \
            else gzip.compress(raw, compresslevel=config["COMPRESS_LEVEL"], mtime=0)
        kept = keep(bodies, (key, encoding), (data, generate_etag(raw)))
    if taggable(response):  # the tag of the body itself, as `tag_page` gives it, before compression
        response.set_etag(kept[1], weak=bool(request.environ.get(COOKIES_READ)))
    response.set_data(kept[0])
    response.headers["Content-Encoding"] = encoding
    return response


def _compressed_size(kept: tuple[bytes, str]) -> int:
    return len(kept[0]) + len(kept[1])


@functools.lru_cache(maxsize=256)  # a few dozen Accept-Encoding headers recur
def _encoding_for(header: str) -> str | None:
    return parse_accept_header(header).best_match(ENCODINGS)


def look(kept: LRUCache[Hashable, Any], key: Hashable) -> Any:
    with _stores_lock:
        return kept.get(key)


def keep(kept: LRUCache[Hashable, Any], key: Hashable, value: Any) -> Any:
    """Keep `value` (unless it alone is larger than the store) and give it back."""
    with _stores_lock:
        if kept.getsizeof(value) <= kept.maxsize:
            kept[key] = value
    return value
