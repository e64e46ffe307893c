"""Pages that depend only on their address, language and rules (and a few small values the
view names), rendered once and then served from memory.

`render_cached(template, vary=..., **context)` stands for `render_template(template,
**context)` when everything the page shows follows from: the template, the request's host,
path and query, whether htmx asked for a fragment, the language, the visitor's rules, the
asset version and `vary` (for example the home page's streak, a number). The view promises
that; the context is not part of the key. The cache is bounded (least recently used goes
first), so a visitor cycling cookies, hosts or query strings costs renders, never memory.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Final

from flask import current_app, g, render_template, request

from tutor import htmx
from tutor.web.base.rules import current_rules, to_cookie

MAX_PAGES: Final = 256  # about 15 kB each: a few MB at most
VERSION_KEY: Final = "asset_version"  # app.extensions[...]: the asset version, a function

_lock = threading.Lock()


def _pages() -> OrderedDict[Hashable, str]:
    pages: OrderedDict[Hashable, str] | None = current_app.extensions.get("rendered_pages")
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
        body = pages.get(key)
        if body is not None:
            pages.move_to_end(key)
            return body
    body = render_template(template, **context)
    with _lock:
        pages[key] = body
        while len(pages) > MAX_PAGES:
            pages.popitem(last=False)
    return body
