"""Security headers on every response, the check that keeps redirects on this site, the one
guard that refuses writes from other sites, and the cookies: how they are read (every read
is recorded, so an answer that depends on a cookie says so to caches) and written."""
from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any, Final
from urllib.parse import urlsplit

from flask import Flask, Request, abort, current_app, request
from flask_babel import gettext as _
from werkzeug.http import dump_cookie
from werkzeug.wrappers import Response as BaseResponse

from tutor.web.base import htmx

# No inline script or style anywhere: htmx is configured through <meta name="htmx-config">.
CSP: Final = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "font-src 'self'",
        "connect-src 'self'",
        "manifest-src 'self'",
        "worker-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
HEADERS: Final = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), "
    "interest-cohort=()",
}


# Over HTTPS (the proxy's X-Forwarded-Proto included, which gunicorn believes from
# FORWARDED_ALLOW_IPS): browsers are to come back over HTTPS only, for a year.
HSTS: Final = ("Strict-Transport-Security", "max-age=31536000")

_HEADER_ITEMS: Final = tuple((name, name.lower(), value) for name, value in HEADERS.items())

StartResponse = Callable[..., Any]


class SecurityHeaders:
    """WSGI: every answer (pages, fragments, errors, static files) carries HEADERS, unless it
    set one of them itself. Added to the header list as the server gets it: werkzeug's
    Headers would check each of these constant values again on every response."""

    def __init__(self, app: Callable[[dict[str, Any], StartResponse], Iterable[bytes]]) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        secure = environ.get("wsgi.url_scheme") == "https"

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            missing = _missing(tuple(name for name, _value in headers))
            headers = [*headers, *missing] if missing else headers
            if secure and not any(name.lower() == "strict-transport-security" for name, _value in headers):
                headers = [*headers, HSTS]
            return start_response(status, headers, exc_info)

        return self.app(environ, start)


