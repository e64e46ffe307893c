"""The response cache in front of Flask (tutor/web/base/shared.py): a shared answer is served
again only to a request that agrees on every key it depends on (its absolute address, the
headers it varies on, the cookies it read), and nothing private, failed or cookie-setting is
ever kept; a view that reads a cookie it did not name fails the test that made it read it."""
from __future__ import annotations

import gzip
import re
from datetime import UTC, datetime

import brotli
import flask
import pytest
from itsdangerous import URLSafeSerializer

from app import create_app
from tutor.web.base import practice, security, shared
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
    ("/en/learn/", {}, {}),
    ("/en/learn/", {"rules": "pagat"}, {}),
]

# (path, base_url) pairs: the same path at another scheme, host or prefix.
ADDRESSES = [
    ("/en/rules/", "http://localhost"),
    ("/en/rules/", "https://localhost"),
    ("/en/rules/", "http://localhost/doko"),
    ("/en/rules/", "http://127.0.0.1:8000"),
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
    # the personal home page (a streak) is kept too, under that learner's cookie
    assert len(seen) == len(VARIANTS)
    assert len(cache.entries) == len(VARIANTS)


def test_no_address_gets_the_answer_of_another_scheme_host_or_prefix(tmp_path, monkeypatch):
    """A page's links are built from its address: a page asked at http:// is never the
    answer at https://, nor one asked under /doko the answer at / (or the other way)."""
    monkeypatch.setenv("TRUSTED_HOSTS", "localhost, 127.0.0.1")
    app = make_app(tmp_path, "addresses")
    seen = reaching_flask(app)
    client = app.test_client()
    for round_ in range(2):
        for path, base in ADDRESSES:
            html = client.get(path, base_url=base).get_data(as_text=True)
            scheme, _, rest = base.partition("://")
            host, _, prefix = rest.partition("/")
            root = f"/{prefix}/" if prefix else "/"
            assert f'hreflang="de" href="{scheme}://{host}{root}de/rules/"' in html, (round_, base)
            links = re.findall(r'(?:href|src|action)="([^"#]+)"', html)
            assert links and all(link.startswith((root, f"{scheme}://{host}{root}")) for link in links), (base, links)
    assert len(seen) == len(ADDRESSES)


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

    @app.get("/t/reads")
    @shared.shared("rules")
    def reads():
        return "x" * 1000 + (security.cookie(flask.request, "rules") or "none")

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
        response.headers["Cache-Control"] = "private"
        return response

    @app.get("/t/no-store")
    @shared.shared()
    def no_store():
        response = flask.make_response("x" * 2000)
        response.headers["Cache-Control"] = "no-store"
        return response

    @app.get("/t/error")
    @shared.shared()
    def error():
        return "x" * 2000, 400

    @app.get("/t/vary")
    @shared.shared()
    def vary():
        response = flask.make_response("x" * 1000 + flask.request.headers.get("Accept-Language", "-"))
        response.vary.add("Accept-Language")
        return response

    @app.get("/t/star")
    @shared.shared()
    def star():
        response = flask.make_response("x" * 2000)
        response.headers["Vary"] = "*"
        return response

    @app.get("/t/unmarked")
    def unmarked():
        return "x" * 2000

    @app.get("/t/undeclared")
    @shared.shared("rules")
    def undeclared():
        return "x" * 1000 + (security.cookie(flask.request, "quiz") or "")

    @app.get("/t/n/<int:n>")
    @shared.shared()
    def numbered(n):
        return str(n) * 2000

    return app


@pytest.mark.parametrize("path", ["/t/cookie", "/t/private", "/t/no-store", "/t/error", "/t/star", "/t/unmarked"])
def test_personal_private_failed_and_unmarked_answers_are_never_kept(test_app, path):
    seen = reaching_flask(test_app)
    client = test_app.test_client()
    for _ in range(3):
        client.get(path)
    assert len(seen) == 3
    assert not test_app.extensions["response_cache"].entries


def test_an_answer_is_kept_per_value_of_each_header_it_varies_on(test_app):
    seen = reaching_flask(test_app)
    client = test_app.test_client()
    for _ in range(2):
        for language in ("de", "fr", None):
            headers = {"Accept-Language": language} if language else {}
            assert client.get("/t/vary", headers=headers).data.endswith((language or "-").encode())
    assert len(seen) == 3


def test_an_answer_is_kept_per_value_of_each_cookie_it_read(test_app):
    seen = reaching_flask(test_app)
    client = test_app.test_client()
    for _ in range(2):
        for value in ("pagat", "ddv", None):
            client._cookies.clear()
            if value:
                client.set_cookie("rules", value)
            response = client.get("/t/reads")
            assert response.data.endswith((value or "none").encode())
            assert "Cookie" in response.headers["Vary"]
    assert len(seen) == 3


def test_a_cookie_read_that_its_view_did_not_name_fails_and_is_never_kept(test_app):
    client = test_app.test_client()
    with pytest.raises(shared.UndeclaredCookie, match="quiz"):
        client.get("/t/undeclared")
    test_app.testing = False  # as served: the answer goes out, and is not kept
    seen = reaching_flask(test_app)
    for _ in range(2):
        assert test_app.test_client().get("/t/undeclared").status_code == 200
    assert len(seen) == 2 and not test_app.extensions["response_cache"].entries


def test_a_marked_answer_is_kept_for_get_head_and_revalidation_but_not_for_other_requests(test_app):
    seen = reaching_flask(test_app)
    client = test_app.test_client()
    for _ in range(3):
        first = client.get("/t/plain")
        assert first.data == b"x" * 2000
    assert len(seen) == 1
    tag = first.headers["ETag"]
    head = client.head("/t/plain")
    assert head.status_code == 200 and head.data == b"" and head.headers["ETag"] == tag
    again = client.get("/t/plain", headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == tag
    assert client.get("/t/plain", headers={"If-None-Match": '"abc"'}).data == b"x" * 2000
    assert len(seen) == 1
    client.get("/t/plain", headers={"Range": "bytes=0-10"})
    client.get("/t/plain", headers={"If-Match": tag})
    client.post("/t/plain")
    assert len(seen) == 4
    client.set_cookie("rules", "pagat")  # a cookie the answer did not read: the same answer
    client.get("/t/plain")
    assert len(seen) == 4


def test_the_cache_is_bounded_in_bytes(tmp_path):
    app = make_app(tmp_path, "bounded")

    @app.get("/t/n/<int:n>")
    @shared.shared()
    def numbered(n):
        return str(n % 10) * 2000

    cache = shared.ResponseCache(app.wsgi_app.app.wsgi_app, app, max_bytes=5 * 3000)
    app.wsgi_app.app = cache
    client = app.test_client()
    for n in range(20):
        assert client.get(f"/t/n/{n}").data == str(n % 10).encode() * 2000
    assert 0 < len(cache.entries) <= 5 and cache.entries.currsize <= 5 * 3000


def test_a_new_asset_version_is_a_new_key(test_app):
    seen = reaching_flask(test_app)
    client = test_app.test_client()
    client.get("/t/plain")
    client.get("/t/plain")
    test_app.extensions[shared.VERSION_KEY] = lambda: "0new0version"
    client.get("/t/plain")
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


def test_an_answer_the_same_for_everyone_has_a_strong_etag_per_encoding_and_answers_304(test_app):
    client = test_app.test_client()
    plain = client.get("/t/plain")
    packed = client.get("/t/plain", headers={"Accept-Encoding": "br"})
    assert plain.headers["ETag"].startswith('"') and packed.headers["ETag"] == plain.headers["ETag"][:-1] + ':br"'
    test_app.extensions["response_cache"].entries.clear()  # Flask's own answer this time
    again = client.get("/t/plain", headers={"Accept-Encoding": "br", "If-None-Match": packed.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    # the compressed body's tag does not validate the plain one, nor another answer's
    assert client.get("/t/plain", headers={"If-None-Match": packed.headers["ETag"]}).status_code == 200
    assert client.get("/t/n/1", headers={"If-None-Match": plain.headers["ETag"]}).status_code == 200


def test_a_page_that_read_a_cookie_has_only_a_weak_etag(client):
    client.set_cookie("rules", "pagat")
    response = client.get("/en/settings", headers={"Accept-Encoding": "br"})
    assert response.headers["ETag"].startswith('W/"') and "Cookie" in response.headers["Vary"]
    again = client.get("/en/settings", headers={"Accept-Encoding": "br", "If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304


def test_a_refused_encoding_gets_the_plain_page(client):
    plain = client.get("/en/").data
    for accept in ("identity", "zstd", "deflate;q=0.5"):
        response = client.get("/en/", headers={"Accept-Encoding": accept})
        assert "Content-Encoding" not in response.headers and response.data == plain
