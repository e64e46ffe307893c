"""Played deals: dealing, seeded legal random play, and replaying a deal from its tricks.

>>> import random
>>> deal = random_deal(random.Random(7), RuleSet.named("ddv"))
>>> sum(len(t) for t in deal.tricks), sum(deal.trick_points())
(48, 240)
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from tutor.rules.cards import (
    ACE_OF_DIAMONDS,
    JACK_OF_CLUBS,
    POINTS,
    QUEEN_OF_CLUBS,
    Card,
    card_id,
    deck,
    in_deck,
    parse_card,
)
from tutor.rules.errors import RulesError
from tutor.rules.games import CLARIFICATION_TRICKS, GameTable, game_table, is_normal_type, is_solo
from tutor.rules.rulesets import RuleSet
from tutor.rules.scoring import Score, score
from tutor.rules.terms import SEATS, Game, Party

PARTY_IDS = ("re", "kontra")


@dataclass(frozen=True, slots=True)
class PlayedDeal:
    """A deal played to the end: who held what, each trick in play order with its leader
    and winner (seats 0-3, play goes clockwise), and the final parties by seat."""

    rules: RuleSet
    game: str
    hands: tuple[tuple[Card, ...], ...]
    tricks: tuple[tuple[Card, ...], ...]
    leaders: tuple[int, ...]
    winners: tuple[int, ...]
    parties: tuple[str, ...]

    def trick_points(self) -> list[int]:
        return [POINTS[a] + POINTS[b] + POINTS[c] + POINTS[d] for a, b, c, d in self.tricks]

    def seat_of(self, trick: int, position: int) -> int:
        """The seat that played the card at ``position`` of trick ``trick``."""
        return (self.leaders[trick] + position) % SEATS

    def re_points(self) -> int:
        return self.facts()[0]

    def re_tricks(self) -> int:
        return self.facts()[1]

    def extras(self) -> dict[str, dict[str, int]]:
        return self.facts()[2]

    def facts(self) -> tuple[int, int, dict[str, dict[str, int]]]:
        """Re's card points and tricks, and the extra points each party earned in play
        (``deal_facts``)."""
        return deal_facts(self.tricks, self.leaders, self.winners, self.parties)

    def score(self, re_announced: str | None = None, kontra_announced: str | None = None) -> Score:
        re_points, re_tricks, extras = self.facts()
        return score(self.rules, self.game, re_points, re_tricks, re_announced, kontra_announced, extras)


def deal_facts(tricks: Sequence[Sequence[Card]], leaders: Sequence[int], winners: Sequence[int],
               parties: Sequence[str]) -> tuple[int, int, dict[str, dict[str, int]]]:
    """Re's card points and tricks of a finished deal, and the extra points each party earned
    in play (RULES.md §8, §10): foxes caught, Doppelkopf tricks, Karlchen winning the last
    trick, opponents' Karlchen caught in it. Extras are counted whatever the game; scoring
    ignores them where they do not count. ``parties``: the final parties by seat."""
    counts: dict[str, dict[str, int]] = {"re": {}, "kontra": {}}
    last = len(tricks) - 1
    re_points = re_tricks = 0
    for t, (trick, winner) in enumerate(zip(tricks, winners, strict=True)):
        party = parties[winner]
        first, second, third, fourth = trick
        points = POINTS[first] + POINTS[second] + POINTS[third] + POINTS[fourth]
        if party == "re":
            re_points += points
            re_tricks += 1
        # Else the trick earns no extra: no Doppelkopf, no fox, no Karlchen in the last.
        if points >= 40 or ACE_OF_DIAMONDS in trick or (t == last and JACK_OF_CLUBS in trick):
            counted = counts[party]
            for extra in trick_extras(trick, leaders[t], winner, parties, t == last):
                counted[extra] = counted.get(extra, 0) + 1
    return re_points, re_tricks, counts


def trick_extras(trick: Sequence[Card], leader: int, winner: int, parties: Sequence[str], last: bool) -> list[str]:
    """The extra points one trick earns the winner's party, each once per time it is earned
    (RULES.md §8, §10): ``doppelkopf`` (40 card points or more), ``fox`` for each A♦ of the
    other party, and in the last trick ``karlchen`` (the J♣ takes it) and ``karlchen_caught``
    for each J♣ of the other party. Counted whatever the game; scoring drops what the game
    or the rules do not count."""
    party = parties[winner]
    earned: list[str] = []
    if POINTS[trick[0]] + POINTS[trick[1]] + POINTS[trick[2]] + POINTS[trick[3]] >= 40:
        earned.append("doppelkopf")
    if ACE_OF_DIAMONDS in trick or last:
        for position, card in enumerate(trick):
            if card == ACE_OF_DIAMONDS or (last and card == JACK_OF_CLUBS):
                if parties[(leader + position) % SEATS] != party:
                    earned.append("fox" if card == ACE_OF_DIAMONDS else "karlchen_caught")
    if last and trick[(winner - leader) % SEATS] == JACK_OF_CLUBS:
        earned.append("karlchen")
    return earned


def deal_hands(rng: random.Random, rules: RuleSet) -> list[list[Card]]:
    """Shuffle the deck and deal it out, the same hands for the same seed."""
    rnd = rng.random
    # Sorting by independent uniform keys is a uniform shuffle, and quicker than
    # random.shuffle in pure Python; quiz generation deals many thousands of hands.
    cards = sorted(_DECKS[rules.deck], key=lambda _: rnd())
    size = rules.tricks
    return [sorted(cards[i * size : (i + 1) * size]) for i in range(SEATS)]


_DECKS = {size: tuple(deck(size)) for size in (48, 40)}


def play_randomly(
    rng: random.Random, table: GameTable, hands: Sequence[Sequence[Card]], leader: int
) -> tuple[list[tuple[Card, ...]], list[int], list[int]]:
    """Play every card out, each player choosing uniformly among his legal cards.
    Returns the tricks (play order), their leaders and winners (seats)."""
    rnd = rng.random
    suit_class = table.suit_class
    winner_of = table.winner
    # Each hand as five lists, one per suit class (four plain suits, trumps): the cards that
    # follow a lead are then one list, with no filtering per card played.
    by_class: list[list[list[Card]]] = []
    for hand in hands:
        classes: list[list[Card]] = [[], [], [], [], []]
        for card in hand:
            classes[suit_class[card]].append(card)
        by_class.append(classes)
    tricks: list[tuple[Card, ...]] = []
    leaders: list[int] = []
    winners: list[int] = []
    count = len(hands[0])
    for t in range(count):
        left = count - t  # cards in each hand
        trick = []
        lead = -1
        for seat in leader, (leader + 1) % 4, (leader + 2) % 4, (leader + 3) % 4:
            holding = by_class[seat]
            follow = holding[lead] if lead >= 0 else None
            if follow:
                card = follow.pop(int(rnd() * len(follow)))
            else:  # leading, or void in the led suit: any card, uniformly
                index = int(rnd() * left)
                for cards in holding:
                    if index < len(cards):
                        card = cards.pop(index)
                        break
                    index -= len(cards)
                if lead < 0:
                    lead = suit_class[card]
            trick.append(card)
        tricks.append(tuple(trick))
        leaders.append(leader)
        leader = (leader + winner_of(trick, t == count - 1)) % 4
        winners.append(leader)
    return tricks, leaders, winners


def normal_parties(hands: Sequence[Sequence[Card]]) -> tuple[str, ...]:
    """Parties of a normal game: the holders of the Q♣ are Re."""
    return tuple("re" if QUEEN_OF_CLUBS in h else "kontra" for h in hands)


def random_deal(rng: random.Random, rules: RuleSet, dealer: int = 0) -> PlayedDeal:
    """Deal and play a whole deal legally at random: a normal game, or a declared wedding
    when one player was dealt both Q♣ (a wedding solo if he wins the first three tricks)."""
    hands = deal_hands(rng, rules)
    leader = (dealer + 1) % SEATS
    parties = normal_parties(hands)
    declared = "normal" if parties.count("re") == 2 else "wedding"
    while True:
        table = game_table(declared, schweinchen_declared(rules, declared, hands))
        tricks, leaders, winners = play_randomly(rng, table, hands, leader)
        game = declared
        if declared == "wedding":
            game, parties = wedding_parties(parties.index("re"), winners)
        # A wedding that became a solo loses a declared Schweinchen (RULES.md §3); play
        # again until the tricks were played under the trumps of the game they became.
        if game == declared or game_table(game, schweinchen_declared(rules, game, hands)).same_play(table):
            break
    return PlayedDeal(rules, game, tuple(map(tuple, hands)), tuple(tricks), tuple(leaders), tuple(winners), parties)


def schweinchen_declared(rules: RuleSet, game: str, hands: Sequence[Sequence[Card]]) -> RuleSet:
    """The rules as played: with the Schweinchen option on, both A♦ become the top trumps
    only when one player holds both and so must declare them (RULES.md §3)."""
    if rules.schweinchen and not (is_normal_type(game) and any(list(h).count(ACE_OF_DIAMONDS) == 2 for h in hands)):
        return _without_schweinchen(rules)
    return rules


def wedding_parties(groom: int, winners: Sequence[int]) -> tuple[Game, tuple[Party, ...]]:
    """The game and parties of a declared wedding: the partner is the first other player to
    win one of the first three tricks; if the groom wins all three, it is his solo."""
    partner = next((w for w in winners[:CLARIFICATION_TRICKS] if w != groom), None)
    if partner is None:
        return "wedding_solo", tuple("re" if s == groom else "kontra" for s in range(SEATS))
    return "wedding", tuple("re" if s in (groom, partner) else "kontra" for s in range(SEATS))


def clarification_trick(groom: int, winners: Sequence[int]) -> int | None:
    """The trick (1-3) that found the groom's partner, or None if he won all three."""
    return next((t + 1 for t, w in enumerate(winners[:CLARIFICATION_TRICKS]) if w != groom), None)