@lru_cache(maxsize=256)  # the header names of a response: a few dozen sets recur
def _missing(names: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """The security headers a response with these header names lacks."""
    present = {name.lower() for name in names}
    return tuple((name, value) for name, lower, value in _HEADER_ITEMS if lower not in present)


def init_app(app: Flask) -> None:
    """Call after the static files' layer is in place (assets.init_app): it is inside this one;
    and before any feature registers a hook: the guard against other sites' writes runs first."""
    app.wsgi_app = SecurityHeaders(app.wsgi_app)  # type: ignore[method-assign]
    app.before_request(refuse_cross_site)
    app.after_request(vary_on_cookies)


SAFE_METHODS: Final = frozenset(("GET", "HEAD", "OPTIONS", "TRACE"))
REFUSED: Final = "tutor.refused"  # the WSGI environ's mark of a write refused: it changes nothing


def allow_cross_site(view: Callable[..., Any]) -> Callable[..., Any]:
    """Exempt a view from `refuse_cross_site`: for a write that other sites may make on
    purpose (none does today; the API, which keeps nothing, is outside the guard)."""
    view.allow_cross_site = True  # type: ignore[attr-defined]
    return view


def refuse_cross_site() -> None:
    """Every request that could change something (any method but GET, HEAD, OPTIONS and
    TRACE), outside the API, is refused with a 400 when it comes from another site: the view
    never runs, and no cookie is written with the refusal. A new route is guarded without
    doing anything; `allow_cross_site` is the explicit way out."""
    if request.method in SAFE_METHODS or request.path.startswith("/api/"):
        return
    view = current_app.view_functions.get(request.endpoint or "")
    if view is not None and getattr(view, "allow_cross_site", False):
        return
    if is_cross_site(request):
        request.environ[REFUSED] = True
        abort(400, description=_("That came from another site, so nothing was changed."))


def external_url(endpoint: str, **values: Any) -> str:
    """`url_for(endpoint, _external=True)` where TRUSTED_HOSTS vouches for the request's Host;
    elsewhere the address as a path (the browser makes it whole): no answer carries a Host
    that a request made up."""
    from flask import url_for

    return url_for(endpoint, **values, _external=bool(current_app.config.get("TRUSTED_HOSTS")))


def is_local_path(target: str | None) -> bool:
    """Whether a redirect target stays on this site: a path like `/de/rules/`, never a URL
    with a scheme or host, a protocol-relative `//evil`, or a backslash trick."""
    if not target or not target.startswith("/") or target.startswith("//"):
        return False
    if "\\" in target or any(ord(ch) < 32 or ord(ch) == 127 for ch in target):
        return False
    parts = urlsplit(target)
    return not parts.scheme and not parts.netloc


@lru_cache(maxsize=256)
def _origin_of(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an absolute http(s) URL or origin; None for anything else.
    (Kept for the few origins and referrers a server sees: every form post asks.)"""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    return parts.scheme, parts.hostname.lower(), port or (443 if parts.scheme == "https" else 80)


def is_cross_site(req: Request) -> bool:
    """Whether a request that would change something comes from a page that is not this
    app's own origin (a form posted from elsewhere): such a request must not change anything.

    Three signs, any one enough to refuse: `Sec-Fetch-Site` other than same-origin (or none,
    a request the visitor made themselves); an `Origin` that is not ours, `null` included (a
    sandboxed or privacy-sensitive context); without `Origin`, a `Referer` from elsewhere. A
    sibling subdomain is same-site but another origin, and is refused too. A request with none
    of these headers comes from no browser's page (browsers send `Origin` with every cross-origin
    POST) and is let through, as scripts and tests send it.
    """
    environ = req.environ  # the headers as the server gave them: read without building a Headers view
    fetch_site = environ.get("HTTP_SEC_FETCH_SITE")
    if fetch_site is not None and fetch_site not in ("same-origin", "none"):
        return True
    origin = environ.get("HTTP_ORIGIN")
    referer = environ.get("HTTP_REFERER") if origin is None else None
    if origin is None and referer is None:
        return False
    own = _origin_of(f"{req.scheme}://{req.host}")  # the request's own origin (req.host_url, built faster)
    return _origin_of(origin if origin is not None else referer or "") != own or own is None


COOKIES_READ: Final = "tutor.cookies_read"  # the WSGI environ's set of the cookie names an answer read


def cookie(req: Request, name: str, default: str | None = None) -> str | None:
    """A cookie's value as the request sent it, or `default`. The one way the app reads a
    cookie: the name is recorded (`cookies_read`), whether the request carries it or not (an
    answer may depend on its absence), so the response says `Vary: Cookie` and the response
    cache keys the answer on it (tutor/web/base/shared.py)."""
    environ = req.environ
    read: set[str] | None = environ.get(COOKIES_READ)
    if read is None:
        read = environ[COOKIES_READ] = set()
    read.add(name)
    if "HTTP_COOKIE" not in environ:
        return default
    return req.cookies.get(name, default)


def cookies_read(environ: dict[str, Any]) -> frozenset[str]:
    """The names of the cookies this request's answer read, so far."""
    return frozenset(environ.get(COOKIES_READ, ()))


def vary_on_cookies(response: BaseResponse) -> BaseResponse:
    """An answer that read a cookie differs from one visitor to the next: shared caches must
    keep them apart (Django's rule: `Vary: Cookie` whenever a cookie was read)."""
    if request.environ.get(COOKIES_READ):
        htmx.vary_on(response, "Cookie")
    return response


def set_cookie(response: BaseResponse, req: Request, name: str, value: str, max_age: int) -> None:
    """Remember something on the device: first-party, out of reach of scripts, and sent
    over HTTPS only when the page came over HTTPS. (What `response.set_cookie(name, value,
    max_age=max_age, samesite="Lax", httponly=True, secure=req.is_secure)` adds, the same text.)
    A refused request writes nothing: a hostile page must not reset a learner's progress."""
    if req.environ.get(REFUSED):
        return
    secure = req.is_secure
    response.headers.add("Set-Cookie", cookie_header(name, value, max_age, secure))


def cookie_header(name: str, value: str, max_age: int, secure: bool) -> str:
    """The Set-Cookie value `set_cookie` writes, for a layer outside the app (i18n.LanguageCookie)
    too. Its Expires is a whole second (as werkzeug writes it), so the same cookie within a
    second is the same text: kept, not built again on every response."""
    return _cookie_header(name, value, max_age, secure, int(time.time() + max_age))


@lru_cache(maxsize=512)
def _cookie_header(name: str, value: str, max_age: int, secure: bool, expires: int) -> str:
    return dump_cookie(name, value, max_age=max_age, expires=expires, path="/", samesite="Lax", httponly=True,
                       secure=secure, max_size=COOKIE_MAX_SIZE)


COOKIE_MAX_SIZE: Final = 4093  # werkzeug's Response.max_cookie_size: a larger cookie gets its warning
