"""A lesson check that teaches as the quiz does: after a wrong answer, the rule against the
learner's own choice beside the reason for the right one, for every check answered wrong in
every way its form allows; a missed check comes back in the quiz's review; the learner's own
cards are "your hand"."""
from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from flask_babel import force_locale

from tests.web.test_learn import ITEMS, RULESETS, _right, _wrong, text_of, use
from tests.web.test_quiz import question_of
from tutor import learn as L
from tutor.quiz import KINDS, LESSON_KINDS, Question
from tutor.quiz.why import rule_of
from tutor.rules.rulesets import RuleSet
from tutor.web.base import practice
from tutor.web.words import questions as text

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
MISSES = re.compile(r'<ul class="quiz-reasons quiz-reasons--misses">(.*?)</ul>', re.S)
# The kinds whose wrong answer says why not: the quiz's, and a decision (what the chosen card does).
WHY_KINDS = {*KINDS, "decide"}


def checks(rules: RuleSet) -> Iterator[tuple[L.Lesson, int, L.Step, Question]]:
    for item in ITEMS:
        for n, step in enumerate(item.steps_for(rules), 1):
            question = L.build_check(item, step, rules)
            if question is not None:
                yield item, n, step, question


def wrong_forms(question: Question) -> Iterator[dict[str, list[str]]]:
    """Every wrong answer the form offers, one field off at a time (the others right): each
    other button or radio, each box ticked or left out, a number one above and one below."""
    right = _right(question)
    for field, value in zip(question.fields, question.answer, strict=True):
        if field.mode == "number":
            others = {int(value) - 1, int(value) + 1} & set(range(field.low, field.high + 1))
            alternatives = [[str(v)] for v in sorted(others)]
        elif field.mode == "many":
            chosen = set(right[field.name])
            alternatives = [sorted(chosen ^ {c.value}) for c in field.choices]
        else:
            alternatives = [[c.value] for c in field.choices if c.value != value]
        for alternative in alternatives:
            yield {**right, field.name: alternative}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_check_answered_wrong_every_way_says_why_not_where_the_engine_can(client, ruleset):
    use(client, ruleset)
    rules = RuleSet.named(ruleset)
    kinds = set()
    for item, n, step, question in checks(rules):
        kinds.add(question.kind)
        url = f"/en/learn/{item.slug}/{n}"
        forms = list(wrong_forms(question))
        assert forms, (item.slug, n)
        for form in forms:
            response = client.post(url, data={"step": step.id, **form})
            where = (item.slug, n, form)
            assert response.status_code == 200, where
            html = response.get_data(as_text=True)
            assert "quiz-verdict--wrong" in html, where
            found = MISSES.search(html)
            if question.kind in WHY_KINDS:
                assert found and found.group(1).count("<li") >= 1, where
                assert "Why not your answer" in html, where
                assert html.index("quiz-reasons--misses") < html.index('<ul class="quiz-reasons">'), where
            else:
                assert found is None and "Why not your answer" not in html, where
            # The reasons for the right answer (a recall's are the step's prose, above it).
            assert (re.search(r'<h3 class="quiz__why">Why</h3>\s*<ul class="quiz-reasons">', html) is not None) == (
                question.kind != "recall"), where
            assert "Try again with new cards" in html, where
    # Both sorts are met: checks of the quiz's own kinds and of the lessons' own.
    assert kinds & set(KINDS) and kinds & set(LESSON_KINDS)


@pytest.mark.parametrize("lang", ["de", "it", "es", "fr", "pt"])
def test_a_wrong_lesson_answer_says_why_not_in_every_language(client, lang):
    rules = RuleSet.named("ddv")
    shown = 0
    for item, n, step, question in checks(rules):
        response = client.post(f"/{lang}/learn/{item.slug}/{n}", data={"step": step.id, **_wrong(question)})
        assert response.status_code == 200, (lang, item.slug, n)
        found = MISSES.search(response.get_data(as_text=True))
        assert (found is not None) == (question.kind in WHY_KINDS), (lang, item.slug, n)
        shown += found is not None
    assert shown


def test_the_reason_against_the_learner_s_choice_is_the_engine_s(client):
    rules = RuleSet.named("ddv")
    item, n, step, question = next(c for c in checks(rules) if c[3].kind == "winner")
    form = _wrong(question)
    html = client.post(f"/en/learn/{item.slug}/{n}", data={"step": step.id, **form}).get_data(as_text=True)
    misses = text_of(MISSES.search(html).group(1))
    assert "you picked" in misses  # the rule against the very card tapped, as the quiz words it


