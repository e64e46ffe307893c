"""The tips lesson against the deal analysis: the card a tip's step calls right is never one
the analysis finds worse than the noise (an inaccuracy, a mistake or a blunder), so that a
learner who follows the lesson in a deal is never told off for it by the review. Every
decision step is checked, with each of its variants, at the analysis's own sample size for
positions (300 worlds, seed 0).

What the analysis makes of each (docs/analysis.md, "The tips lesson"): the fox positions'
card is best and every other choice an inaccuracy or worse; in the schmieren positions only
the Q♣ (taking the partner's trick) is out of the noise; the first leads of "Re plays
trumps", "aces early" and "count the trumps" are within half a game point of each other for
the computer players; in "keep the Dulle" they take the cheap trick with the Dulle and then
lead, by less than the noise. The wedding's step is held to the other rule: before the
clarification the analysis does not judge (``unmodelled``), as in a review.
"""
from __future__ import annotations

import pytest

from tutor import learn as L
from tutor.analysis.judge import analyse
from tutor.learn import kinds
from tutor.quiz.seat_view import read_view
from tutor.rules.cards import card_id
from tutor.rules.rulesets import RuleSet

DDV = RuleSet.named("ddv")
WORSE = ("inaccuracy", "mistake", "blunder")
# The steps whose own position the analysis calls best, every other choice worse than the noise.
CLEARLY_BEST = {("fox-safe", 0), ("fox-safe", 1)}


def positions() -> list[tuple[str, int, dict]]:
    item = L.lesson("tips")
    assert item is not None
    found = []
    for step in item.steps:
        check = dict(step.check or {})
        if check.get("kind") != "decide" or "claim" not in check:
            continue  # the limit step is scored by the engine both ways, not played out
        base = {k: v for k, v in check.items() if k not in ("kind", "variants")}
        for number, variant in enumerate([{}, *check.get("variants", [])]):
            found.append((step.id, number, {**base, **variant}))
    return found


POSITIONS = positions()


def test_every_card_decision_of_the_tips_is_checked_here():
    ids = {step for step, _n, _p in POSITIONS}
    assert ids == {"count-trumps", "aces-early", "schmieren", "fox-safe", "keep-dulle", "re-trumps", "wedding"}
    assert len(POSITIONS) >= 14


@pytest.mark.parametrize(("step", "number", "position"), POSITIONS, ids=[f"{s}-{n}" for s, n, _p in POSITIONS])
def test_the_analysis_never_finds_the_lessons_card_worse_than_the_noise(step, number, position):
    situation = kinds.situation(position, DDV)
    best = kinds.judge(situation, position).best
    view = read_view(kinds.seat_view_data(situation, position.get("groom")), DDV)
    analysis = analyse(view, 300, 0)
    if step == "wedding":
        assert analysis.silent == "unmodelled"  # a wedding before its clarification: nobody is judged
        return
    verdicts = {}
    for c in analysis.cards:
        for card in (c.card, *c.same_as):
            verdicts[card_id(card)] = c.verdict
    assert analysis.silent is None
    assert verdicts[best] not in WORSE, (best, verdicts)
    if (step, number) in CLEARLY_BEST:
        assert verdicts[best] == "best"
        assert all(verdicts[o] in WORSE for o in situation.options if o != best), verdicts
