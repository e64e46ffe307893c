"""Security headers everywhere, no inline script or style, and no open redirect."""
from __future__ import annotations

import re

import flask
import pytest

from tests.conftest import LANGUAGES, PAGES
from tutor.web.base.security import is_local_path

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
    for name in ("Content-Security-Policy", "X-Frame-Options", "Referrer-Policy"):
        assert len(headers.getlist(name)) == 1, name  # once, kept answers and static files too


def test_an_answer_that_sets_a_security_header_keeps_its_own():
    from tutor.web.base.security import HEADERS, SecurityHeaders

    def inner(environ, start_response):
        start_response("200 OK", [("Content-Type", "text/plain"), ("x-frame-options", "SAMEORIGIN")])
        return [b"ok"]

    sent = {}
    SecurityHeaders(inner)({}, lambda status, headers, exc_info=None: sent.update(status=status, headers=headers))
    names = [name.lower() for name, _value in sent["headers"]]
    assert names.count("x-frame-options") == 1 and ("x-frame-options", "SAMEORIGIN") in sent["headers"]
    assert {name.lower() for name in HEADERS} <= set(names)


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


# Issue 9, finding 5: writes from another site are refused whichever headers the browser sends.
FOREIGN = [
    pytest.param({"Origin": "https://evil.example"}, id="foreign Origin, no Sec-Fetch-Site"),
    pytest.param({"Origin": "null"}, id="Origin null"),
    pytest.param({"Sec-Fetch-Site": "same-site"}, id="Sec-Fetch-Site same-site"),
    pytest.param({"Origin": "http://evil.localhost"}, id="same site, other origin"),
    pytest.param({"Origin": "http://localhost:8080"}, id="other port"),
    pytest.param({"Origin": "https://localhost"}, id="other scheme"),
    pytest.param({"Referer": "https://evil.example/form.html"}, id="foreign Referer, no Origin"),
    pytest.param({"Referer": "null"}, id="unreadable Referer"),
    pytest.param({"Sec-Fetch-Site": "same-origin", "Origin": "https://evil.example"}, id="headers disagree"),
]
OWN = [
    pytest.param({}, id="no browser headers (a script)"),
    pytest.param({"Origin": "http://localhost"}, id="own Origin"),
    pytest.param({"Origin": "http://LOCALHOST:80"}, id="own Origin, spelled otherwise"),
    pytest.param({"Referer": "http://localhost/en/settings"}, id="own Referer"),
    pytest.param({"Sec-Fetch-Site": "same-origin", "Origin": "http://localhost"}, id="a browser on this site"),
]


@pytest.mark.parametrize("headers", FOREIGN)
def test_a_write_from_another_site_is_refused(client, headers):
    settings = client.post("/en/settings", data={"ruleset": "pagat"}, headers=headers)
    assert settings.status_code == 400
    assert client.get_cookie("rules") is None
    sheet = client.post("/en/sheet/", data={"player": ["A", "B", "C", "D"], "ruleset": "ddv"}, headers=headers)
    assert sheet.status_code == 400
    assert "That came from another site, so nothing was changed." in sheet.get_data(as_text=True)
    german = client.post("/de/settings", data={"ruleset": "pagat"}, headers=headers)
    assert german.status_code == 400 and 'lang="de"' in german.get_data(as_text=True)


@pytest.mark.parametrize("headers", OWN)
def test_a_write_from_this_site_is_accepted(client, headers):
    assert client.post("/en/settings", data={"ruleset": "pagat"}, headers=headers).status_code == 303
    assert client.get_cookie("rules").value == "pagat"
    sheet = client.post("/en/sheet/", data={"player": ["A", "B", "C", "D"], "ruleset": "ddv"}, headers=headers)
    assert sheet.status_code == 303


def test_the_own_origin_is_the_one_the_request_was_made_to(app):
    """Behind a proxy gunicorn takes scheme and host from X-Forwarded-Proto and Host: the
    app's own origin is then https://doko.example.org, and the plain-http one is another."""
    from tutor.web.base.security import is_cross_site

    base = "https://doko.example.org"
    for origin, cross in ((base, False), (base + ":443", False), ("http://doko.example.org", True),
                          ("https://www.doko.example.org", True), ("https://doko.example.org.evil.example", True)):
        with app.test_request_context("/en/settings", method="POST", base_url=base, headers={"Origin": origin}):
            from flask import request

            assert is_cross_site(request) is cross, origin


def _placeholder(converter) -> str:
    name = type(converter).__name__
    if name == "AnyConverter":
        return sorted(converter.items)[0] if hasattr(converter, "items") else converter.regex.split("|")[0]
    if name == "IntegerConverter":
        return "1"
    # A length in the converter's pattern, "{n}" or "{low,high}": the shortest it takes.
    found = re.search(r"\{(\d+)(?:,\d*)?\}", getattr(converter, "regex", ""))
    return "x" * int(found.group(1)) if found else "x"


def test_every_form_post_outside_the_api_refuses_another_site_and_changes_nothing(app):
    """Every state-changing endpoint (a feature added later included) is refused by the one
    guard, and the refusal writes no cookie: a hostile page cannot reset a learner's progress."""
    client = app.test_client()
    checked = []
    for rule in app.url_map.iter_rules():
        if "POST" not in (rule.methods or ()) or rule.rule.startswith("/api/"):
            continue
        values = {arg: "en" if arg == "lang" else _placeholder(rule._converters[arg]) for arg in rule.arguments}
        path = rule.build(values, append_unknown=False)[1]
        for headers in ({"Origin": "https://evil.example"}, {"Sec-Fetch-Site": "cross-site"}):
            response = client.post(path, data={"token": "x", "ruleset": "pagat"}, headers=headers)
            assert response.status_code == 400, (rule.rule, response.status_code)
            assert not response.headers.getlist("Set-Cookie"), rule.rule
        checked.append(rule.endpoint)
    assert {"settings.save", "sheet.create", "sheet.add_deal", "quiz.answer_kind", "learn.answer"} <= set(checked)


def test_a_new_write_is_guarded_without_doing_anything(tmp_path):
    from app import create_app
    from tutor.web.base.security import allow_cross_site

    app = create_app({"TESTING": True}, instance_path=str(tmp_path / "instance"))
    done: list[str] = []

    @app.route("/en/new-feature", methods=["POST", "PUT", "DELETE", "PATCH"])
    def new_feature():
        done.append(flask.request.method)
        return "changed"

    @app.post("/en/open-feature")
    @allow_cross_site
    def open_feature():
        done.append("open")
        return "changed"

    client = app.test_client()
    foreign = {"Origin": "https://evil.example"}
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        assert client.open("/en/new-feature", method=method, headers=foreign).status_code == 400
    assert done == []
    assert client.post("/en/new-feature", headers={"Origin": "http://localhost"}).status_code == 200
    assert client.post("/en/open-feature", headers=foreign).status_code == 200
    assert done == ["POST", "open"]


def test_a_refused_answer_keeps_the_learners_progress(client):
    """A foreign form posted at the quiz or a lesson gets a 400 and no cookie: the progress the
    learner's browser holds is not replaced by a fresh, empty one."""
    for path, data in (("/en/quiz/winner", {"token": "x"}), ("/en/learn/cards/2", {"step": "x"})):
        response = client.post(path, data=data, headers={"Origin": "https://evil.example"})
        assert response.status_code == 400 and not response.headers.getlist("Set-Cookie"), path
