"""The lessons offline, on the server's side: the pack of one language gives every lesson page
back exactly as its own address renders it (put together as the service worker puts it
together), and every step with a check carries what judges it on the device: the engine's
answer and the very words the server answers with (tutor/web/learn/offline.py,
templates/learn/_parts.html). The browser's side: tests/browser/test_learn_offline.py."""
from __future__ import annotations

import gzip
import json
import re
from html import unescape

import brotli  # type: ignore[import-untyped]
import pytest

from tests.web.test_learn import _right
from tutor import learn as L
from tutor.rules.rulesets import RuleSet
from tutor.web.base.rules import COOKIE as RULES_COOKIE
from tutor.web.learn import offline
from tutor.web.learn import progress as learn_progress

TEMPLATE = re.compile(r"<template data-offline-check (.*?)>(.*?)</template>", re.S)
OPEN_CHECKS = re.compile(r'\n<p class="lesson__open">.*?</p>', re.S)


@pytest.fixture(autouse=True)
def quick_brotli(monkeypatch):
    """The pack's best Brotli takes a second; what it holds is the same at any quality."""
    monkeypatch.setattr(offline, "BROTLI_QUALITY", 4)


def pack_of(client, lang: str, encoding: str = "br") -> dict:
    response = client.get(f"/{lang}/learn/pack", headers={"Accept-Encoding": encoding})
    assert response.status_code == 200 and response.mimetype == "application/json"
    assert response.headers.get("Content-Encoding") == (encoding if encoding != "identity" else None)
    data = response.get_data()
    raw = brotli.decompress(data) if encoding == "br" else gzip.decompress(data) if encoding == "gzip" else data
    return json.loads(raw)


def stitch(pack: dict, url: str) -> str:
    """A page put together from the pack, as templates/pwa/sw.js does (lessonPage)."""
    page = pack["pages"][url]
    if "h" in page:
        return page["h"]
    own = "/".join(url[len(pack["root"]):].split("/")[2:])
    holes = {"t": page["t"], "p": own}
    return "".join(holes[part] if i % 2 else part for i, part in enumerate(pack["head"])) + page["m"] + pack["foot"]


@pytest.mark.parametrize(("lang", "ruleset"), [("en", "ddv"), ("de", "pagat")])
def test_the_pack_gives_back_every_lesson_page_of_its_language_to_the_byte(client, lang, ruleset):
    client.set_cookie(RULES_COOKIE, ruleset)
    pack = pack_of(client, lang)
    rules = RuleSet.named(ruleset)
    steps = sum(len(item.steps_for(rules)) for item in L.path())
    assert len(pack["pages"]) == 2 + len(L.path()) + steps  # the path, the glossary, each lesson and its steps
    assert all(url.startswith(f"/{lang}/learn/") for url in pack["pages"])
    assert sum("h" in page for page in pack["pages"].values()) <= 1  # nearly all share the one head
    assert pack["headers"]["Content-Security-Policy"] and pack["headers"]["Content-Type"].startswith("text/html")
    fresh = client.application.test_client()
    fresh.set_cookie(RULES_COOKIE, ruleset)
    for url in pack["pages"]:
        online = fresh.get(url).get_data(as_text=True)
        # The one difference: the pack names no check still to answer (it is every learner's).
        assert stitch(pack, url) == OPEN_CHECKS.sub("", online), url


def test_the_pack_is_the_same_for_every_learner_and_writes_nothing(client):
    first = client.get("/en/learn/pack", headers={"Accept-Encoding": "br"})
    assert "Cookie" in first.headers["Vary"] and first.headers["Cache-Control"] == "no-store"
    assert "Set-Cookie" not in first.headers
    item = L.lesson("cards")
    rules = RuleSet.named("ddv")
    n, step = next((i, s) for i, s in enumerate(item.steps_for(rules), 1) if s.check)
    client.post(f"/en/learn/{item.slug}/{n}", data={"step": step.id, **_right(L.build_check(item, step, rules))})
    assert any(c.key == learn_progress.COOKIE for c in client._cookies.values())
    again = client.get("/en/learn/pack", headers={"Accept-Encoding": "br"})
    assert again.get_data() == first.get_data()  # progress shows only on pages opened online
    assert pack_of(client, "en", "gzip") == pack_of(client, "en", "identity") == pack_of(client, "en")


def test_the_last_step_of_a_lesson_names_its_open_checks_online_only(client):
    item = L.lesson("trumps")
    count = len(item.steps_for(RuleSet.named("ddv")))
    online = client.get(f"/en/learn/trumps/{count}").get_data(as_text=True)
    assert 'class="lesson__open"' in online
    assert 'class="lesson__open"' not in stitch(pack_of(client, "en"), f"/en/learn/trumps/{count}")


