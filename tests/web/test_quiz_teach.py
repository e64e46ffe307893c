"""A quiz that teaches, over HTTP and in words: the rule against the learner's own choice in
all six languages, review of missed rules on a fixed clock, a newcomer's daily challenge, the
missed daily questions afterwards, and the streak of days."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from flask_babel import force_locale

from tests.quiz.test_why import questions, wrong_answers
from tests.web.test_quiz import form_for, post_answer, progress_of, question_of, wrong_for
from tutor.quiz import KINDS, make
from tutor.quiz.review import Deck
from tutor.quiz.why import rule_of, why_not
from tutor.rules.rulesets import RuleSet
from tutor.web.base import practice
from tutor.web.quiz import progress as quiz_progress
from tutor.web.words.questions.misses import MISS_WORDS, miss_text
from tutor.web.words.questions.names import short
from tutor.web.words.questions.reasons import reason_text

LANGUAGES = ("de", "it", "es", "fr", "pt")
NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def _worded(app, lang: str, q, miss) -> str:
    with app.test_request_context(f"/{lang}/"), force_locale(lang):
        return miss_text(miss, q)


@pytest.mark.parametrize("kind", KINDS)
def test_every_reason_against_a_choice_is_worded_in_all_six_languages(app, kind):
    """For 1,000 questions: every wrong choice's reason is a sentence in English that names
    the card picked; one example of each reason code is worded in every other language (a
    sentence left in English, or a code without words, fails)."""
    examples = {}
    with app.test_request_context("/en/"), force_locale("en"):
        for q in questions(kind):
            for given in wrong_answers(q):
                for miss in why_not(q, given):
                    sentence = miss_text(miss, q)
                    assert sentence.strip(), (kind, q.seed, miss)
                    if "card" in miss.reason.params and miss.reason.code in MISS_WORDS:
                        assert short(miss.reason.params["card"]) in sentence
                    examples.setdefault(miss.reason.code, (q, miss, sentence))
    assert examples
    for code, (q, miss, english) in examples.items():
        for lang in LANGUAGES:
            worded = _worded(app, lang, q, miss)
            assert worded.strip() and worded != english, (code, lang, worded)


def test_every_reason_code_worded_here_is_one_the_engine_gives():
    """No wording left over for a code that nothing gives any more (or misspelt)."""
    given = {m.reason.code for kind in KINDS for q in questions(kind, 300) for g in wrong_answers(q)
             for m in why_not(q, g)}
    rare = {"second_dulle_in_last_trick", "not_the_led_suit", "may_lead_any", "result_not_tripled",
            "nobody_won_not_party", "need_other_tricks", "said_trump_but_no_trumps"}
    assert set(MISS_WORDS) - given <= rare


@pytest.mark.parametrize("kind", ["party", "game"])
def test_the_reason_against_a_choice_does_not_repeat_the_right_answer_s(app, kind):
    """Who is in which party, who leads, whose reservation stands: the rule that decides is
    the right answer's own reason, which the page shows right after the misses. The miss says
    only what is wrong with the choice, so the rule is not read twice."""
    with app.test_request_context("/en/"), force_locale("en"):
        for q in questions(kind, 300):
            own = [reason_text(r, q) for r in q.reasons]
            for given in wrong_answers(q):
                for miss in why_not(q, given):
                    sentence = miss_text(miss, q)
                    assert not any(reason and reason in sentence for reason in own), (q.seed, sentence)


def test_the_wrong_choice_s_reason_is_on_the_feedback_page(client):
    q = make("winner", 11, RuleSet.named("ddv"), 0)
    html = client.get(f"/en/quiz/winner?q={q.seed}&l=0").get_data(as_text=True)
    wrong = wrong_for(q)
    page = post_answer(client, "/en/quiz/winner", html, form_for(q, wrong)).get_data(as_text=True)
    assert "Why not your answer" in page
    assert short(q.fields[0].choices[int(wrong[0])].card) in page
    assert "you picked" in page


# --- Review per rule, on a fixed clock ------------------------------------------------------


def test_a_miss_is_due_sooner_than_a_hit():
    deck = Deck()
    deck.record("winner", 0, "first_of_equal", False, NOW)
    deck.record("legal", 0, "must_follow_suit", False, NOW)
    later = NOW + timedelta(minutes=30)
    deck.record("winner", 0, "first_of_equal", True, later)  # answered right on review
    deck.record("legal", 0, "must_follow_suit", False, later)  # missed again
    hit, miss = deck.entries["first_of_equal"].card.due, deck.entries["must_follow_suit"].card.due
    assert miss < hit
    assert [code for code, _e in deck.due(later + timedelta(minutes=5))] == ["must_follow_suit"]
    assert Deck.load(deck.dump()) == deck


def test_a_right_answer_to_a_new_rule_schedules_nothing():
    deck = Deck()
    deck.record("winner", 0, "first_of_equal", True, NOW)
    assert deck.entries == {}


def test_a_miss_comes_back_in_review_on_a_later_visit(app, client):
    app.config["PRACTICE_NOW"] = NOW
    q = make("winner", 11, RuleSet.named("ddv"), 0)
    html = client.get(f"/en/quiz/winner?q={q.seed}&l=0").get_data(as_text=True)
    post_answer(client, "/en/quiz/winner", html, form_for(q, wrong_for(q)))
    index = client.get("/en/quiz/").get_data(as_text=True)
    assert "Review: 0 rules due" in index  # a rule missed just now waits a little
    app.config["PRACTICE_NOW"] = NOW + timedelta(hours=1)
    assert "Review: 1 rule due" in client.get("/en/quiz/").get_data(as_text=True)
    page = client.get("/en/quiz/review").get_data(as_text=True)
    asked, data = question_of(app, page)
    assert data["m"] == "review" and data["k"] == "winner" and data["c"] == q.reasons[0].code
    done = post_answer(client, "/en/quiz/review", page, form_for(asked)).get_data(as_text=True)
    assert "Right!" in done and "Still due for review: 0 rules." in done
    assert "Nothing is due for review" in client.get("/en/quiz/review").get_data(as_text=True)


def test_a_lesson_can_schedule_a_missed_rule(app):
    app.config["PRACTICE_NOW"] = NOW
    q = make("legal", 5, RuleSet.named("ddv"), 0)
    with app.test_request_context("/en/learn/x"):
        practice.schedule_miss(q)
        assert list(practice.current().deck.entries) == [rule_of(q)]
        assert practice.current().deck.due(NOW + timedelta(hours=1))


def test_a_bad_practice_cookie_is_a_fresh_start(client):
    client.set_cookie("practice", "not-a-signed-value")
    assert client.get("/en/quiz/review").status_code == 200
    assert client.get("/en/").status_code == 200


# --- The daily challenge at the learner's levels, its missed questions, the streak ----------


def test_a_newcomer_s_daily_stays_within_level_0(app, client):
    for i in range(quiz_progress.DAILY_LENGTH):
        page = client.get("/en/quiz/daily").get_data(as_text=True)
        asked, data = question_of(app, page)
        assert data["l"] == 0 and asked.level == 0
        assert "Level: normal games" in page
        answer = form_for(asked) if i % 2 else form_for(asked, wrong_for(asked))
        done = post_answer(client, "/en/quiz/daily", page, answer).get_data(as_text=True)
        assert f"Today: {i + 1} of 10 answered" in done
        assert "right in a row" not in done  # the day's progress, not a per-kind streak


def test_the_daily_s_missed_questions_come_back_one_by_one(app, client):
    for i in range(quiz_progress.DAILY_LENGTH):
        page = client.get("/en/quiz/daily").get_data(as_text=True)
        asked, _data = question_of(app, page)
        post_answer(client, "/en/quiz/daily", page, form_for(asked) if i >= 3 else form_for(asked, wrong_for(asked)))
    result = client.get("/en/quiz/daily").get_data(as_text=True)
    assert "Answer the ones you missed again" in result
    plan = quiz_progress.daily_plan(quiz_progress.today())
    for number in range(3):
        page = client.get(f"/en/quiz/daily?missed={number}").get_data(as_text=True)
        asked, data = question_of(app, page)
        assert data["m"] == "missed" and asked.kind == plan[number][0] and asked.seed != plan[number][1]
        assert f"{number + 1} of 3" in page
        assert question_of(app, client.get(f"/en/quiz/daily?missed={number}").get_data(as_text=True))[0] == asked
        done = post_answer(client, f"/en/quiz/daily?missed={number}", page,
                           form_for(asked, wrong_for(asked))).get_data(as_text=True)
        assert "Why not your answer" in done
        assert ("Next missed question" in done) == (number < 2) and "Back to today’s result" in done
    assert client.get("/en/quiz/daily?missed=3").status_code == 404
    assert client.get("/en/quiz/daily?missed=x").status_code == 400  # not a number: a bad request
    assert "1 day in a row" in client.get("/en/quiz/").get_data(as_text=True)
    assert "1 day in a row" in client.get("/en/").get_data(as_text=True)


def test_the_streak_counts_days_once_and_breaks_after_a_gap():
    p = practice.Practice()
    p.count_day(100)
    p.count_day(100)
    assert p.current_streak(100) == 1
    p.count_day(101)
    assert p.current_streak(101) == 2 and p.current_streak(102) == 2
    assert p.current_streak(103) == 0
    p.count_day(104)
    assert p.streak == 1 and p.best == 2


def test_drill_of_one_kind_earns_no_streak(app, client):
    for _ in range(12):
        page = client.get("/en/quiz/points").get_data(as_text=True)
        asked, _data = question_of(app, page)
        post_answer(client, "/en/quiz/points", page, form_for(asked))
    assert "Finish a daily challenge or a review session" in client.get("/en/").get_data(as_text=True)
    assert progress_of(app, client).of("points").answered == 12
