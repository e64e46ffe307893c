"""Card partials: any engine card, its letter and name in every language, hands and tricks."""
from __future__ import annotations

import re

import pytest
from flask import render_template_string
from flask_babel import force_locale

from tutor.rules.cards import ALL_CARDS, card_id
from tutor.web.words.cards import card_face

CARD = '{% from "partials/_card.html" import card %}{{ card(id) }}'
HAND = '{% from "partials/_hand.html" import hand %}{{ hand(ids, "Hand") }}'
TRICK = '{% from "partials/_trick.html" import trick %}{{ trick(plays, winner=winner) }}'


@pytest.mark.parametrize(
    ("lang", "card", "letter", "name"),
    [
        ("de", "QC", "D", "Kreuz-Dame"),
        ("de", "JH", "B", "Herz-Bube"),
        ("de", "10D", "10", "Karo-Zehn"),
        ("en", "QC", "Q", "queen of clubs"),
        ("en", "AS", "A", "ace of spades"),
        ("fr", "KH", "R", "roi de cœur"),
        ("fr", "QS", "D", "dame de pique"),
        ("fr", "JD", "V", "valet de carreau"),
        ("it", "QC", "Q", "donna di fiori"),
        ("es", "QC", "Q", "dama de tréboles"),
        ("pt", "QC", "Q", "dama de paus"),
        ("pt", "AD", "A", "ás de ouros"),
    ],
)
def test_card_letter_and_name_in_the_pages_language(app, lang, card, letter, name):
    with app.test_request_context(f"/{lang}/"), force_locale(lang):
        html = render_template_string(CARD, id=card)
    assert f'aria-label="{name}"' in html
    assert f'<span class="card__rank" aria-hidden="true">{letter}</span>' in html


@pytest.mark.parametrize("lang", ["de", "en", "it", "es", "fr", "pt"])
def test_every_card_draws_in_every_language(app, lang):
    names = set()
    with app.test_request_context(f"/{lang}/"), force_locale(lang):
        for card in ALL_CARDS:
            face = card_face(card_id(card))
            names.add(face.name)
            html = render_template_string(CARD, id=card_id(card))
            colour = "red" if card_id(card)[-1] in "HD" else "black"
            assert f"card--{colour}" in html
            assert f'href="#suit-{card_id(card)[-1]}"' in html
    assert len(names) == 24  # every card has its own name


def test_an_unknown_card_is_an_error_not_a_blank(app):
    with app.test_request_context("/en/"), pytest.raises(ValueError):
        render_template_string(CARD, id="1H")


def test_a_hand_of_twelve_keeps_its_order(app):
    ids = ["10H", "QC", "QS", "JD", "AD", "KD", "AC", "10C", "9S", "AH", "KH", "9H"]
    with app.test_request_context("/en/"):
        html = render_template_string(HAND, ids=ids)
    assert re.findall(r'data-card="([^"]+)"', html) == ids
    assert 'aria-label="Hand"' in html


def test_a_trick_shows_who_played_what_in_order_and_who_takes_it(app):
    plays = [("Anna", "9D"), ("Ben", "QC"), ("Cleo", "10H"), ("Dan", "AD")]
    with app.test_request_context("/en/"):
        html = render_template_string(TRICK, plays=plays, winner=2)
    assert re.findall(r'class="trick__player">([^<]+)<', html) == ["Anna", "Ben", "Cleo", "Dan"]
    assert re.findall(r'data-card="([^"]+)"', html) == ["9D", "QC", "10H", "AD"]
    assert html.startswith("<ol")
    winner = re.search(r'trick__play--winner">(.*?)</li>', html, re.S).group(1)
    assert "Cleo" in winner and "takes the trick" in winner


def test_every_engine_id_has_a_label():
    from tutor.rules import terms
    from tutor.web import words

    assert set(words.GAMES) == set(terms.GAME_IDS)
    assert set(words.PARTIES) == set(terms.PARTY_IDS)
    assert set(words.ANNOUNCEMENTS) == set(terms.ANNOUNCEMENT_IDS)
    assert set(words.LINES) == set(terms.LINE_ID_LIST)
    assert set(words.RULESETS) == set(terms.RULESET_NAMES)
