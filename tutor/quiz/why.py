"""Why not that one: for an answer the engine did not give, the rule against each wrong choice
(and, for "tick all" questions, each right choice missed), beside the reasons for the right
answer. Also the rule that decides a question, the key its review is scheduled under.

These are functions of a question and an answer, so every page that asks a question (the
quiz, the lessons) gets them. Reasons are codes with parameters, worded by the web layer;
every one names the choice it is about in ``params["choice"]``.

>>> from tutor.quiz import ask
>>> from tutor.rules.rulesets import RuleSet
>>> q = ask("winner", {"trick": ["10H", "QC", "10H"]}, RuleSet.named("ddv"))
>>> [(m.value, m.reason.code) for m in why_not(q, ("2",))]
[('2', 'second_of_equal')]
>>> rule_of(q)
'first_of_equal'
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from tutor.quiz.base import Field, Question
from tutor.quiz.positions import game_of
from tutor.rules.cards import card_points
from tutor.rules.explain import Reason, card_legal_reason, compare_loser_reason, loser_reason

__all__ = ["Miss", "rule_of", "why_not"]

# Reasons that say a choice is fine as it stands: never the rule a question is about.
PLAIN: Final = frozenset({"in_time", "already_made", "all_made"})


@dataclass(frozen=True, slots=True)
class Miss:
    """One wrong part of an answer: the field, the choice, whether the learner picked it
    (wrongly) or missed it (a right choice of a "tick all" question left out), and why."""

    field: str
    value: str
    picked: bool
    reason: Reason


def rule_of(q: Question) -> str:
    """The rule that decides this question (a reason code): the key of its spaced review."""
    if q.kind == "announce":
        codes = [r.code for r in q.reasons]
        return next((c for c in codes if c not in PLAIN), codes[0])
    return q.reasons[0].code


def why_not(q: Question, given: Sequence[str]) -> tuple[Miss, ...]:
    """For each wrong part of ``given`` (the canonical answer, one value per field), the rule
    against it; nothing for a right answer."""
    misses: list[Miss] = []
    for f, right, value in zip(q.fields, q.answer, given, strict=True):
        if value == right:
            continue
        if f.mode == "many":
            rights, values = set(filter(None, right.split(","))), set(filter(None, value.split(",")))
            for c in f.choices:
                if c.value in values - rights or c.value in rights - values:
                    picked = c.value in values
                    misses.append(Miss(f.name, c.value, picked, _reason(q, f, c.value, right, picked)))
        else:
            misses.append(Miss(f.name, value, True, _reason(q, f, value, right, True)))
    return tuple(misses)


def _named(reason: Reason, value: str) -> Reason:
    return Reason(reason.code, {**reason.params, "choice": value})


def _reason(q: Question, f: Field, value: str, right: str, picked: bool) -> Reason:
    """The rule about one choice ``value`` of field ``f`` (``right`` is the field's answer)."""
    facts, rules = q.facts, q.rules
    played = rules if facts.get("schweinchen") or not rules.schweinchen else rules.with_options(schweinchen=False)
    if q.kind == "winner":
        cards = [c for _s, c in facts["plays"]]
        return _named(loser_reason(cards, int(value), game_of(q.game), played, bool(q.params.get("last"))), value)
    if q.kind == "legal":
        trick = [c for _s, c in facts["plays"]]
        return _named(card_legal_reason(facts["hand"], trick, value, game_of(q.game), played), value)
    if q.kind == "trumps":
        if q.prompt == "higher":
            first, second = facts["cards"]
            return _named(compare_loser_reason(first, second, q.game, rules), value)
        own = q.reasons[0]
        code = {"is_trump": "said_plain_but_trump", "plain_card": "said_trump_but_plain",
                "no_trumps": "said_trump_but_no_trumps"}[own.code]
        return Reason(code, {**own.params, "choice": value})
    if q.kind == "points":
        total = int(right)
        short = total - int(value)
        cards = [c for trick in facts["tricks"] for c in trick]
        missed = next((c for c in cards if card_points(c) == short), None) if short > 0 else None
        if missed is not None:
            return Reason("points_missed_card", {"choice": value, "total": total, "card": missed, "points": short})
        return Reason("points_off", {"choice": value, "total": total})
    if q.kind == "announce":
        index = [c.value for c in f.choices].index(value)
        return _named(q.reasons[index], value)
    if q.kind == "needs":
        return _needs_reason(q, value, right)
    if q.kind == "score":
        return _score_reason(q, f, value, right)
    if q.kind == "game":
        if f.name == "leader":
            return Reason("does_not_lead", {"choice": value, "seat": int(value), "leader": int(right),
                                            "rule": q.reasons[-1].code})
        if value == "normal":
            return Reason("reservation_stands", {"choice": value, "seat": q.reasons[0].params["seat"]})
        rule = q.reasons[0]
        code = "outranked_in_turn" if rule.code == "earlier_in_turn" else "outranked_by_kind"
        return Reason(code, {"choice": value, "seat": int(value.split("@")[1]), "winner": rule.params["seat"],
                             "rule": rule.code})
    if q.kind == "best_card":
        # The tip that explains the best card against this one, and what it cost (best_card.py).
        return _named(q.facts["misses"][value], value)
    if q.kind == "party":
        return Reason("party_not_this", {"choice": value, "seat": q.params["seat"], "party": right,
                                         "rule": q.reasons[0].code})
    raise KeyError(q.kind)


def _needs_reason(q: Question, value: str, right: str) -> Reason:
    params = {"choice": value, "right": right, "party": q.params["party"]}
    if right in ("one", "all"):
        return Reason("need_tricks_not_points" if value not in ("one", "all") else "need_other_tricks", params)
    if value in ("one", "all"):
        return Reason("need_points_not_tricks", params)
    return Reason("need_too_few" if int(value[1:]) < int(right[1:]) else "need_more_than_needed", params)


def _score_reason(q: Question, f: Field, value: str, right: str) -> Reason:
    lines = q.reasons[-1].params
    if f.name == "winner":
        if right == "nobody":
            return Reason("nobody_won_not_party", {"choice": value})
        if value == "nobody":
            return Reason("somebody_won", {"choice": value, "party": right})
        return Reason("party_lost", {"choice": value, "party": right})
    given, answer = int(value), int(right)
    params = {"choice": value, "right": answer, "value": lines["value"]}
    if given == -answer:
        return Reason("result_sign", params)
    if lines["solo"] and given == lines["value"]:
        return Reason("result_not_tripled", params)
    return Reason("result_off", params)
