"""The computer players: reservations, a poverty's exchange, announcements and cards.

Every card comes from the engine's legal cards (``GameTable.legal``), every announcement
is checked with ``may_announce_level`` before it is made, and the exchange goes through
``exchange_poverty``; the bots only choose among what the rules allow. They follow the
table tips of the rule articles: Re leads trumps and Kontra plain suits, a player gives
points ("schmieren") to a partner who holds the trick, keeps a Dulle or a Q♣ for a trick
it wins, throws no high card into a trick the opponents take, and announces with many
high trumps while it is still in time. Nothing here is random: the same position always
gets the same answer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from typing import Final

from tutor.rules.announcements import NONE, other
from tutor.rules.cards import ACE_OF_DIAMONDS, POINTS, QUEEN_OF_CLUBS, TEN_OF_HEARTS, Card, rank_of
from tutor.rules.deal import Deal
from tutor.rules.games import TRUMP, GameTable, game_table, is_solo
from tutor.rules.reservations import (
    ANNOUNCED_SOLOS,
    HEALTHY,
    POVERTY_CARDS,
    Reservation,
    may_declare_poverty,
    poverty_trumps,
)
from tutor.rules.rulesets import RuleSet
from tutor.rules.terms import SEATS

PARTNER: Final = 1
OPPONENT: Final = -1
UNKNOWN: Final = 0
_ACES: Final = frozenset(c for c in range(24) if rank_of(c) == "A")


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
    top = frozenset(game_table("solo_clubs", rules).trumps[:4])  # the four highest trumps of every suit solo
    high = sum(c in top for c in hand)
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


def silent_wedding_wish(rules: RuleSet, hand: Sequence[Card]) -> bool:
    """Whether a hand with both Q♣ would rather play alone, silently: only one that would be
    a good diamonds solo (seed 002: "the wedding is almost always announced")."""
    trumps, high, _ = strength(game_table("silent_wedding", rules), hand)
    return trumps * 12 >= 10 * len(hand) and high >= 5


def reservation(rules: RuleSet, hand: Sequence[Card], level: int, *, wedding: bool, poverty: bool) -> Reservation:
    """What a computer player says when asked. ``wedding``: it holds both Q♣ and may declare
    a wedding (it keeps them silent with a hand for a diamonds solo); ``poverty``: the rules
    and the level let it declare poverty."""
    if level >= 2:
        solo = solo_wish(rules, hand)
        if solo:
            return Reservation("solo", solo)
        if poverty and may_declare_poverty(hand):
            return Reservation("poverty")
    if level >= 1 and wedding and not silent_wedding_wish(rules, hand):
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


def announcement(deal: Deal, seat: int, wish: tuple[int, int]) -> int | None:
    """The level ``seat`` announces up to before its card, or None: its wish when the rules
    allow it, else its reply to the other party, else at least its party's own name."""
    party = deal.own_party(seat)
    if party is None:
        return None
    wanted, reply = wish
    own, opponent = deal.levels[party], deal.levels[other(party)]
    if wanted <= own and (opponent == NONE or reply <= own):
        return None
    if wanted > 0 and not _decided(deal, seat):
        wanted = 0  # "no 90" only when the game is decided, never from the dealt hand alone
    if wanted <= own and (opponent == NONE or reply <= own):
        return None
    allowed = deal.allowed_levels(seat)
    for target in (wanted, reply if opponent != NONE else NONE, 0 if wanted >= 0 else NONE):
        if target > own and target in allowed:
            return target
    return None


def _decided(deal: Deal, seat: int) -> bool:
    """Whether the seat's party has taken every trick so far, two at least: the sign a club
    player waits for before announcing a limit (seed 002: "announce only when the game is
    decided")."""
    known = deal.knowledge[seat]
    party = known[seat]
    return len(deal.winners) >= 2 and all(known[w] == party for w in deal.winners)


# --- Cards --------------------------------------------------------------------------------

CHEAP: Final = 10  # card points below which a trick is not worth a Dulle or a Q♣
RICH: Final = 14  # card points from which a trick is worth the highest trump that wins it
LONG_TRUMPS: Final = 9  # trumps in hand from which Re pulls trumps from the top
RISKY: Final = 10**6  # added to the lead key of a ten or an ace that would be lost
NOT_LOW: Final = 10**6  # the low-trump key of a kept trump and of the fox
_NEXT: Final = (1, 2, 3, 0)  # the seat that plays after each seat
# _BEHIND[seat][n]: the seats still to play after ``seat`` plays the card after n others.
_BEHIND: Final = tuple(tuple(tuple((seat + i) % SEATS for i in range(1, SEATS - n)) for n in range(SEATS))
                      for seat in range(SEATS))


