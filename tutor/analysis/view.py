"""What one seat has seen of a deal: its own hand, the tricks so far, who announced what, the
reservations the table heard, and what an exchange showed it. The analysis judges a card
from this view alone, as the player could.

>>> from tutor.rules.cards import parse_card
>>> from tutor.rules.rulesets import RuleSet
>>> ddv = RuleSet.named("ddv")
>>> hands = [[parse_card(c) for c in h.split()] for h in (
...     "QC 10H JS AD 10D KD AS 10S AH KH 9C 9C",
...     "QC 10H QS JC JH AC AC 10C KC 9S 9S KS",
...     "QS QH QH QD JC JS JD JD AD 9D 9D KS",
...     "QD JH 10D KD AS 10S KC 10C AH KH 9H 9H")]
>>> deal = Deal(ddv, hands, "normal", leader=1)
>>> deal.play(parse_card("AC"))
>>> view = SeatView.of(deal, 2)
>>> view.seat, len(view.hand), view.to_play, view.party_known
(2, 12, 2, 'kontra')
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Final

from tutor.rules.announcements import level_of
from tutor.rules.cards import QUEEN_OF_CLUBS, Card, card_id
from tutor.rules.deal import Course, Deal, public_course
from tutor.rules.errors import RulesError
from tutor.rules.games import SOLOS, check_game, is_normal_type
from tutor.rules.rulesets import RuleSet
from tutor.rules.terms import SEATS, AnnouncementId, Party

# The games a view can name: what the seat knows was declared. A silent wedding is a normal
# game to everyone but its groom until he plays the second Q♣.
DECLARED: Final = ("normal", "wedding", "poverty", "silent_wedding", *(g for g in SOLOS if g.startswith("solo_")))


@dataclass(frozen=True, slots=True)
class Said:
    """An announcement the seat heard: who, up to which level, how many cards were on the
    table by then (None: not known; the earliest moment the rules allow is taken), and the
    party it was made for (at the table "no 90" is said as "Re, no 90"; None where not
    given: ``re``/``kontra`` name it themselves)."""

    seat: int
    id: AnnouncementId
    played: int | None = None
    party: Party | None = None


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat's view of a deal in play, with that seat to move.

    ``game``: the game as the seat knows it was declared ("wedding" for a wedding that
    became a solo); ``declarer``: the groom, soloist or poor player; ``acceptor``: who took a
    poverty; ``trumps_returned``: the trumps the acceptor gave back, when said at the table;
    ``held``: by seat, cards this seat knows another seat began the play with (what a
    poverty's exchange showed); ``schweinchen``: the seat that declared both A♦."""

    rules: RuleSet
    game: str
    seat: int
    hand: tuple[Card, ...]
    first_leader: int
    tricks: tuple[tuple[Card, ...], ...]
    announcements: tuple[Said, ...] = ()
    declarer: int | None = None
    acceptor: int | None = None
    trumps_returned: int | None = None
    held: tuple[tuple[Card, ...], ...] = field(default=((), (), (), ()))
    schweinchen: int | None = None

    @staticmethod
    def of(deal: Deal, seat: int) -> SeatView:
        """What ``seat`` has seen of ``deal`` so far (the engine's deal, at any moment)."""
        game = deal.declared
        if game == "silent_wedding" and seat != deal.declarer and deal.queens_played.count(deal.declarer or 0) < 2:
            game = "normal"  # nobody else knows yet
        held: list[tuple[Card, ...]] = [(), (), (), ()]
        poverty = deal.poverty
        if poverty is not None and seat == poverty.poor:
            held[poverty.acceptor] = tuple((Counter(poverty.passed) - Counter(poverty.returned)).elements())
        elif poverty is not None and seat == poverty.acceptor:
            held[poverty.poor] = poverty.returned
        tricks = tuple(deal.tricks) + ((tuple(deal.trick),) if deal.trick or not deal.over else ())
        return SeatView(
            deal.rules,
            game,
            seat,
            tuple(deal.hands[seat]),
            deal.leaders[0] if deal.leaders else deal.leader,
            tricks,
            tuple(Said(a.seat, a.id, a.played, a.party) for a in deal.announcements),
            None if game == "normal" else deal.declarer,
            poverty.acceptor if poverty else None,
            None,
            tuple(held),
            deal.schweinchen_seat(),
        )

    # -- what follows from it ----------------------------------------------------------------

    @property
    def declared(self) -> str:
        """The game the deal began as (a wedding solo began as a wedding)."""
        return "wedding" if self.game == "wedding_solo" else self.game

    def course(self) -> Course:
        return public_course(self.rules, self.declared, self.first_leader, self.tricks, self.declarer,
                             self.schweinchen is not None)

    @property
    def to_play(self) -> int:
        course = self.course()
        last = self.tricks[-1] if self.tricks else ()
        return course.seat_of(len(course.leaders) - 1, len(last) if len(last) < SEATS else 0)

    def played(self) -> list[list[Card]]:
        """The cards each seat has played so far, in order."""
        course = self.course()
        played: list[list[Card]] = [[] for _ in range(SEATS)]
        for t, trick in enumerate(self.tricks):
            for i, card in enumerate(trick):
                played[course.seat_of(t, i)].append(card)
        return played

    @property
    def party_known(self) -> Party | None:
        """The seat's own party as it knows it: the Q♣ it was dealt in a normal game, the
        groom and the clarification in a wedding, the poverty, the solo."""
        game, seat = self.declared, self.seat
        if game in ("normal", "silent_wedding"):
            dealt = list(self.hand) + self.played()[seat]
            if game == "silent_wedding":
                return "re" if seat == self.declarer else "kontra"
            return "re" if QUEEN_OF_CLUBS in dealt else "kontra"
        if game == "poverty":
            return "re" if seat in (self.declarer, self.acceptor) else "kontra"
        if game == "wedding":
            if seat == self.declarer:
                return "re"
            course = self.course()
            if course.game == "wedding_solo":
                return "kontra"
            if not course.clarified:
                return None
            return "re" if course.winners[course.clarified - 1] == seat else "kontra"
        return "re" if seat == self.declarer else "kontra"  # a solo

    def check(self) -> None:
        """RulesError naming the field for a view no deal can produce: a card played twice
        too often, a hand of the wrong size, a follow that contradicts the seat's own hand,
        the wrong seat to play, a reservation that does not fit the game."""
        rules, game = self.rules, self.declared
        check_game(game, rules)
        if game not in DECLARED:
            raise RulesError("unknown_game", "game", value=game)
        for name, seat in (("seat", self.seat), ("first_leader", self.first_leader)):
            if not 0 <= seat < SEATS:
                raise RulesError("out_of_range", name, low=0, high=SEATS - 1)
        needs_declarer = game != "normal"
        if needs_declarer and self.declarer is None:
            raise RulesError("missing_field", "reservations")
        if game == "poverty" and (self.acceptor is None or self.acceptor == self.declarer):
            raise RulesError("missing_field", "reservations.returned")
        if len(self.tricks) > rules.tricks or any(len(t) > SEATS for t in self.tricks):
            raise RulesError("wrong_count", "tricks", expected=rules.tricks)
        if any(len(t) != SEATS for t in self.tricks[:-1]):
            raise RulesError("wrong_count", "tricks", expected=SEATS)
        if self.tricks and len(self.tricks[-1]) == SEATS and len(self.tricks) == rules.tricks:
            raise RulesError("deal_over", "tricks")
        seen: Counter[Card] = Counter(self.hand)
        for t, trick in enumerate(self.tricks):
            for i, card in enumerate(trick):
                seen[card] += 1
                if seen[card] > 2:
                    raise RulesError("too_many_copies", f"tricks.{t}.{i}", card=card_id(card))
        if any(n > 2 for n in seen.values()):
            raise RulesError("too_many_copies", "hand")
        if self.to_play != self.seat:
            raise RulesError("not_to_play", "seat", seat=self.to_play)
        played = self.played()
        if len(self.hand) + len(played[self.seat]) != rules.tricks:
            raise RulesError("wrong_count", "hand", expected=rules.tricks - len(played[self.seat]),
                             got=len(self.hand))
        self._check_own_follows()
        if self.schweinchen is not None and not (rules.schweinchen and is_normal_type(game)):
            raise RulesError("schweinchen_not_played", "schweinchen")
        total = sum(len(t) for t in self.tricks)
        before = 0
        for i, said in enumerate(self.announcements):
            if not 0 <= said.seat < SEATS:
                raise RulesError("out_of_range", f"announced.{i}.seat", low=0, high=SEATS - 1)
            if said.played is not None:
                if not before <= said.played <= total:  # in order, and not after the cards so far
                    raise RulesError("out_of_range", f"announced.{i}.played", low=before, high=total)
                before = said.played
            party = self.announcer_party(said)
            if party is not None:
                level_of(said.id, party, f"announced.{i}.id")

    def _check_own_follows(self) -> None:
        """The seat's own cards: each one legal from the hand it held then (its hand now and
        the cards it played since)."""
        course = self.course()
        later = list(self.hand)
        mine = [(t, i, card) for t, trick in enumerate(self.tricks) for i, card in enumerate(trick)
                if course.seat_of(t, i) == self.seat]
        for t, i, card in reversed(mine):
            table = course.tables[t]
            lead = table.suit_class[self.tricks[t][0]]
            if i and table.suit_class[card] != lead and any(table.suit_class[c] == lead for c in later):
                raise RulesError("illegal_card", f"tricks.{t}.{i}", card=card_id(card), trick=t + 1, seat=self.seat)
            later.append(card)

    def announcer_party(self, said: Said) -> Party | None:
        """The party an announcement names outright ("re" or "kontra"), or the one the
        announcer's other announcements or the public parties name; None if unknown."""
        if said.party is not None:
            return said.party
        if said.id in ("re", "kontra"):
            return "re" if said.id == "re" else "kontra"
        for other in self.announcements:
            if other.seat == said.seat and other.party is not None:
                return other.party
            if other.seat == said.seat and other.id in ("re", "kontra"):
                return "re" if other.id == "re" else "kontra"
        public = self.public_parties()
        return public[said.seat]

    def public_parties(self) -> tuple[Party | None, ...]:
        """The parties everybody knows without seeing a hand: a solo, a poverty, the groom and
        the clarification."""
        game = self.declared
        if game in SOLOS:  # a silent wedding in a view is known: its groom's, or revealed
            return tuple("re" if s == self.declarer else "kontra" for s in range(SEATS))
        if game == "poverty":
            return tuple("re" if s in (self.declarer, self.acceptor) else "kontra" for s in range(SEATS))
        if game == "wedding":
            course = self.course()
            if course.game == "wedding_solo":
                return tuple("re" if s == self.declarer else "kontra" for s in range(SEATS))
            if course.clarified:
                partner = course.winners[course.clarified - 1]
                return tuple("re" if s in (self.declarer, partner) else "kontra" for s in range(SEATS))
            return tuple("re" if s == self.declarer else None for s in range(SEATS))
        return (None,) * SEATS

