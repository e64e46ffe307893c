"""The computer players as they were before the fixes of PLAY-REVIEW.md §3.2 (tutor/play/bots.py
on main at 3daee20, with the choice of a card and of an announcement moved here from the play
run of that commit, and its silent-wedding lottery): the "today" that bench/strength.py sets
the new bots against. Kept for the benchmark only; nothing in the app uses it.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from typing import Final

from tutor.play.players import Player
from tutor.rules.announcements import NONE, may_announce_level, other
from tutor.rules.cards import ACE_OF_DIAMONDS, POINTS, QUEEN_OF_CLUBS, TEN_OF_HEARTS, Card, make_card, rank_of
from tutor.rules.deal import Deal
from tutor.rules.games import GameTable, game_table, is_solo
from tutor.rules.reservations import (
    ANNOUNCED_SOLOS,
    HEALTHY,
    POVERTY_CARDS,
    Reservation,
    may_declare_poverty,
    poverty_trumps,
)
from tutor.rules.rulesets import RuleSet

PARTNER: Final = 1
OPPONENT: Final = -1
UNKNOWN: Final = 0
_ACES: Final = frozenset(c for c in range(24) if rank_of(c) == "A")
# The four highest trumps of the normal game and of every suit solo: 10♥, Q♣, Q♠, Q♥.
_TOP_OF_SUIT_SOLOS: Final = frozenset((TEN_OF_HEARTS, QUEEN_OF_CLUBS, make_card("Q", "S"), make_card("Q", "H")))


@cache
def _strong_power(table: GameTable) -> int:
    """The power from which a trump usually holds a trick (the fourth-highest trump up)."""
    trumps = table.trumps
    return table.power[trumps[min(3, len(trumps) - 1)]] if trumps else 10**6


@cache
def _keepers(table: GameTable) -> frozenset[Card]:
    """The cards a player keeps for a trick they win: the Dullen and the Q♣ where they are
    trumps, or the top trump of a solo without them."""
    kept = {c for c in (TEN_OF_HEARTS, QUEEN_OF_CLUBS) if table.is_trump(c)}
    if not kept and table.trumps:
        kept.add(table.trumps[0])
    return frozenset(kept)


# --- Reservations and poverty -------------------------------------------------------------


def strength(table: GameTable, hand: Sequence[Card]) -> tuple[int, int, int]:
    """Trumps, high trumps (the four highest kinds) and plain aces in a hand."""
    strong = _strong_power(table)
    power, is_trump = table.power, table.is_trump
    trumps = high = aces = 0
    for card in hand:
        if is_trump(card):
            trumps += 1
            high += power[card] >= strong
        elif card in _ACES:
            aces += 1
    return trumps, high, aces


def solo_wish(rules: RuleSet, hand: Sequence[Card]) -> str | None:
    """A solo for a very strong hand, or None (most hands)."""
    size = len(hand)
    ranks = Counter(rank_of(c) for c in hand)
    high = sum(c in _TOP_OF_SUIT_SOLOS for c in hand)
    if high < 5 and ranks["Q"] < 6 and ranks["J"] < 6 and ranks["A"] <= size // 2:
        return None  # no solo below can be strong enough: most hands stop here
    for solo in ANNOUNCED_SOLOS:
        trumps, high, aces = strength(game_table(solo, rules), hand)
        if solo == "solo_aces":
            if aces > size // 2:
                return solo
        elif solo in ("solo_queens", "solo_jacks"):
            if trumps >= 6 and aces >= 3:
                return solo
        elif trumps * 12 >= 10 * size and high >= 5:
            return solo
    return None


def reservation(
    rules: RuleSet, hand: Sequence[Card], level: int, *, wedding: bool, silent: bool, poverty: bool
) -> Reservation:
    """What a computer player says when asked. ``wedding``: it holds both Q♣ and may declare
    a wedding; ``silent``: it would rather play the wedding silently; ``poverty``: the
    rules and the level let it declare poverty."""
    if level >= 2:
        solo = solo_wish(rules, hand)
        if solo:
            return Reservation("solo", solo)
        if poverty and may_declare_poverty(hand):
            return Reservation("poverty")
    if level >= 1 and wedding and not silent:
        return Reservation("wedding")
    return HEALTHY


def poverty_pass(hand: Sequence[Card]) -> list[Card]:
    """The three cards a poor player passes: all his trumps, then his best plain cards."""
    trumps = poverty_trumps(hand)
    rest = list(hand)
    for card in trumps:
        rest.remove(card)
    rest.sort(key=lambda c: -POINTS[c])
    return trumps + rest[: POVERTY_CARDS - len(trumps)]


def accepts_poverty(rules: RuleSet, hand: Sequence[Card]) -> bool:
    """Take a poverty with many trumps of one's own."""
    trumps, high, _ = strength(game_table("normal", rules), hand)
    return trumps * 12 >= 7 * len(hand) and high >= 2