class _Keys:
    """What the choices below look up about one table, worked out once: the kept cards, by
    card the cards of its suit class that beat it (a trump: higher trumps; a plain card:
    higher cards of its suit), for asking which of them are still out, and sort keys as
    whole numbers that order exactly as the tuples they stand for, each with its look-up as
    the ``key`` of min or max (the choices take min or max over a few cards, thousands of
    times a second in the analysis's rollouts)."""

    __slots__ = ("kept", "above", "discard", "give", "keep_low", "cheap_win", "low", "low_trump", "by_power",
                 "by_discard", "by_give", "by_keep_low", "by_cheap_win", "by_low", "by_low_trump")

    def __init__(self, table: GameTable) -> None:
        kept, fox, power, suit_class = _keepers(table), table.fox, table.power, table.suit_class
        cards = range(24)
        self.kept = kept
        self.above: tuple[tuple[Card, ...], ...] = tuple(
            tuple(c for c in cards if suit_class[c] == suit_class[x] and power[c] > power[x]) for x in cards)
        # (kept, fox, points, trump, power): the card worth least, keeping the trumps and the fox.
        self.discard = [(c in kept) * 10**7 + (c == fox) * 10**6 + POINTS[c] * 10**4
                        + (suit_class[c] == TRUMP) * 10**3 + power[c] for c in cards]
        # max of (not kept, points, -power): the most points for a partner, not a card worth keeping.
        self.give = [(c not in kept) * 10**6 + POINTS[c] * 10**3 + (999 - power[c]) for c in cards]
        # (kept, fox, points, power): the cheapest card when the partner's trick is not safe.
        self.keep_low = [(c in kept) * 10**7 + (c == fox) * 10**6 + POINTS[c] * 10**3 + power[c] for c in cards]
        # (power, -points): the lowest card that takes the trick, the richer of equals.
        self.cheap_win = [power[c] * 100 + (50 - POINTS[c]) for c in cards]
        # (points, power): the lowest card to lead.
        self.low = [POINTS[c] * 1000 + power[c] for c in cards]
        # power, NOT_LOW for a kept trump and the fox: the lowest trump to lead.
        self.low_trump = [NOT_LOW if c in kept or c == fox else power[c] for c in cards]
        self.by_power, self.by_discard = power.__getitem__, self.discard.__getitem__
        self.by_give, self.by_keep_low = self.give.__getitem__, self.keep_low.__getitem__
        self.by_cheap_win, self.by_low = self.cheap_win.__getitem__, self.low.__getitem__
        self.by_low_trump = self.low_trump.__getitem__


@cache
def _keys(table: GameTable) -> _Keys:
    return _Keys(table)


# What a computer player knows at its decision, and all that the functions below look at:
# its hand, the cards played (``Deal.seen``: a card is still out unless its copies are all
# played or in that hand), the suits each player has shown void in (``Deal.voids``), how
# often each plain suit was led (``Deal.led``), and the parties as far as it knows them
# (``Deal.known``).


def _beatable(deal: Deal, hand: Sequence[Card], keys: _Keys, card: Card, behind: Sequence[int]) -> bool:
    """Whether a card still out may take the trick from ``card`` once someone behind plays
    it: a higher card of its suit class held by someone who has not shown himself void in
    it, or, for a plain card, a trump from someone who has shown he is out of its suit."""
    if not behind:
        return False
    voids, seen, table = deal.voids, deal.seen, deal.table
    cls = table.suit_class[card]
    bit = 1 << cls
    for s in behind:
        if not voids[s] & bit:
            for c in keys.above[card]:
                if seen[c] + hand.count(c) < 2:
                    return True
            break
    if cls != TRUMP:
        for s in behind:
            if voids[s] & bit and not voids[s] & 16:
                return True  # he will trump it
    # The second Dulle wins.
    return card == TEN_OF_HEARTS and table.dulle_second_wins and seen[card] + hand.count(card) < 2


