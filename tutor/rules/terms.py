"""The game's words as types: the ids the engine, the quiz and the web layer pass around.

Each ``Literal`` names every id of its kind, so mypy catches a misspelt game or line, and
each tuple beside it lists the same ids at run time (a test checks they agree).

>>> GAME_IDS[:3]
('normal', 'wedding', 'poverty')
>>> SEATS
4
"""
from __future__ import annotations

from typing import Final, Literal, TypeVar, get_args

RulesetName = Literal["ddv", "pagat"]
Party = Literal["re", "kontra"]
Game = Literal[
    "normal",
    "wedding",
    "poverty",
    "silent_wedding",
    "wedding_solo",
    "solo_diamonds",
    "solo_hearts",
    "solo_spades",
    "solo_clubs",
    "solo_queens",
    "solo_jacks",
    "solo_aces",
]
# Announcements above a party's own name ("no 90" … "schwarz"), then every announcement id.
Limit = Literal["no_90", "no_60", "no_30", "schwarz"]
AnnouncementId = Literal["re", "kontra", "no_90", "no_60", "no_30", "schwarz"]
Extra = Literal["fox", "doppelkopf", "karlchen", "karlchen_caught"]
LineId = Literal[
    "won",
    "against_the_old_ones",
    "below_90",
    "below_60",
    "below_30",
    "schwarz",
    "re_announced",
    "kontra_announced",
    "no_90_announced",
    "no_60_announced",
    "no_30_announced",
    "schwarz_announced",
    "reached_120_against_no_90",
    "reached_90_against_no_60",
    "reached_60_against_no_30",
    "reached_30_against_schwarz",
    "failed_announcement",
    "fox",
    "doppelkopf",
    "karlchen",
    "karlchen_caught",
]

RULESET_NAMES: Final[tuple[RulesetName, ...]] = get_args(RulesetName)
PARTY_IDS: Final[tuple[Party, ...]] = get_args(Party)
GAME_IDS: Final[tuple[Game, ...]] = get_args(Game)
LIMIT_IDS: Final[tuple[Limit, ...]] = get_args(Limit)
ANNOUNCEMENT_IDS: Final[tuple[AnnouncementId, ...]] = get_args(AnnouncementId)
EXTRA_IDS: Final[tuple[Extra, ...]] = get_args(Extra)
LINE_ID_LIST: Final[tuple[LineId, ...]] = get_args(LineId)

SEATS: Final = 4  # four players take part in every deal


Id = TypeVar("Id", bound=str)


def narrow(text: str, ids: tuple[Id, ...]) -> Id:
    """The id of ``ids`` spelt ``text``, typed as such; ValueError for anything else.

    >>> narrow("re", PARTY_IDS)
    're'
    """
    for known in ids:
        if known == text:
            return known
    raise ValueError(f"not one of {ids}: {text!r}")