# --- Replaying a deal given as its tricks (the API's deal form) ---------------------------


def parse_trick_list(value: Any, rules: RuleSet, field: str = "tricks") -> list[list[Card]]:
    """Tricks as the API sends them: a full deal of tricks of four card ids, every card of
    the deck exactly twice. RulesError naming the first card at fault otherwise."""
    if not isinstance(value, list):
        raise RulesError("bad_type", field, expected="array")
    if len(value) != rules.tricks:
        raise RulesError("wrong_count", field, expected=rules.tricks, got=len(value))
    seen: Counter[Card] = Counter()
    tricks = []
    for t, trick in enumerate(value):
        if not isinstance(trick, list):
            raise RulesError("bad_type", f"{field}.{t}", expected="array")
        if len(trick) != SEATS:
            raise RulesError("wrong_count", f"{field}.{t}", expected=SEATS, got=len(trick))
        cards = [parse_card_in(c, rules, f"{field}.{t}.{i}") for i, c in enumerate(trick)]
        for i, card in enumerate(cards):
            seen[card] += 1
            if seen[card] > 2:
                raise RulesError("too_many_copies", f"{field}.{t}.{i}", card=card_id(card))
        tricks.append(cards)
    return tricks


def parse_card_in(value: Any, rules: RuleSet, field: str) -> Card:
    """A card id of this deck, or RulesError."""
    try:
        card = parse_card(value)
    except ValueError:
        raise RulesError("unknown_card", field, value=str(value)[:12]) from None
    if not in_deck(card, rules.deck):
        raise RulesError("card_not_in_deck", field, card=value)
    return card


