"""Reservations: which game is played, who plays it and who leads (RULES.md §4, §5),
and the card exchange of a poverty.

>>> ddv = RuleSet.named("ddv")
>>> d = decide(ddv, 0, [HEALTHY, Reservation("wedding"), Reservation("solo", "solo_queens"), HEALTHY])
>>> d.game, d.declarer, d.leader
('solo_queens', 2, 1)
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from tutor.rules.cards import ACE_OF_DIAMONDS, QUEEN_OF_CLUBS, Card
from tutor.rules.errors import RulesError
from tutor.rules.games import SOLOS, game_table
from tutor.rules.rulesets import RuleSet
from tutor.rules.terms import SEATS

KINDS: Final = ("healthy", "wedding", "poverty", "solo")
POVERTY_MAX_TRUMPS: Final = 3  # a hand with this many trumps or fewer may declare poverty
POVERTY_CARDS: Final = 3  # cards passed each way in a poverty's exchange
# Solos a player may announce as a reservation (the wedding kinds arise in play).
ANNOUNCED_SOLOS: Final = tuple(g for g in SOLOS if g.startswith("solo_"))


@dataclass(frozen=True, slots=True)
class Reservation:
    """What one player says when asked: healthy, or a reservation. ``compulsory`` marks a
    ddv compulsory solo (Pflichtsolo)."""

    kind: str = "healthy"
    solo: str | None = None
    compulsory: bool = False


HEALTHY: Final = Reservation()


@dataclass(frozen=True, slots=True)
class Decision:
    """The game the reservations lead to: its kind, the player who declared it (None for a
    normal game), the seat that leads the first trick, and whether the same dealer deals
    again afterwards (ddv: after a compulsory solo)."""

    game: str
    declarer: int | None
    leader: int
    same_dealer_again: bool
    compulsory: bool = False


def _priority(reservation: Reservation, rules: RuleSet) -> int:
    if reservation.kind == "solo":
        # ddv: compulsory solo > voluntary solo > wedding. pagat knows no compulsory solo.
        return 4 if reservation.compulsory and rules.has_compulsory_solos else 3
    # pagat: solo > poverty > wedding. ddv's poverty house option is ranked the same way:
    # the TSR have no poverty, so pagat's order is the one to follow.
    return {"poverty": 2, "wedding": 1}.get(reservation.kind, 0)


def check_reservation(reservation: Reservation, rules: RuleSet, field: str = "reservations") -> None:
    if reservation.kind not in KINDS:
        raise RulesError("unknown_reservation", field, value=reservation.kind)
    if reservation.kind == "solo" and reservation.solo not in ANNOUNCED_SOLOS:
        raise RulesError("unknown_game", field, value=str(reservation.solo))
    if reservation.kind == "poverty" and not rules.poverty:
        raise RulesError("poverty_not_played", field)


def asking_order(dealer: int) -> tuple[int, ...]:
    """The seats in the order they are asked for reservations: from the dealer's left
    neighbour (the next seat in play order) round to the dealer (RULES.md §5).

    >>> asking_order(3)
    (0, 1, 2, 3)
    """
    return tuple((dealer + i) % SEATS for i in range(1, SEATS + 1))


def may_declare_wedding(rules: RuleSet, hand: Sequence[Card]) -> bool:
    """Whether this hand may declare a wedding: it holds both Q♣ (RULES.md §4). With the
    Schweinchen on, a hand that also holds both A♦ may not: its declared Schweinchen could
    take one of the first three tricks and so decide whether the wedding becomes a solo, in
    which the Schweinchen would not count, and no reading of such a deal is consistent. That
    hand plays the wedding silently."""
    if list(hand).count(QUEEN_OF_CLUBS) != 2:
        return False
    return not (rules.schweinchen and list(hand).count(ACE_OF_DIAMONDS) == 2)


def silent_groom(hands: Sequence[Sequence[Card]]) -> int | None:
    """The seat that holds both Q♣, if one does: when everybody says healthy, he plays a
    silent wedding, alone against the other three (RULES.md §4)."""
    return next((s for s, hand in enumerate(hands) if list(hand).count(QUEEN_OF_CLUBS) == 2), None)


def decide(
    rules: RuleSet, dealer: int, reservations: Sequence[Reservation], hands: Sequence[Sequence[Card]] | None = None
) -> Decision:
    """The game played, given each seat's reservation (index = seat 0-3). Players are
    asked in turn from the dealer's left; of equal kinds the earlier in turn wins. With the
    ``hands`` given, a normal game in which one seat holds both Q♣ is that seat's silent
    wedding."""
    if len(reservations) != SEATS:
        raise RulesError("wrong_count", "reservations", expected=SEATS, got=len(reservations))
    for seat, r in enumerate(reservations):
        check_reservation(r, rules, f"reservations.{seat}")
    in_turn = list(asking_order(dealer))
    left = in_turn[0]
    best = max(in_turn, key=lambda s: (_priority(reservations[s], rules), -in_turn.index(s)))
    chosen = reservations[best]
    if chosen.kind == "healthy":
        groom = None if hands is None else silent_groom(hands)
        if groom is not None:
            return Decision("silent_wedding", groom, left, False)  # RULES.md §4: both Q♣, and healthy
        return Decision("normal", None, left, False)
    if chosen.kind != "solo":
        return Decision(chosen.kind, best, left, False)
    compulsory = chosen.compulsory and rules.has_compulsory_solos
    if rules.solo_lead == "soloist" or (rules.solo_lead == "by_solo_kind" and compulsory):
        leader = best  # TSR: a compulsory solo is led by the soloist
    else:
        leader = left
    return Decision(chosen.solo or "solo_aces", best, leader, compulsory, compulsory)


def reservation_order(rules: RuleSet) -> list[tuple[Reservation, Decision]]:
    """The reservations the rules know, highest priority first, each with what it leads
    to when it wins (who leads, whether the dealer deals again), as ``decide`` rules it."""
    kinds = [COMPULSORY_SAMPLE, Reservation("solo", "solo_queens"), Reservation("poverty"), Reservation("wedding")]
    known: dict[int, Reservation] = {}
    for reservation in kinds:
        if reservation.kind == "poverty" and not rules.poverty:
            continue
        if reservation.compulsory and not rules.has_compulsory_solos:
            continue  # only the DDV rules know compulsory solos
        known.setdefault(_priority(reservation, rules), reservation)
    # Seat 2 declares with dealer 0, so the declarer and the dealer's left neighbour differ.
    return [
        (r, decide(rules, 0, [HEALTHY, HEALTHY, r, HEALTHY]))
        for _, r in sorted(known.items(), reverse=True)
    ]


COMPULSORY_SAMPLE: Final = Reservation("solo", "solo_queens", compulsory=True)


def poverty_trumps(hand: Sequence[Card]) -> list[Card]:
    """The trumps of a normal game in a hand (the A♦ counts, RULES.md §10)."""
    table = game_table("normal", RuleSet.named("pagat"))
    return [c for c in hand if table.is_trump(c)]


def may_declare_poverty(hand: Sequence[Card]) -> bool:
    """A hand with three trumps or fewer may declare poverty."""
    return len(poverty_trumps(hand)) <= POVERTY_MAX_TRUMPS


def check_poverty_pass(hand: Sequence[Card], passed: Sequence[Card]) -> None:
    """The poor player passes exactly three cards of his hand, all his trumps among them."""
    if len(passed) != POVERTY_CARDS:
        raise RulesError("wrong_count", "passed", expected=POVERTY_CARDS, got=len(passed))
    if Counter(passed) - Counter(hand):
        raise RulesError("card_not_in_hand", "passed")
    if Counter(poverty_trumps(hand)) - Counter(passed):
        raise RulesError("poverty_keeps_trump", "passed")


def poverty_asking_order(poor: int) -> tuple[int, ...]:
    """The seats asked to take a poverty, in turn from the poor player's left (RULES.md §4).

    >>> poverty_asking_order(2)
    (3, 0, 1)
    """
    return tuple((poor + i) % SEATS for i in range(1, SEATS))


def poverty_acceptor(poor: int, accepts: Sequence[bool]) -> int | None:
    """The partner of a poverty: the first player to the poor player's left who accepts
    (``accepts`` by seat; the poor player's own entry is ignored). None: nobody accepted,
    and the same dealer deals again."""
    return next((s for s in poverty_asking_order(poor) if accepts[s]), None)


def exchange_poverty(
    poor_hand: Sequence[Card], acceptor_hand: Sequence[Card], passed: Sequence[Card], returned: Sequence[Card]
) -> tuple[list[Card], list[Card]]:
    """The two hands after a poverty's exchange: the poor player passes three cards with
    all his trumps, the acceptor takes them and returns any three of his new hand."""
    check_poverty_pass(poor_hand, passed)
    taken = list(acceptor_hand) + list(passed)
    if len(returned) != POVERTY_CARDS:
        raise RulesError("wrong_count", "returned", expected=POVERTY_CARDS, got=len(returned))
    if Counter(returned) - Counter(taken):
        raise RulesError("card_not_in_hand", "returned")
    poor = list((Counter(poor_hand) - Counter(passed)).elements()) + list(returned)
    acceptor = list((Counter(taken) - Counter(returned)).elements())
    return sorted(poor), sorted(acceptor)