def poverty_return(rules: RuleSet, hand: Sequence[Card]) -> list[Card]:
    """The three cards the acceptor gives back: his lowest plain cards, else low trumps."""
    table = game_table("normal", rules)
    order = sorted(hand, key=lambda c: (table.is_trump(c), c == ACE_OF_DIAMONDS, POINTS[c], table.power[c]))
    return order[:POVERTY_CARDS]


# --- Announcements ------------------------------------------------------------------------


def announcement_wish(table: GameTable, hand: Sequence[Card], soloist: bool) -> tuple[int, int]:
    """The level a player means to announce with this hand (NONE for none), and the level
    it answers an opponent's announcement with, both judged once on the dealt hand."""
    trumps, high, aces = strength(table, hand)
    size = len(hand)
    if soloist:
        if not table.trumps:
            return (0 if aces * 2 >= size else NONE), 0
        return (0 if trumps * 4 >= 3 * size and high >= 3 else NONE), 0
    # Counts are for twelve cards; the 40-card deck's ten are scaled.
    trumps = trumps * 12 // size
    if trumps >= 9 and high >= 5:
        wish = 1
    elif (trumps >= 8 and high >= 4) or (trumps >= 9 and high >= 3) or (trumps >= 7 and high >= 4 and aces >= 2):
        wish = 0
    else:
        wish = NONE
    reply = 0 if trumps >= 7 and high >= 3 else NONE
    return wish, reply


# --- Cards --------------------------------------------------------------------------------


def lead(table: GameTable, hand: Sequence[Card], trumps_first: bool, soloist: bool, led: Sequence[int]) -> Card:
    """The card to lead. ``trumps_first``: Re and soloists lead trumps, others plain suits;
    ``led`` counts how often each plain suit (0-3) was led so far."""
    suit_class, power = table.suit_class, table.power
    kept = _keepers(table)
    trumps = [c for c in hand if suit_class[c] == 4]
    plain = [c for c in hand if suit_class[c] != 4]
    if trumps_first and trumps:
        if soloist:
            return max(trumps, key=lambda c: power[c])
        return min(trumps, key=lambda c: (c in kept, c == ACE_OF_DIAMONDS, power[c]))
    if plain:
        fresh_aces = [c for c in plain if c in _ACES and not led[suit_class[c]]]
        if fresh_aces:
            return fresh_aces[0]
        if soloist and not table.trumps:
            return max(plain, key=lambda c: (power[c], -c))
        return min(plain, key=lambda c: (POINTS[c], power[c]))
    return min(trumps, key=lambda c: (c in kept, c == ACE_OF_DIAMONDS, power[c]))


