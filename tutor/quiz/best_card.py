"""Which card is best here: positions from real deals where one card is at least a game
point better than every other, judged by simulation (tutor.analysis), with the table tip
that says why.

The positions are mined by ``scripts/mine_best_card.py`` from whole deals of the computer
players under each rule set's default options and kept in ``best_card.json`` beside this
module: per position the rule set, what seat 0 had seen (``tutor.quiz.seat_view``), the
analysis that judged it (its samples and seed), the best card with its equivalents, the tip
against the learner's likely alternative (the card that loses least) and every other
card's loss and tip. A test holds the file to the engine: re-analysed with its seed, a
position still gives its best card.

Levels. The tips of the first level are the ones a beginner meets in every deal and can
see at once: the fox, the Dulle (kept or spent), schmieren, points thrown to the other
side, the partner's ace (SIMPLE_TIPS). From level 1 on every tip comes in: a shown void,
the second round of a suit, a trump that holds, Karlchen, Kontra's aces, Re's trumps,
trumps from the top, the groom's lead. The games follow the quiz's levels: normal games at
level 0, weddings from 1, solos from 2, poverty and the silent wedding at 3. A question of a
level draws a tip code first, each code of the level as likely as the next, then one of
its positions: so the spaced review, which asks for seeds until a question is decided by
the code under review, finds every code of a level within a few tries. ``level_for(code)``
is the first level that asks a code.

A question always follows its rule set's default options, the ones the deals were played
and judged under; a learner with house options sees that said (``rules_decide``).
"""
from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any, Final

from tutor.analysis.judge import Analysis, analyse, candidates
from tutor.analysis.tips import CODES, SIMULATIONS_PREFER, Situation, Tip, explain
from tutor.analysis.view import SeatView
from tutor.analysis.worlds import NoWorld, Worlds
from tutor.quiz.base import MAX_LEVEL, Choice, Field, Question, card_ids, check, keys, number
from tutor.quiz.positions import display_order
from tutor.quiz.seat_view import VIEW_KEYS, read_view
from tutor.rules.cards import Card, card_id, parse_card
from tutor.rules.deal import Deal
from tutor.rules.errors import RulesError
from tutor.rules.explain import Reason
from tutor.rules.rulesets import RuleSet
from tutor.rules.terms import SEATS

KIND: Final = "best_card"
SECTION: Final = "tips"
DATA: Final = Path(__file__).with_name("best_card.json")

SIMPLE_TIPS: Final = ("fox", "dulle_cheap", "dulle_worth_it", "schmieren", "points_to_opponents", "partner_ace")
# The first level that asks positions of each game the seat can know it is in.
GAME_LEVELS: Final = {"normal": 0, "wedding": 1, "poverty": 3, "silent_wedding": 3}
SOLO_LEVEL: Final = 2
SAMPLES: Final = 300  # the analysis a position without a best card is judged by
WORLD_TRIES: Final = 20
RESULT_KEYS: Final = frozenset({"id", "samples", "seed", "best", "tip", "loss", "candidates", "played"})
CANDIDATE_KEYS: Final = frozenset({"card", "same_as", "loss", "error", "tip"})

__all__ = ["SIMPLE_TIPS", "ask", "build", "check", "given", "level_for", "level_of", "positions"]


# --- The mined positions ---------------------------------------------------------------------


@cache
def positions() -> tuple[Mapping[str, Any], ...]:
    """Every mined position, as the file keeps it."""
    data = json.loads(DATA.read_text(encoding="utf-8"))
    return tuple(data["positions"])


def given(position: Mapping[str, Any]) -> dict[str, Any]:
    """A mined position as ``ask`` takes it: the view's keys beside the result's."""
    return {**position["view"], **{k: v for k, v in position.items() if k in RESULT_KEYS}}


def level_of(position: Mapping[str, Any]) -> int:
    """The first level that asks this mined position."""
    return _level(position["tip"]["code"], position["view"]["game"])


def _level(code: str, game: str) -> int:
    """A position's level: its tip's and its game's, the later one."""
    return max(0 if code in SIMPLE_TIPS else 1, GAME_LEVELS.get(game, SOLO_LEVEL))


@cache
def _pool(ruleset: str, level: int) -> tuple[tuple[str, tuple[Mapping[str, Any], ...]], ...]:
    """The positions a question of this rule set and level is drawn from, by tip code."""
    by_code: dict[str, list[Mapping[str, Any]]] = {}
    for p in positions():
        if p["rules"] == ruleset and level_of(p) <= level:
            by_code.setdefault(p["tip"]["code"], []).append(p)
    return tuple((code, tuple(by_code[code])) for code in sorted(by_code))


