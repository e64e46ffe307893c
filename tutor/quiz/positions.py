"""Legal deals of every game kind, played out at random by the engine, to take positions from.

``random_deal`` plays normal games and weddings; solos, silent weddings and poverty are set
up here from the engine's own pieces (dealing, legal random play, the reservation rules).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Final

from tutor.rules.cards import QUEEN_OF_CLUBS, Card
from tutor.rules.deal import Deal, Poverty
from tutor.rules.deals import PlayedDeal, deal_hands, play_randomly
from tutor.rules.games import GameTable, game_table, hand_order, is_normal_type
from tutor.rules.reservations import (
    ANNOUNCED_SOLOS,
    HEALTHY,
    Reservation,
    exchange_poverty,
    may_declare_poverty,
    poverty_trumps,
)
from tutor.rules.rulesets import RuleSet

SEATS: Final = 4
SOLO_GAMES: Final = ANNOUNCED_SOLOS  # the solos a player may announce


@dataclass(frozen=True, slots=True)
class Position:
    """A played deal with what the table knows about how its game came about."""

    deal: PlayedDeal
    table: GameTable  # the trumps it was played with (Schweinchen declared or not)
    dealer: int = 0
    info: dict[str, Any] = field(default_factory=dict)


def games_for(level: int, rules: RuleSet) -> list[str]:
    """The game kinds questions of this level are drawn from: normal games first, then
    weddings, then solos, then poverty (where the rules play it) and silent weddings."""
    games = ["normal"]
    if level >= 1:
        games.append("wedding")
    if level >= 2:
        games += list(SOLO_GAMES)
    if level >= 3:
        games.append("silent_wedding")
        if rules.poverty:
            games.append("poverty")
    return games


def pick_game(rng: random.Random, level: int, rules: RuleSet) -> str:
    """A game kind for a question of this level, the level's new kinds half the time."""
    games = games_for(level, rules)
    newest = [g for g in games if g not in games_for(level - 1, rules)] if level else games
    if level and rng.random() < 0.5:
        return rng.choice(newest)
    if rng.random() < 0.4:
        return "normal"
    return rng.choice(games)


def _play(rng: random.Random, deal: Deal) -> GameTable | None:
    """Play the deal out legally at random (the engine's fast random play, which a property
    test holds to the deal's own rules), card by card on the deal; the table it was played
    with. None when the deal changed its trumps on the way (a wedding that became a solo
    loses a declared Schweinchen) so that the random tricks no longer go as they went."""
    table = deal.table
    tricks, _, _ = play_randomly(rng, table, deal.hands, deal.leader)
    for trick in tricks:
        if not deal.table.same_play(table):
            return None
        for card in trick:
            deal.play(card)
    return table


def _played(rng: random.Random, deal: Deal) -> GameTable:
    """A deal that keeps its trumps, played out at random (see ``_play``)."""
    table = _play(rng, deal)
    assert table is not None  # only a wedding changes its trumps
    return table


def _give_both_old_ones(rng: random.Random, hands: list[list[Card]]) -> int:
    """Make one seat hold both Q♣ by a swap with another seat; returns that seat."""
    holders = [s for s in range(SEATS) if QUEEN_OF_CLUBS in hands[s]]
    if len(holders) == 1:
        return holders[0]
    groom, other = holders
    if rng.random() < 0.5:
        groom, other = other, groom
    _swap(hands, groom, rng.choice([c for c in hands[groom] if c != QUEEN_OF_CLUBS]), other, QUEEN_OF_CLUBS)
    return groom


def _split_old_ones(rng: random.Random, hands: list[list[Card]]) -> None:
    """Make two different seats hold the Q♣ (a normal game) by a swap, if one holds both."""
    holders = [s for s in range(SEATS) if QUEEN_OF_CLUBS in hands[s]]
    if len(holders) == 2:
        return
    groom = holders[0]
    other = rng.choice([s for s in range(SEATS) if s != groom])
    _swap(hands, groom, QUEEN_OF_CLUBS, other, rng.choice([c for c in hands[other] if c != QUEEN_OF_CLUBS]))


def _swap(hands: list[list[Card]], seat: int, card: Card, other: int, other_card: Card) -> None:
    """Trade ``card`` of ``seat`` for ``other_card`` of ``other``; both hands stay sorted."""
    hands[seat].remove(card)
    hands[other].remove(other_card)
    hands[seat].append(other_card)
    hands[other].append(card)
    hands[seat].sort()
    hands[other].sort()


