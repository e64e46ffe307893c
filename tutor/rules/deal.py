"""One deal that moves: the cards played trick by trick, with everything the rules decide on
the way, in the manner of python-chess's ``Board``.

A ``Deal`` starts once the reservations are decided and the cards are in their hands (after
a poverty's exchange). ``legal()`` gives the cards the player to move may play, ``play(card)``
plays one; ``may_announce(seat)`` and ``announce(seat, announcement)`` handle announcements
at any moment, out of turn too. Along the way the deal keeps what the rules decide: who takes
each trick, a wedding's clarification trick (and the wedding that becomes a solo), the
parties, what is public (a Q♣ played, an announcement, the clarification, the silent
wedding's second Q♣) and what each seat can know from it, the voids players have shown,
and at the end ``outcome()``, the engine's score.

>>> from tutor.rules.cards import parse_card
>>> ddv = RuleSet.named("ddv")
>>> hands = [[parse_card(c) for c in h.split()] for h in (
...     "QC 10H JS AD 10D KD AS 10S AH KH 9C 9C",
...     "QC 10H QS JC JH AC AC 10C KC 9S 9S KS",
...     "QS QH QH QD JC JS JD JD AD 9D 9D KS",
...     "QD JH 10D KD AS 10S KC 10C AH KH 9H 9H")]
>>> deal = Deal(ddv, hands, "normal", leader=1)
>>> deal.parties
('re', 're', 'kontra', 'kontra')
>>> [card_id(c) for c in deal.legal()][:3]
['QC', '10H', 'QS']
>>> deal.play(parse_card("AC")); deal.turn
2
>>> [card_id(c) for c in deal.legal()]
['QS', 'QH', 'QD', 'JC', 'JS', 'JD', 'AD', '9D', 'KS']
>>> deal.may_announce(0)
['re', 'no_90', 'no_60', 'no_30', 'schwarz']
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

from tutor.rules.announcements import (
    NONE,
    PARTIES,
    SCHWARZ,
    announce_until,
    announcement_id,
    level_of,
    may_announce_level,
    other,
)
from tutor.rules.cards import ACE_OF_DIAMONDS, QUEEN_OF_CLUBS, Card, card_id
from tutor.rules.deals import PlayedDeal, check_parties, deal_facts, normal_parties, schweinchen_declared
from tutor.rules.errors import RulesError
from tutor.rules.explain import Reason, announcement_reason, announcement_reasons, trick_reason
from tutor.rules.games import (
    CLARIFICATION_TRICKS,
    TRUMP,
    GameTable,
    check_game,
    game_table,
    is_normal_type,
)
from tutor.rules.reservations import Reservation, decide
from tutor.rules.rulesets import RuleSet
from tutor.rules.scoring import Score, sheet_scores
from tutor.rules.terms import SEATS, AnnouncementId, Party

# Games in which the Q♣ decide the parties, so a Q♣ played shows its player as Re; a silent
# wedding looks like a normal game until its groom plays the second Q♣ (RULES.md §4).
QUEENS_DECIDE: Final = ("normal", "silent_wedding")
# The causes of a reveal: what made a seat's party known (Reveal.cause).
CAUSES: Final = ("old_one", "announcement", "clarification", "wedding_solo", "silent_wedding", "deduced")
_NEXT: Final = (1, 2, 3, 0)  # the seat that plays after each seat


@dataclass(frozen=True, slots=True)
class Announcement:
    """An announcement at the table: who, for which party, the highest level it reached
    ("up to", the lower ones come with it), the cards the announcer still held, the trick
    (1-based) during which it was made, and how many cards were on the table by then (all
    tricks together), which places it exactly among the cards."""

    seat: int
    party: Party
    id: AnnouncementId
    cards_in_hand: int
    trick: int
    played: int = 0

    @property
    def level(self) -> int:
        return level_of(self.id, self.party)


@dataclass(frozen=True, slots=True)
class Reveal:
    """A seat's party coming out for one viewer: ``cause`` is ``old_one`` (a Q♣ played),
    ``announcement``, ``clarification`` (a wedding's partner took a trick), ``wedding_solo``
    (the groom took the first three tricks), ``silent_wedding`` (one player played both Q♣)
    or ``deduced`` (it follows from what the viewer knows). ``trick``: the index (0-based)
    of the trick in which it came out; a clarification belongs to the trick that clarified."""

    cause: str
    seat: int
    party: Party
    trick: int = 0


@dataclass(frozen=True, slots=True)
class AnnounceOption:
    """One level a seat could announce up to now: whether the rules allow it, and the rule
    that decides (``tutor.rules.explain``: ``in_time``, ``rides_along``, ``reply_in_time``,
    ``too_late``, ``skipped_level_too_late`` …). When allowed, ``until`` is the fewest cards
    with which it may still be made if nothing else is said, and ``until_reason`` the rule
    that closes it then (a skipped lower level's deadline, say)."""

    id: AnnouncementId
    level: int
    allowed: bool
    reason: Reason
    until: int | None = None
    until_reason: Reason | None = None


@dataclass(frozen=True, slots=True)
class Poverty:
    """A poverty's exchange: the poor player, the player who took the cards (both Re), the
    trumps passed (said at the table) and returned, and the cards themselves (which only
    those two saw; empty where unknown)."""

    poor: int
    acceptor: int
    trumps_passed: int
    trumps_returned: int = 0
    passed: tuple[Card, ...] = ()
    returned: tuple[Card, ...] = ()


class _Event(NamedTuple):
    """A public event in play, and what every seat knew before and after it (a named tuple:
    a deal in the analysis's rollouts records a few, thousands of times a second)."""

    trick: int
    cause: str
    seat: int
    everyone: bool
    before: tuple[tuple[Party | None, ...], ...]
    after: tuple[tuple[Party | None, ...], ...]


class Deal:
    """A deal in play. ``hands``: the cards each seat 0-3 plays from (play goes clockwise,
    to the next higher seat); ``game`` the game the reservations decided, ``leader`` the seat
    that leads the first trick, ``declarer`` the groom, soloist or poor player.

    ``parties`` given means the parties are settled from the start, as when a finished deal
    is replayed from its tricks: then a wedding is not clarified again. ``schweinchen``
    (True/False) overrides whether both A♦ were declared; by default they were exactly when
    one seat holds both (RULES.md §3)."""

    __slots__ = (
        "rules", "played_rules", "table", "game", "declared", "declarer", "dealer", "poverty", "dealt", "hands",
        "tricks", "leaders", "winners", "trick_games", "trick", "leader", "turn", "parties", "public",
        "clarified", "levels", "announcements", "led", "voids", "queens_played", "settled", "count", "seen",
        "best", "holding", "knowledge", "_beating", "_events", "_views",
    )

    def __init__(
        self,
        rules: RuleSet,
        hands: Sequence[Sequence[Card]],
        game: str,
        leader: int,
        *,
        declarer: int | None = None,
        parties: Sequence[str] | None = None,
        poverty: Poverty | None = None,
        schweinchen: bool | None = None,
        dealer: int | None = None,
    ) -> None:
        known_game = check_game(game, rules)
        if len(hands) != SEATS or len({len(h) for h in hands}) != 1:
            raise RulesError("wrong_count", "hands", expected=SEATS)
        if not 0 <= leader < SEATS:
            raise RulesError("out_of_range", "leader", low=0, high=SEATS - 1)
        if parties is None and declarer is None and known_game != "normal":
            raise RulesError("missing_field", "declarer")
        if known_game == "poverty" and parties is None and poverty is None:
            raise RulesError("missing_field", "poverty")
        self.rules = rules
        if schweinchen is None:
            self.played_rules = schweinchen_declared(rules, known_game, hands)
        else:
            self.played_rules = rules.with_options(schweinchen=schweinchen and is_normal_type(known_game))
        self.game: str = known_game
        self.declared: str = known_game  # the game as it began (a wedding may become a solo)
        self.table: GameTable = game_table(known_game, self.played_rules)
        self.declarer = declarer
        self.dealer = dealer
        self.poverty = poverty
        self.dealt: tuple[tuple[Card, ...], ...] = tuple(tuple(h) for h in hands)
        self.hands: list[list[Card]] = [list(h) for h in hands]
        self.count = len(hands[0])  # tricks in this deal
        self.tricks: list[tuple[Card, ...]] = []
        self.leaders: list[int] = []
        self.winners: list[int] = []
        self.trick_games: list[str] = []  # the game each trick was played under
        self.trick: list[Card] = []
        self.best = 0  # index in ``trick`` of the card that takes it so far (kept as each card is played)
        self.leader = leader
        self.turn: int | None = leader if self.count else None
        self.levels: dict[str, int] = {"re": NONE, "kontra": NONE}
        self.announcements: list[Announcement] = []
        self.led = [0, 0, 0, 0]  # how often each plain suit (0-3) was led
        self.voids = [0, 0, 0, 0]  # by seat: bit k set once the seat has shown it holds no card of suit class k
        self.seen = [0] * 24  # by card: the copies played so far (on the table or in a trick)
        self.queens_played: list[int] = []
        self.clarified: int | None = None  # a declared wedding: 0 until its clarification trick, then 1-3
        self.settled = parties is not None
        # By seat and suit class (TRUMP for trumps), the cards in hand in hand order: the cards
        # that follow a lead. Read only.
        self.holding: list[list[list[Card]]] = [self._by_class(h) for h in self.hands]
        self._events: list[_Event] = []
        self._beating = self.table.beating[self.count == 1]  # the table's beating for the trick on it
        public: tuple[Party | None, ...] = (None,) * SEATS
        if parties is not None:
            self.parties: tuple[Party | None, ...] = _as_parties(check_parties(parties, known_game))
            public = self.parties
        elif known_game == "normal":
            self.parties = _as_parties(normal_parties(hands))
        elif known_game == "poverty":
            assert poverty is not None
            # RULES.md §10: the poor player and the acceptor are Re, whoever holds the Q♣.
            self.parties = _alone_or_pair(poverty.poor, poverty.acceptor)
            public = self.parties
        elif known_game == "wedding":
            # RULES.md §4: the partner is found in the first three tricks; until then only the
            # groom's party is known.
            self.parties = tuple("re" if s == declarer else None for s in range(SEATS))
            self.clarified = 0
            public = self.parties
        else:  # a solo, or a silent wedding: the declarer plays alone
            self.parties = _alone_or_pair(declarer or 0, declarer or 0)
            if known_game != "silent_wedding":
                public = self.parties  # a solo is announced; a silent wedding is not
        self.public = public
        self._views: dict[tuple[object, ...], tuple[tuple[Party | None, ...], ...]] = {}
        # By viewer, the parties by seat as that seat knows them now (None: not known). Read only.
        self.knowledge: tuple[tuple[Party | None, ...], ...] = self._knowing()

    @classmethod
    def start(
        cls,
        rules: RuleSet,
        dealer: int,
        reservations: Sequence[Reservation],
        hands: Sequence[Sequence[Card]],
        poverty: Poverty | None = None,
    ) -> Deal:
        """The deal the reservations make (RULES.md §5): the game ``decide`` settles, a
        silent wedding where everybody is healthy and one seat holds both Q♣, the first
        leader the rules name. ``hands``: after a poverty's exchange, which ``poverty``
        describes."""
        decision = decide(rules, dealer, reservations, hands)
        return cls(rules, hands, decision.game, decision.leader, declarer=decision.declarer, poverty=poverty,
                   dealer=dealer)

    # -- copies ------------------------------------------------------------------------------

    def copy(self) -> Deal:
        """An independent copy to play on (the analysis plays many futures of one deal)."""
        new = Deal.__new__(Deal)
        # What play never changes in place (or replaces whole) is shared; the rest is copied.
        new.rules, new.played_rules, new.table, new.game, new.declared = (
            self.rules, self.played_rules, self.table, self.game, self.declared)
        new.declarer, new.dealer, new.poverty, new.dealt, new.count, new.settled = (
            self.declarer, self.dealer, self.poverty, self.dealt, self.count, self.settled)
        new.leader, new.turn, new.best, new.clarified, new._beating = (
            self.leader, self.turn, self.best, self.clarified, self._beating)
        new.parties, new.public, new.knowledge, new._views = self.parties, self.public, self.knowledge, self._views
        new.hands = [h.copy() for h in self.hands]
        new.tricks = self.tricks.copy()
        new.leaders = self.leaders.copy()
        new.winners = self.winners.copy()
        new.trick_games = self.trick_games.copy()
        new.trick = self.trick.copy()
        new.levels = self.levels.copy()
        new.announcements = self.announcements.copy()
        new.led = self.led.copy()
        new.voids = self.voids.copy()
        new.seen = self.seen.copy()
        new.queens_played = self.queens_played.copy()
        # The five suit classes of each hand, each list copied (spelt out: a copy is made
        # for every rollout of the analysis).
        new.holding = [[a.copy(), b.copy(), c.copy(), d.copy(), e.copy()] for a, b, c, d, e in self.holding]
        new._events = self._events.copy()
        return new

    # -- cards -------------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.turn is None

    @property
    def last_trick(self) -> bool:
        """Whether the trick on the table is the deal's last."""
        return len(self.tricks) == self.count - 1

    def legal(self) -> list[Card]:
        """The cards the player to move may play (RULES.md §3: follow the led suit, trumps
        being a suit of their own; otherwise any card), each once, in hand order."""
        seat = self.turn
        if seat is None:
            return []
        hand = self.hands[seat]
        trick = self.trick
        if trick:
            follow = self.holding[seat][self.table.suit_class[trick[0]]]
            if follow:
                return list(dict.fromkeys(follow))
        return list(dict.fromkeys(hand))

    def play(self, card: Card) -> None:
        """The player to move plays ``card``; RulesError ``card_not_in_hand`` or
        ``illegal_card`` (nothing changes then), ``deal_over`` after the last trick."""
        seat = self.turn
        if seat is None:
            raise RulesError("deal_over", "card", card=card_id(card))
        trick = self.trick
        suit_class = self.table.suit_class
        cls = suit_class[card]
        holding = self.holding[seat]
        if card not in holding[cls]:
            raise RulesError("card_not_in_hand", "card", card=card_id(card), seat=seat)
        if trick and cls != suit_class[trick[0]] and holding[suit_class[trick[0]]]:
            # RULES.md §3: who holds the led suit (or a trump on a trump lead) follows.
            raise RulesError("illegal_card", "card", card=card_id(card), seat=seat)
        self.play_legal(card)

    def play_legal(self, card: Card) -> None:
        """The player to move plays ``card``, one of ``legal()``, unchecked: what ``play``
        does after its checks (the computer players choose from the legal cards, and the
        analysis plays thousands of their cards a second)."""
        seat = self.turn
        assert seat is not None
        trick = self.trick
        suit_class = self.table.suit_class
        cls = suit_class[card]
        self.holding[seat][cls].remove(card)
        self.hands[seat].remove(card)
        self.seen[card] += 1
        if trick:
            lead = suit_class[trick[0]]
            if cls != lead:
                self.voids[seat] |= 1 << lead
            position = len(trick)
            if self._beating[trick[self.best]][card]:
                self.best = position
            trick.append(card)
            if card == QUEEN_OF_CLUBS:
                self._old_one(seat)
            if position == 3:  # the fourth card
                self._finish_trick()
                return
        else:
            if cls != TRUMP:
                self.led[cls] += 1
            trick.append(card)
            if card == QUEEN_OF_CLUBS:
                self._old_one(seat)
        self.turn = _NEXT[seat]

    def trick_winner(self) -> int:
        """The seat that takes the trick on the table so far (its leader while it is empty)."""
        return (self.leader + self.best) % SEATS

    def trick_reason(self, index: int) -> Reason:
        """The rule that gave finished trick ``index`` (0-based) to its winner, under the
        trumps it was played with."""
        game = self.trick_games[index]
        rules = self.played_rules if is_normal_type(game) else self.rules
        trick = [card_id(c) for c in self.tricks[index]]
        return trick_reason(trick, game, rules, index == self.count - 1)

    def seat_of(self, trick: int, position: int) -> int:
        """The seat that played the card at ``position`` of trick ``trick``."""
        return (self.leaders[trick] + position) % SEATS

    def _finish_trick(self) -> None:
        trick = self.trick
        t = len(self.tricks)
        leader = self.leader
        winner = (leader + self.best) % SEATS
        self.tricks.append(tuple(trick))
        self.leaders.append(leader)
        self.winners.append(winner)
        self.trick_games.append(self.game)
        self.trick = []
        self.best = 0
        self.leader = winner
        self.turn = winner if t + 1 < self.count else None
        if self.clarified == 0 and not self.settled:
            self._clarify(t, winner)
        self._beating = self.table.beating[t + 2 == self.count]

    def _clarify(self, t: int, winner: int) -> None:
        groom = self.declarer
        if winner != groom:
            # RULES.md §4: the first other player to win one of the first three tricks is
            # the partner; this trick is the clarification trick.
            self.clarified = t + 1
            self.parties = _alone_or_pair(groom or 0, winner)
            self._reveal_all("clarification", winner, t)
        elif t + 1 == CLARIFICATION_TRICKS:
            # RULES.md §4: the groom took the first three tricks: a diamonds solo for him,
            # with the solo's trumps (a declared Schweinchen no longer counts, §3).
            self.game = "wedding_solo"
            self.clarified = None  # nobody left to find
            self.parties = _alone_or_pair(groom or 0, groom or 0)
            self.table = game_table("wedding_solo", self.rules)
            self.holding = [self._by_class(h) for h in self.hands]
            self._reveal_all("wedding_solo", groom or 0, t)

    def _by_class(self, hand: Sequence[Card]) -> list[list[Card]]:
        classes: list[list[Card]] = [[], [], [], [], []]
        suit_class = self.table.suit_class
        for card in hand:
            classes[suit_class[card]].append(card)
        return classes

    def holds(self, seat: int, suit_class: int) -> bool:
        """Whether ``seat`` still holds a card of this suit class (TRUMP for trumps)."""
        return bool(self.holding[seat][suit_class])

    # -- parties and what is known ----------------------------------------------------------------

    @property
    def clarification_trick(self) -> int | None:
        """The trick (1-3) that found a declared wedding's partner; None before it, and in
        every other game."""
        return self.clarified or None

    def own_party(self, seat: int) -> Party | None:
        """A seat's party as the seat itself knows it: in a wedding, a player other than the
        groom does not know it before the clarification trick."""
        if self.clarified == 0 and seat != self.declarer and not self.settled:
            return None
        return self.parties[seat]

    def known(self, viewer: int) -> tuple[Party | None, ...]:
        """The parties by seat as ``viewer`` knows them now (None: not known to him)."""
        return self.knowledge[viewer]

    def _knowing(self) -> tuple[tuple[Party | None, ...], ...]:
        """The parties by seat as each viewer knows them now, by viewer: it follows from the
        game, the parties and what is public (the hands are the deal's own), so a deal and
        its copies, the many futures the analysis plays of one deal, work each out once."""
        public, parties = self.public, self.parties
        unsure = self.clarified == 0 and not self.settled  # see own_party
        key = (self.game, public, parties, unsure)
        views = self._views.get(key)
        if views is None:
            views = self._views[key] = self._work_out_knowing(unsure)
        return views

    def _work_out_knowing(self, unsure: bool) -> tuple[tuple[Party | None, ...], ...]:
        public, parties, declarer = self.public, self.parties, self.declarer
        deduce = self.game in QUEENS_DECIDE
        views = []
        for viewer in range(SEATS):
            known = list(public)
            known[viewer] = None if unsure and viewer != declarer else parties[viewer]
            if deduce and None in known:
                queens = self.dealt[viewer].count(QUEEN_OF_CLUBS)
                if queens == 2 or known.count("re") >= 2:
                    # Both Re found (or he holds both Q♣ himself): the others are Kontra.
                    known = [k or "kontra" for k in known]
                elif queens == 1 and known.count("kontra") >= 2:
                    # With a Q♣ of his own it is a normal game, not a silent wedding: two Kontra
                    # known, the others are Re. Without one he cannot tell.
                    known = [k or "re" for k in known]
            views.append(tuple(known))
        return tuple(views)

    def _note(self, cause: str, seat: int, trick: int, everyone: bool = False) -> None:
        """Record a public event and what every seat knows after it."""
        before = self.knowledge
        self.knowledge = after = self._knowing()
        self._events.append(_Event(trick, cause, seat, everyone, before, after))

    def _reveal_all(self, cause: str, seat: int, trick: int) -> None:
        self.public = self.parties
        self._note(cause, seat, trick, everyone=True)

    def _old_one(self, seat: int) -> None:
        if self.game not in QUEENS_DECIDE or self.settled:
            return
        t = len(self.tricks)
        if self.game == "silent_wedding" and seat in self.queens_played:
            self._reveal_all("silent_wedding", seat, t)  # the second Q♣ from one hand
        elif self.public[seat] is None:
            self._make_public(seat, "re")  # RULES.md §4: the holders of the Q♣ are Re
            self._note("old_one", seat, t)
        self.queens_played.append(seat)

    def _make_public(self, seat: int, party: Party) -> None:
        public = list(self.public)
        public[seat] = party
        self.public = tuple(public)

    def reveals(self, viewer: int) -> list[Reveal]:
        """Every party that came out for ``viewer`` during play, in order, each with the
        trick it came out in; what the game itself makes known (a solo, the groom) is not
        a reveal."""
        found = []
        for event in self._events:
            before, after = event.before[viewer], event.after[viewer]
            for s in sorted(range(SEATS), key=lambda x: x != event.seat):
                party = after[s]
                if party is not None and before[s] is None:
                    cause = event.cause if s == event.seat or event.everyone else "deduced"
                    found.append(Reveal(cause, s, party, event.trick))
        return found

    def known_after(self, viewer: int, trick: int) -> tuple[Party | None, ...]:
        """What ``viewer`` knew of the parties once trick ``trick`` (0-based) was complete."""
        known = self._events[0].before[viewer] if self._events else self.knowledge[viewer]
        for event in self._events:
            if event.trick > trick:
                break
            known = event.after[viewer]
        return known

    # -- announcements ----------------------------------------------------------------------

    def wedding_column(self) -> int | None:
        """The deadline column of RULES.md §6/§10: a declared wedding's clarification trick
        (0 before it), 3 for a wedding that became a solo, None in every other game."""
        if self.declared != "wedding" or self.settled:
            return None
        return self.clarified if self.game == "wedding" else CLARIFICATION_TRICKS

    def allowed_levels(self, seat: int) -> list[int]:
        """The levels ``seat`` may announce up to now (RULES.md §6, §10), lowest first."""
        party = self.own_party(seat)
        if party is None or self.over:
            return []
        own, opponent = self.levels[party], self.levels[other(party)]
        cards, wedding = len(self.hands[seat]), self.wedding_column()
        return [t for t in range(SCHWARZ + 1) if may_announce_level(t, own, opponent, cards, self.rules, wedding)]

    def may_announce(self, seat: int) -> list[AnnouncementId]:
        """Every announcement ``seat`` may make now, each meaning "up to this level"."""
        party = self.own_party(seat)
        return [announcement_id(t, party) for t in self.allowed_levels(seat)] if party else []

    def announcement_options(self, seat: int) -> list[AnnounceOption]:
        """Every level ``seat``'s party could announce up to, with whether it may now and the
        rule that decides, and for each allowed one until when (RULES.md §6, §10). Empty
        while the seat does not know its party."""
        party = self.own_party(seat)
        if party is None or self.over:
            return []
        own, opponent = self.levels[party], self.levels[other(party)]
        own_id = announcement_id(own, party) if own != NONE else None
        opponent_id = announcement_id(opponent, other(party)) if opponent != NONE else None
        cards, wedding = len(self.hands[seat]), self.wedding_column()
        options = []
        for level, (ident, allowed, reason) in enumerate(
            announcement_reasons(self.rules, party, cards, own_id, opponent_id, wedding)
        ):
            if not allowed:
                options.append(AnnounceOption(ident, level, False, reason))
                continue
            until = announce_until(level, own, opponent, cards, self.rules, wedding)
            closing = announcement_reason(self.rules, party, level, until - 1, own_id, opponent_id, wedding)
            options.append(AnnounceOption(ident, level, True, reason, until, closing if until > 0 else None))
        return options

    def announcement_reason(self, seat: int, level: int) -> Reason:
        """The rule that decides whether ``seat`` may announce up to ``level`` now."""
        party = self.own_party(seat)
        if party is None:
            return Reason("wedding_unclarified", {"cards": len(self.hands[seat]), "level": level})
        own, opponent = self.levels[party], self.levels[other(party)]
        own_id = announcement_id(own, party) if own != NONE else None
        opponent_id = announcement_id(opponent, other(party)) if opponent != NONE else None
        return announcement_reason(self.rules, party, level, len(self.hands[seat]), own_id, opponent_id,
                                   self.wedding_column())

    def announce(self, seat: int, announcement: str) -> Announcement:
        """``seat`` announces up to ``announcement`` (``re``/``kontra`` for its party's own
        name, ``no_90`` … ``schwarz``); RulesError ``announcement_not_allowed`` unless the
        rules allow it now."""
        party = self.own_party(seat)
        if party is None:
            raise RulesError("announcement_not_allowed", "announcement", announcement=str(announcement)[:12])
        try:
            level = level_of(announcement, party, "announcement")
        except RulesError:
            raise RulesError("announcement_not_allowed", "announcement", announcement=str(announcement)[:12]) from None
        if level not in self.allowed_levels(seat):
            raise RulesError("announcement_not_allowed", "announcement", announcement=str(announcement)[:12])
        return self.announce_level(seat, level)

    def announce_level(self, seat: int, level: int) -> Announcement:
        """Record ``seat``'s announcement up to ``level`` (already checked against the rules)."""
        party = self.parties[seat]
        assert party is not None
        self.levels[party] = level
        made = Announcement(seat, party, announcement_id(level, party), len(self.hands[seat]), len(self.tricks) + 1,
                            SEATS * len(self.tricks) + len(self.trick))
        self.announcements.append(made)
        if self.public[seat] is None:
            self._make_public(seat, party)  # an announcement names its party
            self._note("announcement", seat, len(self.tricks))
        return made

    def announced(self) -> dict[Party, AnnouncementId | None]:
        """Each party's highest announcement so far (None for none)."""
        return {p: announcement_id(self.levels[p], p) if self.levels[p] != NONE else None for p in PARTIES}

    # -- the end -----------------------------------------------------------------------------

    def played(self) -> PlayedDeal:
        """The finished deal as the scoring sees it; RulesError ``not_finished`` before."""
        return PlayedDeal(self.rules, self.game, self.dealt, tuple(self.tricks), tuple(self.leaders),
                          tuple(self.winners), self._final_parties())

    def _final_parties(self) -> tuple[Party, ...]:
        if not self.over or None in self.parties:
            raise RulesError("not_finished", "tricks")
        return tuple(p or "kontra" for p in self.parties)

    def figures(self) -> tuple[int, int, int]:
        """Of the finished deal's ``outcome()``: Re's card points and what one Re and one
        Kontra player write on the sheet, worked out without the named lines (the analysis
        scores thousands of deals a second)."""
        said = self.announced()
        re_points, re_tricks, extras = deal_facts(self.tricks, self.leaders, self.winners, self._final_parties())
        re_score, kontra_score = sheet_scores(self.rules, self.game, re_points, re_tricks, said["re"], said["kontra"],
                                              extras)
        return re_points, re_score, kontra_score

    def outcome(self) -> Score:
        """The engine's score of the finished deal, with the announcements made."""
        said = self.announced()
        return self.played().score(said["re"], said["kontra"])

    def schweinchen_seat(self) -> int | None:
        """The seat that declared both A♦ as Schweinchen, or None (RULES.md §3)."""
        if not (self.played_rules.schweinchen and is_normal_type(self.declared)):
            return None
        return next((s for s, h in enumerate(self.dealt) if h.count(ACE_OF_DIAMONDS) == 2), None)


def _as_parties(values: Sequence[str]) -> tuple[Party | None, ...]:
    return tuple("re" if v == "re" else "kontra" for v in values)


def _alone_or_pair(one: int, two: int) -> tuple[Party | None, ...]:
    """Parties with these seats Re (the same seat twice: a soloist) and the others Kontra."""
    return tuple("re" if s in (one, two) else "kontra" for s in range(SEATS))

@dataclass(frozen=True, slots=True)
class Course:
    """What everyone at the table can follow without seeing a hand: who led each trick
    (the unfinished one too), who took each finished trick, the table each trick was played
    under, the game now (a wedding may have become a solo) and its clarification trick."""

    leaders: tuple[int, ...]
    winners: tuple[int, ...]
    tables: tuple[GameTable, ...]
    game: str
    clarified: int | None

    def seat_of(self, trick: int, position: int) -> int:
        return (self.leaders[trick] + position) % SEATS


def public_course(
    rules: RuleSet,
    game: str,
    first_leader: int,
    tricks: Sequence[Sequence[Card]],
    declarer: int | None = None,
    schweinchen: bool = False,
) -> Course:
    """The course of ``tricks`` (in play order, the last possibly unfinished) as the table
    sees it, by the same rules as ``Deal``: each trick's winner leads the next, and a
    declared wedding is clarified by the first trick of the first three another player takes,
    or becomes the groom's solo with the solo's trumps (RULES.md §3, §4). ``schweinchen``:
    whether both A♦ were declared."""
    played_rules = rules.with_options(schweinchen=schweinchen and is_normal_type(game))
    table = game_table(game, played_rules)
    count = rules.tricks
    clarified: int | None = 0 if game == "wedding" else None
    leaders: list[int] = []
    winners: list[int] = []
    tables: list[GameTable] = []
    leader = first_leader
    for t, trick in enumerate(tricks):
        leaders.append(leader)
        tables.append(table)
        if len(trick) < SEATS:
            break
        leader = (leader + table.winner(trick, t == count - 1)) % SEATS
        winners.append(leader)
        if clarified == 0:
            if leader != declarer:
                clarified = t + 1
            elif t + 1 == CLARIFICATION_TRICKS:
                game, clarified = "wedding_solo", None
                table = game_table(game, rules)
    if len(leaders) == len(winners):  # every trick finished: the next one is led by the last winner
        leaders.append(leader)
        tables.append(table)
    return Course(tuple(leaders), tuple(winners), tuple(tables), game, clarified)
