"""Find the best card over HTTP: the position as the page shows it, answered right and wrong
in every language, the rules it follows under house options, the offline pack's answers, the
progress cookie and the spaced review of a missed tip."""
from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from html import unescape

import pytest
from flask_babel import force_locale

from tests.web.test_quiz import form_for, post_answer, progress_of, question_of, wrong_for
from tutor.analysis.tips import Tip
from tutor.quiz import make
from tutor.quiz.why import rule_of
from tutor.rules.rulesets import RuleSet
from tutor.web.quiz import progress as quiz_progress
from tutor.web.words.analysis import tip_text
from tutor.web.words.questions.misses import miss_text, misses
from tutor.web.words.questions.reasons import reason_text

DDV = RuleSet.named("ddv")
LANGUAGES = ("de", "en", "it", "es", "fr", "pt")
NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def _seed_with_earlier_tricks(level: int = 1) -> int:
    return next(s for s in range(200) if make("best_card", s, DDV, level).facts["earlier"])


def test_the_position_shows_the_hand_the_table_the_tricks_and_the_parties(client):
    seed = _seed_with_earlier_tricks()
    q = make("best_card", seed, DDV, 1)
    html = client.get(f"/en/quiz/best_card?q={seed}&l=1").get_data(as_text=True)
    assert "Find the best card" in html and "Which card is best?" in html
    assert html.count('<tr><th scope="row" class="num">') == len(q.facts["earlier"])  # one row a trick so far
    assert "North (you)" in html and "Announced" in html
    buttons = re.findall(r'<button class="quiz-pick" type="submit" name="card" value="([^"]+)"', html)
    assert buttons == [c.value for c in q.fields[0].choices] and q.answer[0] in buttons
    if q.facts["plays"]:
        assert "The trick so far" in html


@pytest.mark.parametrize("lang", LANGUAGES)
def test_right_and_wrong_answers_say_why_in_every_language(app, client, lang):
    seed = _seed_with_earlier_tricks()
    html = client.get(f"/{lang}/quiz/best_card?q={seed}&l=1").get_data(as_text=True)
    q, data = question_of(app, html)
    assert data["k"] == "best_card"
    with app.test_request_context(f"/{lang}/"), force_locale(lang):
        tip = reason_text(q.reasons[0], q)
    right = unescape(post_answer(client, f"/{lang}/quiz/best_card", html, form_for(q)).get_data(as_text=True))
    assert tip in right and 'class="quiz-verdict quiz-verdict--right"' in right and "/learn/tips" in right
    html = client.get(f"/{lang}/quiz/best_card?q={seed + 1}&l=1").get_data(as_text=True)
    q, _data = question_of(app, html)
    with app.test_request_context(f"/{lang}/"), force_locale(lang):
        tip = reason_text(q.reasons[0], q)
        wrong = wrong_for(q)
        cost = miss_text(misses(q, wrong)[0], q)
    page = unescape(post_answer(client, f"/{lang}/quiz/best_card", html, form_for(q, wrong)).get_data(as_text=True))
    assert 'quiz-verdict--wrong' in page and tip in page and cost in page
    assert progress_of(app, client).of("best_card").answered == 2


def test_the_reason_is_the_tip_s_own_sentence(app):
    q = make("best_card", 3, DDV, 2)
    with app.test_request_context("/en/"), force_locale("en"):
        assert reason_text(q.reasons[0], q) == tip_text(Tip(q.reasons[0].code, q.reasons[0].params))
        assert "game points a deal" in reason_text(q.reasons[1], q)


def test_under_house_options_the_question_says_which_rules_it_follows(app, client):
    client.set_cookie("rules", "ddv|deck=40")
    html = client.get("/en/quiz/best_card?q=5&l=1").get_data(as_text=True)
    q, data = question_of(app, html)
    assert data["r"] == "ddv|deck=40" and q.rules == DDV and q.rules_decide
    assert "This question follows: DDV tournament rules." in unescape(html)
    plain = client.application.test_client().get("/en/quiz/best_card?q=5&l=1").get_data(as_text=True)
    assert "This question follows" not in unescape(plain)
    answered = post_answer(client, "/en/quiz/best_card", html, form_for(q)).get_data(as_text=True)
    assert "Right!" in answered


@pytest.mark.parametrize("cookie", ["ddv", "pagat"])
def test_the_pack_checks_best_card_answers_on_the_device(client, cookie):
    """quiz.js compares the button pressed with the article's data-answer: every best_card
    question of the pack carries an answer that is one of its buttons, the engine's own."""
    client.set_cookie("rules", cookie)
    html = client.get("/en/quiz/pack").get_data(as_text=True)
    articles = re.findall(r'<article class="pack-q" id="(pack-best_card-\d+)" data-answer="([^"]*)" '
                          r'data-fields="([^"]*)" data-modes="([^"]*)".*?</article>', html, re.S)
    assert len(articles) == 30
    for ident, answer, fields, modes in articles:
        body = re.search(rf'id="{ident}".*?</article>', html, re.S).group(0)
        values = re.findall(r'<button class="quiz-pick" type="submit" name="card" value="([^"]+)"', body)
        assert (fields, modes) == ("card", "one") and answer in values and len(values) >= 2, ident
    assert "Find the best card" in html and "/learn/tips" in html


def test_progress_in_the_cookie_keeps_the_kind():
    p = quiz_progress.Progress()
    p.of("best_card").record(True, 800)
    again = quiz_progress.Progress.load(p.dump())
    assert again.of("best_card").answered == 1 and "best_card" in again.met()


def test_the_daily_challenge_asks_every_kind_once_in_ten_questions():
    for day in range(800, 830):
        plan = quiz_progress.daily_plan(day)
        assert len(plan) == quiz_progress.DAILY_LENGTH == 10
        assert sorted(k for k, _s, _l in plan) == sorted(quiz_progress.KINDS)


def test_a_missed_tip_comes_back_in_review_as_a_best_card_question(app, client):
    app.config["PRACTICE_NOW"] = NOW
    q = make("best_card", 11, DDV, 1)
    html = client.get("/en/quiz/best_card?q=11&l=1").get_data(as_text=True)
    post_answer(client, "/en/quiz/best_card", html, form_for(q, wrong_for(q)))
    app.config["PRACTICE_NOW"] = NOW + timedelta(hours=1)
    page = client.get("/en/quiz/review").get_data(as_text=True)
    asked, data = question_of(app, page)
    assert data["m"] == "review" and data["k"] == "best_card" and data["c"] == rule_of(q)
    done = post_answer(client, "/en/quiz/review", page, form_for(asked)).get_data(as_text=True)
    assert "Right!" in done
