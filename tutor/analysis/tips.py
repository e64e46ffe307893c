"""The table tips that explain why one card was better than another (PLAY-REVIEW.md §7.3).

Each detector is a rule on what the deciding seat could know (its own hand, the cards on the
table, the tricks so far, the parties as far as they are known to it) and on the two cards,
the better one ``b`` and the one played ``c``; it returns a stable reason code with what the
sentence needs, or None. The simulation measures how much a card cost; a detector says why,
in a club player's words (tutor/web/words/analysis.py). Where no detector applies, the
reason is at most ``SIMULATIONS_PREFER``: the simulations slightly prefer ``b``.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from tutor.analysis.view import SeatView
from tutor.rules.cards import JACK_OF_CLUBS, POINTS, SUITS, TEN_OF_HEARTS, Card, card_id, deck, rank_of
from tutor.rules.deal import Deal
from tutor.rules.games import TRUMP, GameTable, is_normal_type
from tutor.rules.terms import SEATS, Party

SIMULATIONS_PREFER: Final = "simulations_prefer"
# Every code a detector gives, in the order they are tried (the most specific first).
CODES: Final = (
    "fox", "dulle_cheap", "dulle_worth_it", "keep_karlchen", "partner_ace", "lowest_winner", "shown_void",
    "second_round",
    "schmieren", "points_to_opponents", "trump_that_holds", "kontra_aces", "re_trumps", "trumps_from_top",
    "groom_lead",
)
CHEAP: Final = 10  # card points of a trick too cheap for a Dulle
RICH: Final = 30  # card points of a trick worth the Dulle
MANY_TRUMPS: Final = 7  # trumps in hand with which Re pulls from the top


@dataclass(frozen=True, slots=True)
class Tip:
    """A detector's finding: its code and what its sentence names (card ids, seats 0-3,
    numbers)."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Situation:
    """What the deciding seat knows at its decision: the game and its table, its hand, the
    cards on the table (seat, card) in play order, the parties as it knows them, how often
    each plain suit was led, the suit classes each seat has shown it is void in (bits), the
    cards still out (in nobody's sight), tricks left (this one included), this trick's number
    (1-based), the groom of a wedding and its clarification (0 before), and the seats that
    play after it in this trick."""

    game: str
    table: GameTable
    seat: int
    hand: tuple[Card, ...]
    trick: tuple[tuple[int, Card], ...]
    known: tuple[Party | None, ...]
    led: tuple[int, ...]
    voids: tuple[int, ...]
    out: frozenset[Card]
    tricks_left: int
    trick_number: int
    groom: int | None
    clarified: int | None
    order: tuple[int, ...]
    void_shown_in: tuple[tuple[int, int, int], ...] = ()  # (seat, suit class, first trick 1-based that showed it)

    @staticmethod
    def of(view: SeatView, deal: Deal) -> Situation:
        """The situation at ``view``'s decision, from any world's deal at that moment (what it
        reads is the same in every world: the seat's own and the public)."""
        seat = view.seat
        unseen = Counter(deck(view.rules.deck)) - Counter(view.hand)
        for trick in view.tricks:
            unseen -= Counter(trick)
        on_table = tuple(((deal.leader + i) % SEATS, c) for i, c in enumerate(deal.trick))
        behind = tuple((seat + i) % SEATS for i in range(1, SEATS - len(deal.trick)))
        shown: dict[tuple[int, int], int] = {}
        for t, cards in enumerate(deal.tricks):
            lead = deal.table.suit_class[cards[0]]
            for i, c in enumerate(cards[1:], 1):
                if deal.table.suit_class[c] != lead:
                    shown.setdefault((deal.seat_of(t, i), lead), t + 1)
        return Situation(
            deal.game, deal.table, seat, tuple(view.hand), on_table, deal.known(seat), tuple(deal.led),
            tuple(deal.voids), frozenset(unseen), deal.count - len(deal.tricks), len(deal.tricks) + 1,
            deal.declarer if deal.declared == "wedding" else None, deal.clarified, (seat, *behind),
            tuple((s, k, t) for (s, k), t in sorted(shown.items())),
        )

    # -- what the detectors ask ----------------------------------------------------------------

    @property
    def leading(self) -> bool:
        return not self.trick

    @property
    def party(self) -> Party | None:
        return self.known[self.seat]

    def relation(self, other: int) -> str:
        """"partner", "opponent" or "unknown", as the seat knows it."""
        mine, theirs = self.party, self.known[other]
        if mine is None or theirs is None:
            return "unknown"
        return "partner" if mine == theirs else "opponent"

    def holder(self) -> tuple[int, Card] | None:
        """Who holds the trick now, with which card."""
        if not self.trick:
            return None
        cards = [c for _, c in self.trick]
        win = self.table.winner(cards, self.tricks_left == 1)
        return self.trick[win]

    def after(self, card: Card) -> tuple[int, Card]:
        """Who holds the trick once the seat plays ``card``."""
        cards = [c for _, c in self.trick] + [card]
        win = self.table.winner(cards, self.tricks_left == 1)
        return (*self.trick, (self.seat, card))[win]

    @property
    def behind(self) -> tuple[int, ...]:
        return self.order[1:]

    def points(self) -> int:
        return sum(POINTS[c] for _, c in self.trick)

    def on_table(self, card: Card) -> list[Card]:
        """The trick's cards once the seat plays ``card``."""
        return [c for _, c in self.trick] + [card]

    def may_beat(self, seat: int, cards: list[Card]) -> bool:
        """Whether ``seat``, playing next to ``cards``, may hold a card still out that takes
        the trick: any card out in a suit he has not shown void in (he may be void in the
        led suit without having shown it yet)."""
        table, void, last = self.table, self.voids[seat], self.tricks_left == 1
        return any(not (void >> table.suit_class[c] & 1) and table.winner([*cards, c], last) == len(cards)
                   for c in self.out)

    def threat(self, card: Card) -> int | None:
        """The first seat behind, not known as a partner, that may take the trick from
        ``card`` (or from whoever holds it once the seat plays ``card``)."""
        cards = self.on_table(card)
        return next((s for s in self.behind if self.relation(s) != "partner" and self.may_beat(s, cards)), None)

    def safe(self, card: Card) -> bool:
        """Nobody behind the seat can take the trick once it plays ``card`` (reckoned over
        the cards still out, not by a rule of thumb)."""
        cards = self.on_table(card)
        return not any(self.may_beat(s, cards) for s in self.behind)

    def shown_void(self, seat: int, cls: int) -> int | None:
        for s, k, t in self.void_shown_in:
            if s == seat and k == cls:
                return t
        return None


