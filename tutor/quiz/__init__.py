"""Quiz questions built by the engine from seeded random deals: the same kind, seed, level
and rules always make the same question, so a question's URL reproduces it.

Every kind works in two halves: ``build`` finds a position (the seeded search) and ``ask``
builds the question about a given position, plain data as lessons/README.md writes it.
The quiz's ``make`` does both; lessons call ``ask`` alone. A few kinds (LESSON_KINDS) have
no search of their own and are asked only about the positions lessons give.

>>> from tutor.rules.rulesets import RuleSet
>>> q = make("winner", 7, RuleSet.named("ddv"))
>>> q == make("winner", 7, RuleSet.named("ddv")), q.kind, q.seed
(True, 'winner', 7)
>>> ask("winner", {"trick": ["10H", "QC", "10H"]}, RuleSet.named("ddv")).answer
('0',)
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from importlib import import_module
from types import ModuleType
from typing import Any, Final

from tutor.quiz.base import MAX_LEVEL, BadAnswer, Question, check, parse_answer
from tutor.rules.errors import RulesError
from tutor.rules.rulesets import RuleSet

KINDS: Final = ("winner", "legal", "trumps", "points", "announce", "needs", "score", "game", "party", "best_card")
MODULES: Final[dict[str, ModuleType]] = {kind: import_module(f"tutor.quiz.{kind}") for kind in KINDS}

# Kinds asked only about a position a lesson gives (they have no generator of their own).
LESSON_KINDS: Final = ("extras", "sheet_row", "dealer", "poverty", "recall")
ASK_MODULES: Final[dict[str, ModuleType]] = {
    **MODULES, **{kind: import_module(f"tutor.quiz.{kind}") for kind in LESSON_KINDS}}

__all__ = ["KINDS", "LESSON_KINDS", "MAX_LEVEL", "BadAnswer", "Question", "ask", "check", "make", "parse_answer"]


def make(kind: str, seed: int, rules: RuleSet, level: int = 0) -> Question:
    """The question of this kind that ``seed`` makes at ``level`` under ``rules``."""
    level = max(0, min(MAX_LEVEL, level))
    question: Question = MODULES[kind].build(random.Random(seed), rules, level)
    return replace(question, seed=seed)


def ask(kind: str, position: Mapping[str, Any], rules: RuleSet) -> Question:
    """The question of this kind about a given position (plain data: card ids, seats, as
    lessons/README.md writes them); RulesError when the engine refuses the position."""
    module = ASK_MODULES.get(kind)
    if module is None or not hasattr(module, "ask"):
        raise RulesError("unknown_kind", "kind", value=str(kind))
    question: Question = module.ask(position, rules)
    return question
