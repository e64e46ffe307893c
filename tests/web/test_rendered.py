"""Pages rendered once per address, language and rules (tutor/web/base/rendered.py): the
second view comes from memory, and anything in the key makes another page."""
from __future__ import annotations

import gzip

import flask

from tutor.rules.rulesets import RuleSet
from tutor.web.base import rendered
from tutor.web.base.rules import to_cookie


def counting(monkeypatch) -> list[str]:
    made: list[str] = []
    real = flask.render_template

    def render(template, **context):
        made.append(template)
        return real(template, **context)

    monkeypatch.setattr(rendered, "render_template", render)
    return made


def test_home_settings_and_offline_are_rendered_once(client, monkeypatch):
    made = counting(monkeypatch)
    for path in ("/en/", "/en/settings", "/en/offline"):
        first = client.get(path).get_data(as_text=True)
        assert client.get(path).get_data(as_text=True) == first
    assert made == ["pages/home.html", "settings/show.html", "pages/offline.html"]


def test_language_rules_query_and_fragment_each_make_their_own_page(client, monkeypatch):
    made = counting(monkeypatch)
    english = client.get("/en/settings").get_data(as_text=True)
    assert client.get("/de/settings").get_data(as_text=True) != english
    assert client.get("/en/settings?saved=1").get_data(as_text=True) != english
    assert "<html" not in client.get("/en/settings", headers={"HX-Request": "true"}).get_data(as_text=True)
    client.set_cookie("rules", to_cookie(RuleSet.named("pagat")))
    assert client.get("/en/settings").get_data(as_text=True) != english
    assert len(made) == 5


def test_a_new_asset_version_renders_anew(client, monkeypatch):
    from tutor.web.shell import pwa

    made = counting(monkeypatch)
    client.get("/en/")
    monkeypatch.setattr(pwa, "asset_version", lambda: "0new0version")
    assert "0new0version" in client.get("/en/").get_data(as_text=True)
    assert len(made) == 2


def test_the_cache_is_bounded(client, monkeypatch):
    monkeypatch.setattr(rendered, "MAX_PAGES", 3)
    for n in range(10):
        assert client.get(f"/en/settings?next=/en/{n}").status_code == 200
    assert len(client.application.extensions["rendered_pages"]) == 3


def test_a_kept_page_is_compressed_once_per_encoding(client, monkeypatch):
    import brotli

    made: list[int] = []
    real = brotli.compress
    monkeypatch.setattr(rendered.brotli, "compress", lambda data, **kw: made.append(len(data)) or real(data, **kw))
    plain = client.get("/en/settings").data
    for _ in range(3):
        packed = client.get("/en/settings", headers={"Accept-Encoding": "br, gzip"})
        assert packed.headers["Content-Encoding"] == "br"
        assert "Accept-Encoding" in packed.headers["Vary"] and "HX-Request" in packed.headers["Vary"]
        assert brotli.decompress(packed.data) == plain
        assert int(packed.headers["Content-Length"]) == len(packed.data)
    assert made == [len(plain)]
    zipped = client.get("/en/settings", headers={"Accept-Encoding": "gzip"})
    assert zipped.headers["Content-Encoding"] == "gzip" and gzip.decompress(zipped.data) == plain


def test_a_kept_page_has_an_etag_per_encoding_and_answers_304(client):
    plain = client.get("/en/settings")
    packed = client.get("/en/settings", headers={"Accept-Encoding": "br"})
    assert plain.headers["ETag"] and packed.headers["ETag"] == plain.headers["ETag"][:-1] + ':br"'
    again = client.get("/en/settings", headers={"Accept-Encoding": "br", "If-None-Match": packed.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    # the compressed body's tag does not validate the plain one, nor another page's
    assert client.get("/en/settings", headers={"If-None-Match": packed.headers["ETag"]}).status_code == 200
    assert client.get("/de/settings", headers={"If-None-Match": plain.headers["ETag"]}).status_code == 200


def test_a_refused_encoding_gets_the_plain_kept_page(client):
    plain = client.get("/en/").data
    for accept in ("identity", "zstd", "deflate;q=0.5"):
        response = client.get("/en/", headers={"Accept-Encoding": accept})
        assert "Content-Encoding" not in response.headers and response.data == plain


def test_the_calculator_with_a_filled_in_url_is_rendered_once_per_language_rules_and_query(client, monkeypatch):
    made = counting(monkeypatch)
    url = "/en/score/?rules=ddv&re_points=156&re_fox=1"
    first = client.get(url).get_data(as_text=True)
    for accept in ("br", "gzip", "identity"):  # other answers of the response cache, one render
        assert client.get(url, headers={"Accept-Encoding": accept}).status_code == 200
    assert client.get(url, headers={"If-None-Match": '"other"'}).get_data(as_text=True) == first
    assert made == ["score/calculator.html"]
    assert "<html" not in client.get(url, headers={"HX-Request": "true"}).get_data(as_text=True)
    assert client.get("/de/score/?rules=ddv&re_points=156&re_fox=1").get_data(as_text=True) != first
    assert client.get("/en/score/?rules=ddv&re_points=157&re_fox=1").get_data(as_text=True) != first
    client.set_cookie("rules", to_cookie(RuleSet.named("pagat")))
    assert client.get(url).get_data(as_text=True) != first  # the menu's links carry the visitor's rules
    assert made == ["score/calculator.html", "score/_result.html"] + ["score/calculator.html"] * 3


def test_the_quiz_page_around_a_question_is_rendered_once_and_the_question_every_time(client, monkeypatch):
    made = counting(monkeypatch)
    pages = [client.get("/en/quiz/winner").get_data(as_text=True) for _ in range(3)]
    assert made == ["quiz/show.html"]
    assert len({page.split('<section id="quiz"')[1] for page in pages}) > 1  # new questions all the same
    whole = client.get("/en/quiz/winner?q=5&l=0").get_data(as_text=True)
    fragment = client.get("/en/quiz/winner?q=5&l=0", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert fragment.lstrip().startswith('<section id="quiz"') and fragment in whole
    assert whole.count("<html") == 1 and "<!-- the question -->" not in whole
    client.get("/de/quiz/winner")
    client.get("/en/quiz/mixed")
    assert made == ["quiz/show.html"] * 4