def _seats(table: GameTable, tricks: Sequence[Sequence[Card]], first_leader: int) -> list[list[Card]]:
    """The hands the tricks imply: each card to the seat that played it, the seats following
    from each trick's winner under ``table``."""
    hands: list[list[Card]] = [[] for _ in range(SEATS)]
    leader = first_leader
    for t, trick in enumerate(tricks):
        for i, card in enumerate(trick):
            hands[(leader + i) % SEATS].append(card)
        leader = (leader + table.winner(trick, t == len(tricks) - 1)) % SEATS
    return [sorted(h) for h in hands]


def _replay(
    rules: RuleSet, game: str, tricks: Sequence[Sequence[Card]], first_leader: int, parties: Sequence[str],
    declared: bool | None,
) -> tuple[PlayedDeal | None, RulesError | None]:
    """The deal the tricks make when played card by card on the engine's Deal (with the
    Schweinchen declared or not, None: as the option says), or the first card it refuses."""
    from tutor.rules.deal import Deal  # the stateful deal builds on this module's PlayedDeal

    played_rules = rules if declared is None else rules.with_options(schweinchen=declared)
    hands = _seats(game_table(game, played_rules), tricks, first_leader)
    deal = Deal(rules, hands, game, first_leader, parties=parties, schweinchen=declared)
    for t, trick in enumerate(tricks):
        for i, card in enumerate(trick):
            seat = deal.turn
            try:
                deal.play(card)
            except RulesError:
                return None, RulesError("illegal_card", f"tricks.{t}.{i}", card=card_id(card), trick=t + 1, seat=seat)
    return deal.played(), None


