"""Remember a fact the engine does not hold (the game's history): the one kind whose answer
a lesson file writes. The choices are the items of the bulleted list that ends the step's
prose; ``tutor.learn`` counts them and passes the count in.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from tutor.quiz.base import Choice, Field, Question, check, keys, number
from tutor.rules.explain import Reason
from tutor.rules.rulesets import RuleSet

KIND: Final = "recall"
SECTION: Final = "history"
KEYS: Final = frozenset({"answer", "count"})
MAX_CHOICES: Final = 6

__all__ = ["ask", "check"]


def ask(position: Mapping[str, Any], rules: RuleSet) -> Question:
    """Pick the right item: ``answer`` (1-based) of ``count`` items (2-6)."""
    keys(position, KEYS)
    count = number(position.get("count"), "count", 2, MAX_CHOICES)
    answer = number(position.get("answer"), "answer", 1, count)
    choices = tuple(Choice(str(i), label="recall", params={"index": i}) for i in range(1, count + 1))
    return Question(
        kind=KIND, seed=0, level=0, rules=rules, game="normal", prompt="recall", params={"count": count},
        fields=(Field("choice", "one", choices),),
        answer=(str(answer),), reasons=(Reason("recall", {"answer": answer}),), section=SECTION,
        facts={"answer": answer, "count": count},
    )


