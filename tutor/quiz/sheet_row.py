"""Could this row be on a score sheet: the two checks of the TSR (RULES.md §8, §10).

Asked only about a position a lesson gives: the four entries of one deal.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from tutor.quiz.base import SEATS, Field, Question, check, keys, number, yes_no
from tutor.rules.errors import RulesError
from tutor.rules.explain import Reason
from tutor.rules.rulesets import RuleSet
from tutor.rules.sheet import checks

KIND: Final = "sheet_row"
SECTION: Final = "sheet"
KEYS: Final = frozenset({"entries"})

__all__ = ["ask", "check"]


def ask(position: Mapping[str, Any], rules: RuleSet) -> Question:
    """Could a sheet show these ``entries`` (4 numbers, one per player)? Yes when they sum
    to zero and are all even or all odd."""
    keys(position, KEYS)
    value = position.get("entries")
    if not isinstance(value, (list, tuple)) or len(value) != SEATS:
        raise RulesError("wrong_count", "entries", expected=SEATS)
    entries = [number(e, f"entries.{i}", -999, 999) for i, e in enumerate(value)]
    zero, parity = checks(entries)
    total = sum(entries)
    reasons = (
        Reason("row_sums_to_zero" if zero else "row_sum_not_zero", {"entries": entries, "sum": total}),
        Reason("row_same_parity" if parity else "row_mixed_parity",
               {"entries": entries, "even": [e % 2 == 0 for e in entries]}),
    )
    return Question(
        kind=KIND, seed=0, level=0, rules=rules, game="normal", prompt="sheet_row", params={},
        fields=(Field("possible", "one", yes_no()),),
        answer=("yes" if zero and parity is not False else "no",),
        reasons=reasons, section=SECTION, facts={"entries": entries},
    )


