"""The visitor's rules: read from ONE place, `current_rules()`, and written as text in the
settings cookie, in form fields and in the calculator's and the sheets' URLs.

A bad cookie silently means the default rules; bad text anywhere else is a RulesError.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Final

from flask import g, request

from tutor.rules.errors import RulesError
from tutor.rules.rulesets import OPTION_CHOICES, RULESETS, RuleSet, parse_rules
from tutor.web.base import security

COOKIE: Final = "rules"
DEFAULT_RULESET: Final = "ddv"
MAX_KEY: Final = 200  # no rules' text form is longer


def encode(value: Any) -> str:
    """An option value as it appears in a form field and in the cookie."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def decode(option: str, text: str) -> Any:
    """The allowed value of `option` spelled `text`; RulesError for anything else."""
    for choice in OPTION_CHOICES[option]:
        if encode(choice) == text:
            return choice
    raise RulesError("bad_option_value", f"rules.options.{option}", option=option)


def rules_from_fields(ruleset: str, fields: dict[str, str]) -> RuleSet:
    """Rules from text fields (a form or the cookie); RulesError when any field is wrong.
    Options left out keep the rule set's own defaults."""
    options = {name: decode(name, text) for name, text in fields.items() if name in OPTION_CHOICES}
    unknown = set(fields) - set(OPTION_CHOICES)
    if unknown:
        raise RulesError("unknown_option", f"rules.options.{sorted(unknown)[0]}")
    return parse_rules({"ruleset": ruleset, "options": options})


@lru_cache(maxsize=256)  # RuleSet is frozen: its text form never changes
def to_cookie(rules: RuleSet) -> str:
    """`ddv` or `ddv|deck=40|schweinchen=true`: only what differs from the rule set."""
    base = RuleSet.named(rules.ruleset).options()
    changed = [f"{k}={encode(v)}" for k, v in rules.options().items() if base[k] != v]
    return "|".join([rules.ruleset, *changed])


@lru_cache(maxsize=256)  # a few cookie texts recur on every request; RuleSet is frozen
def from_cookie(text: str | None) -> RuleSet:
    """The rules a cookie names; the default rules for a missing or damaged cookie."""
    try:
        ruleset, *pairs = (text or DEFAULT_RULESET).split("|")
        fields = dict(pair.split("=", 1) for pair in pairs)
        if len(fields) != len(pairs):
            raise RulesError("duplicate_option", "rules")
        return rules_from_fields(ruleset, fields)
    except (RulesError, ValueError):
        return RuleSet.named(DEFAULT_RULESET)


def current_rules() -> RuleSet:
    """The rules this visitor plays by. Every page that depends on rules asks here."""
    rules: RuleSet | None = g.get("rules")
    if rules is None:
        rules = g.rules = from_cookie(security.cookie(request, COOKIE))
    return rules


def rules_key(rules: RuleSet) -> str:
    """The rules as they travel in a URL: ``ddv`` or ``pagat|deck=40`` (as in the cookie)."""
    return to_cookie(rules)


def rules_from_key(text: str) -> RuleSet:
    """The rules a URL names; RulesError("bad_rules") for anything else (never a guess)."""
    if len(text) > MAX_KEY:
        raise RulesError("bad_rules", "rules")
    ruleset, *pairs = text.split("|")
    if ruleset not in RULESETS:
        raise RulesError("bad_rules", "rules")
    try:
        fields = dict(pair.split("=", 1) for pair in pairs)
    except ValueError:
        raise RulesError("bad_rules", "rules") from None
    if len(fields) != len(pairs):
        raise RulesError("bad_rules", "rules")
    try:
        return rules_from_fields(ruleset, fields)
    except RulesError:
        raise RulesError("bad_rules", "rules") from None