Detector = Callable[[Situation, Card, Card], Tip | None]


def _ids(**cards: Card) -> dict[str, str]:
    return {name: card_id(c) for name, c in cards.items()}


def fox(s: Situation, b: Card, c: Card) -> Tip | None:
    """8. Play the fox when your partner already has the trick, or nobody can overtake it."""
    if not s.table.is_fox(c) or s.table.is_fox(b):
        return None
    holder = s.after(c)[0]
    if holder == s.seat or s.relation(holder) == "partner":
        threat = s.threat(c)
        if threat is None:
            return None  # nobody can overtake: a good moment for the fox
        return Tip("fox", {**_ids(better=b, card=c), "seat": threat})
    return Tip("fox", {**_ids(better=b, card=c), "seat": holder})


def dulle_cheap(s: Situation, b: Card, c: Card) -> Tip | None:
    """7. Keep the Dulle for a trick worth it."""
    if c != TEN_OF_HEARTS or not s.table.is_trump(c) or b == TEN_OF_HEARTS or s.leading:
        return None
    if s.points() >= CHEAP:
        return None
    return Tip("dulle_cheap", {**_ids(better=b, card=c), "points": s.points()})


def dulle_worth_it(s: Situation, b: Card, c: Card) -> Tip | None:
    """7, the other way: take a rich trick with the Dulle."""
    if b != TEN_OF_HEARTS or not s.table.is_trump(b) or s.leading or s.points() < RICH:
        return None
    if s.after(c)[0] == s.seat or s.relation(s.after(c)[0]) == "partner":
        return None
    return Tip("dulle_worth_it", {**_ids(better=b, card=c), "points": s.points()})


