"""Worlds consistent with what one seat has seen: the other three hands, drawn uniformly
among every deal that fits the public facts.

A world is a deal of the cards this seat cannot see to the other three seats, each getting
as many as it still holds. It must fit everything the table showed:

- a player who did not follow a lead has no card of that suit (no trump on a trump lead:
  no trumps at all);
- in a normal game a Q♣ played shows its player as Re, and "Re" announced means the
  announcer was dealt a Q♣, "Kontra" that he was dealt none; nobody holds both Q♣ (he would
  have declared a wedding: the model here, though a silent wedding is allowed by the rules);
  the groom of a wedding holds both, nobody else one;
- with the Schweinchen on, the seat that declared it holds both A♦ and nobody else holds
  both; what a poverty's exchange showed this seat (the cards it passed or gave back), and
  the trumps the acceptor said he returned.

Draws are uniform over the deals of the physical cards (each copy its own card, as the
shuffle makes them): a world with both copies of a card in one hand counts once, with one in
each of two hands twice. The sampler counts every fitting deal exactly (a small dynamic
programme over groups of cards that share their constraints) and draws from those counts,
so nothing is ever rejected and no draw is biased; seeded, it is reproducible.

>>> from tutor.rules.cards import parse_card
>>> from tutor.rules.rulesets import RuleSet
>>> from tutor.rules.deal import Deal
>>> hands = [[parse_card(c) for c in h.split()] for h in (
...     "QC 10H JS AD 10D KD AS 10S AH KH 9C 9C",
...     "QC 10H QS JC JH AC AC 10C KC 9S 9S KS",
...     "QS QH QH QD JC JS JD JD AD 9D 9D KS",
...     "QD JH 10D KD AS 10S KC 10C AH KH 9H 9H")]
>>> deal = Deal(RuleSet.named("ddv"), hands, "normal", leader=1)
>>> for card in ("AC", "QS", "KC", "9C", "QH"):  # seat 2 trumps the clubs and leads
...     deal.play(parse_card(card))
>>> worlds = Worlds(SeatView.of(deal, 3))
>>> world = worlds.sample(random.Random(1))
>>> clubs = {parse_card(c) for c in ("AC", "10C", "KC", "9C")}
>>> [len(h) for h in world], any(c in clubs for c in world[2])  # seat 2 has shown he holds no club
([11, 11, 10, 11], False)
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from math import factorial
from typing import Final

from tutor.analysis.view import Said, SeatView
from tutor.rules.announcements import level_of
from tutor.rules.cards import ACE_OF_DIAMONDS, QUEEN_OF_CLUBS, Card, deck
from tutor.rules.deal import Deal, Poverty
from tutor.rules.errors import RulesError
from tutor.rules.games import TRUMP, game_table, is_normal_type
from tutor.rules.terms import SEATS

_FACTORIAL: Final = tuple(factorial(n) for n in range(49))
_MANY: Final = 99  # no upper bound


@dataclass(frozen=True, slots=True)
class _Group:
    """Unseen cards that share their constraints: how many each other seat may get (``lo``,
    ``hi``) and whether they count toward the one seat whose number of trumps is known."""

    cards: tuple[Card, ...]
    lo: tuple[int, int, int]
    hi: tuple[int, int, int]
    counted: bool


class NoWorld(RulesError):
    """No deal fits what the seat has seen."""


class Worlds:
    """Every deal of the unseen cards that fits ``view``, counted, and drawn from uniformly."""

    def __init__(self, view: SeatView) -> None:
        view.check()
        self.view = view
        rules = view.rules
        course = view.course()
        self.course = course
        self.others: tuple[int, int, int] = tuple(s for s in range(SEATS) if s != view.seat)  # type: ignore[assignment]
        played = view.played()
        self.played = played
        table = course.tables[-1]
        self._trump = [table.suit_class[c] == TRUMP for c in range(24)]
        unseen = Counter(deck(rules.deck)) - Counter(view.hand)
        for cards in played:
            unseen -= Counter(cards)
        sizes = [rules.tricks - len(played[s]) for s in self.others]
        if sum(unseen.values()) != sum(sizes):
            raise NoWorld("no_world", "tricks")
        # What each other seat can no longer hold: the suits it has shown it is void in.
        voids = [set[int]() for _ in range(SEATS)]
        for t, trick in enumerate(view.tricks):
            if not trick:
                continue
            lead = course.tables[t].suit_class[trick[0]]
            for i, card in enumerate(trick[1:], 1):
                if course.tables[t].suit_class[card] != lead:
                    voids[course.seat_of(t, i)].add(lead)
        self.voids = voids
        required: list[Counter[Card]] = [Counter() for _ in range(SEATS)]
        for s in self.others:
            required[s] += Counter(view.held[s]) - Counter(played[s])
        lo_q, hi_q = self._queens(required)
        lo_a, hi_a = self._aces(required)
        counter_seat, counter = self._poverty_count()
        # Cards already placed by what the seat knows, then the groups of the rest.
        fixed: list[list[Card]] = [[] for _ in range(SEATS)]
        for s in self.others:
            for card, n in required[s].items():
                if n <= 0:
                    continue
                if unseen[card] < n or table.suit_class[card] in voids[s]:
                    raise NoWorld("no_world", "tricks")
                unseen[card] -= n
                fixed[s] += [card] * n
            sizes[self.others.index(s)] -= sum(required[s].values())
        if min(sizes) < 0:
            raise NoWorld("no_world", "tricks")
        self.fixed = fixed
        self._counter_index: int | None = None
        if counter_seat is not None:
            counter -= sum(self._trump[c] for c in fixed[counter_seat])
            if counter < 0:
                raise NoWorld("no_world", "tricks")
            self._counter_index = self.others.index(counter_seat)
        self.counter = counter  # trumps the counted seat must still get (0 when none is counted)
        groups: dict[tuple[int, int], list[Card]] = {}
        for card, n in sorted(unseen.items()):
            special = card if card in (QUEEN_OF_CLUBS, ACE_OF_DIAMONDS) else -1
            groups.setdefault((table.suit_class[card], special), []).extend([card] * n)
        constrained: list[_Group] = []
        free: list[Card] = []
        for (cls, special), cards in sorted(groups.items()):
            lo = [0, 0, 0]
            hi = [_MANY, _MANY, _MANY]
            for k, s in enumerate(self.others):
                if cls in voids[s]:
                    hi[k] = 0
                if special in (QUEEN_OF_CLUBS, ACE_OF_DIAMONDS):
                    # The bounds count the seat's copies now: less those already placed.
                    low, high = (lo_q[s], hi_q[s]) if special == QUEEN_OF_CLUBS else (lo_a[s], hi_a[s])
                    placed = fixed[s].count(special)
                    if high - placed < 0:
                        raise NoWorld("no_world", "tricks")
                    lo[k], hi[k] = max(lo[k], low - placed), min(hi[k], high - placed)
            counted = counter_seat is not None and cls == TRUMP
            if lo == [0, 0, 0] and all(hi[k] >= sizes[k] for k in range(3)) and not counted:
                free += cards
            else:
                constrained.append(_Group(tuple(cards), (lo[0], lo[1], lo[2]), (hi[0], hi[1], hi[2]), counted))
        self.groups = constrained
        self.free = tuple(free)
        self.sizes = (sizes[0], sizes[1], sizes[2])
        self._memo: dict[tuple[int, int, int, int, int], int] = {}
        self.count = self._ways(0, self.sizes, self.counter)
        if not self.count:
            raise NoWorld("no_world", "tricks")

    # -- the constraints ---------------------------------------------------------------------

    def _queens(self, required: list[Counter[Card]]) -> tuple[list[int], list[int]]:
        """The fewest and the most Q♣ each other seat may still hold (RULES.md §4)."""
        view, played = self.view, self.played
        lo = [0] * SEATS
        hi = [_MANY] * SEATS
        game = view.declared
        own = list(view.hand) + played[view.seat]
        if game in ("wedding", "silent_wedding"):
            groom = view.declarer
            for s in self.others:
                if s == groom:
                    required[s][QUEEN_OF_CLUBS] = 2 - played[s].count(QUEEN_OF_CLUBS)
                else:
                    hi[s] = 0  # RULES.md §4: the groom holds both
        elif game == "normal":
            if own.count(QUEEN_OF_CLUBS) == 2:
                raise NoWorld("no_world", "hand")  # he would know it is his silent wedding
            for s in self.others:
                shown = played[s].count(QUEEN_OF_CLUBS)
                if shown == 2:
                    raise NoWorld("no_world", "tricks")  # a silent wedding the view calls normal
                hi[s] = 1 - shown  # nobody holds both: he would have declared a wedding
            for said in view.announcements:
                if said.seat == view.seat or said.seat not in self.others:
                    continue
                party = view.announcer_party(said)
                shown = played[said.seat].count(QUEEN_OF_CLUBS)
                if party == "re":
                    lo[said.seat] = max(lo[said.seat], 1 - shown)  # RULES.md §4: Re holds a Q♣
                elif party == "kontra":
                    if shown:
                        raise NoWorld("no_world", "announced")
                    hi[said.seat] = 0
        return lo, hi

    def _aces(self, required: list[Counter[Card]]) -> tuple[list[int], list[int]]:
        """RULES.md §3: with the Schweinchen on in a normal-type game, whoever holds both A♦
        declares them: the declarer holds both, nobody else does."""
        view, played = self.view, self.played
        lo, hi = [0] * SEATS, [_MANY] * SEATS
        if not (view.rules.schweinchen and is_normal_type(view.declared)):
            return lo, hi
        own = list(view.hand) + played[view.seat]
        if view.schweinchen is None and own.count(ACE_OF_DIAMONDS) == 2:
            raise NoWorld("no_world", "schweinchen")
        for s in self.others:
            if view.schweinchen == s:
                required[s][ACE_OF_DIAMONDS] = 2 - played[s].count(ACE_OF_DIAMONDS)
            else:
                hi[s] = 1 - min(1, played[s].count(ACE_OF_DIAMONDS)) if view.schweinchen is None else 0
        return lo, hi

    def _poverty_count(self) -> tuple[int | None, int]:
        """The poor player's trumps in play, when the acceptor said how many he gave back."""
        view = self.view
        poor = view.declarer
        if view.declared != "poverty" or view.trumps_returned is None or poor == view.seat or poor is None:
            return None, 0
        normal = game_table("normal", view.rules)
        shown = sum(normal.is_trump(c) for c in self.played[poor])
        return poor, view.trumps_returned - shown

    # -- counting and drawing ----------------------------------------------------------------

    def _ways(self, g: int, caps: tuple[int, int, int], counter: int) -> int:
        """Labelled deals of groups ``g`` onwards (then the free cards) into ``caps``."""
        key = (g, caps[0], caps[1], caps[2], counter)
        known = self._memo.get(key)
        if known is not None:
            return known
        if g == len(self.groups):
            total = 0
            if counter == 0 and sum(caps) == len(self.free):
                f = _FACTORIAL
                total = f[len(self.free)] // (f[caps[0]] * f[caps[1]] * f[caps[2]])
            self._memo[key] = total
            return total
        total = 0
        for split, weight in self._splits(g, caps, counter):
            total += weight * self._ways(g + 1, (caps[0] - split[0], caps[1] - split[1], caps[2] - split[2]),
                                         self._left(g, split, counter))
        self._memo[key] = total
        return total

    def _left(self, g: int, split: tuple[int, int, int], counter: int) -> int:
        """The counted seat's trumps still to come after group ``g`` is split so."""
        c = self._counter_index
        return counter - split[c] if c is not None and self.groups[g].counted else counter

    def _splits(self, g: int, caps: tuple[int, int, int], counter: int) -> Iterator[tuple[tuple[int, int, int], int]]:
        group = self.groups[g]
        m = len(group.cards)
        lo, hi = group.lo, group.hi
        f = _FACTORIAL
        c = self._counter_index if group.counted else None
        for a in range(lo[0], min(hi[0], caps[0], m) + 1):
            for b in range(lo[1], min(hi[1], caps[1], m - a) + 1):
                rest = m - a - b
                if rest < lo[2] or rest > hi[2] or rest > caps[2]:
                    continue
                split = (a, b, rest)
                if c is not None and split[c] > counter:
                    continue
                yield split, f[m] // (f[a] * f[b] * f[rest])

    def sample(self, rng: random.Random) -> list[list[Card]]:
        """One world: every seat's hand now (this seat's own as it is), sorted."""
        hands: list[list[Card]] = [[] for _ in range(SEATS)]
        hands[self.view.seat] = list(self.view.hand)
        caps = self.sizes
        counter = self.counter
        others = self.others
        for s in others:
            hands[s] = list(self.fixed[s])
        for g, group in enumerate(self.groups):
            options: list[_Option] = []
            for split, weight in self._splits(g, caps, counter):
                after = (caps[0] - split[0], caps[1] - split[1], caps[2] - split[2])
                next_counter = self._left(g, split, counter)
                ways = weight * self._ways(g + 1, after, next_counter)
                if ways:
                    options.append((ways, split, after, next_counter))
            _, split, after, next_counter = _pick(rng, options)
            cards = list(group.cards)
            rng.shuffle(cards)
            start = 0
            for k, s in enumerate(others):
                hands[s] += cards[start : start + split[k]]
                start += split[k]
            caps, counter = after, next_counter
        cards = list(self.free)
        rng.shuffle(cards)
        start = 0
        for k, s in enumerate(others):
            hands[s] += cards[start : start + caps[k]]
            start += caps[k]
        for s in others:
            hands[s].sort()
        return hands

    def fits(self, hands: Sequence[Sequence[Card]]) -> bool:
        """Whether these hands now are one of the worlds (the real deal always is)."""
        view = self.view
        if sorted(hands[view.seat]) != sorted(view.hand):
            return False
        pool = Counter(c for s in self.others for c in hands[s])
        expected = Counter(self.free) + Counter(c for g in self.groups for c in g.cards)
        expected += Counter(c for s in self.others for c in self.fixed[s])
        if pool != expected:
            return False
        for k, s in enumerate(self.others):
            hand = Counter(hands[s])
            if len(hands[s]) != self.sizes[k] + len(self.fixed[s]) or Counter(self.fixed[s]) - hand:
                return False
            rest = hand - Counter(self.fixed[s])
            for g in self.groups:
                n = sum(rest[c] for c in set(g.cards))
                if not g.lo[k] <= n <= g.hi[k]:
                    return False
            if self._counter_index == k:
                if sum(self._trump[c] * n for c, n in rest.items()) != self.counter:
                    return False
        return True

    # -- a world as a deal -------------------------------------------------------------------

    def deal(self, hands: Sequence[Sequence[Card]]) -> Deal:
        """The world's deal, played up to now: every trick so far and every announcement at
        its moment (one whose moment is unknown at the first moment the rules allow it).
        RulesError where the world cannot make the view's announcements."""
        view = self.view
        dealt = [sorted(list(hands[s]) + self.played[s]) for s in range(SEATS)]
        poverty = None
        if view.declared == "poverty":
            assert view.declarer is not None and view.acceptor is not None
            poverty = Poverty(view.declarer, view.acceptor, 0)
        deal = Deal(view.rules, dealt, view.declared, view.first_leader, declarer=view.declarer, poverty=poverty)
        pending = list(view.announcements)
        played = 0
        for trick in view.tricks:
            for card in trick:
                pending = _announce(deal, pending, played)
                deal.play(card)
                played += 1
        pending = _announce(deal, pending, played)
        if pending:
            raise RulesError("announcement_not_allowed", "announced", announcement=pending[0].id)
        return deal