def test_the_pack_follows_the_visitors_rules(client):
    ddv = pack_of(client, "en")
    client.set_cookie(RULES_COOKIE, "pagat")
    pagat = pack_of(client, "en")
    assert ddv["pages"] != pagat["pages"]
    assert 'data-rules="pagat"' in stitch(pagat, "/en/learn/cards/1")


def test_no_lesson_takes_the_address_of_the_pack_or_the_glossary():
    assert not {item.slug for item in L.path()} & {"pack", "words"}


def test_head_holes_only_where_the_page_names_itself():
    head = ('<title>Trumps · Doko Tutor</title><a href="/en/learn/">Learn</a>'
            '<a href="/de/learn/trumps/3" hreflang="de"></a><a href="/en/learn/trumps/30"></a>')
    template = offline.head_template(head, "Trumps · Doko Tutor", "learn/trumps/3")
    assert template[1::2] == ["t", "p"]
    assert offline.fill(template, "Cards", "learn/cards/1") == (
        '<title>Cards</title><a href="/en/learn/">Learn</a><a href="/de/learn/cards/1" hreflang="de"></a>'
        '<a href="/en/learn/trumps/30"></a>')


def _attributes(text: str) -> dict[str, str]:
    return {name: unescape(value) for name, value in re.findall(r'([\w-]+)="([^"]*)"', text)}


def _why_not(html: str) -> str:
    found = re.search(r'<h3 class="quiz__why">Why not your answer.*?</ul>', html, re.S)
    return found.group(0) if found else ""


def _why(html: str) -> str:
    return re.search(r'<h3 class="quiz__why">Why</h3>\s*<ul class="quiz-reasons">.*?</ul>', html, re.S).group(0)


def test_every_check_carries_its_answer_and_the_servers_own_feedback(client):
    """For each check (English, DDV rules): the answer the template holds is the engine's, its
    "why" is the online feedback's, and for a check of one choice, what it says against each
    wrong choice is what the server says when that choice is posted."""
    rules = RuleSet.named("ddv")
    judged = 0
    for item in L.path():
        for n, step in enumerate(item.steps_for(rules), 1):
            question = L.build_check(item, step, rules)
            html = client.get(f"/en/learn/{item.slug}/{n}").get_data(as_text=True)
            found = TEMPLATE.search(html)
            if question is None:
                assert found is None
                continue
            assert found is not None, (item.slug, n)
            data, body = _attributes(found.group(1)), found.group(2)
            assert data["data-answer"].split("|") == list(question.answer), (item.slug, n)
            assert data["data-fields"].split("|") == [f.name for f in question.fields]
            assert data["data-modes"].split("|") == [f.mode for f in question.fields]
            for name in ("right", "wrong"):
                assert f'data-verdict="{name}"' in body
            right = client.post(f"/en/learn/{item.slug}/{n}", data={"step": step.id, **_right(question)},
                                headers={"HX-Request": "true"}).get_data(as_text=True)
            if question.kind != "recall":
                assert _why(body) == _why(right), (item.slug, n)
            one = len(question.fields) == 1 and question.fields[0].mode == "one" and question.kind != "recall"
            blocks = dict(re.findall(r'<div data-why-not="([^"]*)">(.*?)</div>', body, re.S))
            if not one:
                assert not blocks
                continue
            for choice in question.fields[0].choices:
                if (choice.value,) == question.answer:
                    assert choice.value not in blocks
                    continue
                wrong = client.post(f"/en/learn/{item.slug}/{n}", headers={"HX-Request": "true"},
                                    data={"step": step.id, question.fields[0].name: choice.value})
                assert blocks[choice.value].strip() == _why_not(wrong.get_data(as_text=True)).strip(), \
                    (item.slug, n, choice.value)
                judged += 1
    assert judged > 100


def test_a_number_check_carries_the_right_number_and_room_for_the_learners(client):
    item = L.lesson("scoring")
    rules = RuleSet.named("ddv")
    checks = ((i, L.build_check(item, s, rules)) for i, s in enumerate(item.steps_for(rules), 1))
    n, question = next((i, q) for i, q in checks if q is not None and any(f.mode == "number" for f in q.fields))
    body = TEMPLATE.search(client.get(f"/en/learn/{item.slug}/{n}").get_data(as_text=True)).group(2)
    field = next(f for f in question.fields if f.mode == "number")
    number = rf'<p class="quiz-marks quiz-marks--number" data-field="{field.name}">(.*?)</p>'
    line = re.search(number, body, re.S).group(1)
    assert "right answer:" in line and "your answer: %s" in line and "data-given hidden" in line
