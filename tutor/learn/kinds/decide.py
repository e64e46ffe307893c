"""``decide``: which card to play where one is clearly right. The position's situation (what
the learner sees and knows), the claims a best card is held to, and the judges that name it
(``judge``); a decision to announce is announce.py's."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from tutor.learn.kinds.announce import ask_announce
from tutor.learn.kinds.played import Played, game_table_of, hand_fits, ids_of, replay
from tutor.quiz.base import SEATS, Choice, Field, Question, card_ids, copies, game_id, given_seat, keys
from tutor.quiz.positions import display_order
from tutor.rules.cards import (
    ACE_OF_DIAMONDS,
    IDS,
    QUEEN_OF_CLUBS,
    TEN_OF_HEARTS,
    card_points,
    in_deck,
    parse_card,
    rank_of,
)
from tutor.rules.errors import RulesError
from tutor.rules.explain import Reason
from tutor.rules.games import GameTable
from tutor.rules.rulesets import RuleSet


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one card does to the trick in progress, when the learner plays last: who takes
    it and its card points."""

    winner: int
    points: int


@dataclass(frozen=True, slots=True)
class Situation:
    """A decision as the learner sees it: the game and its table, his hand, the trick so far
    and its leader, the tricks before it, what he knows of the parties, the cards he may
    choose between and the cards he has not seen."""

    game: str
    table: GameTable
    rules: RuleSet
    hand: tuple[str, ...]
    trick: tuple[str, ...]
    leader: int
    earlier: Played
    known: tuple[str | None, ...]
    options: tuple[str, ...]
    unseen: tuple[str, ...]
    said: dict[str, str | None]
    last_trick: bool

    @property
    def party(self) -> str | None:
        """The learner's own party, where he knows it (in a wedding before it is clarified, not)."""
        return self.known[0]

    def outcome(self, card: str) -> Outcome | None:
        """The trick's winner and points with this card, when the learner plays last."""
        if len(self.trick) != SEATS - 1:
            return None
        cards = [parse_card(c) for c in (*self.trick, card)]
        return Outcome((self.leader + self.table.winner(cards, self.last_trick)) % SEATS,
                       sum(card_points(c) for c in cards))

    def beaten_by(self, card: str) -> list[str]:
        """Unseen cards that could take the trick from ``card`` if played after it (a plain
        card falls to any trump of a player who holds none of its suit)."""
        before = [parse_card(c) for c in self.trick]
        own = parse_card(card)
        beaten = []
        for other in dict.fromkeys(self.unseen):
            trick = [*before, own, parse_card(other)]
            if self.table.winner(trick, self.last_trick) == len(trick) - 1:
                beaten.append(other)
        return beaten

    def takes_so_far(self, card: str) -> bool:
        cards = [parse_card(c) for c in (*self.trick, card)]
        return self.table.winner(cards, self.last_trick) == len(cards) - 1


@dataclass(frozen=True, slots=True)
class Verdict:
    """What a judge makes of a decision: the best choice, why, and a reason for each of the
    other choices (what that card would do)."""

    best: str
    reasons: tuple[Reason, ...]
    others: dict[str, Reason]


Judge = Callable[[Situation, Mapping[str, Any]], Verdict]

DECIDE_KEYS: Final = frozenset({"game", "hand", "trick", "leader", "earlier", "first", "known", "options", "best",
                                "claim", "judge", "said", "groom", "cards", "taken", "outcome", "announce", "last"})


def _known(value: Any, hand: Sequence[str], game: str, shown: Sequence[tuple[int, str]]) -> tuple[str | None, ...]:
    if value is None:
        value = {}
    if not isinstance(value, Mapping):
        raise RulesError("bad_type", "known", expected="seat -> re or kontra")
    known: list[str | None] = [None] * SEATS
    if game == "normal":
        known[0] = "re" if "QC" in hand else "kontra"
    for key, party in value.items():
        seat = given_seat(int(key) if str(key).isdigit() else key, "known")
        if party not in ("re", "kontra"):
            raise RulesError("unknown_party", "known", value=str(party)[:12])
        if seat == 0 and known[0] not in (None, party):
            raise RulesError("parties_do_not_fit", "known", party=party)
        known[seat] = party
    if game == "normal":
        for seat, card in shown:  # a player seen with a Q♣ is Re in a normal game
            if card == "QC" and known[seat] == "kontra":
                raise RulesError("parties_do_not_fit", "known", party="kontra")
    for party in ("re", "kontra"):
        if known.count(party) > (3 if game != "normal" and party == "kontra" else 2):
            raise RulesError("parties_do_not_fit", "known", party=party)
    return tuple(known)