def choose_card(deal: Deal, seat: int) -> Card:
    """The card the computer player at ``seat`` plays now, from what that seat knows: its
    own hand, the cards played so far, the voids shown, and the parties as far as it knows
    them (the table tips of PLAY-REVIEW.md §3.2 and §7.3)."""
    hand, trick = deal.hands[seat], deal.trick
    if not trick:
        return _lead(deal, seat, hand, deal.table, _keys(deal.table))
    table = deal.table
    # The cards that follow the lead, else any; the two copies of a card may both be there
    # (no choice below depends on how often a card comes).
    legal = deal.holding[seat][table.suit_class[trick[0]]] or hand
    first = legal[0]
    if len(legal) == 1 or (len(legal) == 2 and legal[1] == first):
        return first
    beating = table.beating[len(deal.tricks) == deal.count - 1]
    return _follow(deal, seat, hand, legal, table, _keys(table), beating, len(trick))


def play_out(deal: Deal) -> None:
    """The computer players play ``deal`` to its end without announcements, every card the
    one ``choose_card`` chooses (the analysis's rollouts, thousands a second): what stays
    the same through a trick is looked up once a trick."""
    play, hands = deal.play_legal, deal.hands
    table = deal.table
    keys = _keys(table)
    while (seat := deal.turn) is not None:
        if deal.trick:  # the rest of a trick begun before
            play(choose_card(deal, seat))
            continue
        if deal.table is not table:  # a wedding that became a solo
            table = deal.table
            keys = _keys(table)
        card = _lead(deal, seat, hands[seat], table, keys)
        play(card)
        lead = table.suit_class[card]
        beating = table.beating[len(deal.tricks) == deal.count - 1]
        holding = deal.holding  # replaced at the end of a trick at most
        for position in (1, 2, 3):
            seat = _NEXT[seat]
            hand = hands[seat]
            legal = holding[seat][lead] or hand
            first = legal[0]
            if len(legal) == 1 or (len(legal) == 2 and legal[1] == first):
                play(first)
            else:
                play(_follow(deal, seat, hand, legal, table, keys, beating, position))


def _lead(deal: Deal, seat: int, hand: list[Card], table: GameTable, keys: _Keys) -> Card:
    """The card to lead to a new trick (``table``: the deal's, ``keys``: the table's)."""
    if len(hand) == 1 or (len(hand) == 2 and hand[0] == hand[1]):
        return hand[0]  # nothing to choose: every choice below is a card of the hand
    suit_class = table.suit_class
    trumps = deal.holding[seat][TRUMP]
    known = deal.knowledge[seat]
    party = known[seat]
    behind = _BEHIND[seat][0]
    if deal.clarified == 0 and seat == deal.declarer:
        # The groom lets someone else take an early trick: a low plain card, no ace.
        plain = [c for c in hand if suit_class[c] != TRUMP]
        low = [c for c in plain if POINTS[c] < 10] or plain
        if low:
            return min(low, key=keys.by_low)
    soloist = deal.parties[seat] == "re" and is_solo(deal.game)
    if trumps and soloist:
        return max(trumps, key=keys.by_power)  # a soloist pulls trumps from the top
    if party == "re" and deal.clarified != 0 and trumps:
        if len(trumps) >= LONG_TRUMPS:
            # With this many trumps (a poverty's acceptor, say), start from the top, with a
            # trump nobody can beat. (With fewer, the low trump first did better in
            # bench/strength.py.)
            top = max(trumps, key=keys.by_power)
            if not _beatable(deal, hand, keys, top, behind):
                return top
        lowest = _low_trump(keys, trumps)
        if lowest is not None:
            return lowest
    plain = [c for c in hand if suit_class[c] != TRUMP] if trumps else hand
    if not plain:
        return _last_trumps(deal, hand, keys, trumps, behind)
    # The plain suits that someone behind, not known as a partner, has shown void in (and
    # may trump), as bits.
    voids, mine = deal.voids, known[seat]
    danger = 0
    for s in behind:
        void = voids[s]
        if void and not void & 16 and (mine is None or known[s] != mine):
            danger |= void
    # A fresh ace in its suit's first round, unless someone against us has shown he is void
    # (the first in hand order); else the lowest plain card, a ten or an ace only where it is
    # not lost: into a suit that has been round, or that someone is void in, or under a
    # higher card still out (the first of equal keys). One pass for both.
    led, low_key = deal.led, keys.low
    choice, least = plain[0], RISKY * 2
    for c in plain:
        cls = suit_class[c]
        if c in _ACES and not led[cls] and not danger & 1 << cls:
            return c
        risk = low_key[c]
        if POINTS[c] >= 10 and (led[cls] or danger & 1 << cls or _beatable(deal, hand, keys, c, behind)):
            risk += RISKY
        if risk < least:
            choice, least = c, risk
    if soloist and not table.trumps:
        power = table.power
        return max(plain, key=lambda c: (power[c], -c))
    if least >= RISKY:
        # Every plain card left would be lost: a low trump instead, Kontra or not.
        lowest = _low_trump(keys, trumps)
        if lowest is not None:
            return lowest
    return choice