def level_for(code: str, ruleset: str = "ddv") -> int | None:
    """The first level whose questions can be decided by this tip code (None: none can)."""
    return next((level for level in range(MAX_LEVEL + 1) if any(c == code for c, _ in _pool(ruleset, level))), None)


def build(rng: random.Random, rules: RuleSet, level: int = 0) -> Question:
    """A mined position of the rule set, its tip code drawn first (see the module's doc)."""
    pool = next((_pool(rules.ruleset, lv) for lv in range(level, MAX_LEVEL + 1) if _pool(rules.ruleset, lv)), ())
    if not pool:
        raise RulesError("no_position", "rules", value=rules.ruleset)
    _code, found = pool[int(rng.random() * len(pool))]
    position = found[int(rng.random() * len(found))]
    played = RuleSet.named(rules.ruleset)
    question = ask(given(position), played)
    return replace(question, level=level, rules_decide=rules != played)


# --- Asking about a position --------------------------------------------------------------------


def ask(position: Mapping[str, Any], rules: RuleSet) -> Question:
    """Which card is best for the seat to play. ``position``: the seat's view as
    tutor.quiz.seat_view reads it, and what decides the answer: ``best`` (the best card and
    any cards equivalent to it), ``candidates`` (every other distinct legal card with its
    ``loss`` in game points against the best, as the analysis measured it) and ``tip`` (the
    tip of the best card against the one that loses least), as mined; or none of them, and
    the analysis judges the position (``samples``, default 300, and ``seed``, default 0),
    which must find one card clearly best (every other a mistake or worse). ``played``: the
    card a learner chose there, whose tip then decides the question (its review's rule)
    instead of the closest card's. The engine checks what is given: the candidates are the
    distinct legal cards, the tips are the detectors' own.

    The question's level is the first one whose questions are of this tip and game (see the
    module's doc): a miss is reviewed at a level that asks its tip."""
    keys(position, VIEW_KEYS | RESULT_KEYS)
    view = read_view({k: v for k, v in position.items() if k in VIEW_KEYS}, rules)
    deal = _a_world(view)
    groups = candidates(view, deal)
    if len(groups) < 2:
        raise RulesError("wrong_count", "hand", low=2, high=rules.tricks, got=len(groups))
    samples = number(position.get("samples", SAMPLES), "samples", 10, 1000)
    seed = number(position.get("seed", 0), "seed", 0, 2**31 - 1)
    if "best" in position:
        best, losses = _given(position, rules, groups)
    else:
        best, losses = _judged(analyse(view, samples, seed))
    situation = Situation.of(view, deal)
    others = [g for g in groups if g[0] != best]
    tips = {c: explain(situation, best, c) for c, _same in others}
    if "played" in position:
        closest = parse_card(card_ids([position["played"]], rules, "played")[0])
        if closest not in tips:
            raise RulesError("not_a_candidate", "played", card=card_id(closest))
    elif losses:
        closest = min(others, key=lambda g: (losses[g[0]], g[0]))[0]
    else:
        closest = _named_first(tips, others)
    tip = tips[closest]
    if "tip" in position and _tip_data(position["tip"]) != (tip.code, tip.params):
        raise RulesError("tip_does_not_fit", "tip", expected=tip.code)
    return _question(view, deal, groups, best, tip, closest, losses, tips, samples, position.get("id"))


def _a_world(view: SeatView) -> Deal:
    """A deal that fits the view, at the view's moment: what the seat could see is the same
    in every one (the legal cards, the parties it knows, the tips' facts)."""
    worlds = Worlds(view)
    rng = random.Random(0)
    for _ in range(WORLD_TRIES):
        try:
            return worlds.deal(worlds.sample(rng))
        except RulesError:
            continue  # a world in which the announcements could not be made as given
    raise NoWorld("no_world", "announced")


