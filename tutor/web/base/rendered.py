"""Pages that depend only on their address, language and rules (and a few small values the
view names), rendered once and then served from memory.

`render_cached(template, vary=..., **context)` stands for `render_template(template,
**context)` when everything the page shows follows from: the template, the request's host,
path and query, whether htmx asked for a fragment, the language, the visitor's rules, the
asset version and `vary` (for example the home page's streak, a number). The view promises
that; the context is not part of the key. The cache is bounded (least recently used goes
first), so a visitor cycling cookies, hosts or query strings costs renders, never memory.

A page kept here is compressed once too: its Brotli and gzip bodies are made the first time a
browser asks for them and kept with the page, then sent as they are (`send_compressed`, an
after_request hook that runs before Flask-Compress, which then leaves the body alone), with a
strong ETag per encoding, so a cached page costs no compression and answers revalidations
with 304.
"""
from __future__ import annotations

import gzip
import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Final

import brotli  # type: ignore[import-untyped]
from flask import Flask, current_app, g, render_template, request
from flask_compress.flask_compress import _choose_algorithm, _format
from werkzeug.wrappers import Response

from tutor import htmx
from tutor.web.base.rules import current_rules, to_cookie

MAX_PAGES: Final = 256  # about 15 kB each and a fifth of that compressed twice: a few MB at most
VERSION_KEY: Final = "asset_version"  # app.extensions[...]: the asset version, a function
BROTLI_QUALITY: Final = 9  # made once per page, so better than Flask-Compress's per-request 4
GZIP_LEVEL: Final = 9

_lock = threading.Lock()


class Page:
    """A rendered page and its compressed bodies, each made once, when first asked for."""

    __slots__ = ("_encoded", "etag", "raw", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.raw = text.encode()
        self.etag = hashlib.blake2b(self.raw, digest_size=12).hexdigest()
        self._encoded: dict[str, bytes] = {}

    def encoded(self, encoding: str) -> bytes:
        body = self._encoded.get(encoding)
        if body is None:
            if encoding == "br":
                body = brotli.compress(self.raw, quality=BROTLI_QUALITY)
            else:
                body = gzip.compress(self.raw, compresslevel=GZIP_LEVEL, mtime=0)
            self._encoded[encoding] = body  # two threads may both make it: the same bytes
        return body


def _pages() -> OrderedDict[Hashable, Page]:
    pages: OrderedDict[Hashable, Page] | None = current_app.extensions.get("rendered_pages")
    if pages is None:
        pages = current_app.extensions.setdefault("rendered_pages", OrderedDict())
    return pages


def _version() -> str:
    version: Callable[[], str] | None = current_app.extensions.get(VERSION_KEY)
    return version() if version else ""


def render_cached(template: str, *, vary: Hashable = (), **context: Any) -> str:
    """The page rendered once per key (see the module's words), then from memory."""
    key = (template, request.host, request.full_path, htmx.is_partial(request), str(g.get("lang")),
           to_cookie(current_rules()), _version(), vary)
    pages = _pages()
    with _lock:
        page = pages.get(key)
        if page is not None:
            pages.move_to_end(key)
    if page is None:
        page = Page(render_template(template, **context))
        with _lock:
            pages[key] = page
            while len(pages) > MAX_PAGES:
                pages.popitem(last=False)
    g.rendered_page = page
    return page.text


def send_compressed(response: Response) -> Response:
    """A page from the cache goes out with its kept compressed body (or plain, as the browser
    asks), its ETag, and a 304 when the browser has it already. Flask-Compress, whose hook
    runs after this one, still adds `Vary: Accept-Encoding`."""
    page: Page | None = g.pop("rendered_page", None)
    if (
        page is None
        or response.status_code != 200
        or response.is_streamed
        or response.direct_passthrough
        or "Content-Encoding" in response.headers
        or response.get_data() != page.raw  # the view sent something else after all
    ):
        return response
    config = current_app.config
    encoding = _choose_algorithm(_format(config["COMPRESS_ALGORITHM"]), request.headers.get("Accept-Encoding", ""))
    if encoding in ("br", "gzip") and len(page.raw) >= config["COMPRESS_MIN_SIZE"]:
        response.set_data(page.encoded(encoding))
        response.headers["Content-Encoding"] = encoding
        response.set_etag(f"{page.etag}:{encoding}")
    else:
        response.set_etag(page.etag)
    if request.method in ("GET", "HEAD"):
        response.make_conditional(request)
    return response


def init_app(app: Flask) -> None:
    """Call after Flask-Compress is set up: this hook then runs before its own."""
    app.after_request(send_compressed)
