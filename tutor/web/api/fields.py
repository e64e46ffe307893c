"""Reading the fields of an API request: each helper returns the field's value or raises a
RulesError naming the field, which the API answers with a 400."""
from __future__ import annotations

from typing import Any

from tutor.rules.cards import card_id
from tutor.rules.deals import parse_card_in
from tutor.rules.errors import RulesError
from tutor.rules.rulesets import RuleSet


def required(body: dict[str, Any], name: str) -> Any:
    if name not in body:
        raise RulesError("missing_field", name)
    return body[name]


def integer(value: Any, field: str, low: int, high: int) -> int:
    if type(value) is float and value.is_integer():
        value = int(value)  # JSON knows numbers only: 10.0 is the integer 10 (JSON Schema agrees)
    if type(value) is not int:  # bool is an int in Python, not in JSON
        raise RulesError("bad_type", field, expected="integer")
    if not low <= value <= high:
        raise RulesError("out_of_range", field, low=low, high=high)
    return value


def boolean(value: Any, field: str) -> bool:
    if type(value) is not bool:
        raise RulesError("bad_type", field, expected="boolean")
    return value


def card_list(value: Any, rules: RuleSet, field: str, low: int, high: int) -> list[int]:
    if not isinstance(value, list):
        raise RulesError("bad_type", field, expected="array")
    if not low <= len(value) <= high:
        raise RulesError("out_of_range", field, low=low, high=high)
    return [parse_card_in(c, rules, f"{field}.{i}") for i, c in enumerate(value)]


def at_most_two(named_lists: list[tuple[str, list[int]]]) -> None:
    """Every card exists twice: a third copy anywhere in the request is impossible."""
    seen: dict[int, int] = {}
    for field, cards in named_lists:
        for i, card in enumerate(cards):
            seen[card] = seen.get(card, 0) + 1
            if seen[card] > 2:
                raise RulesError("too_many_copies", f"{field}.{i}", card=card_id(card))


def required_in(item: dict[str, Any], name: str, field: str) -> Any:
    """A field of an object inside the request (``field`` is where the object is)."""
    if name not in item:
        raise RulesError("missing_field", f"{field}.{name}")
    return item[name]
