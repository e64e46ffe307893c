"""Security headers on every response, and the check that keeps redirects on this site."""
from __future__ import annotations

from typing import Final
from urllib.parse import urlsplit

from flask import Flask, Request, Response
from werkzeug.wrappers import Response as BaseResponse

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


def add_headers(response: Response) -> Response:
    """Set the headers unless a view chose its own value."""
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def init_app(app: Flask) -> None:
    app.after_request(add_headers)


def is_local_path(target: str | None) -> bool:
    """Whether a redirect target stays on this site: a path like `/de/rules/`, never a URL
    with a scheme or host, a protocol-relative `//evil`, or a backslash trick."""
    if not target or not target.startswith("/") or target.startswith("//"):
        return False
    if "\\" in target or any(ord(ch) < 32 or ord(ch) == 127 for ch in target):
        return False
    parts = urlsplit(target)
    return not parts.scheme and not parts.netloc


def is_cross_site(req: Request) -> bool:
    """Whether the browser says the request comes from another site (a form posted from
    elsewhere): such a request must not change anything here."""
    return req.headers.get("Sec-Fetch-Site") == "cross-site"


def set_cookie(response: BaseResponse, req: Request, name: str, value: str, max_age: int) -> None:
    """Remember something on the device: first-party, out of reach of scripts, and sent
    over HTTPS only when the page came over HTTPS."""
    response.set_cookie(name, value, max_age=max_age, samesite="Lax", httponly=True, secure=req.is_secure)
