"""The response cache in front of Flask (tutor/web/base/shared.py): a shared answer is served
again only to a request that agrees on every key it depends on, and nothing personal, private,
failed or cookie-setting is ever kept."""
from __future__ import annotations

import gzip
from datetime import UTC, datetime

import brotli
import flask
import pytest
from itsdangerous import URLSafeSerializer

from app import create_app
from tutor.web.base import practice, shared
from tutor.web.play import stats as play_stats

SECRET = "test-secret-for-the-shared-cache"
PLAY = "/en/play/?s=113138500&l=0&r=ddv&m=C"


def make_app(tmp_path, name: str) -> flask.Flask:
    return create_app({"TESTING": True, "SECRET_KEY": SECRET, "DATABASE_URL": f"sqlite:///{tmp_path}/{name}.db"},
                      instance_path=str(tmp_path / name))


def reaching_flask(app: flask.Flask) -> list[str]:
    """The paths of the requests that got past the cache into Flask."""
    seen: list[str] = []

    def started(sender, **extra):
        seen.append(flask.request.full_path)

    flask.request_started.connect(started, app, weak=False)
    return seen


def decoded(response) -> tuple[str | None, bytes]:
    encoding = response.headers.get("Content-Encoding")
    body = response.data
    if encoding == "br":
        body = brotli.decompress(body)
    elif encoding == "gzip":
        body = gzip.decompress(body)
    return encoding, body


def streak_cookie() -> str:
    today = practice.day_of(datetime.now(UTC))
    learner = practice.Practice(streak_day=today, streak=3, best=3)
    return URLSafeSerializer(SECRET, salt="practice").dumps(learner.dump())


def stats_cookie() -> str:
    return play_stats.write(SECRET, play_stats.Stats(played=7, won=4, points=9))


# (path, cookies, headers): each differs from another of its path in one key.
VARIANTS = [
    ("/en/rules/", {}, {}),
    ("/de/rules/", {}, {}),
    ("/en/rules/", {"rules": "pagat"}, {}),
    ("/en/rules/", {}, {"Accept-Encoding": "br"}),
    ("/en/rules/", {}, {"Accept-Encoding": "gzip"}),
    ("/en/rules/trumps", {}, {}),
    ("/en/rules/trumps", {"rules": "pagat"}, {}),
    ("/de/rules/trumps", {}, {}),
    ("/en/rules/all", {}, {}),
    ("/en/rules/all", {"rules": "pagat"}, {}),
    ("/en/settings", {}, {"HX-Request": "true"}),
    ("/en/settings", {}, {"HX-Request": "true", "HX-Boosted": "true"}),
    ("/en/settings", {}, {}),
    ("/en/", {}, {"Accept-Encoding": "br"}),
    ("/en/", {"practice": streak_cookie()}, {"Accept-Encoding": "br"}),
    ("/en/", {"rules": "pagat"}, {"Accept-Encoding": "br"}),
    (PLAY, {}, {}),
    (PLAY, {"play": stats_cookie()}, {}),
    ("/en/score/?rules=ddv&re_points=156", {}, {}),
    ("/en/score/?rules=ddv&re_points=157", {}, {}),
    ("/en/score/?re_points=156", {"rules": "pagat"}, {}),
    ("/en/score/?re_points=156", {}, {}),
]


def ask(client, path, cookies, headers):
    client._cookies.clear()
    for name, value in cookies.items():
        client.set_cookie(name, value)
    return client.get(path, headers=headers)


def test_no_request_gets_the_answer_of_another_that_differs_in_one_key(tmp_path):
    app, fresh_app = make_app(tmp_path, "cached"), make_app(tmp_path, "fresh")
    seen = reaching_flask(app)
    client, fresh = app.test_client(), fresh_app.test_client()
    cache = app.extensions["response_cache"]
    expected = []
    for variant in VARIANTS:
        fresh_app.extensions["response_cache"].entries.clear()
        expected.append(decoded(ask(fresh, *variant)))
    # every variant really is another answer than the others of its path
    for i, a in enumerate(VARIANTS):
        for j, b in enumerate(VARIANTS[:i]):
            if a[0] == b[0] and "HX-Boosted" not in {**a[2], **b[2]}:  # boosted: the whole page
                assert expected[i] != expected[j], (a, b)
    for round_ in range(3):  # the first fills the cache, the others are served from it
        for variant, want in zip(VARIANTS, expected, strict=True):
            response = ask(client, *variant)
            assert response.status_code == 200
            assert decoded(response) == want, (round_, variant)
    # only the personal home page (a streak) reached Flask after the first round
    assert len(seen) == len(VARIANTS) + 2
    assert seen[len(VARIANTS):] == ["/en/?", "/en/?"]
    assert len(cache.entries) == len(VARIANTS) - 1


