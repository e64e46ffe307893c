"""The sentence that says why a trick went where it went (quiz, play page, rules reference):
a lone trump is the only trump of the trick, never "the highest trump"; a game without trumps
never says that nobody played one (PLAY-REVIEW.md §4.2.2, §4.2.3)."""
from __future__ import annotations

import pytest
from flask_babel import force_locale

from tutor.rules.explain import trick_reason
from tutor.rules.rulesets import RuleSet
from tutor.web.words.questions.reasons import trick_reason_text

DDV = RuleSet.named("ddv")


@pytest.fixture
def en(app):
    with app.test_request_context("/en/"), force_locale("en"):
        yield


def said(cards: str, game: str = "normal") -> str:
    return trick_reason_text(trick_reason(cards.split(), game, DDV))


def test_a_lone_nine_of_diamonds_on_a_plain_lead_is_the_only_trump(en):
    text = said("AS 10S 9D KS")
    assert "the only trump in this trick, 9♦, wins" in text
    assert "the highest trump, " not in text


def test_two_trumps_on_a_plain_lead_name_the_highest_in_this_trick(en):
    assert "the highest trump in this trick, J♦, wins" in said("AS JD 9D KS")


def test_a_trump_lead_nobody_else_trumps(en):
    assert said("9D AS KH 9C") == "A trump was led and nobody else played one: 9♦ wins."
    assert said("9D JD KD 9C") == "A trump was led: the highest trump in this trick, J♦, wins."


def test_an_aces_solo_never_says_nobody_played_a_trump(en):
    for cards in ("KC AH 9C", "KC 9C AC"):
        text = said(cards, "solo_aces")
        assert "nobody played a trump" not in text and "this game has no trumps" in text
    assert "nobody played a trump" in said("KC AH 9C")


@pytest.mark.parametrize("lang", ["de", "it", "es", "fr", "pt"])
def test_every_language_words_them(app, lang):
    with app.test_request_context(f"/{lang}/"), force_locale(lang):
        texts = [said("AS 10S 9D KS"), said("AS JD 9D KS"), said("9D AS KH 9C"), said("KC AH 9C", "solo_aces"),
                 said("KC 9C AC", "solo_aces")]
    with app.test_request_context("/en/"), force_locale("en"):
        english = [said("AS 10S 9D KS"), said("AS JD 9D KS"), said("9D AS KH 9C"), said("KC AH 9C", "solo_aces"),
                   said("KC 9C AC", "solo_aces")]
    assert all(a != b for a, b in zip(texts, english))