# What the deal form's "schweinchen" is when the caller leaves it out: read it from the tricks.
READ_FROM_TRICKS: Final = -1


def replay(
    rules: RuleSet, game: str, first_leader: int, tricks: Sequence[Sequence[Card]], parties: Sequence[str],
    schweinchen: int | None = READ_FROM_TRICKS,
) -> PlayedDeal:
    """Rebuild a whole deal from its tricks, each card played on the engine's Deal, which
    refuses any card against the rules.

    ``schweinchen``: the seat that declared both A♦ (RULES.md §3), or None for nobody; the
    declaration is then taken as given, and tricks that contradict it (the declarer did not
    hold both, or somebody held both without declaring) are refused. Left out, with
    Schweinchen on in a normal-type game, both A♦ count as declared exactly when one seat
    held them; if the replay is illegal either way, the deal is refused (API.md). When both
    readings give a legal deal, the one whose hands fit the given parties (the Q♣ holders, a
    wedding's partner) is taken, and otherwise the declared one."""
    parties = check_parties(parties, game)
    played = rules.schweinchen and is_normal_type(game)
    if schweinchen != READ_FROM_TRICKS:
        if schweinchen is not None and not played:
            raise RulesError("schweinchen_not_played", "schweinchen")
        deal, error = _replay(rules, game, tricks, first_leader, parties, schweinchen is not None if played else None)
        if deal is None:
            raise error or RulesError("schweinchen_mismatch", "tricks")
        doubles = [s for s, h in enumerate(deal.hands) if h.count(ACE_OF_DIAMONDS) == 2]
        if played and doubles != ([] if schweinchen is None else [schweinchen]):
            raise RulesError("schweinchen_contradicted", "schweinchen")
        return deal
    readings: list[bool | None] = [True, False] if played else [None]
    candidates: list[PlayedDeal] = []
    first_error: RulesError | None = None
    for declared in readings:
        deal, error = _replay(rules, game, tricks, first_leader, parties, declared)
        if deal is not None:
            one_seat_both = any(h.count(ACE_OF_DIAMONDS) == 2 for h in deal.hands)
            if declared is None or declared == one_seat_both:
                candidates.append(deal)
        first_error = first_error or error
    if not candidates:
        raise first_error or RulesError("schweinchen_mismatch", "tricks")
    return next((d for d in candidates if parties_fit(d)), candidates[0])


def parties_fit(deal: PlayedDeal) -> bool:
    """Whether the deal's parties are the ones its hands make: the Q♣ holders in a normal
    game, the groom and his partner in a wedding, the groom alone in a wedding solo or a
    silent wedding. Other games (poverty, solos) carry no such sign."""
    holders = [s for s, h in enumerate(deal.hands) for c in h if c == QUEEN_OF_CLUBS]
    if deal.game == "normal":
        return len(set(holders)) == 2 and deal.parties == normal_parties(deal.hands)
    if deal.game in ("wedding", "wedding_solo", "silent_wedding"):
        if len(set(holders)) != 1:
            return False
        if deal.game == "silent_wedding":
            return deal.parties == tuple("re" if s == holders[0] else "kontra" for s in range(SEATS))
        return wedding_parties(holders[0], deal.winners) == (deal.game, deal.parties)
    return True


def _without_schweinchen(rules: RuleSet) -> RuleSet:
    return rules.with_options(schweinchen=False)


def check_parties(parties: Any, game: str, field: str = "parties") -> tuple[str, ...]:
    """Four parties by seat: exactly one Re in a solo, two in any other game."""
    if not isinstance(parties, (list, tuple)) or len(parties) != SEATS:
        raise RulesError("wrong_count", field, expected=SEATS, got=len(parties) if isinstance(parties, list) else 0)
    for seat, party in enumerate(parties):
        if party not in PARTY_IDS:
            raise RulesError("unknown_party", f"{field}.{seat}", value=str(party)[:12])
    expected = 1 if is_solo(game) else 2
    if list(parties).count("re") != expected:
        raise RulesError("wrong_re_count", field, expected=expected)
    return tuple(parties)