def situation(position: Mapping[str, Any], rules: RuleSet) -> Situation:
    """A decision position, checked by the engine: the earlier tricks are legal and lead to
    this trick's leader, the learner's hand fits everything he showed, the choices are legal."""
    game = game_id(position.get("game", "normal"), rules)
    table = game_table_of(game, rules)
    hand = card_ids(position.get("hand"), rules, "hand", 1, rules.tricks)
    trick = card_ids(position.get("trick", []), rules, "trick", 0, SEATS - 1) if position.get("trick") else []
    earlier = replay(position.get("earlier", []), given_seat(position.get("first", 1), "first"), table, rules,
                     "earlier")
    if len(hand) + len(earlier.tricks) != rules.tricks:
        raise RulesError("wrong_count", "hand", expected=rules.tricks - len(earlier.tricks), got=len(hand))
    leader = given_seat(position.get("leader", (SEATS - len(trick)) % SEATS), "leader")
    if (leader + len(trick)) % SEATS != 0:
        raise RulesError("out_of_range", "leader", low=leader, high=leader, got=leader)  # the learner plays next
    if earlier.next_leader is not None and earlier.next_leader != leader:
        raise RulesError("wrong_leader", "leader", expected=earlier.next_leader, got=leader)
    copies([*earlier.tricks, trick, hand], "hand")
    # The learner played his earlier cards from a hand that held them all.
    hand_fits([*hand, *earlier.played_by(0)], earlier, 0, table, "hand")
    for i, card in enumerate(trick):
        seat = (leader + i) % SEATS
        if table.suit_class[parse_card(card)] in earlier.void[seat]:
            raise RulesError("illegal_card", f"trick.{i}", card=card, seat=seat)
    shown = [p for t in range(len(earlier.tricks)) for p in earlier.plays(t)]
    shown += [((leader + i) % SEATS, c) for i, c in enumerate(trick)]
    known = _known(position.get("known"), [*hand, *earlier.played_by(0)], game, shown)
    groom = position.get("groom")
    if game in ("wedding", "wedding_solo"):
        if groom is None or given_seat(groom, "groom") == 0 or "QC" in hand:
            raise RulesError("hand_does_not_fit", "groom", game=game, card="QC")  # the groom holds both Q♣
    legal = list(dict.fromkeys(ids_of(table.legal([parse_card(c) for c in hand], [parse_card(c) for c in trick]))))
    raw = position.get("options")
    options = card_ids(raw, rules, "options", 2, rules.tricks) if raw is not None else legal
    for card in options:
        if card not in legal:
            raise RulesError("illegal_card", "options", card=card, seat=0)
    if len(set(options)) < 2:
        raise RulesError("wrong_count", "options", low=2, high=rules.tricks)
    seen = Counter([*hand, *trick, *(c for t in earlier.tricks for c in t)])
    unseen = [c for c in IDS if in_deck(parse_card(c), rules.deck) for _ in range(2 - seen[c])]
    last = len(earlier.tricks) == rules.tricks - 1
    said = position.get("said") or {}
    return Situation(game, table, rules, tuple(hand), tuple(trick), leader, earlier, known,
                     tuple(dict.fromkeys(options)), tuple(unseen),
                     {"re": said.get("re"), "kontra": said.get("kontra")}, last)


def _partner(s: Situation, seat: int) -> bool:
    return seat != 0 and s.party is not None and s.known[seat] == s.party


def _outcome_reason(s: Situation, card: str) -> Reason:
    """What a card does to the trick when the learner plays last (the engine's winner and
    points), or, leading, which unseen cards could beat it."""
    out = s.outcome(card)
    if out is not None:
        side = "you" if out.winner == 0 else "partner" if _partner(s, out.winner) else \
            "opponent" if s.known[out.winner] else "unknown"
        return Reason("decide_outcome", {"card": card, "seat": out.winner, "points": out.points, "side": side})
    beaten = s.beaten_by(card)
    return Reason("decide_can_be_beaten" if beaten else "decide_cannot_be_beaten",
                  {"card": card, "cards": beaten[:3], "count": len(beaten)})


def _claim_partner_gets_most(s: Situation, best: str) -> None:
    mine = s.outcome(best)
    if mine is None or not _partner(s, mine.winner):
        raise RulesError("claim_fails", "best", claim="partner_gets_most", card=best)
    for card in s.options:
        out = s.outcome(card)
        if card != best and out is not None and _partner(s, out.winner) and out.points >= mine.points:
            raise RulesError("claim_fails", "options", claim="partner_gets_most", card=card)


