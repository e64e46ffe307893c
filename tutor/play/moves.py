"""The human's choices in a deal, and their compact URL-safe spelling.

A deal is reproduced by its seed and the list of what the human chose, in order: his
reservation, cards passed or returned in a poverty, his answer to a poverty, announcements
and cards played. Each choice is one character, so a whole deal fits a short query string
(``m=gA0BQ...``). The characters are unreserved in URLs (RFC 3986) and never need escaping.

>>> moves = [Move("reserve", "healthy"), Move("announce", "re"), Move("card", "QC")]
>>> encode_moves(moves)
'g0D'
>>> decode_moves("g0D") == moves
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from tutor.rules.announcements import LIMITS
from tutor.rules.cards import IDS
from tutor.rules.errors import RulesError
from tutor.rules.reservations import ANNOUNCED_SOLOS

KINDS: Final = ("reserve", "poverty", "announce", "card")
RESERVATIONS: Final = ("healthy", "wedding", "poverty", *ANNOUNCED_SOLOS)
POVERTY_ANSWERS: Final = ("accept", "decline")
ANNOUNCEMENTS: Final = ("re", "kontra", *LIMITS)
MAX_MOVES: Final = 96  # far more than any deal needs (12 cards, 6 announcements, a few redeals)

# One character per choice; the four alphabets never overlap.
_CARD_CHARS: Final = "ABCDEFGHIJKLMNOPQRSTUVWX"  # card int 0..23 (see tutor.rules.cards)
_ANNOUNCE_CHARS: Final = "012345"  # re, kontra, no_90, no_60, no_30, schwarz
_RESERVE_CHARS: Final = "gwpdhscqja"  # healthy, wedding, poverty, then the solos in ANNOUNCED_SOLOS order
_POVERTY_CHARS: Final = "yx"  # accept, decline

_TABLES: Final[dict[str, tuple[str, tuple[str, ...]]]] = {
    "card": (_CARD_CHARS, IDS),
    "announce": (_ANNOUNCE_CHARS, ANNOUNCEMENTS),
    "reserve": (_RESERVE_CHARS, RESERVATIONS),
    "poverty": (_POVERTY_CHARS, POVERTY_ANSWERS),
}
_ENCODE: Final = {
    (kind, value): char for kind, (chars, values) in _TABLES.items() for char, value in zip(chars, values, strict=True)
}
_DECODE: Final = {char: (kind, value) for (kind, value), char in _ENCODE.items()}


@dataclass(frozen=True, slots=True)
class Move:
    """One choice of the human: ``kind`` is ``reserve`` (healthy, wedding, poverty or a solo
    id), ``poverty`` (accept or decline a poverty), ``announce`` (re, kontra, no_90, no_60,
    no_30, schwarz: "up to this level") or ``card`` (a card id: played, or passed and
    returned in a poverty's exchange)."""

    kind: str
    value: str

    def __post_init__(self) -> None:
        if (self.kind, self.value) not in _ENCODE:
            raise RulesError("bad_move", "m", kind=str(self.kind)[:12], value=str(self.value)[:12])


def encode_moves(moves: Iterable[Move]) -> str:
    """The URL spelling of a list of moves."""
    return "".join(_ENCODE[m.kind, m.value] for m in moves)


def decode_moves(text: object) -> list[Move]:
    """The moves a URL spells; RulesError (code ``bad_moves``) for anything that is not a
    string of move characters of a sensible length. Whether the moves can be made is for
    the deal to decide."""
    if not isinstance(text, str):
        raise RulesError("bad_moves", "m")
    if len(text) > MAX_MOVES:
        raise RulesError("bad_moves", "m", reason="too_long")
    moves = []
    for i, char in enumerate(text):
        decoded = _DECODE.get(char)
        if decoded is None:
            raise RulesError("bad_moves", f"m.{i}", reason="unknown_character")
        moves.append(Move(*decoded))
    return moves
