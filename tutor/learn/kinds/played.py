"""Tricks that were played, as a lesson's position gives them: checked like a real table
(each card legal, from the hand that played it, the winners the engine's)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tutor.quiz.base import SEATS, card_ids, copies
from tutor.rules.cards import card_id, parse_card
from tutor.rules.errors import RulesError
from tutor.rules.games import GameTable, game_table
from tutor.rules.rulesets import RuleSet


def game_table_of(game: str, rules: RuleSet) -> GameTable:
    return game_table("wedding" if game == "wedding_solo" else game, rules)


def ids_of(cards: Sequence[int]) -> list[str]:
    return [card_id(c) for c in cards]



@dataclass(frozen=True, slots=True)
class Played:
    """Complete tricks in play order: their cards, who led each and who took each, and the
    suits (suit classes, trumps included) each seat has shown it holds none of."""

    tricks: tuple[tuple[str, ...], ...]
    leaders: tuple[int, ...]
    winners: tuple[int, ...]
    void: tuple[frozenset[int], ...]
    # (trick index, seat) of each card that did not follow the suit led, by seat
    shown_void: tuple[tuple[tuple[int, int], ...], ...]

    def plays(self, t: int) -> list[tuple[int, str]]:
        return [((self.leaders[t] + i) % SEATS, c) for i, c in enumerate(self.tricks[t])]

    def played_by(self, seat: int) -> list[str]:
        return [c for t in range(len(self.tricks)) for s, c in self.plays(t) if s == seat]

    @property
    def next_leader(self) -> int | None:
        return self.winners[-1] if self.winners else None


def replay(value: Any, first: int, table: GameTable, rules: RuleSet, name: str = "tricks",
           last_is_last: bool = False) -> Played:
    """Complete tricks, checked: four cards each, no card more than twice, and no player
    plays a suit (or a trump) after showing he holds none of it (RULES.md §3)."""
    if not isinstance(value, (list, tuple)) or len(value) > rules.tricks:
        raise RulesError("wrong_count", name, low=0, high=rules.tricks)
    tricks = [card_ids(t, rules, f"{name}.{i}", SEATS, SEATS) for i, t in enumerate(value)]
    copies(tricks, name)
    void: list[set[int]] = [set() for _ in range(SEATS)]
    shown: list[list[tuple[int, int]]] = [[] for _ in range(SEATS)]
    leaders: list[int] = []
    winners: list[int] = []
    leader = first
    for t, trick in enumerate(tricks):
        cards = [parse_card(c) for c in trick]
        lead = table.suit_class[cards[0]]
        for i, card in enumerate(cards):
            seat = (leader + i) % SEATS
            cls = table.suit_class[card]
            if cls in void[seat]:
                raise RulesError("illegal_card", f"{name}.{t}.{i}", card=trick[i], trick=t + 1, seat=seat)
            if i and cls != lead:
                void[seat].add(lead)
                shown[seat].append((t, lead))
        leaders.append(leader)
        leader = (leader + table.winner(cards, last_is_last and t == len(tricks) - 1)) % SEATS
        winners.append(leader)
    return Played(tuple(tuple(t) for t in tricks), tuple(leaders), tuple(winners),
                  tuple(frozenset(v) for v in void), tuple(tuple(s) for s in shown))


def hand_fits(hand: Sequence[str], played: Played, seat: int, table: GameTable, name: str) -> list[str]:
    """The cards ``seat`` still holds: his hand less what he played (all of it from the hand),
    and none of a suit he showed void in."""
    own = played.played_by(seat)
    if Counter(own) - Counter(hand):
        raise RulesError("card_not_in_hand", name, seat=seat)
    rest = list((Counter(hand) - Counter(own)).elements())
    for card in rest:
        if table.suit_class[parse_card(card)] in played.void[seat]:
            raise RulesError("illegal_card", name, card=card, seat=seat)
    return [c for c in hand if c in rest] if rest else []
