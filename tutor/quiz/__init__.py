"""Quiz questions built by the engine from seeded random deals: the same kind, seed, level
and rules always make the same question, so a question's URL reproduces it.

>>> from tutor.rules.rulesets import RuleSet
>>> q = make("winner", 7, RuleSet.named("ddv"))
>>> q == make("winner", 7, RuleSet.named("ddv")), q.kind, q.seed
(True, 'winner', 7)
"""
from __future__ import annotations

import random
from dataclasses import replace
from importlib import import_module
from types import ModuleType
from typing import Final

from tutor.quiz.base import MAX_LEVEL, BadAnswer, Question, check, parse_answer
from tutor.rules.rulesets import RuleSet

KINDS: Final = ("winner", "legal", "trumps", "points", "announce", "needs", "score", "game", "party")
MODULES: Final[dict[str, ModuleType]] = {kind: import_module(f"tutor.quiz.{kind}") for kind in KINDS}

__all__ = ["KINDS", "MAX_LEVEL", "BadAnswer", "Question", "check", "make", "parse_answer"]


def make(kind: str, seed: int, rules: RuleSet, level: int = 0) -> Question:
    """The question of this kind that ``seed`` makes at ``level`` under ``rules``."""
    level = max(0, min(MAX_LEVEL, level))
    question: Question = MODULES[kind].build(random.Random(seed), rules, level)
    return replace(question, seed=seed)