def follow(table: GameTable, legal: Sequence[Card], trick: Sequence[Card], holder: int, last_trick: bool) -> Card:
    """The card to play to a trick already led. ``holder``: PARTNER, OPPONENT or UNKNOWN,
    who holds the trick now as far as this player knows."""
    position = len(trick)
    if len(legal) == 1:
        return legal[0]
    legal = list(dict.fromkeys(legal))  # each card once: the two copies play alike
    power, suit_class = table.power, table.suit_class
    kept = _keepers(table)
    winner_of = table.winner
    last = position == 3
    if holder == PARTNER:
        best = trick[winner_of(trick, last_trick)]
        safe = last or (suit_class[best] == 4 and power[best] >= _strong_power(table))
        if safe:
            # Give points to the partner, but not the cards worth keeping for one's own trick.
            return max(legal, key=lambda c: (c not in kept, POINTS[c], -power[c]))
        return min(legal, key=lambda c: (c in kept, POINTS[c], power[c]))
    winners = [c for c in legal if winner_of([*trick, c], last_trick) == position]
    if winners:
        points = POINTS[trick[0]] + sum(POINTS[c] for c in trick[1:])
        if last:
            return min(winners, key=lambda c: (c in kept, power[c], -POINTS[c]))
        plain = [c for c in winners if suit_class[c] != 4]
        if plain:
            return min(plain, key=lambda c: power[c])
        if points >= 14:
            return max(winners, key=lambda c: power[c])  # a Dulle or a Q♣ for a trick worth it
        cheap = [c for c in winners if c not in kept]
        if cheap and (points >= 10 or position == 2):
            return max(cheap, key=lambda c: power[c])
    # Cannot or need not take it: the card worth least, keeping the trumps and the fox.
    return min(legal, key=lambda c: (c in kept, c == ACE_OF_DIAMONDS, POINTS[c], suit_class[c] == 4, power[c]))


# --- As the play run of 3daee20 asked them -------------------------------------------------


def choose_card(deal: Deal, seat: int) -> Card:
    """The card, with what the run then passed to ``lead`` and ``follow``."""
    table, hand, trick = deal.table, deal.hands[seat], deal.trick
    known = deal.known(seat)
    if not trick:
        soloist = is_solo(deal.game) and deal.parties[seat] == "re"
        return lead(table, hand, known[seat] == "re" and deal.clarified != 0, soloist, deal.led)
    legal = table.legal(hand, trick)
    if len(legal) == 1:
        return legal[0]
    last_trick = len(deal.tricks) == deal.count - 1
    holder = (deal.leader + table.winner(trick, last_trick)) % 4
    mine, theirs = known[seat], known[holder]
    relation = UNKNOWN if mine is None or theirs is None else (PARTNER if mine == theirs else OPPONENT)
    return follow(table, legal, trick, relation, last_trick)


def announcement(deal: Deal, seat: int, wish: tuple[int, int]) -> int | None:
    """The run's announcement: its wish, else its reply, else its party's name, when allowed."""
    party = deal.parties[seat]
    if party is None:
        return None
    wanted, reply = wish
    own, opponent = deal.levels[party], deal.levels[other(party)]
    if wanted <= own and (opponent == NONE or reply <= own):
        return None
    cards, wedding = len(deal.hands[seat]), deal.wedding_column()
    for target in (wanted, reply if opponent != NONE else NONE, 0 if wanted >= 0 else NONE):
        if target > own and may_announce_level(target, own, opponent, cards, deal.rules, wedding):
            return target
    return None


def reserve(rules: RuleSet, hand: Sequence[Card], level: int, *, wedding: bool, poverty: bool, seat: int,
            seed: int, redeals: int) -> Reservation:
    """The run's silent-wedding lottery, then ``reservation``."""
    silent = (seed // 4 + seat + redeals) % 8 == 0
    return reservation(rules, hand, level, wedding=wedding, silent=silent, poverty=poverty)


BEFORE: Final = Player("bots of 3daee20", reserve, poverty_pass, accepts_poverty, poverty_return,
                       announcement_wish, announcement, choose_card)