def test_the_language_cookie_is_still_set_on_a_kept_page_and_never_kept(client):
    cache = client.application.extensions["response_cache"]
    for _ in range(2):
        client._cookies.clear()
        response = client.get("/en/rules/")
        assert response.headers.getlist("Set-Cookie")[0].startswith("lang=en;")
        assert "HttpOnly" in response.headers["Set-Cookie"] and "SameSite=Lax" in response.headers["Set-Cookie"]
    assert len(cache.entries) == 1
    assert not any(name.lower() == "set-cookie" for kept in cache.entries.values() for name, _v in kept.headers)
    # the cookie is there: no new one; a precache request (not a document) sets none
    assert not client.get("/en/rules/").headers.getlist("Set-Cookie")
    client._cookies.clear()
    assert not client.get("/en/rules/", headers={"Sec-Fetch-Dest": "empty"}).headers.getlist("Set-Cookie")
    for _ in range(2):
        client._cookies.clear()
        assert "; Secure" in client.get("/en/rules/", base_url="https://localhost").headers["Set-Cookie"]


@pytest.fixture
def test_app(tmp_path):
    app = make_app(tmp_path, "routes")

    @app.get("/t/plain")
    @shared.shared("rules")
    def plain():
        return "x" * 2000

    @app.get("/t/cookie")
    @shared.shared()
    def cookie():
        response = flask.make_response("x" * 2000)
        response.set_cookie("mine", "1")
        return response

    @app.get("/t/private")
    @shared.shared()
    def private():
        response = flask.make_response("x" * 2000)
        response.headers["Cache-Control"] = "private, no-store"
        return response

    @app.get("/t/error")
    @shared.shared()
    def error():
        return "x" * 2000, 400

    @app.get("/t/vary")
    @shared.shared()
    def vary():
        response = flask.make_response("x" * 2000)
        response.vary.add("Accept-Language")
        return response

    @app.get("/t/unmarked")
    def unmarked():
        return "x" * 2000

    @app.get("/t/n/<int:n>")
    @shared.shared()
    def numbered(n):
        return str(n) * 2000

    return app


@pytest.mark.parametrize("path", ["/t/cookie", "/t/private", "/t/error", "/t/vary", "/t/unmarked"])
def test_personal_private_failed_and_unmarked_answers_are_never_kept(test_app, path):
    seen = reaching_flask(test_app)
    client = test_app.test_client()
    for _ in range(3):
        client.get(path)
    assert len(seen) == 3
    assert not test_app.extensions["response_cache"].entries


def test_a_marked_answer_is_kept_but_not_for_other_methods_or_conditional_requests(test_app):
    seen = reaching_flask(test_app)
    client = test_app.test_client()
    for _ in range(3):
        assert client.get("/t/plain").data == b"x" * 2000
    assert len(seen) == 1
    client.head("/t/plain")
    client.get("/t/plain", headers={"If-None-Match": '"abc"'})
    client.get("/t/plain", headers={"Range": "bytes=0-10"})
    assert len(seen) == 4
    client.set_cookie("rules", "pagat")
    client.get("/t/plain")
    assert len(seen) == 5


def test_the_cache_is_bounded(test_app):
    cache = test_app.extensions["response_cache"]
    cache.max_entries = 5
    client = test_app.test_client()
    for n in range(20):
        assert client.get(f"/t/n/{n}").data == str(n).encode() * 2000
    assert len(cache.entries) == 5 and cache.size == sum(len(k.body) for k in cache.entries.values())
    cache.max_bytes = 3 * 2000
    client.get("/t/n/99")
    assert len(cache.entries) <= 3


def test_a_new_asset_version_is_a_new_key(test_app, monkeypatch):
    from tutor.web.shell import pwa

    seen = reaching_flask(test_app)
    client = test_app.test_client()
    client.get("/t/plain")
    client.get("/t/plain")
    monkeypatch.setattr(pwa, "asset_version", lambda: "0new0version")
    client.get("/t/plain")
    assert len(seen) == 2


def test_sheet_pages_are_private_and_never_kept(tmp_path):
    app = make_app(tmp_path, "sheets")
    seen = reaching_flask(app)
    client = app.test_client()
    response = client.post("/en/sheet/", data={"player": ["Anna", "Bert", "Carl", "Dora"], "ruleset": "ddv"})
    url = response.headers["Location"]
    for _ in range(3):
        page = client.get(url)
        assert page.status_code == 200 and "private" in page.headers["Cache-Control"]
    assert len(seen) == 4
    assert not any(url in str(key) for key in app.extensions["response_cache"].entries)
