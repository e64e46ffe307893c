"""The course of a deal, played forward from the seed: dealing, reservations in turn, a
poverty's exchange, then the cards, trick by trick, on the engine's ``tutor.rules.deal.Deal``
(which owns every rule of the play: legal cards, tricks, the wedding's clarification, the
parties and what each player knows, announcements and their deadlines, the score).
The human's choices come in as moves at the points where ``Run.play()`` yields a Turn; the
computer players' choices come from ``tutor.play.bots``.

One policy here is the app's, not the rules': a poverty nobody takes is dealt again by the
same dealer (RULES.md §4), and after ``MAX_REDEALS`` of those no more poverty is offered,
so that a deal always gets played.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Generator, Sequence
from typing import Any, Final

from tutor.play.moves import Move
from tutor.play.players import HEURISTIC, Player
from tutor.play.shown import AnnounceOption, Turn
from tutor.rules.announcements import NONE, announcement_id
from tutor.rules.cards import QUEEN_OF_CLUBS, Card, card_id
from tutor.rules.deal import Announcement, Deal, Poverty
from tutor.rules.deals import deal_hands
from tutor.rules.errors import RulesError
from tutor.rules.explain import legal_reason
from tutor.rules.games import GameTable, game_table, hand_order, is_normal_type, is_solo
from tutor.rules.reservations import (
    ANNOUNCED_SOLOS,
    HEALTHY,
    POVERTY_CARDS,
    Reservation,
    check_poverty_pass,
    decide,
    exchange_poverty,
    may_declare_poverty,
    may_declare_wedding,
    poverty_asking_order,
    poverty_trumps,
)
from tutor.rules.rulesets import OPTION_CHOICES, RuleSet
from tutor.rules.terms import Party

SEATS: Final = 4
HUMAN: Final = 0
LEVELS: Final = (0, 1, 2)  # 0: normal games only; 1: weddings too; 2: solos and poverty too
MAX_REDEALS: Final = 4  # app policy: after this many poverties nobody took, poverty is no longer offered
_NO_WISH: Final = (NONE, NONE)
IDS_TO_CARD: Final = {card_id(c): c for c in range(24)}


def wedding_allowed(rules: RuleSet, hand: Sequence[Card]) -> bool:
    """Whether a player with both Q♣ may declare the wedding here (the engine's
    ``may_declare_wedding``)."""
    return may_declare_wedding(rules, hand)


sort_hand = hand_order  # a hand as players hold it: the engine's order (tutor.rules.games.hand_order)


class Run:
    """One deal played forward. ``human``: the seat whose choices come from the moves, or
    None when the computer plays all four seats. Until the reservations are settled (and a
    poverty's cards exchanged) there is no ``deal``; then everything about the cards is
    the engine's ``Deal``."""

    def __init__(
        self, rules: RuleSet, seed: int, level: int, human: int | None, players: Sequence[Player] | None = None
    ) -> None:
        self.rules, self.seed, self.level, self.human = rules, seed, level, human
        self.players = tuple(players) if players else (HEURISTIC,) * SEATS
        self.rng = random.Random(seed)
        self.dealer = seed % SEATS
        self.redeals = 0
        self.dealt_hands: list[list[Card]] = []
        self.said: list[str | None] = [None] * SEATS
        self.game: str | None = None
        self.declarer: int | None = None
        self.first_leader: int | None = None
        self.poor: int | None = None
        self.acceptor: int | None = None
        self.passed: list[Card] = []
        self.returned: list[Card] = []
        self.deal: Deal | None = None
        self._table = game_table("normal", rules)  # how hands are sorted before the game is set
        self.wish: list[tuple[int, int]] = [(NONE, NONE)] * SEATS
        self.turn: Turn | None = None
        self._open: set[int] = set()

    # -- what the page reads --

    @property
    def viewer(self) -> int:
        return HUMAN if self.human is None else self.human

    @property
    def table(self) -> GameTable:
        return self.deal.table if self.deal else self._table

    @property
    def hands(self) -> list[list[Card]]:
        return self.deal.hands if self.deal else self.dealt_hands

    @property
    def dealt(self) -> tuple[tuple[Card, ...], ...]:
        return self.deal.dealt if self.deal else ()

    @property
    def parties(self) -> tuple[Party | None, ...]:
        return self.deal.parties if self.deal else (None,) * SEATS

    def known(self) -> tuple[Party | None, ...]:
        return self.deal.known(self.viewer) if self.deal else (None,) * SEATS

    @property
    def announced(self) -> list[Announcement]:
        return self.deal.announcements if self.deal else []

    # -- the deal --

    def play(self) -> Generator[Turn, Move, None]:
        rules = self.rules
        while True:
            yield from self._deal_and_reserve()
            if self.game != "poverty":
                break
            yield from self._poverty()
            if self.acceptor is not None:
                break
            self.redeals += 1
        game = self.game
        assert game is not None and self.first_leader is not None
        poverty = None
        if game == "poverty":
            assert self.poor is not None and self.acceptor is not None
            table = game_table("normal", rules)
            poverty = Poverty(self.poor, self.acceptor, len(poverty_trumps(self.passed)),
                              sum(table.is_trump(c) for c in self.returned), tuple(self.passed), tuple(self.returned))
        deal = Deal(rules, self.dealt_hands, game, self.first_leader, declarer=self.declarer, poverty=poverty,
                    dealer=self.dealer)
        self.deal = deal
        for seat in range(SEATS):
            if seat != self.human:
                soloist = is_solo(game) and self.declarer == seat and game != "silent_wedding"
                self.wish[seat] = self.players[seat].announcement_wish(deal.table, deal.hands[seat], soloist)
        yield from self._tricks(deal)

    def _deal_and_reserve(self) -> Generator[Turn, Move, None]:
        rules, level = self.rules, self.level
        hands = deal_hands(self.rng, rules)
        while level == 0 and any(h.count(QUEEN_OF_CLUBS) == 2 for h in hands):
            hands = deal_hands(self.rng, rules)  # normal games only: deal again
        self.dealt_hands = hands
        self._table = game_table("normal", rules)
        self.said = [None] * SEATS
        self.game = self.declarer = self.first_leader = None
        reservations: list[Reservation] = [HEALTHY] * SEATS
        poverty_ok = level >= 2 and rules.poverty and self.redeals < MAX_REDEALS
        for i in range(1, SEATS + 1):
            seat = (self.dealer + i) % SEATS
            hand = hands[seat]
            wedding = may_declare_wedding(rules, hand)
            if seat == self.human:
                options = ["healthy"]
                if level >= 1 and wedding:
                    options.append("wedding")
                if poverty_ok and may_declare_poverty(hand):
                    options.append("poverty")
                if level >= 2:
                    options += ANNOUNCED_SOLOS
                if len(options) > 1:
                    move = yield self._turn("reserve", tuple(options))
                    if move.kind != "reserve" or move.value not in options:
                        raise RulesError("move_not_possible", "m", move=move.value)
                    value = move.value
                    reservations[seat] = Reservation("solo", value) if value in ANNOUNCED_SOLOS else Reservation(value)
            else:
                reservations[seat] = self.players[seat].reservation(
                    rules, hand, level, wedding=wedding, poverty=poverty_ok, seat=seat, seed=self.seed,
                    redeals=self.redeals,
                )
            r = reservations[seat]
            self.said[seat] = r.solo if r.kind == "solo" else r.kind
        decision = decide(rules, self.dealer, reservations, hands)  # a silent wedding too
        self.game, self.declarer, self.first_leader = decision.game, decision.declarer, decision.leader

    def _pick(self, kind: str, options: Sequence[Card], must: Sequence[Card]) -> Generator[Turn, Move, list[Card]]:
        """Three cards chosen by the human, one move each."""
        chosen: list[Card] = []
        left = Counter(options)
        while len(chosen) < POVERTY_CARDS:
            # Once the cards still to pick are all needed for the trumps, only those are offered.
            needed = Counter(must) - Counter(chosen)
            pool = needed if sum(needed.values()) >= POVERTY_CARDS - len(chosen) else left
            ids = tuple(dict.fromkeys(card_id(c) for c in sort_hand(list(pool.elements()), self.table)))
            move = yield self._turn(
                kind,
                ids,
                hand=options,
                must=tuple(card_id(c) for c in must),
                chosen=tuple(card_id(c) for c in chosen),
                count=POVERTY_CARDS - len(chosen),
            )
            if move.kind != "card" or move.value not in ids:
                raise RulesError("move_not_possible", "m", move=move.value)
            card = IDS_TO_CARD[move.value]
            left[card] -= 1
            if not left[card]:
                del left[card]
            chosen.append(card)
        return chosen

    def _poverty(self) -> Generator[Turn, Move, None]:
        rules, hands = self.rules, self.dealt_hands
        poor = self.declarer
        assert poor is not None
        self.poor, self.acceptor = poor, None
        self._table = game_table("poverty", rules)
        if poor == self.human:
            passed = yield from self._pick("poverty_pass", hands[poor], poverty_trumps(hands[poor]))
            check_poverty_pass(hands[poor], passed)
        else:
            passed = self.players[poor].poverty_pass(hands[poor])
        self.passed = passed
        for seat in poverty_asking_order(poor):  # RULES.md §4: the first to his left who accepts
            if seat == self.human:
                move = yield self._turn("poverty_accept", ("accept", "decline"))
                if move.kind != "poverty":
                    raise RulesError("move_not_possible", "m", move=move.value)
                accepts = move.value == "accept"
            else:
                accepts = self.players[seat].accepts_poverty(rules, hands[seat])
            if accepts:
                self.acceptor = seat
                break
        if self.acceptor is None:
            return
        acceptor = self.acceptor
        taken = hands[acceptor] + passed
        if acceptor == self.human:
            returned = yield from self._pick("poverty_return", taken, ())
        else:
            returned = self.players[acceptor].poverty_return(rules, taken)
        self.returned = returned
        hands[poor], hands[acceptor] = exchange_poverty(hands[poor], hands[acceptor], passed, returned)

    def _play_turn(self, deal: Deal, seat: int) -> Turn:
        hand = deal.hands[seat]
        cards = len(hand)
        party = deal.own_party(seat)
        allowed = deal.allowed_levels(seat)
        options: tuple[AnnounceOption, ...] = ()
        if allowed:  # most turns offer nothing: the reasons are worked out only for an offer
            options = tuple(AnnounceOption(o.id, o.until or 0, o.reason, o.until_reason)
                            for o in deal.announcement_options(seat) if o.allowed)
        own = deal.levels[party] if party else NONE
        passed = sorted(t for t in self._open - set(allowed) if t > own)
        self._open = set(allowed)
        ids = self._sorted_ids(hand)
        legal, reason = legal_reason(ids, [card_id(c) for c in deal.trick], deal.game, deal.played_rules)
        passed_ids = tuple(announcement_id(t, party) for t in passed) if party else ()
        passed_reasons = tuple(deal.announcement_reason(seat, t) for t in passed) if party else ()
        return Turn("play", tuple(legal), ids, cards, reason, options, passed_ids,
                    passed_reasons=passed_reasons)

    def _sorted_ids(self, hand: Sequence[Card]) -> tuple[str, ...]:
        return tuple(card_id(c) for c in sort_hand(hand, self.table))

    def _turn(self, kind: str, options: tuple[str, ...], hand: Sequence[Card] | None = None, **more: Any) -> Turn:
        """A decision of the human; ``hand``: the cards he chooses from, if not his hand
        (the acceptor of a poverty returns three of his hand and the cards he took)."""
        cards = self.hands[self.human or 0] if hand is None else hand
        return Turn(kind, options, self._sorted_ids(cards), len(cards), **more)

    def _tricks(self, deal: Deal) -> Generator[Turn, Move, None]:
        human = self.human
        while not deal.over:
            seat = deal.turn
            assert seat is not None
            if seat == human:
                while True:
                    move = yield self._play_turn(deal, seat)
                    if move.kind == "announce":
                        deal.announce(seat, move.value)  # RulesError announcement_not_allowed
                        continue
                    if move.kind != "card":
                        raise RulesError("move_not_possible", "m", move=move.value)
                    card = IDS_TO_CARD[move.value]
                    break
            else:
                player = self.players[seat]
                if self.wish[seat] != _NO_WISH:
                    level = player.announcement(deal, seat, self.wish[seat])
                    if level is not None:
                        deal.announce_level(seat, level)
                card = player.card(deal, seat)
            seeking = deal.clarified == 0
            deal.play(card)  # RulesError card_not_in_hand or illegal_card for the human's
            if seeking and (deal.clarified or deal.game == "wedding_solo"):
                # The wedding is settled: the computer players judge their hands again.
                groom = deal.declarer
                for other in range(SEATS):
                    if other != human:
                        soloist = other == groom and deal.game == "wedding_solo"
                        self.wish[other] = self.players[other].announcement_wish(deal.table, deal.dealt[other],
                                                                                 soloist)

    # -- the end --

    def deal_form(self) -> dict[str, Any]:
        """The finished deal as the API's deal-form request."""
        deal = self.deal
        assert deal is not None
        rules = self.rules
        form: dict[str, Any] = {
            "rules": {"ruleset": rules.ruleset, "options": {name: getattr(rules, name) for name in OPTION_CHOICES}},
            "game": deal.game,
            "parties": list(deal.parties),
            "first_leader": self.first_leader,
            "tricks": [[card_id(c) for c in trick] for trick in deal.tricks],
            "announcements": deal.announced(),
        }
        if rules.schweinchen and is_normal_type(deal.game):
            form["schweinchen"] = deal.schweinchen_seat()  # settles how the tricks read (API.md)
        return form
