"""The score calculator: RULES.md's worked examples line by line, a URL that reproduces
the result, htmx fragments, and a 400 with a translated message for impossible input."""
from __future__ import annotations

import functools
import re
from html import unescape
from urllib.parse import urlencode

import pytest
from flask_babel import force_locale

from tests.conftest import LANGUAGES
from tutor.rules.rulesets import RuleSet
from tutor.rules.scoring import WORKED_EXAMPLES as WORKED
from tutor.rules.scoring import DealSummary
from tutor.web.score.form import summary_fields
from tutor.web.words import signed
from tutor.web.words.errors import error_message

HX = {"HX-Request": "true"}


def text(html: str) -> str:
    """The visible words of a piece of HTML, spaces collapsed."""
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


def result_of(html: str) -> str:
    section = html.split('<section id="result"', 1)[1].split(">", 1)[1].split("</section>", 1)[0]
    return text(section).removeprefix("Result ")


def lines_of(html: str) -> list[tuple[str, str, str]]:
    """The scoring lines table: (line, Re's points, Kontra's points)."""
    body = html.split('<table class="lines">', 1)[1].split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    row = r"<tr><th scope=\"row\">(.*?)</th><td class=\"num\">(.*?)</td><td class=\"num\">(.*?)</td></tr>"
    rows = re.findall(row, body)
    return [(unescape(a), b, c) for a, b, c in rows]


# RULES.md §8, the worked examples: the form's fields, the lines, and what each player writes.
WORKED_EXAMPLES = [
    ({"re_points": 156, "re_fox": 1, "kontra_doppelkopf": 1},
     [("won", "1", ""), ("opponents below 90", "1", ""), ("fox caught (Fuchs)", "1", ""),
      ("Doppelkopf (a trick of 40 or more)", "", "1")],
     "Re wins. Each Re player +2 Each Kontra player −2"),
    ({"re_points": 120},
     [("won", "", "1"), ("against the old ones (die Alten)", "", "1")],
     "Kontra wins. Each Re player −2 Each Kontra player +2"),
    ({"re_points": 125, "re_announced": "re", "kontra_announced": "kontra"},
     [("won", "1", ""), ("“Re” announced", "2", ""), ("“Kontra” announced", "2", "")],
     "Re wins. Each Re player +5 Each Kontra player −5"),
    ({"re_points": 145, "re_announced": "no_90"},
     [("won", "", "1"), ("against the old ones (die Alten)", "", "1"), ("“Re” announced", "", "2"),
      ("“no 90” announced", "", "1")],
     "Kontra wins. Each Re player −5 Each Kontra player +5"),
    ({"game": "solo_queens", "re_points": 190, "re_announced": "re"},
     [("won", "1", ""), ("opponents below 90", "1", ""), ("opponents below 60", "1", ""), ("“Re” announced", "2", "")],
     "The soloist wins. The soloist +15 Each of the three opponents −5"),
    ({"game": "solo_jacks", "re_points": 110},
     [("won", "", "1")],
     "The opponents win. The soloist −3 Each of the three opponents +1"),
]


@pytest.mark.parametrize(("fields", "lines", "writes"), WORKED_EXAMPLES)
def test_worked_examples_of_rules_md_line_by_line(client, fields, lines, writes):
    response = client.get("/en/score/?" + urlencode({"rules": "ddv", **fields}))
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert lines_of(html) == lines
    assert result_of(html).startswith(writes)


def test_the_url_reproduces_the_result_whatever_rules_the_visitor_has(client):
    url = "/en/score/?rules=ddv&re_points=156&re_fox=1&kontra_doppelkopf=1"
    before = result_of(client.get(url).get_data(as_text=True))
    client.set_cookie("rules", "pagat")
    assert result_of(client.get(url).get_data(as_text=True)) == before
    # Without rules in the URL the visitor's own apply, and the form carries them on.
    html = client.get("/en/score/?re_points=156&re_fox=1&kontra_doppelkopf=1").get_data(as_text=True)
    assert 'name="rules" value="pagat"' in html