def _given(position: Mapping[str, Any], rules: RuleSet,
           groups: Sequence[tuple[Card, tuple[Card, ...]]]) -> tuple[Card, dict[Card, float]]:
    """The best card as given (its group's first card) and each other card's loss, if given."""
    best_ids = card_ids(position["best"], rules, "best", 1, rules.tricks)
    group = next((g for g in groups if parse_card(best_ids[0]) in (g[0], *g[1])), None)
    if group is None or sorted(best_ids) != sorted(card_id(c) for c in (group[0], *group[1])):
        raise RulesError("not_a_candidate", "best", card=best_ids[0])
    losses: dict[Card, float] = {}
    given = position.get("candidates")
    if given is None:
        return group[0], losses
    if not isinstance(given, (list, tuple)):
        raise RulesError("bad_type", "candidates", expected="list")
    for i, item in enumerate(given):
        if not isinstance(item, Mapping):
            raise RulesError("bad_type", f"candidates.{i}", expected="card and loss")
        keys(item, CANDIDATE_KEYS)
        card = card_ids([item.get("card")], rules, f"candidates.{i}.card")[0]
        loss = item.get("loss")
        if not isinstance(loss, (int, float)) or isinstance(loss, bool) or not 0 < loss <= 100:
            raise RulesError("out_of_range", f"candidates.{i}.loss", low=0, high=100, got=loss)
        losses[parse_card(card)] = float(loss)
    if sorted(losses) != sorted(g[0] for g in groups if g is not group):
        raise RulesError("not_a_candidate", "candidates", card=",".join(card_id(c) for c in sorted(losses)))
    return group[0], losses


def _judged(analysis: Analysis) -> tuple[Card, dict[Card, float]]:
    """The analysis's best card, when every other one is a mistake or worse."""
    others = [c for c in analysis.cards if c.verdict != "best"]
    if analysis.silent is not None or any(c.verdict not in ("mistake", "blunder") for c in others):
        raise RulesError("no_best_card", "hand")
    best = next(c for c in analysis.cards if c.verdict == "best")
    return best.card, {c.card: c.loss for c in others}


def _named_first(tips: Mapping[Card, Tip], others: Sequence[tuple[Card, tuple[Card, ...]]]) -> Card:
    """Without losses: the first other card that a named tip explains (else the first)."""
    return next((c for c, _s in others if tips[c].code != SIMULATIONS_PREFER), others[0][0])


def _tip_data(value: Any) -> tuple[Any, Any]:
    if not isinstance(value, Mapping) or set(value) != {"code", "params"} or value["code"] not in CODES:
        raise RulesError("bad_type", "tip", expected="a tip's code and params")
    return value["code"], value["params"]


def _question(view: SeatView, deal: Deal, groups: Sequence[tuple[Card, tuple[Card, ...]]], best: Card, tip: Tip,
              closest: Card, losses: Mapping[Card, float], tips: Mapping[Card, Tip], samples: int,
              ident: Any) -> Question:
    table = deal.table
    order = {c: i for i, c in enumerate(display_order([g[0] for g in groups], table))}
    choices = tuple(Choice(card_id(c), card=card_id(c), params={"same": [card_id(x) for x in same]} if same else {})
                    for c, same in sorted(groups, key=lambda g: order[g[0]]))
    reasons = [Reason(tip.code, dict(tip.params))]
    if losses:
        reasons.append(Reason("simulated_loss", {"better": card_id(best), "card": card_id(closest),
                                                 "loss": round(min(losses.values()), 1), "samples": samples}))
    seat = view.seat
    misses = {card_id(c): Reason(t.code, {**t.params, **({"loss": round(losses[c], 1)} if losses else {})})
              for c, t in tips.items()}
    plays = [((deal.leader + i) % SEATS, card_id(c)) for i, c in enumerate(deal.trick)]
    earlier = [([(deal.seat_of(t, i), card_id(c)) for i, c in enumerate(trick)], deal.winners[t])
               for t, trick in enumerate(deal.tricks)]
    said = [(a.seat, a.party, a.id) for a in deal.announcements]
    facts: dict[str, Any] = {
        "seat": seat, "hand": [card_id(c) for c in display_order(list(view.hand), table)], "plays": plays,
        "earlier": earlier, "known": list(deal.known(seat)), "said": said, "declarer": view.declarer,
        "acceptor": view.acceptor, "misses": misses, "position": ident, "samples": samples,
    }
    return Question(
        kind=KIND, seed=0, level=_level(tip.code, view.game), rules=view.rules, game=deal.game,
        prompt="best_card_lead" if not deal.trick else "best_card",
        params={"seat": seat, "trick": len(deal.tricks) + 1, "party": view.party_known},
        fields=(Field("card", "one", choices),), answer=(card_id(best),), reasons=tuple(reasons),
        section=SECTION, facts=facts,
    )
