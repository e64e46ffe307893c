"""Question kinds only lessons ask, built here from the engine's pieces: what the table can
tell of a player's party from the cards played (``infer``), which card to play where one
is clearly right (``decide``) and the totals of an evening's score sheet (``sheet``).

Each ``ask`` takes a position as plain data (lessons/README.md) and returns a quiz
Question, so the web layer shows and checks it as every other check. Every fact is the
engine's: legal cards, trick winners, card points, announcements, scores and sheets. The
engine has no function for a party shown by play nor for a card judged good: those are
written here (``infer_parties``, ``judge``) and could move into the engine later.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from tutor.quiz.base import SEATS, Choice, Field, Question, card_ids, copies, flag, game_id, given_seat, keys, number
from tutor.quiz.positions import display_order
from tutor.rules.announcements import level_of, may_announce
from tutor.rules.cards import (
    ACE_OF_DIAMONDS,
    DECK_POINTS,
    IDS,
    JACK_OF_CLUBS,
    QUEEN_OF_CLUBS,
    TEN_OF_HEARTS,
    card_id,
    card_points,
    in_deck,
    parse_card,
    rank_of,
)
from tutor.rules.errors import RulesError
from tutor.rules.explain import Reason, needs
from tutor.rules.games import TRUMP, GameTable, game_table
from tutor.rules.rulesets import RuleSet
from tutor.rules.scoring import default_re_tricks, score
from tutor.rules.sheet import MAX_PLAYERS, MIN_PLAYERS, Deal, check_deal, evening

__all__ = ["OWN_KINDS", "ask", "infer_parties", "judge", "seat_view_data"]

UNKNOWN: Final = "unknown"
SECTION: Final = "parties"


def _table(game: str, rules: RuleSet) -> GameTable:
    return game_table("wedding" if game == "wedding_solo" else game, rules)


def _ids(cards: Sequence[int]) -> list[str]:
    return [card_id(c) for c in cards]


# --- Tricks that were played: checked like a real table -------------------------------------


@dataclass(frozen=True, slots=True)
class Played:
    """Complete tricks in play order: their cards, who led each and who took each, and the
    suits (suit classes, trumps included) each seat has shown it holds none of."""

    tricks: tuple[tuple[str, ...], ...]
    leaders: tuple[int, ...]
    winners: tuple[int, ...]
    void: tuple[frozenset[int], ...]
    # (trick index, seat) of each card that did not follow the suit led, by seat
    shown_void: tuple[tuple[tuple[int, int], ...], ...]

    def plays(self, t: int) -> list[tuple[int, str]]:
        return [((self.leaders[t] + i) % SEATS, c) for i, c in enumerate(self.tricks[t])]

    def played_by(self, seat: int) -> list[str]:
        return [c for t in range(len(self.tricks)) for s, c in self.plays(t) if s == seat]

    @property
    def next_leader(self) -> int | None:
        return self.winners[-1] if self.winners else None


def replay(value: Any, first: int, table: GameTable, rules: RuleSet, name: str = "tricks",
           last_is_last: bool = False) -> Played:
    """Complete tricks, checked: four cards each, no card more than twice, and no player
    plays a suit (or a trump) after showing he holds none of it (RULES.md §3)."""
    if not isinstance(value, (list, tuple)) or len(value) > rules.tricks:
        raise RulesError("wrong_count", name, low=0, high=rules.tricks)
    tricks = [card_ids(t, rules, f"{name}.{i}", SEATS, SEATS) for i, t in enumerate(value)]
    copies(tricks, name)
    void: list[set[int]] = [set() for _ in range(SEATS)]
    shown: list[list[tuple[int, int]]] = [[] for _ in range(SEATS)]
    leaders: list[int] = []
    winners: list[int] = []
    leader = first
    for t, trick in enumerate(tricks):
        cards = [parse_card(c) for c in trick]
        lead = table.suit_class[cards[0]]
        for i, card in enumerate(cards):
            seat = (leader + i) % SEATS
            cls = table.suit_class[card]
            if cls in void[seat]:
                raise RulesError("illegal_card", f"{name}.{t}.{i}", card=trick[i], trick=t + 1, seat=seat)
            if i and cls != lead:
                void[seat].add(lead)
                shown[seat].append((t, lead))
        leaders.append(leader)
        leader = (leader + table.winner(cards, last_is_last and t == len(tricks) - 1)) % SEATS
        winners.append(leader)
    return Played(tuple(tuple(t) for t in tricks), tuple(leaders), tuple(winners),
                  tuple(frozenset(v) for v in void), tuple(tuple(s) for s in shown))


def _hand_fits(hand: Sequence[str], played: Played, seat: int, table: GameTable, name: str) -> list[str]:
    """The cards ``seat`` still holds: his hand less what he played (all of it from the hand),
    and none of a suit he showed void in."""
    own = played.played_by(seat)
    if Counter(own) - Counter(hand):
        raise RulesError("card_not_in_hand", name, seat=seat)
    rest = list((Counter(hand) - Counter(own)).elements())
    for card in rest:
        if table.suit_class[parse_card(card)] in played.void[seat]:
            raise RulesError("illegal_card", name, card=card, seat=seat)
    return [c for c in hand if c in rest] if rest else []


# --- infer: what the table can tell of a player's party ------------------------------------


def infer_parties(hand: Sequence[str], played: Played, table: GameTable,
                  calls: Mapping[int, str]) -> tuple[tuple[str | None, ...], tuple[Reason, ...]]:
    """Each seat's party as seat 0 can tell it in a normal game from his own hand, the tricks
    played and the parties announced, or None where nothing tells it yet; with the reason for
    each seat. The holders of the Q♣ are Re (RULES.md §4): a player who played one is Re, one
    who did not follow a trump lead holds no trump any more, so no Q♣ either, and once both
    Re are known the other two are Kontra."""
    known: list[str | None] = [None] * SEATS
    why: list[Reason | None] = [None] * SEATS
    own = "re" if "QC" in hand else "kontra"
    known[0], why[0] = own, Reason("infer_own_hand", {"seat": 0, "party": own})
    both = next((s for s in range(1, SEATS) if played.played_by(s).count("QC") == 2), None)
    if both is not None:
        # One player showed both Q♣: a silent wedding, he plays alone against the other three.
        for seat in range(1, SEATS):
            known[seat] = "re" if seat == both else "kontra"
            why[seat] = Reason("infer_silent_wedding", {"seat": seat, "groom": both,
                                                        "party": "re" if seat == both else "kontra"})
        return tuple(known), tuple(r for r in why if r is not None)
    for seat in range(1, SEATS):
        trick = next((t for t in range(len(played.tricks)) for s, c in played.plays(t) if s == seat and c == "QC"),
                     None)
        if trick is not None:
            known[seat], why[seat] = "re", Reason("infer_played_old_one", {"seat": seat, "trick": trick + 1})
        elif seat in calls:
            known[seat] = calls[seat]
            why[seat] = Reason("infer_announced", {"seat": seat, "party": calls[seat]})
        else:
            gone = next((t for t, cls in played.shown_void[seat] if cls == TRUMP), None)
            if gone is not None:
                known[seat] = "kontra"
                why[seat] = Reason("infer_no_trump", {"seat": seat, "trick": gone + 1})
    for party in ("re", "kontra"):
        if sum(1 for s in range(SEATS) if known[s] == party) > 2:
            raise RulesError("parties_do_not_fit", "tricks", party=party)
    # Two players known to be Re hold both Q♣ between them: the others are Kontra. Two known
    # Kontra players tell nothing more, since one of the others may hold both Q♣ and play a
    # silent wedding until the second one falls.
    sure = [s for s in range(SEATS) if known[s] == "re"]
    if len(sure) == 2:
        for seat in range(SEATS):
            if known[seat] is None:
                known[seat] = "kontra"
                why[seat] = Reason("infer_by_count", {"seat": seat, "party": "kontra", "others": sure})
    for seat in range(SEATS):
        if why[seat] is None:
            why[seat] = Reason("infer_unknown", {"seat": seat})
    return tuple(known), tuple(r for r in why if r is not None)


INFER_KEYS: Final = frozenset({"hand", "tricks", "leader", "said", "seat", "game"})


def ask_infer(position: Mapping[str, Any], rules: RuleSet) -> Question:
    """Which party is ``seat``, as far as the learner (seat 0) can tell: ``hand`` (his 12
    cards as dealt), ``tricks`` (the complete tricks so far), ``leader`` (of the first trick,
    by default West, seat 1), ``said`` (seat -> "re"/"kontra": what players announced). The
    answer may be "can't tell yet"."""
    keys(position, INFER_KEYS)
    game = game_id(position.get("game", "normal"), rules)
    if game != "normal":
        raise RulesError("not_a_normal_game", "game", game=game)
    hand = card_ids(position.get("hand"), rules, "hand", rules.tricks, rules.tricks)
    if hand.count("QC") == 2:
        raise RulesError("hand_does_not_fit", "hand", game=game, card="QC")  # a wedding
    table = game_table(game, rules.with_options(schweinchen=False))
    played = replay(position.get("tricks", []), given_seat(position.get("leader", 1), "leader"), table, rules)
    copies([*played.tricks, list((Counter(hand) - Counter(played.played_by(0))).elements())], "hand")
    _hand_fits(hand, played, 0, table, "hand")
    raw_said = position.get("said", {})
    if not isinstance(raw_said, Mapping):
        raise RulesError("bad_type", "said", expected="seat -> re or kontra")
    calls: dict[int, str] = {}
    for key, party in raw_said.items():
        seat_ = given_seat(int(key) if str(key).isdigit() else key, "said")
        if party not in ("re", "kontra"):
            raise RulesError("unknown_party", "said", value=str(party)[:12])
        calls[seat_] = party
    seat = given_seat(position.get("seat"), "seat")
    if seat == 0:
        raise RulesError("out_of_range", "seat", low=1, high=SEATS - 1, got=seat)
    # A Q♣ played by someone else while the learner holds the other is the whole story.
    queens = hand.count("QC") + sum(1 for t in played.tricks for c in t if c == "QC") - played.played_by(0).count("QC")
    if queens > 2:
        raise RulesError("too_many_copies", "tricks", card="QC", count=queens)
    known, reasons = infer_parties(hand, played, table, calls)
    if "QC" in hand and any(played.played_by(s).count("QC") == 2 for s in range(1, SEATS)):
        raise RulesError("too_many_copies", "tricks", card="QC", count=3)
    if calls.get(0) not in (None, known[0]):
        raise RulesError("parties_do_not_fit", "said", party=calls[0])
    for s, party in calls.items():
        if known[s] != party:
            raise RulesError("parties_do_not_fit", "said", party=party)
    answer = known[seat] or UNKNOWN
    shown_reasons = (reasons[seat],) + tuple(r for r in reasons if r.params["seat"] not in (0, seat)
                                             and r.code not in ("infer_unknown", "infer_silent_wedding"))
    choices = (Choice("re", label="re"), Choice("kontra", label="kontra"), Choice(UNKNOWN, label=UNKNOWN))
    shown = _ids(display_order([parse_card(c) for c in hand], table))
    return Question(
        kind="infer", seed=0, level=0, rules=rules, game=game, prompt="infer", params={"seat": seat},
        fields=(Field("party", "one", choices),), answer=(answer,),
        reasons=shown_reasons,
        section=SECTION,
        facts={"seat": seat, "hand": shown, "calls": sorted(calls.items()), "known": known,
               "tricks": [(played.plays(t), played.winners[t]) for t in range(len(played.tricks))]},
    )


# --- decide: which card to play, where one is clearly right ------------------------------


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
    table = _table(game, rules)
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
    _hand_fits([*hand, *earlier.played_by(0)], earlier, 0, table, "hand")
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
    legal = list(dict.fromkeys(_ids(table.legal([parse_card(c) for c in hand], [parse_card(c) for c in trick]))))
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


def _announce_decision(position: Mapping[str, Any], rules: RuleSet) -> Question:
    """Say a limit now, or play on: the learner's party (``known`` 0), ``cards`` in hand,
    ``said``, the tricks each party has ``taken`` so far, and an ``outcome`` (Re's card
    points at the end) that the engine scores both ways. The claim: the limit is allowed,
    the other party already holds half of what it needs against it, and at that outcome
    the limit loses the deal that playing on wins."""
    party = position.get("known", {}).get("0") or position.get("known", {}).get(0)
    if party not in ("re", "kontra"):
        raise RulesError("unknown_party", "known", value=str(party)[:12])
    other = "kontra" if party == "re" else "re"
    cards = number(position.get("cards"), "cards", 1, rules.tricks)
    said = {"re": None, "kontra": None, **(position.get("said") or {})}
    own, theirs = said[party], said[other]
    limit = position.get("announce")
    level = level_of(limit, party, "announce")
    allowed = may_announce(rules, "normal", party, cards, own, theirs)
    if limit not in allowed:
        raise RulesError("claim_fails", "announce", claim="allowed", card=str(limit))
    taken = position.get("taken") or {}
    piles = {p: [c for t in taken.get(p, []) for c in card_ids(t, rules, f"taken.{p}", SEATS, SEATS)]
             for p in ("re", "kontra")}
    copies([piles["re"], piles["kontra"]], "taken")
    if len(piles["re"]) + len(piles["kontra"]) != SEATS * (rules.tricks - cards):
        raise RulesError("wrong_count", "taken", expected=rules.tricks - cards)
    have = sum(card_points(c) for c in piles[other])
    re_level = level if party == "re" else level_of(theirs, "re")
    kontra_level = level if party == "kontra" else level_of(theirs, "kontra")
    need = needs(other, re_level, kontra_level, rules.tricks)
    if need.points is None or have * 2 < need.points:
        raise RulesError("claim_fails", "taken", claim="half_there", card=str(have))
    end = number(position.get("outcome"), "outcome", 0, DECK_POINTS)
    re_points = end
    tricks = default_re_tricks(rules, re_points)
    plain = score(rules, "normal", re_points, tricks, *(_said_pair(party, own, theirs)))
    bold = score(rules, "normal", re_points, tricks, *(_said_pair(party, limit, theirs)))
    if plain.winner != party or bold.winner == party:
        raise RulesError("claim_fails", "outcome", claim="limit_loses", card=str(end))
    best = position.get("best", "play_on")
    if best != "play_on":
        raise RulesError("claim_fails", "best", claim="limit_loses", card=str(best)[:8])
    choices = (Choice("play_on", label="play_on"), Choice(str(limit), label=str(limit)))
    reasons = (
        Reason("decide_limit_half", {"party": other, "points": have, "need": need.points, "cards": cards,
                                     "announcement": limit}),
        Reason("decide_limit_outcome", {"party": party, "re_points": re_points, "announcement": limit,
                                        "with": bold.scores[party], "without": plain.scores[party],
                                        "winner_with": bold.winner}),
    )
    return Question(
        kind="decide", seed=0, level=0, rules=rules, game="normal", prompt="decide_announce",
        params={"party": party, "cards": cards, "announcement": limit},
        fields=(Field("choice", "one", choices),), answer=(best,), reasons=reasons, section="announcements",
        facts={"decision": "announce", "party": party, "cards": cards, "said": said,
               "taken": {p: sum(card_points(c) for c in piles[p]) for p in piles},
               "tricks_taken": {p: len(piles[p]) // SEATS for p in piles},
               "others": {str(limit): Reason("decide_limit_risk", {"announcement": limit, "party": party})}},
    )


def _said_pair(party: str, own: str | None, theirs: str | None) -> tuple[str | None, str | None]:
    return (own, theirs) if party == "re" else (theirs, own)


def ask_decide(position: Mapping[str, Any], rules: RuleSet) -> Question:
    """Which card to play: a position (``hand``, ``trick`` so far, ``leader``, ``earlier``
    tricks from ``first``, what the learner ``known``s of the parties, the ``options`` to
    choose between) judged by ``judge`` (by default the position's own ``best``, held to its
    ``claim``). With ``announce`` instead: say that limit now, or play on."""
    keys(position, DECIDE_KEYS)
    if "announce" in position:
        return _announce_decision(position, rules)
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
        facts={"decision": "card", "hand": _ids(display_order([parse_card(c) for c in s.hand], s.table)),
               "plays": plays, "known": s.known, "earlier": [(s.earlier.plays(t), s.earlier.winners[t])
                                                            for t in range(len(s.earlier.tricks))],
               "groom": None if groom is None else given_seat(groom, "groom"), "others": verdict.others,
               "claim": position.get("claim")},
    )


# --- sheet: an evening's rows, Bock rounds, sitting out ------------------------------------

SHEET_KEYS: Final = frozenset({"players", "deals", "bock", "ask", "player", "deal", "first"})
SHEET_DEAL_KEYS: Final = frozenset({"game", "re", "winner", "value", "bock", "why"})
BOCK_WHY: Final = ("tie", "lost_re", "lost_kontra")


def _sheet_deals(position: Mapping[str, Any], rules: RuleSet, players: int) -> tuple[list[Deal], list[str | None]]:
    raw = position.get("deals")
    if not isinstance(raw, (list, tuple)) or not 1 <= len(raw) <= 12:
        raise RulesError("wrong_count", "deals", low=1, high=12)
    first = number(position.get("first", 0), "first", 0, players - 1)
    deals: list[Deal] = []
    why: list[str | None] = []
    for i, entry in enumerate(raw):
        if not isinstance(entry, Mapping):
            raise RulesError("bad_type", f"deals.{i}", expected="table")
        keys(entry, SHEET_DEAL_KEYS)
        game = game_id(entry.get("game", "normal"), rules, f"deals.{i}.game")
        dealer = (first + i) % players  # no compulsory solo here: the deal moves on every time
        re_players = tuple(number(p, f"deals.{i}.re", 0, players - 1) for p in entry.get("re", []))
        winner = entry.get("winner")
        if winner not in ("re", "kontra"):
            raise RulesError("unknown_party", f"deals.{i}.winner", value=str(winner)[:12])
        value = number(entry.get("value"), f"deals.{i}.value", 1, 12)
        reason = entry.get("why")
        if reason is not None and reason not in BOCK_WHY:
            raise RulesError("unknown_value", f"deals.{i}.why", value=str(reason)[:12])
        bock = flag(entry.get("bock", reason is not None), f"deals.{i}.bock")
        deal = Deal.quick_entry(game, dealer, re_players, winner, value, bock=bock)
        check_deal(rules, players, deal)
        deals.append(deal)
        why.append(reason if bock else None)
    return deals, why


def ask_sheet(position: Mapping[str, Any], rules: RuleSet) -> Question:
    """A few deals of an evening as a table writes them ("Re won, 2"), with Bock rounds
    (``bock``: the house option on) and players sitting out: ``players`` (4-7),
    ``deals`` (each ``re`` players, ``winner``, ``value``, ``bock``/``why`` when it starts a
    Bock round), ``first`` (who deals the first), and ``ask``: "total" (``player``'s total
    after all deals) or "entry" (what ``player`` writes in ``deal``, 1-based)."""
    keys(position, SHEET_KEYS)
    players = number(position.get("players", MIN_PLAYERS), "players", MIN_PLAYERS, MAX_PLAYERS)
    bock = flag(position.get("bock", False), "bock")
    deals, why = _sheet_deals(position, rules, players)
    sheet = evening(rules, players, deals, bock=bock, first_dealer=deals[0].dealer)
    asked = position.get("ask", "total")
    player = number(position.get("player"), "player", 0, players - 1)
    rows = sheet.rows
    if asked == "total":
        answer = sheet.totals[player]
        index = len(rows) - 1
    elif asked == "entry":
        index = number(position.get("deal"), "deal", 1, len(rows)) - 1
        entry = rows[index].entries[player]
        answer = 0 if entry is None else entry
    else:
        raise RulesError("unknown_value", "ask", value=str(asked)[:12])
    shown = [{"number": r.number, "dealer": r.deal.dealer, "game": r.deal.game, "re": list(r.deal.re_players),
              "winner": r.deal.quick.winner if r.deal.quick else None,
              "value": r.deal.quick.value if r.deal.quick else None, "bock": why[i],
              "out": list(r.sitting_out)} for i, r in enumerate(rows[: index + 1] if asked == "entry" else rows)]
    reasons = tuple(Reason("sheet_row", {"number": r.number, "entries": list(r.entries), "multiplier": r.multiplier,
                                         "player": player, "total": r.totals[player], "out": list(r.sitting_out)})
                    for r in (rows[: index + 1]))
    return Question(
        kind="sheet", seed=0, level=0, rules=rules, game="normal",
        prompt="sheet_total" if asked == "total" else "sheet_entry",
        params={"player": player, "deal": index + 1, "players": players},
        fields=(Field("points", "number", low=-999, high=999, label="sheet"),), answer=(str(answer),),
        reasons=reasons, section="sheet",
        facts={"players": players, "deals": shown, "bock": bock, "player": player},
    )


# --- name: the four cards with names of their own ---------------------------------------

NAMES: Final = {"dulle": TEN_OF_HEARTS, "alten": QUEEN_OF_CLUBS, "fuchs": ACE_OF_DIAMONDS, "karlchen": JACK_OF_CLUBS}
NAME_KEYS: Final = frozenset({"name", "cards"})


def ask_name(position: Mapping[str, Any], rules: RuleSet) -> Question:
    """Which of these cards is the one with this name (RULES.md §1): ``name`` (dulle, alten,
    fuchs, karlchen) and ``cards`` (2-6 different cards, that one among them)."""
    keys(position, NAME_KEYS)
    name = position.get("name")
    if name not in NAMES:
        raise RulesError("unknown_value", "name", value=str(name)[:12])
    cards = card_ids(position.get("cards"), rules, "cards", 2, 6)
    if len(set(cards)) != len(cards):
        raise RulesError("too_many_copies", "cards", card=cards[0], count=2)
    wanted = card_id(NAMES[name])
    if wanted not in cards:
        raise RulesError("missing_field", "cards", expected=wanted)
    return Question(
        kind="name", seed=0, level=0, rules=rules, game="normal", prompt="name", params={"name": name},
        fields=(Field("card", "one", tuple(Choice(c, card=c) for c in cards)),), answer=(wanted,),
        reasons=(Reason("name_card", {"name": name, "card": wanted}),), section="cards",
        facts={"cards": cards},
    )


OWN_KINDS: Final[dict[str, Callable[[Mapping[str, Any], RuleSet], Question]]] = {
    "name": ask_name,
    "infer": ask_infer,
    "decide": ask_decide,
    "sheet": ask_sheet,
}


def ask(kind: str, position: Mapping[str, Any], rules: RuleSet) -> Question:
    return OWN_KINDS[kind](position, rules)

