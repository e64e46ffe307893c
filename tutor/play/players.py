"""A computer player as one value: the decisions a deal asks of it, each a plain function, so
that the course of a deal (``tutor.play.run``) can seat any kind of player: the heuristic
bots of ``tutor.play.bots`` (the default), the analysis player of ``tutor.analysis.player``,
or, for the benchmarks, an older set of bots.

>>> HEURISTIC.name
'heuristic'
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Final, Protocol

from tutor.play import bots
from tutor.rules.cards import Card
from tutor.rules.deal import Deal
from tutor.rules.games import GameTable
from tutor.rules.reservations import Reservation
from tutor.rules.rulesets import RuleSet


class Reserve(Protocol):
    def __call__(self, rules: RuleSet, hand: Sequence[Card], level: int, *, wedding: bool, poverty: bool,
                 seat: int, seed: int, redeals: int) -> Reservation: ...


@dataclass(frozen=True)
class Player:
    """What a computer player decides: its reservation (``seat``, ``seed`` and ``redeals``
    say where it sits in which deal, for players that need it), a poverty's three cards
    passed, whether it takes a poverty and the three cards it gives back, the announcement
    it means to make with its dealt hand (level and reply), the announcement it makes before
    a card, and the card."""

    name: str
    reservation: Reserve
    poverty_pass: Callable[[Sequence[Card]], list[Card]]
    accepts_poverty: Callable[[RuleSet, Sequence[Card]], bool]
    poverty_return: Callable[[RuleSet, Sequence[Card]], list[Card]]
    announcement_wish: Callable[[GameTable, Sequence[Card], bool], tuple[int, int]]
    announcement: Callable[[Deal, int, tuple[int, int]], int | None]
    card: Callable[[Deal, int], Card]

    def playing(self, name: str, card: Callable[[Deal, int], Card]) -> Player:
        """The same player choosing its cards another way."""
        return replace(self, name=name, card=card)


def _reservation(rules: RuleSet, hand: Sequence[Card], level: int, *, wedding: bool, poverty: bool, seat: int,
                 seed: int, redeals: int) -> Reservation:
    return bots.reservation(rules, hand, level, wedding=wedding, poverty=poverty)


HEURISTIC: Final = Player(
    "heuristic", _reservation, bots.poverty_pass, bots.accepts_poverty, bots.poverty_return,
    bots.announcement_wish, bots.announcement, bots.choose_card,
)