def keep_karlchen(s: Situation, b: Card, c: Card) -> Tip | None:
    """11. Keep the J♣ if you can reach the last trick with it."""
    if c != JACK_OF_CLUBS or b == JACK_OF_CLUBS or not is_normal_type(s.game) or s.tricks_left <= 1:
        return None
    return Tip("keep_karlchen", _ids(better=b, card=c))


def partner_ace(s: Situation, b: Card, c: Card) -> Tip | None:
    """10. Your partner's ace would have won the first round: do not trump it."""
    holder = s.holder()
    if holder is None or not s.table.is_trump(c) or s.table.is_trump(b):
        return None
    lead_seat, lead = s.trick[0]
    cls = s.table.suit_class[lead]
    if cls == TRUMP or POINTS[lead] != 11 or s.led[cls] != 1 or s.relation(lead_seat) != "partner":
        return None
    if holder != (lead_seat, lead):
        return None
    return Tip("partner_ace", {**_ids(better=b, card=c, ace=lead), "seat": lead_seat})


def lowest_winner(s: Situation, b: Card, c: Card) -> Tip | None:
    """Take a trick with the lowest card that holds it, and keep the higher one for later."""
    if s.leading:
        return None
    table = s.table
    if table.suit_class[b] != table.suit_class[c] or table.power[b] >= table.power[c]:
        return None
    if s.after(b)[0] != s.seat or s.after(c)[0] != s.seat or not s.safe(b):
        return None
    return Tip("lowest_winner", _ids(better=b, card=c))


def shown_void(s: Situation, b: Card, c: Card) -> Tip | None:
    """3. A high plain card into a suit an opponent has shown he does not hold: trumped."""
    table = s.table
    cls = table.suit_class[c]
    if cls == TRUMP or POINTS[c] < 10 or (not s.leading and table.suit_class[s.trick[0][1]] != cls):
        return None
    if POINTS[b] >= POINTS[c] and table.suit_class[b] == cls:
        return None
    for seat in s.behind:
        if s.relation(seat) == "partner":
            continue
        trick = s.shown_void(seat, cls)
        if trick is not None and not (s.voids[seat] >> TRUMP & 1):
            return Tip("shown_void", {**_ids(better=b, card=c), "seat": seat, "suit": SUITS[cls], "trick": trick})
    return None


def second_round(s: Situation, b: Card, c: Card) -> Tip | None:
    """4. A ten (or an ace) led into a suit that has been round: someone is likely void."""
    table = s.table
    cls = table.suit_class[c]
    if not s.leading or cls == TRUMP or POINTS[c] < 10 or s.led[cls] < 1:
        return None
    if table.suit_class[b] == cls and POINTS[b] >= 10:
        return None
    return Tip("second_round", {**_ids(better=b, card=c), "suit": SUITS[cls]})


def schmieren(s: Situation, b: Card, c: Card) -> Tip | None:
    """1. Your partner's trick is safe: an ace or a ten belongs on it."""
    holder = s.holder()
    if holder is None or s.relation(holder[0]) != "partner" or POINTS[b] < 10 or POINTS[b] <= POINTS[c]:
        return None
    if s.after(b)[0] != holder[0] or not s.safe(b):
        return None
    return Tip("schmieren", {**_ids(better=b, card=c, winning=holder[1]), "seat": holder[0]})