_Option = tuple[int, tuple[int, int, int], tuple[int, int, int], int]


def _pick(rng: random.Random, options: list[_Option]) -> _Option:
    """One of the options, each as likely as the deals it leads to (exactly: the counts are
    whole numbers, drawn with randrange)."""
    pick = rng.randrange(sum(o[0] for o in options))
    for option in options:
        if pick < option[0]:
            return option
        pick -= option[0]
    raise AssertionError("the counts add up")


def _announce(deal: Deal, pending: list[Said], played: int) -> list[Said]:
    """Make the announcements due before card number ``played``, in order."""
    while pending:
        said = pending[0]
        if said.played is not None and said.played > played:
            break
        party = deal.own_party(said.seat)
        if party is None:
            if said.played is not None:
                raise RulesError("announcement_not_allowed", "announced", announcement=said.id)
            break
        if said.party is not None and said.party != party:
            raise RulesError("announcement_not_allowed", "announced", announcement=said.id)
        level = level_of(said.id, party, "announced")
        if level not in deal.allowed_levels(said.seat):
            if said.played is not None:
                raise RulesError("announcement_not_allowed", "announced", announcement=said.id)
            break  # not yet: a later moment may allow it
        deal.announce_level(said.seat, level)
        pending = pending[1:]
    return pending