def test_an_htmx_wrong_answer_swaps_in_the_why_not(client):
    rules = RuleSet.named("ddv")
    item, n, step, question = next(c for c in checks(rules) if c[3].kind in KINDS)
    response = client.post(f"/it/learn/{item.slug}/{n}", data={"step": step.id, **_wrong(question)},
                           headers={"HX-Request": "true"})
    html = response.get_data(as_text=True)
    assert html.lstrip().startswith('<section id="lesson-check"') and MISSES.search(html)


def _practice_cookie(response) -> str | None:
    return next((h for h in response.headers.getlist("Set-Cookie") if h.startswith(practice.COOKIE + "=")), None)


def test_a_missed_lesson_check_becomes_due_in_the_quiz_s_review(app, client):
    app.config["PRACTICE_NOW"] = NOW
    rules = RuleSet.named("ddv")
    item, n, step, question = next(c for c in checks(rules) if c[3].kind == "legal")
    assert "Review: 0 rules due" in client.get("/en/quiz/").get_data(as_text=True)
    response = client.post(f"/en/learn/{item.slug}/{n}", data={"step": step.id, **_wrong(question)})
    assert response.status_code == 200 and _practice_cookie(response)
    app.config["PRACTICE_NOW"] = NOW + timedelta(hours=1)
    assert "Review: 1 rule due" in client.get("/en/quiz/").get_data(as_text=True)
    page = client.get("/en/quiz/review").get_data(as_text=True)
    assert "Nothing is due for review" not in page and 'id="quiz-prompt"' in page
    asked, data = question_of(app, page)  # the rule the lesson's check turned on, asked anew
    assert data["m"] == "review" and data["k"] == "legal" and data["c"] == rule_of(question)


def test_a_right_lesson_answer_or_a_lesson_only_kind_schedules_nothing(app, client):
    app.config["PRACTICE_NOW"] = NOW
    rules = RuleSet.named("ddv")
    item, n, step, question = next(c for c in checks(rules) if c[3].kind == "legal")
    right = client.post(f"/en/learn/{item.slug}/{n}", data={"step": step.id, **_right(question)})
    assert right.status_code == 200 and _practice_cookie(right) is None
    item, n, step, question = next(c for c in checks(rules) if c[3].kind in LESSON_KINDS)
    wrong = client.post(f"/en/learn/{item.slug}/{n}", data={"step": step.id, **_wrong(question)})
    assert wrong.status_code == 200 and _practice_cookie(wrong) is None  # the review has no such questions
    app.config["PRACTICE_NOW"] = NOW + timedelta(days=30)
    assert "Review: 0 rules due" in client.get("/en/quiz/").get_data(as_text=True)


YOUR_HAND = {"en": "Your hand", "de": "Dein Blatt", "it": "La tua mano", "es": "Tu mano", "fr": "Ta main",
             "pt": "Sua mão"}


@pytest.mark.parametrize("lang", sorted(YOUR_HAND))
def test_the_learner_s_own_cards_are_your_hand(client, lang):
    rules = RuleSet.named("ddv")
    item, n, step, question = next(c for c in checks(rules) if c[3].kind == "legal" and c[3].params["seat"] == 0)
    html = client.get(f"/{lang}/learn/{item.slug}/{n}").get_data(as_text=True)
    subs = re.findall(r'<h3 class="quiz__sub">([^<]*)</h3>', html)
    assert YOUR_HAND[lang] in subs, (lang, subs)
    assert not any("(" in s for s in subs), subs  # never "South (you)'s hand"
    # The quiz keeps its own seat names.
    quiz = client.get(f"/{lang}/quiz/legal?q=5&l=0").get_data(as_text=True)
    assert YOUR_HAND[lang] not in re.findall(r'<h3 class="quiz__sub">([^<]*)</h3>', quiz)


AFTER_EXCHANGE = {"en": "Your cards after the exchange", "de": "Deine Karten nach dem Kartentausch",
                  "it": "Le tue carte dopo lo scambio", "es": "Tus cartas tras el intercambio",
                  "fr": "Tes cartes après l’échange", "pt": "Suas cartas depois da troca"}


@pytest.mark.parametrize("lang", sorted(AFTER_EXCHANGE))
def test_hand_titles_name_the_learner_in_the_second_person_and_others_by_seat(app, lang):
    with app.test_request_context(f"/{lang}/learn/x"), force_locale(lang):
        quiz = (text.hand_title(0), text.hand_title(0, after_exchange=True))
        text.learner_view()
        assert text.hand_title(0) == YOUR_HAND[lang]
        assert text.hand_title(0, after_exchange=True) == AFTER_EXCHANGE[lang]
        west = text.seat(1)
        assert west in text.hand_title(1) and west in text.hand_title(1, after_exchange=True)
    assert YOUR_HAND[lang] not in quiz and AFTER_EXCHANGE[lang] not in quiz  # the quiz keeps its seat names
