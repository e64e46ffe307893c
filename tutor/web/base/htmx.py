"""The one place that knows htmx's request headers (read through htmx-flask).

A page answers with a fragment only when htmx asked for one: an `HX-Request` that is neither
a boosted navigation (hx-boost wants the whole page) nor a history restore. Every other
request, with or without JavaScript, gets the whole page.
"""
from __future__ import annotations

from typing import Final

from flask import Flask, Request, Response
from htmx_flask import Htmx
from htmx_flask.requests import HtmxHeaders
from werkzeug.wrappers import Response as BaseResponse

# Every request header `is_partial` reads: an answer depends on all three.
HEADERS: Final = ("HX-Request", "HX-Boosted", "HX-History-Restore-Request")

htmx = Htmx()


def init_app(app: Flask) -> None:
    """Give every request a `request.htmx` and every response `Vary` on htmx's headers."""
    htmx.init_app(app)
    app.after_request(add_vary)


def _headers(req: Request) -> HtmxHeaders:
    return getattr(req, "htmx", None) or HtmxHeaders(req.headers)


def is_partial(req: Request) -> bool:
    """Whether to answer with just the fragment htmx will swap in."""
    if "HTTP_HX_REQUEST" not in req.environ:
        return False  # no htmx request at all (most requests): nothing more to read
    hx = _headers(req)
    return bool(hx) and not hx.boosted and not hx.history_restore_request


def target(req: Request) -> str | None:
    """The id of the element a partial request will swap (None for a whole page)."""
    return _headers(req).target if is_partial(req) else None


def add_vary(response: Response) -> Response:
    """Caches must keep the fragment and the page of one URL apart: a boosted navigation or a
    history restore also sends HX-Request and gets the whole page."""
    vary_on(response, *HEADERS)
    return response


def vary_on(response: BaseResponse, *names: str) -> None:
    """Name request headers in `Vary`, each once (what `response.vary.add(name)` writes, read
    and written as a plain header: the header set werkzeug builds for it cost more than the
    rest of a small page's hooks)."""
    headers = response.headers
    vary = ", ".join(headers.getlist("Vary"))  # (`get` would raise and catch a KeyError when there is none)
    named = {part.strip().lower() for part in vary.split(",")} if vary else set()
    missing = [name for name in names if name.lower() not in named]
    if missing:
        headers["Vary"] = ", ".join([vary, *missing] if vary else missing)
