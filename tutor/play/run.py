"""The course of a deal, played forward from the seed: dealing, reservations in turn, a
poverty's exchange, the tricks, and what every player knows about the parties on the way.
The human's choices come in as moves at the points where ``Run.play()`` yields a Turn;
the computer players' choices come from ``tutor.play.bots``."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Generator, Sequence
from typing import Any, Final

from tutor.play import bots
from tutor.play.moves import Move
from tutor.play.views import AnnouncementMade, AnnounceOption, Reveal, Turn
from tutor.rules.announcements import NONE, SCHWARZ, announcement_id, level_of, may_announce_level, other
from tutor.rules.cards import ACE_OF_DIAMONDS, QUEEN_OF_CLUBS, Card, card_id
from tutor.rules.deals import deal_hands, normal_parties, schweinchen_declared
from tutor.rules.errors import RulesError
from tutor.rules.explain import legal_reason, poverty_parties
from tutor.rules.games import CLARIFICATION_TRICKS, GameTable, game_table, is_solo
from tutor.rules.reservations import (
    ANNOUNCED_SOLOS,
    HEALTHY,
    POVERTY_CARDS,
    Reservation,
    check_poverty_pass,
    decide,
    exchange_poverty,
    may_declare_poverty,
    poverty_trumps,
)
from tutor.rules.rulesets import OPTION_CHOICES, RuleSet

SEATS: Final = 4
HUMAN: Final = 0
LEVELS: Final = (0, 1, 2)  # 0: normal games only; 1: weddings too; 2: solos and poverty too
MAX_REDEALS: Final = 4  # a poverty nobody takes is dealt again; after this many, no more poverty
_NO_WISH: Final = (NONE, NONE)
_SILENT_ONE_IN: Final = 8  # a computer player with both Q♣ plays about one wedding in eight silently
IDS_TO_CARD: Final = {card_id(c): c for c in range(24)}


def wedding_allowed(rules: RuleSet, hand: Sequence[Card]) -> bool:
    """Whether a player with both Q♣ may declare the wedding here. With the Schweinchen on,
    a groom who also holds both A♦ plays it silently: his declared Schweinchen could take
    one of the first three tricks and so decide whether the wedding becomes a solo, in
    which the Schweinchen would not count, and no reading of such a deal is consistent."""
    return not (rules.schweinchen and list(hand).count(ACE_OF_DIAMONDS) == 2)


def sort_hand(cards: Sequence[Card], table: GameTable) -> list[Card]:
    """A hand as players hold it: trumps first, highest first, then the plain suits in
    suit order (♣ ♠ ♥ ♦), each highest first."""
    power, suit_class = table.power, table.suit_class
    return sorted(cards, key=lambda c: (-(suit_class[c] == 4), suit_class[c], -power[c], c))


class Run:
    """One deal played forward. ``human``: the seat whose choices come from the moves, or
    None when the computer plays all four seats."""

    def __init__(self, rules: RuleSet, seed: int, level: int, human: int | None) -> None:
        self.rules, self.seed, self.level, self.human = rules, seed, level, human
        self.rng = random.Random(seed)
        self.dealer = seed % SEATS
        self.redeals = 0
        self.hands: list[list[Card]] = []
        self.dealt: list[list[Card]] = []
        self.said: list[str | None] = [None] * SEATS
        self.game: str | None = None
        self.declarer: int | None = None
        self.first_leader: int | None = None
        self.parties: list[str | None] = [None] * SEATS
        self.public: list[str | None] = [None] * SEATS
        self.know: list[list[str | None]] = [[None] * SEATS for _ in range(SEATS)]
        self.poor: int | None = None
        self.acceptor: int | None = None
        self.passed: list[Card] = []
        self.returned: list[Card] = []
        self.clarified: int | None = None  # a declared wedding: 0 until its clarification trick
        self.table = game_table("normal", rules)
        self.played_rules = rules
        self.tricks: list[list[Card]] = []
        self.leaders: list[int] = []
        self.winners: list[int] = []
        self.trick_games: list[str] = []
        self.trick: list[Card] = []
        self.leader = 0
        self.levels = {"re": NONE, "kontra": NONE}
        self.announced: list[AnnouncementMade] = []
        self.reveals: list[tuple[int, Reveal]] = []
        self.human_known: list[tuple[str | None, ...]] = []
        self.led = [0, 0, 0, 0]
        self.wish: list[tuple[int, int]] = [(NONE, NONE)] * SEATS
        self.turn: Turn | None = None
        self._open: set[int] = set()

    # -- knowledge --

    def _self_party(self, seat: int) -> str | None:
        if self.game == "wedding" and self.clarified == 0 and seat != self.declarer:
            return None  # not decided until the clarification trick
        return self.parties[seat]

    def _refresh(self, cause: str, seat: int, everyone: bool = False) -> None:
        """Recompute what each player knows after a public event, and note what it showed."""
        human = HUMAN if self.human is None else self.human
        before = list(self.know[human])
        normal_like = self.game in ("normal", "silent_wedding")
        for viewer in range(SEATS):
            known = list(self.public)
            known[viewer] = self._self_party(viewer)
            if normal_like and None in known:
                queens = self.dealt[viewer].count(QUEEN_OF_CLUBS)
                if queens == 2 or known.count("re") >= 2:
                    known = [k or "kontra" for k in known]  # both Re found (or alone with both Q♣)
                elif queens == 1 and known.count("kontra") >= 2:
                    known = [k or "re" for k in known]  # a Q♣ of one's own: it is a normal game
            self.know[viewer] = known
        after = self.know[human]
        t = len(self.tricks)
        for s in sorted(range(SEATS), key=lambda x: x != seat):
            party = after[s]
            if party is not None and before[s] is None:
                self.reveals.append((t, Reveal(cause if s == seat or everyone else "deduced", s, party)))

    def _reveal_all(self, cause: str, seat: int) -> None:
        self.public = list(self.parties)
        self._refresh(cause, seat, everyone=True)

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
        assert game is not None
        hands = self.hands
        self.dealt = [list(h) for h in hands]
        self.played_rules = schweinchen_declared(rules, game, hands)
        self.table = game_table(game, self.played_rules)
        if game == "poverty":
            assert self.poor is not None and self.acceptor is not None
            self.parties = list(poverty_parties(self.poor, self.acceptor))
        elif game == "normal":
            self.parties = list(normal_parties(hands))
        elif game == "wedding":
            self.parties = ["re" if s == self.declarer else None for s in range(SEATS)]
            self.clarified = 0
        else:  # a solo, or a silent wedding
            self.parties = ["re" if s == self.declarer else "kontra" for s in range(SEATS)]
        if is_solo(game) and game != "silent_wedding" or game == "poverty":
            self.public = list(self.parties)
        elif game == "wedding":
            self.public[self.declarer or 0] = "re"
        self._refresh("game", self.declarer if self.declarer is not None else 0)
        self.reveals.clear()  # what the game itself makes known is not a reveal of a trick
        for seat in range(SEATS):
            if seat != self.human:
                soloist = is_solo(game) and self.declarer == seat and game != "silent_wedding"
                self.wish[seat] = bots.announcement_wish(self.table, hands[seat], soloist)
        assert self.first_leader is not None
        self.leader = self.first_leader
        yield from self._tricks()

    def _deal_and_reserve(self) -> Generator[Turn, Move, None]:
        rules, level = self.rules, self.level
        hands = deal_hands(self.rng, rules)
        while level == 0 and any(h.count(QUEEN_OF_CLUBS) == 2 for h in hands):
            hands = deal_hands(self.rng, rules)  # normal games only: deal again
        self.hands = hands
        self.said = [None] * SEATS
        self.game = self.declarer = self.first_leader = None
        reservations: list[Reservation] = [HEALTHY] * SEATS
        poverty_ok = level >= 2 and rules.poverty and self.redeals < MAX_REDEALS
        for i in range(1, SEATS + 1):
            seat = (self.dealer + i) % SEATS
            hand = hands[seat]
            wedding = hand.count(QUEEN_OF_CLUBS) == 2 and wedding_allowed(rules, hand)
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
                silent = (self.seed // SEATS + seat + self.redeals) % _SILENT_ONE_IN == 0
                reservations[seat] = bots.reservation(
                    rules, hand, level, wedding=wedding, silent=silent, poverty=poverty_ok
                )
            r = reservations[seat]
            self.said[seat] = r.solo if r.kind == "solo" else r.kind
        decision = decide(rules, self.dealer, reservations)
        game, declarer = decision.game, decision.declarer
        if game == "normal":
            groom = next((s for s in range(SEATS) if hands[s].count(QUEEN_OF_CLUBS) == 2), None)
            if groom is not None:
                game, declarer = "silent_wedding", groom
        self.game, self.declarer, self.first_leader = game, declarer, decision.leader

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
        rules, hands = self.rules, self.hands
        poor = self.declarer
        assert poor is not None
        self.poor, self.acceptor = poor, None
        self.table = game_table("poverty", rules)
        if poor == self.human:
            passed = yield from self._pick("poverty_pass", hands[poor], poverty_trumps(hands[poor]))
            check_poverty_pass(hands[poor], passed)
        else:
            passed = bots.poverty_pass(hands[poor])
        self.passed = passed
        for i in (1, 2, 3):
            seat = (poor + i) % SEATS
            if seat == self.human:
                move = yield self._turn("poverty_accept", ("accept", "decline"))
                if move.kind != "poverty":
                    raise RulesError("move_not_possible", "m", move=move.value)
                accepts = move.value == "accept"
            else:
                accepts = bots.accepts_poverty(rules, hands[seat])
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
            returned = bots.poverty_return(rules, taken)
        self.returned = returned
        hands[poor], hands[acceptor] = exchange_poverty(hands[poor], hands[acceptor], passed, returned)

    def _wedding_param(self) -> int | None:
        if self.game == "wedding":
            return self.clarified
        return CLARIFICATION_TRICKS if self.game == "wedding_solo" else None

    def _announce(self, seat: int, level: int) -> None:
        party = self.parties[seat]
        assert party is not None
        self.levels[party] = level
        self.announced.append(
            AnnouncementMade(seat, party, announcement_id(level, party), len(self.hands[seat]), len(self.tricks) + 1)
        )
        was_public = self.public[seat] is not None
        self.public[seat] = party
        if not was_public:
            self._refresh("announcement", seat)

    def _bot_announces(self, seat: int) -> None:
        wish, reply = self.wish[seat]
        party = self.parties[seat]
        if party is None:
            return
        own = self.levels[party]
        opponent = self.levels[other(party)]
        if wish <= own and (opponent == NONE or reply <= own):
            return
        cards, wedding = len(self.hands[seat]), self._wedding_param()
        for target in (wish, reply if opponent != NONE else NONE, 0 if wish >= 0 else NONE):
            if target > own and may_announce_level(target, own, opponent, cards, self.rules, wedding):
                self._announce(seat, target)
                return

    def _allowed(self, seat: int, cards: int) -> list[int]:
        party = self._self_party(seat)
        if party is None:
            return []
        own, opponent = self.levels[party], self.levels[other(party)]
        wedding = self._wedding_param()
        return [t for t in range(SCHWARZ + 1) if may_announce_level(t, own, opponent, cards, self.rules, wedding)]

    def _play_turn(self, seat: int) -> Turn:
        hand = self.hands[seat]
        cards = len(hand)
        party = self._self_party(seat)
        allowed = self._allowed(seat, cards)
        options = []
        for target in allowed:
            until = cards
            while until > 0 and target in self._allowed(seat, until - 1):
                until -= 1
            assert party is not None
            options.append(AnnounceOption(announcement_id(target, party), until))
        own = self.levels[party] if party else NONE
        passed = sorted(t for t in self._open - set(allowed) if t > own)
        self._open = set(allowed)
        ids = self._sorted_ids(hand)
        legal, reason = legal_reason(ids, [card_id(c) for c in self.trick], self.game or "normal", self.played_rules)
        passed_ids = tuple(announcement_id(t, party) for t in passed) if party else ()
        return Turn("play", tuple(legal), ids, cards, reason, tuple(options), passed_ids)

    def _sorted_ids(self, hand: Sequence[Card]) -> tuple[str, ...]:
        return tuple(card_id(c) for c in sort_hand(hand, self.table))

    def _turn(self, kind: str, options: tuple[str, ...], hand: Sequence[Card] | None = None, **more: Any) -> Turn:
        """A decision of the human; ``hand``: the cards he chooses from, if not his hand
        (the acceptor of a poverty returns three of his hand and the cards he took)."""
        cards = self.hands[self.human or 0] if hand is None else hand
        return Turn(kind, options, self._sorted_ids(cards), len(cards), **more)

    def _tricks(self) -> Generator[Turn, Move, None]:
        rules, hands, human = self.rules, self.hands, self.human
        count = rules.tricks
        game = self.game
        know, parties = self.know, self.parties
        queens_played: list[int] = []
        for t in range(count):
            table = self.table
            last_trick = t == count - 1
            leader = self.leader
            trick: list[Card] = []
            self.trick = trick
            for i in range(SEATS):
                seat = (leader + i) % SEATS
                hand = hands[seat]
                if seat == human:
                    while True:
                        move = yield self._play_turn(seat)
                        if move.kind == "announce":
                            party = self._self_party(seat)
                            if party is None:
                                raise RulesError("announcement_not_allowed", "m", announcement=move.value)
                            level = level_of(move.value, party, "m")
                            if level not in self._allowed(seat, len(hand)):
                                raise RulesError("announcement_not_allowed", "m", announcement=move.value)
                            self._announce(seat, level)
                            continue
                        if move.kind != "card":
                            raise RulesError("move_not_possible", "m", move=move.value)
                        card = IDS_TO_CARD[move.value]
                        if card not in table.legal(hand, trick):
                            if card not in hand:
                                raise RulesError("card_not_in_hand", "m", card=move.value)
                            raise RulesError("illegal_card", "m", card=move.value)
                        break
                else:
                    if self.wish[seat] != _NO_WISH:
                        self._bot_announces(seat)
                    if i == 0:
                        party = know[seat][seat]
                        soloist = is_solo(game or "") and parties[seat] == "re"
                        groom_seeking = game == "wedding" and self.clarified == 0
                        card = bots.lead(table, hand, party == "re" and not groom_seeking, soloist, self.led)
                    else:
                        legal = table.legal(hand, trick)
                        if len(legal) == 1:
                            card = legal[0]
                        else:
                            holder = (leader + table.winner(trick, last_trick)) % SEATS
                            mine, theirs = know[seat][seat], know[seat][holder]
                            relation = (
                                bots.UNKNOWN
                                if mine is None or theirs is None
                                else (bots.PARTNER if mine == theirs else bots.OPPONENT)
                            )
                            card = bots.follow(table, legal, trick, relation, last_trick)
                hand.remove(card)
                trick.append(card)
                if i == 0 and table.suit_class[card] != 4:
                    self.led[table.suit_class[card]] += 1
                if card == QUEEN_OF_CLUBS and game in ("normal", "silent_wedding"):
                    if game == "silent_wedding" and seat in queens_played:
                        self._reveal_all("silent_wedding", seat)  # the second Q♣ from one hand
                    elif self.public[seat] is None:
                        self.public[seat] = "re"
                        self._refresh("old_one", seat)
                    queens_played.append(seat)
            winner = (leader + table.winner(trick, last_trick)) % SEATS
            self.tricks.append(trick)
            self.leaders.append(leader)
            self.winners.append(winner)
            self.trick_games.append(game or "normal")
            self.trick = []
            self.leader = winner
            if game == "wedding" and self.clarified == 0:
                groom = self.declarer
                assert groom is not None
                if winner != groom:
                    self.clarified = t + 1
                    self.parties = ["re" if s in (groom, winner) else "kontra" for s in range(SEATS)]
                    self._reveal_all("clarification", winner)
                elif t + 1 == CLARIFICATION_TRICKS:
                    game = self.game = "wedding_solo"
                    self.parties = ["re" if s == groom else "kontra" for s in range(SEATS)]
                    self.table = game_table(game, rules)
                    self._reveal_all("wedding_solo", groom)
                parties, know = self.parties, self.know
                if self.clarified or game == "wedding_solo":
                    for seat in range(SEATS):
                        if seat != human:
                            self.wish[seat] = bots.announcement_wish(
                                self.table, self.dealt[seat], seat == groom and game == "wedding_solo"
                            )
            self.human_known.append(tuple(self.know[HUMAN if human is None else human]))

    # -- the end --

    def deal_form(self) -> dict[str, Any]:
        rules = self.rules
        return {
            "rules": {"ruleset": rules.ruleset, "options": {name: getattr(rules, name) for name in OPTION_CHOICES}},
            "game": self.game,
            "parties": list(self.parties),
            "first_leader": self.first_leader,
            "tricks": [[card_id(c) for c in trick] for trick in self.tricks],
            "announcements": {
                p: announcement_id(self.levels[p], p) if self.levels[p] != NONE else None for p in ("re", "kontra")
            },
        }
