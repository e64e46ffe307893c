"""Game kinds, their trumps, who wins a trick and which cards may be played.

>>> trump_order("solo_jacks", RuleSet.named("ddv"))
['JC', 'JS', 'JH', 'JD']
>>> trick_winner(["9D", "QC", "10H", "AD"], "normal", RuleSet.named("ddv"))
2
>>> legal_cards(["AS", "9S", "QS", "KH"], ["10S"], "normal", RuleSet.named("ddv"))
['AS', '9S']
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Final

from tutor.rules.cards import (
    ACE_OF_DIAMONDS,
    ALL_CARDS,
    POINTS,
    RANKS,
    SUITS,
    TEN_OF_HEARTS,
    Card,
    card_id,
    in_deck,
    make_card,
    parse_card,
    rank_of,
    suit_of,
)
from tutor.rules.errors import RulesError
from tutor.rules.rulesets import RuleSet
from tutor.rules.terms import GAME_IDS, Game

# Games played with the trumps of a normal game, with two against two (RULES.md §2, §4).
NORMAL_TYPE: Final[tuple[Game, ...]] = ("normal", "wedding", "poverty")
# Games where one player is Re alone and scores three times.
SOLOS: Final[tuple[Game, ...]] = (
    "silent_wedding",
    "wedding_solo",
    "solo_diamonds",
    "solo_hearts",
    "solo_spades",
    "solo_clubs",
    "solo_queens",
    "solo_jacks",
    "solo_aces",
)
GAMES: Final[tuple[Game, ...]] = GAME_IDS  # normal-type games first, then the solos
SUIT_SOLOS: Final = {"solo_diamonds": "D", "solo_hearts": "H", "solo_spades": "S", "solo_clubs": "C"}
TRUMP: Final = 4  # the "suit class" of every trump; plain suits are 0-3 in SUITS order
NO_CARD: Final = -1  # where a table names a card that this game does not have (no fox in a solo)
# A declared wedding finds its partner in the first three tricks (RULES.md §4); if the groom
# takes all three himself, he plays the wedding alone as a solo.
CLARIFICATION_TRICKS: Final = 3
WEDDINGS: Final[tuple[Game, ...]] = ("wedding", "wedding_solo")  # the games that begin with a declared wedding


def is_solo(game: str) -> bool:
    """Whether one player plays alone against three (he writes three times the value)."""
    return game in _SOLO_SET


def is_normal_type(game: str) -> bool:
    """Normal game, wedding with a partner, or poverty: extra points and "against the old
    ones" count, Schweinchen may be declared."""
    return game in _NORMAL_TYPE_SET


# The same as sets: asked of every deal the analysis scores.
_SOLO_SET: Final = frozenset(SOLOS)
_NORMAL_TYPE_SET: Final = frozenset(NORMAL_TYPE)


def check_game(game: object, rules: RuleSet, field: str = "game") -> Game:
    """The game id if it is one the rules play; RulesError otherwise."""
    known = next((g for g in GAMES if g == game), None)
    if known is None:
        raise RulesError("unknown_game", field, value=str(game))
    if known == "poverty" and not rules.poverty:
        # RULES.md §4: poverty is pagat's, and a house option under ddv.
        raise RulesError("poverty_not_played", field)
    return known


def played_games(rules: RuleSet) -> list[Game]:
    """The game kinds these rules play, in GAMES order (poverty only with its option)."""
    return [game for game in GAMES if game != "poverty" or rules.poverty]


def _cards(ids: str) -> list[Card]:
    return [parse_card(i) for i in ids.split()]


def _trumps(game: str, schweinchen: bool) -> list[Card]:
    """Trumps of a game, highest first (RULES.md §2)."""
    if game in NORMAL_TYPE or game in ("silent_wedding", "wedding_solo", "solo_diamonds"):
        trumps = _cards("10H QC QS QH QD JC JS JH JD AD 10D KD 9D")
        if schweinchen:
            # RULES.md §3: both A♦ declared become the two highest trumps, above the Dullen.
            trumps.remove(ACE_OF_DIAMONDS)
            trumps.insert(0, ACE_OF_DIAMONDS)
        return trumps
    if game in SUIT_SOLOS:
        suit = SUIT_SOLOS[game]
        trumps = [TEN_OF_HEARTS]
        trumps += [make_card("Q", s) for s in SUITS] + [make_card("J", s) for s in SUITS]
        trumps += [make_card(r, suit) for r in ("A", "10", "K", "9") if (r, suit) != ("10", "H")]
        return trumps
    if game == "solo_queens":
        return [make_card("Q", s) for s in SUITS]
    if game == "solo_jacks":
        return [make_card("J", s) for s in SUITS]
    return []  # solo_aces (Fleischloser): no trumps at all