def test_pagat_counts_karlchen_caught_and_the_failed_announcement(client):
    url = "/en/score/?rules=pagat&re_points=100&re_announced=no_90&kontra_karlchen_caught=1"
    html = client.get(url).get_data(as_text=True)
    assert 'name="kontra_karlchen_caught"' in html
    assert ("opponents missed their announcement", "", "2") in lines_of(html)
    assert ("Karlchen caught in the last trick", "", "1") in lines_of(html)
    assert 'name="re_karlchen_caught"' not in client.get("/en/score/?rules=ddv").get_data(as_text=True)


def test_schwarz_sets_the_points_and_scores_the_line(client):
    html = client.get("/en/score/?rules=ddv&schwarz=re").get_data(as_text=True)
    assert ("opponents took no trick (schwarz)", "1", "") in lines_of(html)
    assert 'id="kontra-points" for="re_points">0<' in html


def test_nobody_wins_when_both_miss(client):
    url = "/en/score/?rules=ddv&re_points=150&re_announced=no_90&kontra_announced=no_90"
    html = client.get(url).get_data(as_text=True)
    assert "Nobody wins" in result_of(html)


def test_no_extra_points_in_a_solo(client):
    html = client.get("/en/score/?rules=ddv&game=solo_clubs&re_points=130&re_fox=1").get_data(as_text=True)
    assert "Extra points do not count in a solo." in html
    assert all(line != "fox caught (Fuchs)" for line, _, _ in lines_of(html))


def test_empty_form_asks_for_the_points(client):
    response = client.get("/en/score/")
    assert response.status_code == 200
    assert "Enter Re’s card points to see the score." in result_of(response.get_data(as_text=True))


def test_htmx_gets_the_result_and_the_errors_out_of_band(client):
    response = client.get("/en/score/?rules=ddv&re_points=156", headers=HX)
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and "<html" not in html
    assert html.lstrip().startswith('<section id="result"')
    assert 'id="kontra-points" for="re_points" hx-swap-oob="true">84<' in html
    assert 'id="error-re_points" hx-swap-oob="true"></p>' in html
    assert "HX-Request" in response.headers["Vary"]


def test_a_boosted_request_gets_the_whole_page_without_out_of_band_parts(client):
    html = client.get("/en/score/?re_points=156", headers={**HX, "HX-Boosted": "true"}).get_data(as_text=True)
    assert html.startswith("<!doctype html>") and "hx-swap-oob" not in html


@functools.cache
def _message_app():
    from app import create_app

    return create_app({"TESTING": True})


def _message(lang: str, code: str, **params) -> str:
    with _message_app().test_request_context(f"/{lang}/"), force_locale(lang):
        return error_message(code, params)


@pytest.mark.parametrize(
    ("query", "field", "code", "params"),
    [
        ("re_points=250", "re_points", "out_of_range", {"low": 0, "high": 240}),
        ("re_points=-1", "re_points", "out_of_range", {"low": 0, "high": 240}),
        ("re_points=130&re_fox=2&kontra_fox=1", "kontra_fox", "too_many_extras", {}),
        ("re_points=130&re_fox=3", "re_fox", "out_of_range", {"low": 0, "high": 2}),
        ("re_points=30&re_doppelkopf=1", "re_doppelkopf", "extras_need_points", {}),
        ("re_points=130&re_karlchen=1&kontra_karlchen=1", "kontra_karlchen", "too_many_extras", {}),
        ("re_points=130&re_tricks=13", "re_tricks", "out_of_range", {"low": 0, "high": 12}),
        ("re_points=230&re_tricks=2", "re_points", "points_do_not_fit_tricks", {"tricks": 2, "low": 0, "high": 88}),
    ],
)
@pytest.mark.parametrize("lang", ["de", "en", "fr"])
def test_impossible_input_is_a_400_explained_next_to_the_field(client, lang, query, field, code, params):
    response = client.get(f"/{lang}/score/?rules=ddv&{query}")
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    expected = _message(lang, code, **params)
    error = html.split(f'id="error-{field}">', 1)[1].split("</p>", 1)[0]
    assert unescape(error) == expected
    assert f'name="{field}"' in html.split(f'id="error-{field}"', 1)[0][-2500:]
    assert f'aria-describedby="error-{field}" aria-invalid="true"' in html
    if lang != "en":
        assert expected != _message("en", code, **params)  # really translated


