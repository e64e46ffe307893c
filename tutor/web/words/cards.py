"""How a card looks and reads in the page's language: rank letter, suit, colour, name.

Templates draw cards through `partials/_card.html`, which asks `card_face(id)` here. The
engine decides what a card is; this module only says it in words.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from flask_babel import get_locale, pgettext
from flask_babel import lazy_gettext as _l

from tutor.rules.cards import parse_card, rank_of, suit_of

RED_SUITS: Final = frozenset({"H", "D"})
SUIT_SYMBOLS: Final = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}


def rank_letter(rank: str) -> str:
    """The letter printed on the card in this language (German D/B, French R/D/V)."""
    letters = {
        "A": pgettext("rank letter: ace", "A"),
        "10": pgettext("rank letter: ten", "10"),
        "K": pgettext("rank letter: king", "K"),
        "Q": pgettext("rank letter: queen", "Q"),
        "J": pgettext("rank letter: jack", "J"),
        "9": pgettext("rank letter: nine", "9"),
    }
    return letters[rank]


def rank_name(rank: str) -> str:
    """The rank's name as used inside a card's name ("Dame", "queen")."""
    names = {
        "A": pgettext("rank in a card name", "ace"),
        "10": pgettext("rank in a card name", "ten"),
        "K": pgettext("rank in a card name", "king"),
        "Q": pgettext("rank in a card name", "queen"),
        "J": pgettext("rank in a card name", "jack"),
        "9": pgettext("rank in a card name", "nine"),
    }
    return names[rank]


def suit_name(suit: str) -> str:
    """The suit's name as used inside a card's name ("Kreuz", "clubs")."""
    names = {
        "C": pgettext("suit in a card name", "clubs"),
        "S": pgettext("suit in a card name", "spades"),
        "H": pgettext("suit in a card name", "hearts"),
        "D": pgettext("suit in a card name", "diamonds"),
    }
    return names[suit]


# A suit on its own, as a heading says it ("Clubs", "Kreuz").
SUIT_TITLES: Final = {
    "C": _l("Clubs"),
    "S": _l("Spades"),
    "H": _l("Hearts"),
    "D": _l("Diamonds"),
}


def card_name(card_id: str) -> str:
    """The card read aloud: "Kreuz-Dame", "queen of clubs", "dame de trèfle"."""
    card = parse_card(card_id)
    return pgettext(
        "card name", "%(rank)s of %(suit)s", rank=rank_name(rank_of(card)), suit=suit_name(suit_of(card))
    )


@dataclass(frozen=True)
class CardFace:
    """What `_card.html` needs to draw one card."""

    id: str
    letter: str
    suit: str
    symbol: str
    red: bool
    name: str


def card_face(card_id: str) -> CardFace:
    """Everything shown on a card, from its engine id ("QC", "10H"); ValueError otherwise.
    Worked out once per language: a page draws the same few cards hundreds of times."""
    return _card_face(str(get_locale()), card_id)


@lru_cache(maxsize=1024)
def _card_face(locale: str, card_id: str) -> CardFace:
    """The face in `locale`, which must be the locale in force: the cache is keyed by it, so
    a face worked out in one language is never shown in another."""
    card = parse_card(card_id)
    suit = suit_of(card)
    return CardFace(
        id=card_id,
        letter=rank_letter(rank_of(card)),
        suit=suit,
        symbol=SUIT_SYMBOLS[suit],
        red=suit in RED_SUITS,
        name=card_name(card_id),
    )
