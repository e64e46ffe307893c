"""Fresh positions of the same kind: after a miss a lesson asks again about new cards, never
about the position whose answer it has just shown (and never twice the same in a row).

``fresh(kind, position, rules, seed, avoid, taught)`` returns a position (plain data, as a
lesson writes one) that the engine decides by the same rule as the given one: the same
reason code for a trick, a lead, a card, a party; the same kind of row for a score, a sheet
or a dealer; for a decision, one of the position's own variants or its mirror image (plain
clubs and spades trade places, which changes nothing in a normal game). The seed makes it
reproducible: the same seed gives the same position. ``taught`` (rule ids of lessons/rules.toml
taught so far on the path) keeps a fresh score from needing a line not yet explained.

One module per family of generators: tricks.py (winner, legal, trumps, points), deals.py
(announce, needs, score, game, party), lesson_kinds.py (extras, sheet_row, dealer, poverty),
own_kinds.py (the lessons' own: infer, decide, sheet, recall, name); search.py looks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from tutor.learn.variants.deals import fresh_announce, fresh_game, fresh_needs, fresh_party, fresh_score, said_kinds
from tutor.learn.variants.lesson_kinds import fresh_dealer, fresh_extras, fresh_poverty, fresh_sheet_row
from tutor.learn.variants.own_kinds import fresh_decide, fresh_infer, fresh_name, fresh_recall, fresh_sheet, mirror
from tutor.learn.variants.search import NoVariant, build, key
from tutor.learn.variants.tricks import fresh_legal, fresh_points, fresh_trumps, fresh_winner
from tutor.quiz.base import Question
from tutor.rules.rulesets import RuleSet

__all__ = ["NoVariant", "fresh", "key", "mirror", "same_as", "said_kinds"]

GENERATORS: Final[dict[str, Callable[[Mapping[str, Any], Question, RuleSet, int, set[str]], dict[str, Any]]]] = {
    "winner": fresh_winner, "legal": fresh_legal, "trumps": fresh_trumps, "points": fresh_points,
    "announce": fresh_announce, "needs": fresh_needs, "game": fresh_game, "party": fresh_party,
    "extras": fresh_extras, "sheet_row": fresh_sheet_row, "dealer": fresh_dealer, "poverty": fresh_poverty,
    "infer": fresh_infer, "decide": fresh_decide, "sheet": fresh_sheet, "recall": fresh_recall, "name": fresh_name,
}


def fresh(kind: str, position: Mapping[str, Any], rules: RuleSet, seed: int, avoid: Sequence[Mapping[str, Any]] = (),
          taught: frozenset[str] = frozenset()) -> dict[str, Any]:
    """A position of the same kind as ``position`` (a check of a lesson), decided by the same
    rule, none of ``position`` itself and ``avoid``; the same ``seed`` gives the same one.
    NoVariant if none can be found."""
    original = {k: v for k, v in position.items() if k != "variants"} if kind not in ("decide", "recall") \
        else dict(position)
    question = build(kind, {k: v for k, v in original.items() if k not in ("variants", "order")}, rules)
    skip = {key(original)} | {key(a) for a in avoid}
    if kind == "decide":
        # A decision with plain clubs and spades traded is the same decision: the one to
        # avoid is avoided in both colours (the step's own mirror may come, it was not asked).
        skip = {key({k: v for k, v in original.items() if k != "variants"})} | {key(a) for a in avoid} \
            | {key(mirror(a)) for a in avoid}
    if kind == "recall":
        skip = {key({k: v for k, v in original.items() if k != "variants"})} | {key(a) for a in avoid}
    generator = GENERATORS.get(kind)
    if generator is None and kind != "score":
        raise NoVariant(f"no fresh positions for the {kind} kind")

    def run(skipped: set[str]) -> dict[str, Any]:
        if kind == "score":
            return fresh_score(original, question, rules, seed, skipped, taught)
        assert generator is not None
        return generator(original, question, rules, seed, skipped)

    try:
        return run(skip)
    except NoVariant:
        if not avoid:
            raise
        # So few positions of this kind that none is left: the step's own may come back, but
        # never the one just asked.
        return run(skip - {key(original), key({k: v for k, v in original.items() if k != "variants"})})


def same_as(kind: str, position: Mapping[str, Any]) -> str:
    """What "the same position" means to a learner, as one comparable string: a recall is
    its fact (the step's own or a variant's ``section``), whatever the order of its list; a
    decision and its mirror image (plain clubs and spades traded) are one decision."""
    plain = {k: v for k, v in position.items() if k != "variants"}
    if kind == "recall":  # the same fact is the same question, in whatever order its list comes
        return key({"section": plain.get("section"), "answer": plain.get("answer")})
    if kind == "decide":
        return min(key(plain), key(mirror(plain)))
    return key(plain)
