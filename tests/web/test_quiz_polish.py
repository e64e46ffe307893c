"""The quiz after a new user's try-out (issue 24): one review count, a spaced-review question
that stays the same until it is answered, wrong answers explained one misconception at a time
(and a score's forgotten line named), why 121 and not 120, why the groom does not lead, card
names in Spanish and Italian without a wrong article, the whole share text in view, and one
French spacing before : ; ! ?"""
from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest

from tests.web.test_quiz import form_for, post_answer, question_of
from tests.web.test_quiz_teach import NOW
from tutor.quiz import make
from tutor.rules.rulesets import RuleSet
from tutor.web.quiz import progress as quiz_progress

DDV = RuleSet.named("ddv")
CATALOGS = Path(__file__).resolve().parents[2] / "translations"
WHY_NOT = re.compile(r'<ul class="quiz-reasons quiz-reasons--misses">(.*?)</ul>', re.S)


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def asked_page(client, kind: str, seed: int, level: int = 0) -> str:
    return client.get(f"/en/quiz/{kind}?q={seed}&l={level}").get_data(as_text=True)


def answered(client, kind: str, seed: int, answer: tuple[str, ...], level: int = 0) -> str:
    page = asked_page(client, kind, seed, level)
    q = make(kind, seed, DDV, level)
    return post_answer(client, f"/en/quiz/{kind}", page, form_for(q, answer)).get_data(as_text=True)


def test_a_review_question_stays_the_same_across_reloads_until_it_is_answered(app, client):
    app.config["PRACTICE_NOW"] = NOW
    q = make("winner", 11, DDV, 0)
    wrong = next(c.value for c in q.fields[0].choices if c.value != q.answer[0])
    post_answer(client, "/en/quiz/winner", asked_page(client, "winner", 11), form_for(q, (wrong,)))
    app.config["PRACTICE_NOW"] = NOW + timedelta(hours=1)
    first, data = question_of(app, client.get("/en/quiz/review").get_data(as_text=True))
    for _ in range(3):
        again, again_data = question_of(app, client.get("/en/quiz/review").get_data(as_text=True))
        assert (again.kind, again.seed, again.level) == (first.kind, first.seed, first.level)
    page = client.get("/en/quiz/review").get_data(as_text=True)
    wrong = next(c.value for c in first.fields[0].choices if c.value != first.answer[0])
    post_answer(client, "/en/quiz/review", page, form_for(first, (wrong,)))  # missed again: due again soon
    app.config["PRACTICE_NOW"] = NOW + timedelta(hours=3)
    later = client.get("/en/quiz/review").get_data(as_text=True)
    if "Nothing is due" not in later:
        assert question_of(app, later)[0].seed != first.seed  # answered: the next one is another


def test_the_landing_page_counts_what_is_due_once(app, client):
    app.config["PRACTICE_NOW"] = NOW
    for seed in (11, 12, 13):
        q = make("winner", seed, DDV, 0)
        wrong = next(c.value for c in q.fields[0].choices if c.value != q.answer[0])
        post_answer(client, "/en/quiz/winner", asked_page(client, "winner", seed), form_for(q, (wrong,)))
    landing = client.get("/en/quiz/").get_data(as_text=True)
    assert landing.count("Review: ") == 1 and "Due for review:" not in landing and ">due<" not in landing


def test_several_wrong_ticks_of_one_misconception_get_one_sentence(client):
    q = make("legal", 3, DDV, 0)  # a club lead: only 10♣ and A♣ follow
    assert q.answer == ("10C,AC",)
    html = answered(client, "legal", 3, ("10C,AC,AS,KS",))
    misses = WHY_NOT.search(html).group(1)
    assert misses.count("<li>") == 1
    assert "The A♠ and K♠ you ticked are not clubs: while you still hold plain clubs, you must play one." \
        in text_of(misses)


def test_a_missed_score_names_the_forgotten_line(client):
    q = make("score", 0, DDV, 0)
    assert q.answer == ("re", "7")
    html = answered(client, "score", 0, ("re", "6"))
    assert "you left out the line “Karlchen" in text_of(WHY_NOT.search(html).group(1))


def test_the_121_answer_says_why_not_120(client):
    q = make("needs", 0, DDV, 0)
    assert q.answer == ("p121",) and q.reasons[0].code == "plain_majority"
    html = answered(client, "needs", 0, q.answer)
    assert "Why 121 and not 120: at 120 to 120 Kontra wins, so Re needs one card point more than half." in html


def test_the_wedding_lead_answer_says_why_the_groom_does_not_lead(client):
    q = make("game", 12, DDV, 1)
    assert q.game == "wedding"
    html = answered(client, "game", 12, q.answer, level=1)
    assert "A wedding is no solo: the groom does not lead, the first card is played as in a normal game." in html


@pytest.mark.parametrize("lang", ["es", "it"])
def test_a_card_of_any_rank_is_named_without_a_wrong_article(lang):
    """"la 10♣", "la K♥": the article fitted a queen only; "la carta 10♣" fits every card."""
    catalog = (CATALOGS / lang / "LC_MESSAGES" / "messages.po").read_text()
    strings = re.findall(r'^msgstr(?:\[\d\])? "(.*)"', catalog, re.M)
    assert not [s for s in strings if re.search(r"\b[Ll]a %\(card\)s", s)]
    assert any("la carta %(card)s" in s for s in strings)


def test_french_puts_one_narrow_no_break_space_before_colon_semicolon_and_question_marks():
    catalog = (CATALOGS / "fr" / "LC_MESSAGES" / "messages.po").read_text()
    body = catalog.split("\n\n", 1)[1]  # past the header's fields
    joined = re.findall(r'^msgstr(?:\[\d\])? "(.*)"\n((?:".*"\n)*)', body, re.M)
    texts = [first + "".join(re.findall(r'"(.*)"', rest)) for first, rest in joined]
    wrong = [t for t in texts if re.search(r"[^\u202f][:;!?](\s|$)", t)]
    assert wrong == []
    assert sum(t.count("\u202f:") for t in texts) > 300


def test_the_share_box_is_tall_enough_for_its_whole_text(app, client):
    for _i in range(quiz_progress.DAILY_LENGTH):
        page = client.get("/en/quiz/daily").get_data(as_text=True)
        asked, _data = question_of(app, page)
        post_answer(client, "/en/quiz/daily", page, form_for(asked))
    html = client.get("/en/quiz/daily").get_data(as_text=True)
    rows = int(re.search(r'<textarea id="share-text" class="quiz-share__text" rows="(\d+)"', html).group(1))
    text = html.split('readonly>', 1)[1].split("</textarea>", 1)[0]
    assert rows >= len(text.split("\n")) + 1  # the long first line wraps on a phone


def test_a_ddv_reservation_list_marks_an_unmarked_solo_voluntary(client):
    """Under the DDV a solo that is not the player's compulsory one is a Lustsolo (the dealer's
    left leads, the deal passes on): the quiz's list says so, as the lessons' does."""
    q = make("game", 0, DDV, 2)
    assert any(r[1] == "solo" and not r[3] for r in q.facts["reservations"])
    assert "voluntary solo (Lustsolo): compulsory solo already played" in text_of(asked_page(client, "game", 0, 2))