def _low_trump(keys: _Keys, trumps: Sequence[Card]) -> Card | None:
    """The lowest trump that is neither kept nor the fox (the first of equals), or None."""
    if not trumps:
        return None
    low = min(trumps, key=keys.by_low_trump)
    return low if keys.low_trump[low] < NOT_LOW else None


def _last_trumps(deal: Deal, hand: list[Card], keys: _Keys, trumps: Sequence[Card], behind: Sequence[int]) -> Card:
    """Leading with trumps only, or with nothing to lead but the fox and the kept trumps."""
    low = _low_trump(keys, trumps)
    if low is not None:
        return low
    table = deal.table
    by_power = keys.by_power
    fox = table.fox
    # The fox only when nobody can take it; else a kept trump that holds, else the lowest.
    if fox in trumps and not _beatable(deal, hand, keys, fox, behind):
        return fox
    holding = [c for c in trumps if c != fox and not _beatable(deal, hand, keys, c, behind)]
    if holding:
        return min(holding, key=by_power)
    return min((c for c in trumps if c != fox), key=by_power, default=trumps[0])


def _follow(deal: Deal, seat: int, hand: list[Card], legal: Sequence[Card], table: GameTable, keys: _Keys,
            beating: tuple[tuple[bool, ...], ...], position: int) -> Card:
    """The card to play to the trick on the table, ``position`` cards in (``legal``: the
    cards that may follow, ``keys``: the table's, ``beating``: the table's for this trick)."""
    trick = deal.trick
    win = deal.best
    best = trick[win]
    known = deal.knowledge[seat]
    mine, theirs = known[seat], known[(deal.leader + win) % SEATS]
    relation = UNKNOWN if mine is None or theirs is None else PARTNER if mine == theirs else OPPONENT
    behind = _BEHIND[seat][position]
    if relation == PARTNER:
        if not behind or not _beatable(deal, hand, keys, best, behind):
            # The partner's trick is safe: give him points (the fox too), keeping the cards
            # worth keeping for a trick of one's own.
            return max(legal, key=keys.by_give)
        return min(legal, key=keys.by_keep_low)
    beats_best = beating[best]
    winners = [c for c in legal if beats_best[c]]
    if winners:
        kept = keys.kept
        points = 0
        for c in trick:
            points += POINTS[c]
        by_power = keys.by_power
        if not behind:
            # Last to play: take it as cheaply as possible; a Dulle or a Q♣ only for a trick
            # worth it, and not from a player who may be the partner.
            cheap = [c for c in winners if c not in kept]
            if cheap:
                return min(cheap, key=keys.by_cheap_win)
            if points >= CHEAP and relation == OPPONENT or points >= RICH:
                return min(winners, key=by_power)
        else:
            # The winners are all trumps or all of the led plain suit (a card of another suit
            # takes no trick): a plain winner that nobody behind can beat, if any.
            if table.suit_class[winners[0]] != TRUMP:
                plain = [c for c in winners if not _beatable(deal, hand, keys, c, behind)]
                if plain:
                    return min(plain, key=by_power)
            if points >= RICH:
                return max(winners, key=by_power)  # a Dulle or a Q♣ for a trick worth it
            if points >= CHEAP or position == 2:
                cheap = [c for c in winners if c not in kept]
                if cheap:
                    return max(cheap, key=by_power)
    # Cannot or need not take it: the card worth least, keeping the trumps and the fox (an
    # A♦ only where its loss scores: the engine's table knows, RULES.md §8).
    rest = min(legal, key=keys.by_discard)
    if rest == table.fox and winners and relation != PARTNER:
        # Rather than give the fox away, take the trick with a trump that wins it.
        others = [c for c in winners if c != rest]
        if others:
            return min(others, key=keys.by_power)
    return rest
