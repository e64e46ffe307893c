"""Security headers everywhere, no inline script or style, and no open redirect."""
from __future__ import annotations

import re

import pytest

from tests.conftest import LANGUAGES, PAGES
from tutor.security import is_local_path

URLS = ["/", "/en/", "/de/rules/", "/fr/settings", "/manifest.webmanifest", "/sw.js", "/static/css/app.css",
        "/nope", "/xx/rules/", "/api/v1/openapi.json"]


@pytest.mark.parametrize("url", URLS)
def test_security_headers_on_every_response(client, url):
    with client.get(url) as response:
        headers = response.headers
    csp = headers["Content-Security-Policy"]
    assert "default-src 'self'" in csp
    assert "script-src 'self'" in csp and "style-src 'self'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert "frame-ancestors 'none'" in csp
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"
    assert "camera=()" in headers["Permissions-Policy"]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("page", PAGES)
def test_no_inline_script_or_style(client, lang, page):
    html = client.get(f"/{lang}/{page}").get_data(as_text=True)
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "inline <script>"
    assert "<style" not in html
    assert not re.search(r"\sstyle=", html)
    assert not re.search(r"\son[a-z]+=", html), "inline event handler"


@pytest.mark.parametrize(
    "target",
    ["https://evil.example/", "//evil.example/", "/\\evil.example", "http:/evil", "javascript:alert(1)",
     "", "rules", "/\t/evil.example", "\\\\evil.example"],
)
def test_next_never_leaves_the_site(client, target):
    response = client.post("/en/settings", data={"ruleset": "pagat", "next": target})
    assert response.status_code == 303
    location = response.headers["Location"]
    assert location.startswith("/en/settings"), location


def test_next_may_return_to_a_page_of_the_site(client):
    response = client.post("/en/settings", data={"ruleset": "pagat", "next": "/en/rules/"})
    assert response.headers["Location"] == "/en/rules/"


def test_settings_page_drops_a_foreign_next(client):
    html = client.get("/en/settings?next=//evil.example/").get_data(as_text=True)
    assert "evil.example" not in html


@pytest.mark.parametrize(
    ("target", "local"),
    [("/de/rules/", True), ("/", True), ("//x", False), ("/\\x", False), ("https://x/", False),
     (None, False), ("x", False), ("/a\nb", False)],
)
def test_is_local_path(target, local):
    assert is_local_path(target) is local
