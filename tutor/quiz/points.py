"""Card points: how many points lie in this trick, or in this pile of tricks."""
from __future__ import annotations

import random
from typing import Final

from tutor.quiz.base import Field, Question, check
from tutor.quiz.positions import pick_game, play
from tutor.rules.cards import DECK_POINTS, POINTS, card_id, rank_of
from tutor.rules.explain import Reason
from tutor.rules.rulesets import RuleSet

KIND: Final = "points"
SECTION: Final = "cards"

__all__ = ["build", "check"]


def build(rng: random.Random, rules: RuleSet, level: int = 0) -> Question:
    """One trick at first, a pile of two or three as the level grows."""
    game = pick_game(rng, level, rules)
    deal = play(rng, rules, game).deal
    count = 1 if level == 0 else 1 + int(rng.random() * min(level + 1, 3))
    # Of a few piles, the one with the most different ranks: tens next to kings, aces next
    # to nines are where counting goes wrong.
    piles = [sorted(rng.sample(range(len(deal.tricks)), count)) for _ in range(3)]
    chosen = max(piles, key=lambda pile: len({rank_of(c) for t in pile for c in deal.tricks[t]}))
    tricks = [[card_id(c) for c in deal.tricks[t]] for t in chosen]
    total = sum(POINTS[c] for t in chosen for c in deal.tricks[t])
    per_trick = [sum(POINTS[c] for c in deal.tricks[t]) for t in chosen]
    reason = Reason("card_points", {
        "cards": [(card_id(c), POINTS[c]) for t in chosen for c in deal.tricks[t]],
        "tricks": per_trick, "total": total,
    })
    return Question(
        kind=KIND, seed=0, level=level, rules=rules, game=deal.game,
        prompt="points_trick" if count == 1 else "points_pile", params={"count": count},
        fields=(Field("points", "number", low=0, high=DECK_POINTS),),
        answer=(str(total),), reasons=(reason,), section=SECTION,
        facts={"tricks": tricks},
    )