def points_to_opponents(s: Situation, b: Card, c: Card) -> Tip | None:
    """2. The trick goes to the other party: throw your lowest card, not the ten."""
    holder = s.holder()
    if holder is None or POINTS[c] < 10 or POINTS[b] >= POINTS[c]:
        return None
    taker = s.after(c)
    if taker[0] == s.seat or s.relation(taker[0]) != "opponent":
        return None
    return Tip("points_to_opponents", {**_ids(better=b, card=c), "seat": taker[0], "points": POINTS[c]})


def trump_that_holds(s: Situation, b: Card, c: Card) -> Tip | None:
    """9. With an opponent behind you, ruff with at least a jack."""
    table = s.table
    if s.leading or not s.behind or not table.is_trump(b) or not table.is_trump(c):
        return None
    if table.suit_class[s.trick[0][1]] == TRUMP:
        return None
    jacks = [t for t in table.trumps if rank_of(t) == "J"]
    if not jacks:
        return None
    lowest_jack = min(table.power[t] for t in jacks)
    if table.power[c] >= lowest_jack or table.power[b] < lowest_jack or s.threat(c) is None:
        return None
    return Tip("trump_that_holds", _ids(better=b, card=c))


def kontra_aces(s: Situation, b: Card, c: Card) -> Tip | None:
    """5. As Kontra, cash a short plain ace in its suit's first round."""
    table = s.table
    if not s.leading or s.party != "kontra" or s.game not in ("normal", "wedding", "poverty", "silent_wedding"):
        return None
    cls = table.suit_class[b]
    if cls == TRUMP or POINTS[b] != 11 or s.led[cls] != 0:
        return None
    if table.suit_class[c] == cls and POINTS[c] == 11:
        return None
    return Tip("kontra_aces", {**_ids(better=b, card=c), "suit": SUITS[cls]})


def re_trumps(s: Situation, b: Card, c: Card) -> Tip | None:
    """6. As Re, lead trumps and pull theirs."""
    table = s.table
    if not s.leading or s.party != "re" or not table.is_trump(b) or table.is_trump(c):
        return None
    if s.groom is not None and s.clarified == 0:
        return None
    return Tip("re_trumps", _ids(better=b, card=c))


def trumps_from_top(s: Situation, b: Card, c: Card) -> Tip | None:
    """6. With this many trumps, start from the top."""
    table = s.table
    if not s.leading or s.party != "re" or not (table.is_trump(b) and table.is_trump(c)):
        return None
    if table.power[b] <= table.power[c] or sum(table.is_trump(x) for x in s.hand) < MANY_TRUMPS:
        return None
    return Tip("trumps_from_top", {**_ids(better=b, card=c), "trumps": sum(table.is_trump(x) for x in s.hand)})


def groom_lead(s: Situation, b: Card, c: Card) -> Tip | None:
    """12. As the groom, let someone else take an early trick: lead a low plain card."""
    table = s.table
    if not s.leading or s.groom != s.seat or s.clarified != 0:
        return None
    if table.is_trump(b) or POINTS[b] >= 10 or (not table.is_trump(c) and POINTS[c] < 10):
        return None
    return Tip("groom_lead", _ids(better=b, card=c))


DETECTORS: Final[dict[str, Detector]] = {
    "fox": fox, "dulle_cheap": dulle_cheap, "dulle_worth_it": dulle_worth_it, "keep_karlchen": keep_karlchen,
    "partner_ace": partner_ace, "lowest_winner": lowest_winner, "shown_void": shown_void,
    "second_round": second_round, "schmieren": schmieren,
    "points_to_opponents": points_to_opponents, "trump_that_holds": trump_that_holds, "kontra_aces": kontra_aces,
    "re_trumps": re_trumps, "trumps_from_top": trumps_from_top, "groom_lead": groom_lead,
}


def explain(s: Situation, better: Card, chosen: Card) -> Tip:
    """The first tip that explains why ``better`` beats ``chosen`` here, else the plain
    ``SIMULATIONS_PREFER``."""
    for code in CODES:
        tip = DETECTORS[code](s, better, chosen)
        if tip is not None:
            return tip
    return Tip(SIMULATIONS_PREFER, _ids(better=better, card=chosen))

