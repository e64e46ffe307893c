"""The two rule sets and their house options, as one frozen value.

>>> RuleSet.named("pagat").karlchen
'win_or_catch'
>>> parse_rules({"ruleset": "ddv", "options": {"deck": 40}}).deck
40
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any, Final

from tutor.rules.errors import RulesError
from tutor.rules.terms import RULESET_NAMES, RulesetName

RULESETS: Final = RULESET_NAMES

# Allowed values of every house option (API.md, RULES.md §10).
OPTION_CHOICES: Final[dict[str, tuple[Any, ...]]] = {
    "dullen": ("first_wins", "second_wins", "second_wins_except_last"),
    "deck": (48, 40),
    "schweinchen": (False, True),
    "karlchen": ("win", "win_or_catch"),
    "poverty": (False, True),
    "solo_lead": ("by_solo_kind", "soloist", "left_of_dealer"),
}


@dataclass(frozen=True, slots=True)
class RuleSet:
    """A rule set with its house options; every rule of the engine reads from one of these."""

    ruleset: RulesetName = "ddv"
    dullen: str = "first_wins"
    deck: int = 48
    schweinchen: bool = False
    karlchen: str = "win"
    poverty: bool = False
    solo_lead: str = "by_solo_kind"

    @staticmethod
    def named(name: str) -> RuleSet:
        """The rule set with its own defaults: ``ddv`` (DDV tournament rules) or ``pagat``."""
        if name == "ddv":
            return RuleSet()
        if name == "pagat":
            # Seed 001: Karlchen caught counts, poverty is played, the dealer's left leads.
            return RuleSet("pagat", karlchen="win_or_catch", poverty=True, solo_lead="left_of_dealer")
        raise RulesError("unknown_ruleset", "rules", value=str(name))

    def options(self) -> dict[str, Any]:
        """The house options as a plain dict (without the rule-set name)."""
        values = asdict(self)
        del values["ruleset"]
        return values

    def with_options(self, **options: Any) -> RuleSet:
        """A copy with some options changed; RulesError for an unknown option or value."""
        for name, value in options.items():
            choices = OPTION_CHOICES.get(name)
            if choices is None:
                raise RulesError("unknown_option", f"rules.options.{name}", option=name)
            # bool is an int in Python: keep 1 from passing as True, and True as 1.
            if not any(value == c and type(value) is type(c) for c in choices):
                raise RulesError("bad_option_value", f"rules.options.{name}", option=name)
        return replace(self, **options)

    @property
    def tricks(self) -> int:
        """Tricks in a deal, which is also the cards each player is dealt."""
        return self.deck // 4

    @property
    def has_compulsory_solos(self) -> bool:
        """Whether every player owes one compulsory solo (Pflichtsolo) per round: the DDV
        tournament rules only (RULES.md §4, §10)."""
        return self.ruleset == "ddv"

    @property
    def has_rounds(self) -> bool:
        """Whether an evening is counted in rounds (six deals per player at the table): the
        rounds in which the compulsory solos are owed, so the DDV rules only."""
        return self.has_compulsory_solos

    def other(self, **options: Any) -> RuleSet:
        """The other rule set (pagat for the DDV's, the DDV's for pagat), with the given
        house options: what the quiz compares an answer with when it says the rules decide."""
        return RuleSet.named("pagat" if self.ruleset == "ddv" else "ddv").with_options(**options)

    def is_default(self) -> bool:
        """Whether every option is the rule set's own default."""
        return self == RuleSet.named(self.ruleset)


def parse_rules(value: Any) -> RuleSet:
    """Rules as the API gives them: ``"ddv"``, ``"pagat"`` or
    ``{"ruleset": "ddv", "options": {...}}``; RulesError for anything else."""
    if isinstance(value, str):
        return RuleSet.named(value)
    if not isinstance(value, dict):
        raise RulesError("bad_type", "rules", expected="string or object")
    unknown = set(value) - {"ruleset", "options"}
    if unknown:
        raise RulesError("unknown_field", f"rules.{sorted(unknown)[0]}")
    name = value.get("ruleset", "ddv")
    if not isinstance(name, str):
        raise RulesError("bad_type", "rules.ruleset", expected="string")
    options = value.get("options", {})
    if not isinstance(options, dict):
        raise RulesError("bad_type", "rules.options", expected="object")
    return RuleSet.named(name).with_options(**options)