def play(rng: random.Random, rules: RuleSet, game: str, dealer: int | None = None) -> Position:
    """A whole deal of ``game`` (a wedding may turn into a wedding solo), played legally."""
    if dealer is None:
        dealer = int(rng.random() * SEATS)
    left = (dealer + 1) % SEATS
    hands = deal_hands(rng, rules)
    if game == "normal":
        _split_old_ones(rng, hands)
        deal = Deal.start(rules, dealer, [HEALTHY] * SEATS, hands)
        table = _played(rng, deal)
        return Position(deal.played(), table, dealer)
    if game in ("wedding", "wedding_solo"):
        groom = _give_both_old_ones(rng, hands)
        while True:
            deal = Deal(rules, hands, "wedding", left, declarer=groom, dealer=dealer)
            # As random_deal does: a wedding solo loses a declared Schweinchen, so the tricks
            # must have gone the same way under the solo's trumps, else they are played again.
            played_with = _play(rng, deal)
            if played_with is not None:
                return Position(deal.played(), played_with, dealer, {"groom": groom})
    if game == "silent_wedding":
        groom = _give_both_old_ones(rng, hands)
        deal = Deal.start(rules, dealer, [HEALTHY] * SEATS, hands)  # healthy with both Q♣: silent
        table = _played(rng, deal)
        return Position(deal.played(), table, dealer, {"groom": groom})
    if game == "poverty":
        return _poverty(rng, rules, hands, dealer)
    soloist = int(rng.random() * SEATS)
    compulsory = rules.has_compulsory_solos and rng.random() < 0.5
    reservations = [Reservation("solo", game, compulsory) if s == soloist else Reservation() for s in range(SEATS)]
    deal = Deal.start(rules, dealer, reservations, hands)
    table = _played(rng, deal)
    return Position(deal.played(), table, dealer, {"soloist": soloist, "compulsory": compulsory})


def _poverty(rng: random.Random, rules: RuleSet, hands: list[list[Card]], dealer: int) -> Position:
    """A poverty: a hand of three trumps or fewer passes three cards, all its trumps among
    them, to the player who accepts, who returns any three (RULES.md §4, §10)."""
    while True:
        poor_seats = [s for s in range(SEATS) if may_declare_poverty(hands[s])]
        if poor_seats:
            break
        hands = deal_hands(rng, rules)
    poor = poor_seats[0]
    acceptor = (poor + 1 + int(rng.random() * 3)) % SEATS
    trumps = poverty_trumps(hands[poor])
    plain = [c for c in hands[poor] if c not in trumps]
    rng.shuffle(plain)
    passed = trumps + plain[: 3 - len(trumps)]
    returned = rng.sample(hands[acceptor] + passed, 3)
    hands[poor], hands[acceptor] = exchange_poverty(hands[poor], hands[acceptor], passed, returned)
    exchange = Poverty(poor, acceptor, len(trumps), len(poverty_trumps(returned)), tuple(passed), tuple(returned))
    reservations = [Reservation("poverty") if s == poor else HEALTHY for s in range(SEATS)]
    deal = Deal.start(rules, dealer, reservations, hands, exchange)
    table = _played(rng, deal)
    return Position(deal.played(), table, dealer, {"poor": poor, "acceptor": acceptor, "passed_trumps": len(trumps)})


def schweinchen_in_play(position: Position) -> bool:
    """Whether both A♦ were declared as Schweinchen in this deal."""
    deal = position.deal
    return deal.rules.schweinchen and is_normal_type(deal.game) and position.table.trumps[0] != game_table(
        deal.game, deal.rules.with_options(schweinchen=False)).trumps[0]


def base_rules(rules: RuleSet) -> RuleSet:
    """The rule set without house options, on the same deck: what lower levels stick to."""
    return RuleSet.named(rules.ruleset).with_options(deck=rules.deck, poverty=rules.poverty)


def game_of(game: str) -> str:
    """The game whose trumps the tricks were played with (a wedding solo began as a wedding)."""
    return "wedding" if game == "wedding_solo" else game


def rules_of(position: Position) -> RuleSet:
    """The rules a deal was played under: Schweinchen only where both A♦ were declared."""
    rules = position.deal.rules
    return rules if schweinchen_in_play(position) or not rules.schweinchen else rules.with_options(schweinchen=False)


def hand_before(deal: PlayedDeal, seat: int, trick: int) -> list[Card]:
    """The cards ``seat`` still holds when trick ``trick`` (0-based) begins."""
    hand = list(deal.hands[seat])
    for t in range(trick):
        hand.remove(deal.tricks[t][(seat - deal.leaders[t]) % SEATS])
    return hand


display_order = hand_order  # the engine's hand order (tutor.rules.games.hand_order)