class GameTable:
    """Everything about one game kind under one set of rules that play needs, as lookup
    tables indexed by card, so that simulating thousands of deals stays fast."""

    __slots__ = ("game", "trumps", "suit_class", "power", "dulle_second_wins", "dulle_except_last", "fox", "beating")

    def __init__(self, game: str, rules: RuleSet) -> None:
        self.game = game
        schweinchen = rules.schweinchen and game in NORMAL_TYPE
        self.trumps: tuple[Card, ...] = tuple(_trumps(game, schweinchen))
        trump_power = {c: 100 + len(self.trumps) - i for i, c in enumerate(self.trumps)}
        # suit_class: 0-3 for a plain card of that suit, TRUMP for a trump (a trump belongs
        # to no suit, RULES.md §2). power: higher beats lower; equal cards tie.
        self.suit_class: tuple[int, ...] = tuple(
            TRUMP if c in trump_power else SUITS.index(suit_of(c)) for c in ALL_CARDS
        )
        self.power: tuple[int, ...] = tuple(
            trump_power.get(c, len(RANKS) - RANKS.index(rank_of(c))) for c in ALL_CARDS
        )
        dulle_trump = TEN_OF_HEARTS in trump_power
        self.dulle_second_wins = dulle_trump and rules.dullen != "first_wins"
        self.dulle_except_last = rules.dullen == "second_wins_except_last"
        # RULES.md §8: a caught A♦ scores only where extra points count (normal-type games);
        # a declared Schweinchen is the top trump and no fox to catch. NO_CARD where none is.
        self.fox: int = ACE_OF_DIAMONDS if game in NORMAL_TYPE and not schweinchen else NO_CARD
        # beating[last_trick][best][card]: whether ``card`` takes a trick that ``best`` holds
        # (``beats`` worked out once for every pair: the deal and the computer players ask it
        # of nearly every card played).
        self.beating: tuple[tuple[tuple[bool, ...], ...], ...] = tuple(
            tuple(tuple(self._beats(card, best, last) for card in ALL_CARDS) for best in ALL_CARDS)
            for last in (False, True)
        )

    def same_play(self, other: GameTable) -> bool:
        """Whether every trick goes the same way under both tables."""
        return (self.suit_class, self.power, self.dulle_second_wins, self.dulle_except_last) == (
            other.suit_class, other.power, other.dulle_second_wins, other.dulle_except_last)

    def is_trump(self, card: Card) -> bool:
        return self.suit_class[card] == TRUMP

    def is_fox(self, card: Card) -> bool:
        """Whether this card is a fox here: an A♦ whose loss to the other party scores."""
        return card == self.fox

    def winner(self, trick: Sequence[Card], last_trick: bool = False) -> int:
        """Index in ``trick`` of the card that takes it so far."""
        suit_class, power = self.suit_class, self.power
        lead = suit_class[trick[0]]
        best = 0
        best_card = trick[0]
        best_trump = lead == TRUMP
        for i in range(1, len(trick)):
            card = trick[i]
            cls = suit_class[card]
            if cls == TRUMP:
                # TSR: the first of two equal cards wins, so only a strictly higher one beats.
                if not best_trump or power[card] > power[best_card]:
                    best, best_card, best_trump = i, card, True
                elif card == best_card == TEN_OF_HEARTS and self.dulle_second_wins:
                    if not (last_trick and self.dulle_except_last):
                        best = i  # house option: the second Dulle beats the first
            elif cls == lead and not best_trump and power[card] > power[best_card]:
                best, best_card = i, card
        return best

    def beats(self, card: Card, best: Card, last_trick: bool = False) -> bool:
        """Whether ``card``, played to a trick that ``best`` holds, takes it: what ``winner``
        says of the trick with ``card`` added, at the cost of a look-up (the computer players
        ask it of every card they could play)."""
        return self.beating[last_trick][best][card]

    def _beats(self, card: Card, best: Card, last_trick: bool) -> bool:
        suit_class = self.suit_class
        cls = suit_class[card]
        if cls == TRUMP:
            if suit_class[best] != TRUMP or self.power[card] > self.power[best]:
                return True
            # House option: the second Dulle beats the first (not in the last trick, maybe).
            return (card == best == TEN_OF_HEARTS and self.dulle_second_wins
                    and not (last_trick and self.dulle_except_last))
        return cls == suit_class[best] and self.power[card] > self.power[best]

    def legal(self, hand: Sequence[Card], trick: Sequence[Card]) -> list[Card]:
        """The cards of ``hand`` that may be played to ``trick`` (RULES.md §3: follow the
        led suit, trumps being a suit of their own; otherwise any card)."""
        if not trick:
            return list(hand)
        suit_class = self.suit_class
        lead = suit_class[trick[0]]
        follow = [c for c in hand if suit_class[c] == lead]
        return follow or list(hand)

    def plain_suits(self) -> dict[str, list[Card]]:
        """The plain cards of each suit, highest first (a suit fully in trumps is left out)."""
        suits: dict[str, list[Card]] = {}
        for card in sorted(ALL_CARDS, key=lambda c: -self.power[c]):
            if not self.is_trump(card):
                suits.setdefault(suit_of(card), []).append(card)
        return {s: suits[s] for s in SUITS if s in suits}