@pytest.mark.parametrize(
    "query",
    ["re_points=abc", "re_points=1e3", "re_points=%D9%A1%D9%A2", "re_points=" + "9" * 5000, "game=chess&re_points=1",
     "game=poverty&re_points=130", "re_announced=kontra&re_points=130", "schwarz=both", "rules=skat",
     "rules=ddv|deck=52", "rules=ddv|deck", "re_fox=-1&re_points=130", "re_points=%00", "re_doppelkopf=x&re_points=9"],
)
def test_hostile_input_is_a_400_never_a_crash(client, query):
    response = client.get(f"/de/score/?{query}")
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert '<html lang="de"' in html
    assert re.search(r'class="field-error" id="error-[a-z_]+">[^<]+</p>', html)


def test_three_foxes_are_explained_in_every_language(client):
    for lang in LANGUAGES:
        response = client.get(f"/{lang}/score/?re_points=130&re_fox=2&kontra_fox=1")
        assert response.status_code == 400
        assert unescape(response.get_data(as_text=True)).count(_message(lang, "too_many_extras")) == 1


def test_the_calculator_is_in_the_service_worker_precache(client):
    body = client.get("/sw.js").get_data(as_text=True)
    assert '"/de/score/"' in body and "/static/css/score.css" in body


@pytest.mark.parametrize("example", WORKED)
def test_the_engines_worked_examples_through_the_form(client, example):
    """The engine's own copy of the worked examples, typed into the form as a URL."""
    rules = RuleSet.named("ddv")
    summary = DealSummary(example.game, example.re_points, example.re_tricks, example.re_announced,
                          example.kontra_announced, example.extras)
    response = client.get("/en/score/?" + urlencode({"rules": "ddv", **summary_fields(summary, rules)}))
    assert response.status_code == 200
    writes = re.findall(r'class="writes__amount">(.*?)<', response.get_data(as_text=True))
    assert writes == [signed(example.scores["re"]), signed(example.scores["kontra"])]


def test_a_plain_submission_lands_on_the_short_address(client):
    query = "rules=ddv&game=normal&re_points=156&schwarz=&re_tricks=&re_announced=&re_fox=1&kontra_fox=0&utm=x"
    response = client.get("/en/score/?" + query)
    assert response.status_code == 303
    assert response.headers["Location"] == "/en/score/?rules=ddv&game=normal&re_points=156&re_fox=1"
    assert client.get(response.headers["Location"]).status_code == 200  # and stays there


def test_htmx_is_told_the_short_address(client):
    response = client.get("/en/score/?rules=ddv&re_points=156&re_fox=0&schwarz=", headers=HX)
    assert response.status_code == 200
    assert response.headers["HX-Replace-Url"] == "/en/score/?rules=ddv&re_points=156"


def test_precaching_the_calculator_in_every_language_keeps_the_visitors_language(client):
    """The service worker fetches /pt/score/ and the rest in the background (Sec-Fetch-Dest:
    empty); only a page the visitor opens sets the language a bare / goes to."""
    client.get("/fr/score/", headers={"Sec-Fetch-Dest": "document"})
    client.get("/pt/score/", headers={"Sec-Fetch-Dest": "empty"})
    assert client.get_cookie("lang").value == "fr"
    assert client.get("/").headers["Location"] == "/fr/"