def _claim_fox_home(s: Situation, best: str) -> None:
    mine = s.outcome(best)
    if parse_card(best) != ACE_OF_DIAMONDS or mine is None or not (mine.winner == 0 or _partner(s, mine.winner)):
        raise RulesError("claim_fails", "best", claim="fox_home", card=best)


def _claim_cheapest_winner(s: Situation, best: str) -> None:
    mine = s.outcome(best)
    if mine is None or mine.winner != 0:
        raise RulesError("claim_fails", "best", claim="cheapest_winner", card=best)
    power = s.table.power
    winners = [c for c in s.options if (o := s.outcome(c)) is not None and o.winner == 0]
    if len(winners) < 2 or any(power[parse_card(c)] < power[parse_card(best)] for c in winners):
        raise RulesError("claim_fails", "options", claim="cheapest_winner", card=best)


def _claim_duck_cheap(s: Situation, best: str) -> None:
    mine = s.outcome(best)
    before = sum(card_points(c) for c in s.trick)
    if mine is None or mine.winner == 0 or _partner(s, mine.winner) or before >= 10:
        raise RulesError("claim_fails", "best", claim="duck_cheap", card=best)
    for card in s.options:
        out = s.outcome(card)
        assert out is not None
        if out.winner == 0 and parse_card(card) not in (TEN_OF_HEARTS, QUEEN_OF_CLUBS):
            raise RulesError("claim_fails", "options", claim="duck_cheap", card=card)  # a cheap winner was there
        if out.winner != 0 and card_points(card) < card_points(best):
            raise RulesError("claim_fails", "options", claim="duck_cheap", card=card)


def _claim_sure_winner(s: Situation, best: str) -> None:
    if not s.takes_so_far(best) or s.beaten_by(best):
        raise RulesError("claim_fails", "best", claim="sure_winner", card=best)
    for card in s.options:
        if card != best and s.takes_so_far(card) and not s.beaten_by(card):
            raise RulesError("claim_fails", "options", claim="sure_winner", card=card)


def _suit_left(s: Situation, card: str) -> int:
    """Plain cards of ``card``'s suit the other three may still hold."""
    cls = s.table.suit_class[parse_card(card)]
    return sum(1 for c in s.unseen if s.table.suit_class[parse_card(c)] == cls)


def _led_before(s: Situation, card: str) -> bool:
    cls = s.table.suit_class[parse_card(card)]
    return any(s.table.suit_class[parse_card(t[0])] == cls for t in s.earlier.tricks)


def _claim_fresh_ace(s: Situation, best: str) -> None:
    c = parse_card(best)
    if s.trick or s.table.is_trump(c) or rank_of(c) != "A" or _led_before(s, best) or s.party != "kontra":
        raise RulesError("claim_fails", "best", claim="fresh_ace", card=best)
    for card in s.options:
        other = parse_card(card)
        if card != best and rank_of(other) == "A" and not s.table.is_trump(other) and not _led_before(s, card):
            raise RulesError("claim_fails", "options", claim="fresh_ace", card=card)


def _claim_re_leads_trump(s: Situation, best: str) -> None:
    if s.trick or s.party != "re" or not s.table.is_trump(parse_card(best)):
        raise RulesError("claim_fails", "best", claim="re_leads_trump", card=best)
    for card in s.options:
        other = parse_card(card)
        if card != best and (s.table.is_trump(other) or rank_of(other) == "A"):
            raise RulesError("claim_fails", "options", claim="re_leads_trump", card=card)


CLAIMS: Final[dict[str, Callable[[Situation, str], None]]] = {
    "partner_gets_most": _claim_partner_gets_most,
    "fox_home": _claim_fox_home,
    "cheapest_winner": _claim_cheapest_winner,
    "duck_cheap": _claim_duck_cheap,
    "sure_winner": _claim_sure_winner,
    "fresh_ace": _claim_fresh_ace,
    "re_leads_trump": _claim_re_leads_trump,
}


def _claim_reason(s: Situation, claim: str, best: str) -> Reason:
    params: dict[str, Any] = {"card": best, "claim": claim}
    if claim == "fresh_ace":
        params["left"] = _suit_left(s, best)
    if claim == "re_leads_trump":
        params["trumps"] = sum(1 for c in s.hand if s.table.is_trump(parse_card(c)))
    if claim == "duck_cheap":
        params["points"] = sum(card_points(c) for c in s.trick)
    return Reason("decide_" + claim, params)


