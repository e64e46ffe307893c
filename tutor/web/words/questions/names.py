"""The words every question is put in: seats (from the quiz's or the learner's view), players,
cards, games, parties, announcements, the quiz's kinds and topics, a field's label."""

from __future__ import annotations

from typing import Any, Final

from babel.lists import format_list
from flask import g, has_app_context
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from tutor.rules.announcements import announcement_id
from tutor.rules.terms import GAME_IDS, PARTY_IDS, narrow
from tutor.web import words
from tutor.web.words.cards import card_face, suit_name

SEATS: Final = (_l("North"), _l("East"), _l("South"), _l("West"))
# Lessons (and play) name seats from the learner's own view: seat 0 is you, in the south,
# then West, North and East in play order. The quiz keeps SEATS.
LEARNER_SEATS: Final = (_l("South (you)"), _l("West"), _l("North"), _l("East"))
KIND_TITLES: Final = {
    "winner": _l("Who takes the trick"),
    "legal": _l("Which cards may be played"),
    "trumps": _l("Trumps"),
    "points": _l("Card points"),
    "announce": _l("Who may still announce"),
    "needs": _l("What a party needs"),
    "score": _l("Score the deal"),
    "game": _l("Which game is played"),
    "party": _l("Re or Kontra"),
    "best_card": _l("Find the best card"),
}
KIND_TEXTS: Final = {
    "winner": _l("Tap the card that takes the trick."),
    "legal": _l("Tick every card the player may play."),
    "trumps": _l("Which card is higher, and which cards are trumps."),
    "points": _l("Count the card points in a trick or a pile."),
    "announce": _l("Deadlines, replies and a wedding’s clarification."),
    "needs": _l("How many card points win, given the announcements."),
    "score": _l("Who won a deal and what each player writes."),
    "game": _l("From four reservations to the game and the first card."),
    "party": _l("The old ones, a wedding, a poverty, a solo."),
    "best_card": _l("From real deals: one card is clearly best, and a table tip says why."),
}
LEVEL_NAMES: Final = {
    0: _l("normal games"),
    1: _l("normal games and weddings"),
    2: _l("with solos"),
    3: _l("everything, house options too"),
}


def learner_view() -> None:
    """Name seats from the learner's view (LEARNER_SEATS) for the rest of this request."""
    g.learner_seats = True


def is_learner(number: Any) -> bool:
    """Whether seats are named from the learner's view and this seat is the learner's own."""
    return number == 0 and has_app_context() and bool(g.get("learner_seats", False))


def seat(number: int) -> str:
    learner = has_app_context() and g.get("learner_seats", False)
    return str((LEARNER_SEATS if learner else SEATS)[number])


def hand_title(number: int, after_exchange: bool = False) -> str:
    """The heading over a player's cards: "Your hand" when they are the learner's own (lessons)."""
    if is_learner(number):
        return _("Your cards after the exchange") if after_exchange else _("Your hand")
    if after_exchange:
        return _("%(seat)s’s cards after the exchange", seat=seat(number))
    return _("%(seat)s’s hand", seat=seat(number))


def player(number: int) -> str:
    """A player at an evening's table of four to seven (by the order they sit in)."""
    return _("Player %(num)d", num=number + 1)


def players(numbers: list[int]) -> str:
    return format_list([player(n) for n in numbers], locale=str(get_locale()))


def plays(pairs: list[tuple[int, str]]) -> list[tuple[str, str]]:
    """(seat, card) pairs as the trick partial takes them: (player name, card)."""
    return [(seat(s), c) for s, c in pairs]


def winner_index(pairs: list[tuple[int, str]], winner: int) -> int:
    """Where in the trick the winning seat played."""
    return [s for s, _c in pairs].index(winner)


def short(card_id: str) -> str:
    """A card as players write it: "D♣" in German, "Q♣" in English (from the card's face,
    worked out once per language)."""
    face = card_face(card_id)
    return face.letter + face.symbol


def game_name(game: str) -> str:
    return str(words.GAMES[narrow(game, GAME_IDS)])


def party_name(party: str) -> str:
    return str(words.PARTIES[narrow(party, PARTY_IDS)])


def announcement(level: int, party: str) -> str:
    return str(words.ANNOUNCEMENTS[announcement_id(level, party)])



def need_text(value: str) -> str:
    if value == "all":
        return _("all tricks")
    if value == "one":
        return _("at least one trick")
    return _("at least %(points)d card points", points=int(value[1:]))


def field_label(name: str | None) -> str:
    return {
        "winner": _("Who won?"),
        "result": _("Points for each Re player"),
        "result_solo": _("Points for the soloist"),
        "game": _("Game"),
        "leader": _("Plays the first card"),
        "extras": _("Extra points"),
        "possible": _("Could this row be on the sheet?"),
        "dealer": _("Deals next"),
        "player": _("Must play a solo"),
        "poverty": _("May declare poverty"),
        "choice": _("Your choice"),
        "sheet": _("Points"),
    }.get(name or "", "")


def section_name(section: str) -> str:
    """The topic a question belongs to, as a heading or a link names it."""
    return str(SECTION_NAMES.get(section, ""))


def cards_text(ids: list[str]) -> str:
    return ", ".join(short(c) for c in ids)



def suit_of(p: dict[str, Any]) -> str:
    return suit_name(p["suit"])



SECTION_NAMES: Final = {
    "trumps": _l("Trumps and tricks"),
    "cards": _l("Cards and card points"),
    "announcements": _l("Announcements"),
    "winning": _l("What each party needs"),
    "scoring": _l("Scoring"),
    "parties": _l("Re and Kontra"),
    "reservations": _l("Reservations"),
    "sheet": _l("The score sheet"),
    "history": _l("History"),
}


def listing(values: list[Any]) -> str:
    """Items as a sentence lists them in the page's language ("A, B and C")."""
    return format_list([str(v) for v in values], locale=str(get_locale()))
