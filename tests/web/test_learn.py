"""The lessons on the web: the path, every step of every lesson in every language under both
rule sets, every check answered right and wrong, progress, the glossary and bad input."""
from __future__ import annotations

import re
from html import unescape

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import LANGUAGES
from tutor import learn as L
from tutor.quiz import Question
from tutor.rules.rulesets import RuleSet
from tutor.web.base.rules import COOKIE as RULES_COOKIE
from tutor.web.learn import progress as learn_progress

RULESETS = ("ddv", "pagat")
ITEMS = L.path()  # the lessons and the checkpoints between them


def use(client: FlaskClient, ruleset: str) -> None:
    client.set_cookie(RULES_COOKIE, ruleset)


def steps(ruleset: str):
    rules = RuleSet.named(ruleset)
    for item in ITEMS:
        for n, step in enumerate(item.steps_for(rules), 1):
            yield item, n, step


def text_of(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", " ", html))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_step_of_every_lesson_renders_in_every_language(client, ruleset):
    use(client, ruleset)
    rules = RuleSet.named(ruleset)
    for lang in LANGUAGES:
        for item, n, step in steps(ruleset):
            response = client.get(f"/{lang}/learn/{item.slug}/{n}")
            assert response.status_code == 200, (lang, item.slug, n)
            html = response.get_data(as_text=True)
            assert f'<html lang="{lang}"' in html
            assert "{" + "QC}" not in html and 'class="card" data-card' not in html  # cards drawn by the partial
            question = L.build_check(item, step, rules)
            if question is not None:
                assert 'id="lesson-check"' in html and f'name="step" value="{step.id}"' in html, (item.slug, n)
                # Never the answer before the learner tries: the verdicts for judging offline
                # wait in their <template>, which a browser does not show.
                shown = re.sub(r"<template data-offline-check.*?</template>", "", html, flags=re.S)
                assert "quiz-verdict" not in shown and html.count("<template") == 1


def test_the_path_lists_every_lesson_in_order_with_links(client):
    html = client.get("/en/learn/").get_data(as_text=True)
    links = re.findall(r'class="lesson-path__link" href="/en/learn/([a-z0-9-]+)"', html)
    assert links == [item.slug for item in L.path()]
    assert 'href="/en/play/?l=0"' in html  # the first whole deal, after the extra points
    for item in ITEMS:
        assert unescape(item.text("en").title) in unescape(html)
    assert 'href="/en/learn/cards">' in html and "Start with the first lesson" in html
    assert client.get("/de/learn/").status_code == 200


def _right(question: Question) -> dict[str, list[str]]:
    form: dict[str, list[str]] = {}
    for field, value in zip(question.fields, question.answer, strict=True):
        form[field.name] = [v for v in value.split(",") if v] if field.mode == "many" else [value]
    return form


def _wrong(question: Question) -> dict[str, list[str]]:
    """An answer that is not the engine's, in the form's own terms."""
    form = _right(question)
    for field, value in zip(question.fields, question.answer, strict=True):
        if field.mode == "number":
            other = int(value) + 1 if int(value) < field.high else int(value) - 1
            form[field.name] = [str(other)]
        elif field.mode == "many":
            chosen = set(form[field.name])
            flip = field.choices[0].value
            form[field.name] = sorted(chosen ^ {flip})
        else:
            form[field.name] = [next(c.value for c in field.choices if c.value != value)]
        return form
    return form


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_check_answered_right_and_wrong_by_form_post(client, ruleset):
    use(client, ruleset)
    rules = RuleSet.named(ruleset)
    for item, n, step in steps(ruleset):
        question = L.build_check(item, step, rules)
        if question is None:
            continue
        url = f"/en/learn/{item.slug}/{n}"
        right = client.post(url, data={"step": step.id, **_right(question)})
        assert right.status_code == 200, (item.slug, n)
        assert "quiz-verdict--right" in right.get_data(as_text=True), (item.slug, n)
        wrong = client.post(url, data={"step": step.id, **_wrong(question)})
        html = wrong.get_data(as_text=True)
        assert wrong.status_code == 200 and "quiz-verdict--wrong" in html, (item.slug, n)
        assert "Try again with new cards" in html


def test_an_htmx_answer_gets_the_check_alone_and_in_german(client):
    item = L.lesson("following-suit")
    rules = RuleSet.named("ddv")
    n, step = next((i, s) for i, s in enumerate(item.steps_for(rules), 1) if s.check)
    question = L.build_check(item, step, rules)
    response = client.post(f"/de/learn/{item.slug}/{n}", data={"step": step.id, **_right(question)},
                           headers={"HX-Request": "true"})
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and html.lstrip().startswith('<section id="lesson-check"')
    assert "Richtig" in html and "<html" not in html


def test_reasons_of_the_engine_are_worded_and_seats_are_the_learners(client):
    item = L.lesson("extra-points")
    rules = RuleSet.named("ddv")
    n, step = next((i, s) for i, s in enumerate(item.steps_for(rules), 1) if s.check and s.check["kind"] == "extras")
    question = L.build_check(item, step, rules)
    html = client.post(f"/en/learn/{item.slug}/{n}", data={"step": step.id, **_right(question)}).get_data(as_text=True)
    assert "South (you)" in html
    reasons = re.search(r'<ul class="quiz-reasons">(.*?)</ul>', html, re.S).group(1)
    assert reasons.count("<li") == len(question.reasons)
    # The quiz keeps its own seat names.
    assert "South (you)" not in client.get("/en/quiz/winner?q=5&l=0").get_data(as_text=True)


def test_a_check_under_other_rules_says_so_in_one_line(client):
    item = L.lesson("house-rules")
    rules = RuleSet.named("ddv")
    n = next(i for i, s in enumerate(item.steps_for(rules), 1) if s.options and s.check)
    html = client.get(f"/en/learn/{item.slug}/{n}").get_data(as_text=True)
    note = re.search(r'<p class="quiz__rules lesson-check__rules">(.*?)</p>', html, re.S)
    assert note and "This check follows:" in note.group(1)
    plain = next(i for i, s in enumerate(item.steps_for(rules), 1) if not s.options and s.check)
    assert "This check follows:" not in client.get(f"/en/learn/{item.slug}/{plain}").get_data(as_text=True)


@pytest.mark.parametrize("path", [
    "/en/learn/nope", "/en/learn/cards/0", "/en/learn/cards/99", "/en/learn/cards/x", "/en/learn/cards/1/2",
    "/en/learn/" + "a" * 300, "/xx/learn/cards",
])
def test_bad_slugs_and_steps_are_404(client, path):
    assert client.get(path).status_code == 404


def test_bad_answers_are_a_translated_400(client):
    item = L.lesson("cards")
    rules = RuleSet.named("ddv")
    n, step = next((i, s) for i, s in enumerate(item.steps_for(rules), 1) if s.check)
    url = f"/de/learn/{item.slug}/{n}"
    for data in ({"step": step.id}, {"step": step.id, "answer": "zzz", "points": "abc"}, {"step": "other"}, {}):
        response = client.post(url, data=data)
        assert response.status_code == 400, data
        assert 'role="alert"' in response.get_data(as_text=True)
    no_check = next(i for i, s in enumerate(item.steps_for(rules), 1) if not s.check) if any(
        not s.check for s in item.steps_for(rules)) else None
    if no_check:
        assert client.post(f"/de/learn/{item.slug}/{no_check}", data={"step": "x"}).status_code == 404
    cross = client.post(url, data={"step": step.id}, headers={"Sec-Fetch-Site": "cross-site"})
    assert cross.status_code == 400


def test_progress_marks_started_and_done_and_continues(app: Flask, client):
    rules = RuleSet.named("ddv")
    first = ITEMS[0]
    steps = first.steps_for(rules)
    page = client.get(f"/en/learn/{first.slug}/2")
    # showing a step writes nothing of the learner's (the language cookie is set outside the page)
    assert not [c for c in page.headers.getlist("Set-Cookie") if not c.startswith("lang=")]
    assert f'data-seen-url="/en/learn/{first.slug}/2/seen"' in page.get_data(as_text=True)
    assert client.post(f"/en/learn/{first.slug}/2/seen").status_code == 204  # learn.js says it was seen
    html = client.get("/en/learn/").get_data(as_text=True)
    assert "lesson-path__item--started" in html
    assert f'href="/en/learn/{first.slug}/2">Continue' in html
    # /<slug> resumes at the last step opened.
    assert "Step 2 of" in client.get(f"/en/learn/{first.slug}").get_data(as_text=True)
    # Opening the last step is not enough: every check must be answered right once.
    client.post(f"/en/learn/{first.slug}/{len(steps)}/seen")
    assert "lesson-path__item--done" not in client.get("/en/learn/").get_data(as_text=True)
    for n, step in enumerate(steps, 1):
        question = L.build_check(first, step, rules)
        if question is not None:
            client.post(f"/en/learn/{first.slug}/{n}", data={"step": step.id, **_right(question)})
    client.post(f"/en/learn/{first.slug}/{len(steps)}/seen")
    html = client.get("/en/learn/").get_data(as_text=True)
    assert "lesson-path__item--done" in html
    assert f'href="/en/learn/{ITEMS[1].slug}/1">Continue' in html
    cookie = client.get_cookie(learn_progress.COOKIE)
    assert cookie is not None and len(cookie.value) < 200
    # A changed cookie is no progress.
    client.set_cookie(learn_progress.COOKIE, cookie.value[:-2] + "xx")
    assert "lesson-path__item--done" not in client.get("/en/learn/").get_data(as_text=True)


def test_progress_reads_nothing_odd():
    for data in (None, [], {"d": "x"}, {"d": [1000], "s": []}, {"d": [], "s": [], "l": [1, 2, 3]},
                 {"s": [], "r": {"5": "ZZ"}}, {"s": [], "r": {"500": "a1"}}, {"s": [], "r": "x"}):
        p = learn_progress.Progress.load(data)
        assert 1000 not in p.started and 500 not in p.right and not p.right.get(5)
        assert p.last is None or len(p.last) == 2


def test_glossary_has_one_anchor_per_term_in_every_language(client):
    terms = list(L.load_glossary("en").sections)
    for lang in LANGUAGES:
        html = client.get(f"/{lang}/learn/words").get_data(as_text=True)
        assert re.findall(r'class="glossary__term" id="([^"]+)"', html) == terms, lang


def test_links_in_prose_lead_to_absolute_urls_from_step_urls(client):
    for lang in LANGUAGES:
        for item, n, _step in steps("ddv"):
            html = client.get(f"/{lang}/learn/{item.slug}/{n}").get_data(as_text=True)
            found = re.search(r'<div class="lesson__prose">(.*?)</div>', html, re.S)
            if found is None:
                assert item.is_checkpoint, (item.slug, n)  # a checkpoint's step has no prose of its own
                continue
            prose = found.group(1)
            for href in re.findall(r"<a href=\"([^\"]+)\"", prose):
                assert href.startswith(f"/{lang}/"), (item.slug, n, href)
                target = href.split("#")[0]
                # The play page answers a bare URL by dealing: a redirect to the new deal's URL.
                assert client.get(target).status_code == (303 if "/play/" in target else 200), (item.slug, n, href)


def test_the_offline_page_lists_every_lesson_of_its_language(client):
    offline = client.get("/fr/offline").get_data(as_text=True)
    assert offline.count('data-lesson-url="/fr/learn/') == len(L.load_lessons())


def test_a_page_saved_for_offline_is_no_visit(client):
    response = client.get("/en/learn/cards/3", headers={"X-Save-Offline": "lessons"})
    assert response.status_code == 200
    assert not any(v.startswith("learn=") for v in response.headers.getlist("Set-Cookie"))
    assert "lesson-path__item--started" not in client.get("/en/learn/").get_data(as_text=True)


def test_the_old_endpoint_name_of_the_learn_page_still_builds_its_url(app):
    from flask import url_for

    with app.test_request_context("/de/"):
        assert url_for("pages.learn", lang="de") == url_for("learn.path", lang="de") == "/de/learn/"
    assert app.test_client().get("/de/learn/").status_code == 200


def test_a_recall_tried_again_shows_its_own_question_and_list(client):
    item = L.lesson("history")
    step = item.step("family-check")
    n = [s.id for s in item.steps_for(RuleSet.named("ddv"))].index("family-check") + 1
    seed, avoid = L.retry_seed(item, step, RuleSet.named("ddv"))
    query = f"v={seed}" + (f"&a={avoid}" if avoid is not None else "")
    first = client.get(f"/de/learn/history/{n}").get_data(as_text=True)
    again = client.get(f"/de/learn/history/{n}?{query}").get_data(as_text=True)
    assert "Welches Spiel ist der Vorfahr des Doppelkopfs?" in first
    assert "Worauf geht der Name Doppelkopf zurück?" in again and "Vorfahr" not in again
    assert "in dem jede Karte doppelt vorkommt" in again and "lesson-check__fresh" not in again
