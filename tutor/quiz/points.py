"""Card points: how many points lie in this trick, or in this pile of tricks."""
from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Final

from tutor.quiz.base import SEATS, Field, Question, card_ids, check, copies, game_id, keys
from tutor.quiz.positions import pick_game, play
from tutor.rules.cards import DECK_POINTS, card_id, card_points, rank_of
from tutor.rules.errors import RulesError
from tutor.rules.explain import Reason
from tutor.rules.rulesets import RuleSet

KIND: Final = "points"
SECTION: Final = "cards"

KEYS: Final = frozenset({"cards", "tricks", "game"})

__all__ = ["ask", "build", "check"]


def build(rng: random.Random, rules: RuleSet, level: int = 0) -> Question:
    """One trick at first, a pile of two or three as the level grows."""
    game = pick_game(rng, level, rules)
    deal = play(rng, rules, game).deal
    count = 1 if level == 0 else 1 + int(rng.random() * min(level + 1, 3))
    # Of a few piles, the one with the most different ranks: tens next to kings, aces next
    # to nines are where counting goes wrong.
    piles = [sorted(rng.sample(range(len(deal.tricks)), count)) for _ in range(3)]
    chosen = max(piles, key=lambda pile: len({rank_of(c) for t in pile for c in deal.tricks[t]}))
    question = ask({"tricks": [[card_id(c) for c in deal.tricks[t]] for t in chosen], "game": deal.game}, rules)
    return replace(question, level=level)


def ask(position: Mapping[str, Any], rules: RuleSet) -> Question:
    """How many card points lie here: ``cards`` (1-12 cards: a trick or a pile; more than four
    are shown as tricks of four) or ``tricks`` (a list of tricks); ``game`` is optional."""
    keys(position, KEYS)
    game = game_id(position.get("game", "normal"), rules)
    if ("cards" in position) == ("tricks" in position):
        raise RulesError("missing_field", "cards", expected="cards or tricks")
    if "cards" in position:
        cards = card_ids(position["cards"], rules, "cards", 1, 12)
        tricks = [cards[i:i + SEATS] for i in range(0, len(cards), SEATS)]
    else:
        value = position["tricks"]
        if not isinstance(value, (list, tuple)) or not 1 <= len(value) <= 3:
            raise RulesError("wrong_count", "tricks", low=1, high=3, got=len(value) if isinstance(value, list) else 0)
        tricks = [card_ids(t, rules, f"tricks.{i}", 1, SEATS) for i, t in enumerate(value)]
        copies(tricks, "tricks")
    count = len(tricks)
    per_trick = [sum(card_points(c) for c in trick) for trick in tricks]
    total = sum(per_trick)
    reason = Reason("card_points", {
        "cards": [(c, card_points(c)) for trick in tricks for c in trick],
        "tricks": per_trick, "total": total,
    })
    return Question(
        kind=KIND, seed=0, level=0, rules=rules, game=game,
        prompt="points_trick" if count == 1 else "points_pile", params={"count": count},
        fields=(Field("points", "number", low=0, high=DECK_POINTS),),
        answer=(str(total),), reasons=(reason,), section=SECTION,
        facts={"tricks": tricks},
    )
