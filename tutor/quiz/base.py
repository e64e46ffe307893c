"""What every question is made of, how an answer is read and checked, and the levels.

A question is plain data: what to show (``facts``), the form to answer in (``fields``), the
engine's answer and the engine's reasons. It knows no language: prompts and reasons are
codes with parameters that the web layer words.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from tutor.parse import NumberError, whole_number
from tutor.rules.announcements import level_of
from tutor.rules.deals import parse_card_in
from tutor.rules.errors import RulesError
from tutor.rules.explain import Reason
from tutor.rules.games import check_game
from tutor.rules.rulesets import RuleSet
from tutor.rules.terms import Game

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
        try:
            number = whole_number(value, field_.name, low=field_.low, high=field_.high, max_digits=4)
        except NumberError:
            raise BadAnswer(field_.name) from None
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


# --- Reading a given position ---------------------------------------------------------------
# A position is plain data (card ids, seats, numbers), as lessons/README.md writes it. These
# read one part of it, or raise the engine's RulesError naming the key at fault.


def keys(position: Mapping[str, Any], allowed: frozenset[str]) -> None:
    """RulesError for a key the kind does not know (a typo in a lesson file)."""
    unknown = sorted(set(position) - allowed)
    if unknown:
        raise RulesError("unknown_field", unknown[0])


def card_ids(value: Any, rules: RuleSet, name: str, low: int = 1, high: int = 12) -> list[str]:
    """A list of ``low``..``high`` card ids of the rules' deck, none more than twice."""
    if not isinstance(value, (list, tuple)) or not all(isinstance(c, str) for c in value):
        raise RulesError("bad_type", name, expected="list of card ids")
    if not low <= len(value) <= high:
        raise RulesError("wrong_count", name, low=low, high=high, got=len(value))
    for i, card in enumerate(value):
        parse_card_in(card, rules, f"{name}.{i}")
    copies([list(value)], name)
    return list(value)


def copies(piles: Sequence[Sequence[str]], name: str) -> None:
    """RulesError if the cards of all these piles together hold a card more than twice."""
    seen = Counter(c for pile in piles for c in pile)
    for card, count in seen.items():
        if count > 2:
            raise RulesError("too_many_copies", name, card=card, count=count)


def given_seat(value: Any, name: str, seats: int = SEATS) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < seats:
        raise RulesError("out_of_range", name, low=0, high=seats - 1, got=value)
    return value


def number(value: Any, name: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise RulesError("out_of_range", name, low=low, high=high, got=value)
    return value


def flag(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise RulesError("bad_type", name, expected="true or false")
    return value


def game_id(value: Any, rules: RuleSet, name: str = "game") -> Game:
    """A game of RULES.md §2 that these rules play (poverty only where it is played)."""
    return check_game(value, rules, name)


def said_of(value: Any) -> dict[str, str | None]:
    """Each party's highest announcement so far (``re``/``kontra`` -> an announcement id)."""
    if value is None:
        value = {}
    if not isinstance(value, Mapping) or set(value) - {"re", "kontra"}:
        raise RulesError("bad_type", "said", expected="re and kontra")
    said: dict[str, str | None] = {"re": None, "kontra": None}
    for party in said:
        said[party] = value.get(party)
        level_of(said[party], party, f"said.{party}")
    return said


def party_of(value: Any, name: str) -> str:
    if value not in ("re", "kontra"):
        raise RulesError("unknown_party", name, value=str(value)[:12])
    return str(value)


def yes_no() -> tuple[Choice, ...]:
    return (Choice("yes", label="yes"), Choice("no", label="no"))
