"""Cards, their ids and points, and the two decks.

A card is a small int, ``suit * 6 + rank`` with suits and ranks in the order below, so the
engine can index tables by it. Ids are rank + suit, as players write them: ``QC``, ``10H``.

>>> card_id(parse_card("10H"))
'10H'
>>> POINTS[parse_card("AD")]
11
>>> len(deck(48)), sum(POINTS[c] for c in deck(40))
(48, 240)
"""
from __future__ import annotations

from typing import Final

Card = int

SUITS: Final = ("C", "S", "H", "D")  # clubs, spades, hearts, diamonds: the ranking order of suits
RANKS: Final = ("A", "10", "K", "Q", "J", "9")
RANK_POINTS: Final = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0}
CARD_COUNT: Final = len(SUITS) * len(RANKS)  # 24 distinct cards, each twice in a deck
DECK_POINTS: Final = 240


def make_card(rank: str, suit: str) -> Card:
    """The card of this rank and suit."""
    return SUITS.index(suit) * 6 + RANKS.index(rank)


def rank_of(card: Card) -> str:
    """The rank letter(s) of a card: "A", "10", "K", "Q", "J" or "9"."""
    return RANKS[card % 6]


def suit_of(card: Card) -> str:
    """The suit letter of a card: "C", "S", "H" or "D"."""
    return SUITS[card // 6]


ALL_CARDS: Final[tuple[Card, ...]] = tuple(range(CARD_COUNT))
IDS: Final[tuple[str, ...]] = tuple(rank_of(c) + suit_of(c) for c in ALL_CARDS)
_BY_ID: Final = {card_id: card for card, card_id in enumerate(IDS)}
POINTS: Final[tuple[int, ...]] = tuple(RANK_POINTS[rank_of(c)] for c in ALL_CARDS)


def card_id(card: Card) -> str:
    """The id of a card, rank + suit: ``"QC"``."""
    return IDS[card]


def parse_card(text: str) -> Card:
    """The card with this id; ValueError for anything else (ids are uppercase only)."""
    try:
        return _BY_ID[text]
    except (KeyError, TypeError):
        raise ValueError(f"not a card id: {text!r}") from None


def card_points(card: Card | str) -> int:
    """Card points ("Augen") of one card, by int or id."""
    return POINTS[parse_card(card) if isinstance(card, str) else card]


def in_deck(card: Card, deck_size: int) -> bool:
    """Whether the card is in the deck of this size (the 40-card deck has no nines)."""
    return deck_size == 48 or rank_of(card) != "9"


def deck(deck_size: int = 48) -> list[Card]:
    """Every card of the deck twice, in id order: 48 cards, or 40 without the nines."""
    return [c for c in ALL_CARDS if in_deck(c, deck_size) for _ in range(2)]


# Named cards of the game.
QUEEN_OF_CLUBS: Final = make_card("Q", "C")  # die Alten: their holders are Re in a normal game
TEN_OF_HEARTS: Final = make_card("10", "H")  # the Dulle
ACE_OF_DIAMONDS: Final = make_card("A", "D")  # the fox (Fuchs)
JACK_OF_CLUBS: Final = make_card("J", "C")  # Karlchen
