"""What every question is made of, how an answer is read and checked, and the levels.

A question is plain data: what to show (``facts``), the form to answer in (``fields``), the
engine's answer and the engine's reasons. It knows no language: prompts and reasons are
codes with parameters that the web layer words.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from tutor.rules.explain import Reason
from tutor.rules.rulesets import RuleSet

MAX_LEVEL: Final = 3
SEATS: Final = 4


class BadAnswer(ValueError):
    """An answer that does not fit the question's form (missing, unknown value, not a number)."""


@dataclass(frozen=True, slots=True)
class Choice:
    """One thing to tap: its form value and what it shows (a card id, a seat, a label code)."""

    value: str
    card: str | None = None
    label: str | None = None
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Field:
    """One part of the answer form. ``mode``: "one" (pick one), "many" (tick every one that
    applies, possibly none) or "number" (type a whole number in ``low``..``high``)."""

    name: str
    mode: str
    choices: tuple[Choice, ...] = ()
    low: int = 0
    high: int = 0
    label: str | None = None


@dataclass(frozen=True, slots=True)
class Question:
    """A question as the engine built it. ``answer`` holds one canonical value per field."""

    kind: str
    seed: int
    level: int
    rules: RuleSet
    game: str
    prompt: str
    params: dict[str, Any]
    fields: tuple[Field, ...]
    answer: tuple[str, ...]
    reasons: tuple[Reason, ...]
    section: str
    facts: dict[str, Any] = field(default_factory=dict)
    rules_decide: bool = False


def canonical(field_: Field, values: Sequence[str]) -> str:
    """The one string an answer to a field is compared as; BadAnswer if it cannot be."""
    if field_.mode == "many":
        allowed = {c.value for c in field_.choices}
        if any(v not in allowed for v in values):
            raise BadAnswer(field_.name)
        return ",".join(sorted(set(values)))
    if len(values) != 1:
        raise BadAnswer(field_.name)
    value = values[0].strip()
    if field_.mode == "number":
        text = value.replace("\u2212", "-").lstrip("+")
        if not text.lstrip("-").isdigit() or len(text) > 4:
            raise BadAnswer(field_.name)
        number = int(text)
        if not field_.low <= number <= field_.high:
            raise BadAnswer(field_.name)
        return str(number)
    if value not in {c.value for c in field_.choices}:
        raise BadAnswer(field_.name)
    return value


def parse_answer(question: Question, form: Mapping[str, Sequence[str]]) -> tuple[str, ...]:
    """The answer a form gives (field name -> the values posted), in canonical form."""
    return tuple(canonical(f, list(form.get(f.name, ()))) for f in question.fields)


def check(question: Question, answer: tuple[str, ...]) -> bool:
    """Whether the (canonical) answer is the engine's."""
    return tuple(answer) == question.answer


def seat_choices() -> tuple[Choice, ...]:
    return tuple(Choice(str(s), label="seat", params={"seat": s}) for s in range(SEATS))