def fixed_judge(s: Situation, position: Mapping[str, Any]) -> Verdict:
    """The position's own answer (``best``), held to its ``claim``: a statement about the
    choices that the engine checks (who takes the trick with each card, its points, which
    unseen cards could beat a card, which suits were led). A judge that plays the deal out
    (simulation) can take its place: it gets the same Situation and returns a Verdict."""
    best = position.get("best")
    if not isinstance(best, str) or best not in s.options:
        raise RulesError("claim_fails", "best", claim="in_options", card=str(best)[:4])
    claim = position.get("claim")
    if claim not in CLAIMS:
        raise RulesError("unknown_value", "claim", value=str(claim)[:24])
    CLAIMS[claim](s, best)
    reasons = [_claim_reason(s, claim, best), _outcome_reason(s, best)]
    if claim == "fresh_ace":
        reasons = reasons[:1]
    others = {card: _other_reason(s, claim, card) for card in s.options if card != best}
    return Verdict(best, tuple(reasons), others)


def _other_reason(s: Situation, claim: str, card: str) -> Reason:
    if claim in ("fresh_ace", "re_leads_trump") and not s.table.is_trump(parse_card(card)):
        led = _led_before(s, card)
        return Reason("decide_plain_lead", {"card": card, "led": led, "left": _suit_left(s, card),
                                            "ace": rank_of(parse_card(card)) == "A"})
    return _outcome_reason(s, card)


def seat_view_data(s: Situation, groom: int | None = None) -> dict[str, Any]:
    """The decision as the deal analysis reads a seat's view (tutor.quiz.seat_view): the
    learner is seat 0, the earlier tricks and this one as played, and each party the lesson
    says is known that play has not shown (a Q♣ seen) nor the others imply (two Re known)
    as an announcement made before the first card. The analysis can then check what the
    fixed judge says (tests/test_lesson_tips_judged.py)."""
    shown = {seat for t in range(len(s.earlier.tricks)) for seat, c in s.earlier.plays(t) if c == "QC"}
    shown |= {(s.leader + i) % SEATS for i, c in enumerate(s.trick) if c == "QC"}
    re_known = s.known.count("re")
    announced = [{"seat": seat, "id": party, "played": 0} for seat, party in enumerate(s.known)
                 if seat and party and seat not in shown and (party == "re" or re_known < 2)]
    first = s.earlier.leaders[0] if s.earlier.tricks else s.leader
    return {"game": s.game, "seat": 0, "first_leader": first, "hand": list(s.hand),
            "tricks": [list(t) for t in s.earlier.tricks] + [list(s.trick)], "announced": announced,
            "reservations": {"wedding": groom} if groom is not None else None}


JUDGES: Final[dict[str, Judge]] = {"fixed": fixed_judge}


def judge(s: Situation, position: Mapping[str, Any]) -> Verdict:
    name = position.get("judge", "fixed")
    if name not in JUDGES:
        raise RulesError("unknown_value", "judge", value=str(name)[:12])
    return JUDGES[name](s, position)


def ask_decide(position: Mapping[str, Any], rules: RuleSet) -> Question:
    """Which card to play: a position (``hand``, ``trick`` so far, ``leader``, ``earlier``
    tricks from ``first``, what the learner ``known``s of the parties, the ``options`` to
    choose between) judged by ``judge`` (by default the position's own ``best``, held to its
    ``claim``). With ``announce`` instead: say that limit now, or play on."""
    keys(position, DECIDE_KEYS)
    if "announce" in position:
        return ask_announce(position, rules)
    played = rules.with_options(schweinchen=False) if rules.schweinchen else rules
    s = situation(position, played)
    verdict = judge(s, position)
    choices = tuple(Choice(c, card=c) for c in s.options)
    plays = [((s.leader + i) % SEATS, c) for i, c in enumerate(s.trick)]
    groom = position.get("groom")
    return Question(
        kind="decide", seed=0, level=0, rules=played, game=s.game,
        prompt="decide_lead" if not s.trick else "decide_card",
        params={"seat": 0, "trick": len(s.earlier.tricks) + 1},
        fields=(Field("card", "one", choices),), answer=(verdict.best,), reasons=verdict.reasons,
        section="trumps",
        facts={"decision": "card", "hand": ids_of(display_order([parse_card(c) for c in s.hand], s.table)),
               "plays": plays, "known": s.known, "earlier": [(s.earlier.plays(t), s.earlier.winners[t])
                                                            for t in range(len(s.earlier.tricks))],
               "groom": None if groom is None else given_seat(groom, "groom"), "others": verdict.others,
               "claim": position.get("claim")},
    )
