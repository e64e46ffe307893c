"""``infer``: what the table can tell of a player's party from the cards played, the
announcements and the count of the parties known (``infer_parties``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Final

from tutor.learn.kinds.played import Played, hand_fits, ids_of, replay
from tutor.quiz.base import SEATS, Choice, Field, Question, card_ids, copies, game_id, given_seat, keys
from tutor.quiz.positions import display_order
from tutor.rules.cards import parse_card
from tutor.rules.errors import RulesError
from tutor.rules.explain import Reason
from tutor.rules.games import TRUMP, GameTable, game_table
from tutor.rules.rulesets import RuleSet

UNKNOWN: Final = "unknown"
SECTION: Final = "parties"



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
    hand_fits(hand, played, 0, table, "hand")
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
    shown = ids_of(display_order([parse_card(c) for c in hand], table))
    return Question(
        kind="infer", seed=0, level=0, rules=rules, game=game, prompt="infer", params={"seat": seat},
        fields=(Field("party", "one", choices),), answer=(answer,),
        reasons=shown_reasons,
        section=SECTION,
        facts={"seat": seat, "hand": shown, "calls": sorted(calls.items()), "known": known,
               "tricks": [(played.plays(t), played.winners[t]) for t in range(len(played.tricks))]},
    )
