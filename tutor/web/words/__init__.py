"""The translated labels several features share: names the pages show for the engine's ids
(rule sets, house options, game kinds, announcements, scoring lines). Names only: what a
rule does is the engine's to say. Card faces are in `words.cards`, the messages of engine
errors in `words.errors`.

Module-level constants, so `lazy_gettext`: each is translated when a page renders it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from flask_babel import lazy_gettext as _l
from flask_babel.speaklater import LazyString

from tutor.rules.terms import AnnouncementId, Game, LineId, Party, RulesetName


@dataclass(frozen=True)
class Option:
    """A house option: its name, one line on what it changes, and a name for each value."""

    name: LazyString
    explanation: LazyString
    values: dict[object, LazyString]


RULESETS: Final[dict[RulesetName, LazyString]] = {
    "ddv": _l("DDV tournament rules"),
    "pagat": _l("Classic rules (pagat)"),
}
RULESET_EXPLANATIONS: Final[dict[RulesetName, LazyString]] = {
    "ddv": _l("The tournament rules of the German Doppelkopf Association (DDV), as played in clubs and tournaments."),
    "pagat": _l("The rules of the classic English description of the game, as many home games play them."),
}

OPTIONS: Final = {
    "dullen": Option(
        _l("Dullen"),
        _l("Which of the two Dullen (10♥) takes a trick when both fall in it."),
        {
            "first_wins": _l("the first one played wins"),
            "second_wins": _l("the second one wins"),
            "second_wins_except_last": _l("the second one wins, except in the last trick"),
        },
    ),
    "deck": Option(
        _l("Deck"),
        _l("Play with all 48 cards, or with 40 cards by leaving out the nines."),
        {48: _l("48 cards (with nines)"), 40: _l("40 cards (without nines)")},
    ),
    "schweinchen": Option(
        _l("Schweinchen"),
        _l("Whoever holds both A♦ declares them, and they become the highest trumps."),
        {False: _l("not played"), True: _l("played")},
    ),
    "karlchen": Option(
        _l("Karlchen"),
        _l("Extra point for the J♣ (Karlchen) in the last trick."),
        {
            "win": _l("only for winning the last trick with it"),
            "win_or_catch": _l("also for catching the opponents’ Karlchen"),
        },
    ),
    "poverty": Option(
        _l("Poverty (Armut)"),
        _l("A player with three trumps or fewer may pass cards to a partner."),
        {False: _l("not played"), True: _l("played")},
    ),
    "solo_lead": Option(
        _l("Who leads a solo"),
        _l("Who plays the first card when someone plays a solo."),
        {
            "by_solo_kind": _l("compulsory solo: the soloist; voluntary solo: the dealer’s left neighbour"),
            "soloist": _l("always the soloist"),
            "left_of_dealer": _l("always the dealer’s left neighbour"),
        },
    ),
}

GAMES: Final[dict[Game, LazyString]] = {
    "normal": _l("Normal game"),
    "wedding": _l("Wedding (Hochzeit)"),
    "poverty": _l("Poverty (Armut)"),
    "silent_wedding": _l("Silent wedding"),
    "wedding_solo": _l("Wedding played alone"),
    "solo_diamonds": _l("Diamonds solo"),
    "solo_hearts": _l("Hearts solo"),
    "solo_spades": _l("Spades solo"),
    "solo_clubs": _l("Clubs solo"),
    "solo_queens": _l("Queens solo"),
    "solo_jacks": _l("Jacks solo"),
    "solo_aces": _l("Aces solo (Fleischloser)"),
}

PARTIES: Final[dict[Party, LazyString]] = {"re": _l("Re"), "kontra": _l("Kontra")}

# Announcements by level; level 0 is the party's own name.
LEVELS: Final = {
    0: _l("Re / Kontra"),
    1: _l("no 90"),
    2: _l("no 60"),
    3: _l("no 30"),
    4: _l("schwarz"),
}
ANNOUNCEMENTS: Final[dict[AnnouncementId, LazyString]] = {
    "re": _l("Re"),
    "kontra": _l("Kontra"),
    "no_90": _l("no 90"),
    "no_60": _l("no 60"),
    "no_30": _l("no 30"),
    "schwarz": _l("schwarz"),
}

LINES: Final[dict[LineId, LazyString]] = {
    "won": _l("won"),
    "against_the_old_ones": _l("against the old ones (die Alten)"),
    "below_90": _l("opponents below 90"),
    "below_60": _l("opponents below 60"),
    "below_30": _l("opponents below 30"),
    "schwarz": _l("opponents took no trick (schwarz)"),
    "re_announced": _l("“Re” announced"),
    "kontra_announced": _l("“Kontra” announced"),
    "no_90_announced": _l("“no 90” announced"),
    "no_60_announced": _l("“no 60” announced"),
    "no_30_announced": _l("“no 30” announced"),
    "schwarz_announced": _l("“schwarz” announced"),
    "reached_120_against_no_90": _l("120 reached against “no 90”"),
    "reached_90_against_no_60": _l("90 reached against “no 60”"),
    "reached_60_against_no_30": _l("60 reached against “no 30”"),
    "reached_30_against_schwarz": _l("30 reached against “schwarz”"),
    "failed_announcement": _l("opponents missed their announcement"),
    "fox": _l("fox caught (Fuchs)"),
    "doppelkopf": _l("Doppelkopf (a trick of 40 or more)"),
    "karlchen": _l("Karlchen won the last trick"),
    "karlchen_caught": _l("Karlchen caught in the last trick"),
}

RANKS: Final = {
    "A": _l("Ace"),
    "10": _l("Ten"),
    "K": _l("King"),
    "Q": _l("Queen"),
    "J": _l("Jack"),
    "9": _l("Nine"),
}

# The named cards (which card each is comes from the engine's constants).
SPECIAL_CARDS: Final = {
    "dulle": _l("Dulle"),
    "alten": _l("die Alten (the old ones)"),
    "fuchs": _l("Fuchs (fox)"),
    "karlchen": _l("Karlchen"),
}


def signed(number: int) -> str:
    """A score as a sheet writes it: +5, −5 (a real minus sign), 0."""
    return f"+{number}" if number > 0 else f"\u2212{-number}" if number < 0 else "0"


def number(value: int) -> str:
    """A total: −8 with a real minus sign."""
    return f"\u2212{-value}" if value < 0 else str(value)