def hand_order(cards: Sequence[Card], table: GameTable) -> list[Card]:
    """A hand as players sort it: the trumps first, highest first, then the plain suits in
    suit order (♣ ♠ ♥ ♦), each highest first. The one order every page and question shows.

    >>> from tutor.rules.cards import parse_card, card_id
    >>> table = game_table("normal", RuleSet.named("ddv"))
    >>> [card_id(c) for c in hand_order([parse_card(c) for c in ("AH", "9D", "AC", "10H", "QC")], table)]
    ['10H', 'QC', '9D', 'AC', 'AH']
    """
    trump, suit_class, power = TRUMP, table.suit_class, table.power
    return sorted(cards, key=lambda c: (suit_class[c] != trump, suit_class[c], -power[c], c))


@cache
def game_table(game: str, rules: RuleSet) -> GameTable:
    """The (cached) lookup tables of a game kind under these rules."""
    return GameTable(game, rules)


def trump_order(game: str, rules: RuleSet) -> list[str]:
    """Ids of the trumps of a game in the rules' deck, each once, highest first."""
    return [card_id(c) for c in game_table(game, rules).trumps if in_deck(c, rules.deck)]


def plain_suits(game: str, rules: RuleSet) -> dict[str, list[str]]:
    """Ids of the plain cards of each suit in the rules' deck, highest first."""
    return {
        s: [card_id(c) for c in cs if in_deck(c, rules.deck)]
        for s, cs in game_table(game, rules).plain_suits().items()
    }


def is_trump(card: str, game: str, rules: RuleSet) -> bool:
    """Whether the card with this id is a trump in the game."""
    return game_table(game, rules).is_trump(parse_card(card))


def trick_winner(cards: Sequence[str], game: str, rules: RuleSet, last_trick: bool = False) -> int:
    """Index of the card that takes the trick (cards in play order, the first led)."""
    return game_table(game, rules).winner([parse_card(c) for c in cards], last_trick)


def trick_points(cards: Sequence[str]) -> int:
    """Card points in a trick or any pile of cards."""
    return sum(POINTS[parse_card(c)] for c in cards)


def legal_cards(hand: Sequence[str], trick: Sequence[str], game: str, rules: RuleSet) -> list[str]:
    """Ids of the cards of ``hand`` that may be played, in hand order, each id once."""
    table = game_table(game, rules)
    legal = set(table.legal([parse_card(c) for c in hand], [parse_card(c) for c in trick]))
    return list(dict.fromkeys(c for c in hand if parse_card(c) in legal))
