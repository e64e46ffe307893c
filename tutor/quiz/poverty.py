"""May this player declare poverty: three trumps or fewer, the A♦ counted (RULES.md §4, §10).

Asked only about a position a lesson gives: a hand as dealt.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from tutor.quiz.base import Field, Question, card_ids, check, keys, yes_no
from tutor.quiz.positions import display_order
from tutor.rules.cards import card_id, parse_card
from tutor.rules.errors import RulesError
from tutor.rules.explain import Reason
from tutor.rules.games import game_table
from tutor.rules.reservations import POVERTY_MAX_TRUMPS, may_declare_poverty, poverty_trumps
from tutor.rules.rulesets import RuleSet

KIND: Final = "poverty"
SECTION: Final = "parties"
KEYS: Final = frozenset({"hand"})

__all__ = ["ask", "check"]


def ask(position: Mapping[str, Any], rules: RuleSet) -> Question:
    """May the player holding ``hand`` (a whole hand as dealt) declare poverty? Only where
    the rules play poverty (pagat, or the DDV house option)."""
    keys(position, KEYS)
    if not rules.poverty:
        raise RulesError("poverty_not_played", "kind")
    hand = [parse_card(c) for c in card_ids(position.get("hand"), rules, "hand", rules.tricks, rules.tricks)]
    trumps = [card_id(c) for c in poverty_trumps(hand)]
    allowed = may_declare_poverty(hand)
    code = "poverty_allowed" if allowed else "poverty_too_many_trumps"
    return Question(
        kind=KIND, seed=0, level=0, rules=rules, game="poverty", prompt="poverty", params={},
        fields=(Field("poverty", "one", yes_no()),),
        answer=("yes" if allowed else "no",),
        reasons=(Reason(code, {"trumps": trumps, "count": len(trumps), "most": POVERTY_MAX_TRUMPS}),),
        section=SECTION,
        facts={"hand": [card_id(c) for c in display_order(hand, game_table("normal", rules))], "trumps": trumps},
    )


