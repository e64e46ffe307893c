"""Looking for a fresh position: made at random from the seed (``search``) or picked from an
enumerated list (``pick``), kept when the engine decides it by the same rule and it is none
of the positions to avoid; ``key``, what "the same position" means."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from tutor.learn import kinds
from tutor.quiz import ask as quiz_ask
from tutor.quiz.base import Question
from tutor.rules.cards import IDS, in_deck, parse_card
from tutor.rules.errors import RulesError
from tutor.rules.rulesets import RuleSet

TRIES: Final = 3000
PATIENCE: Final = 150  # tries more for a preferred position once a fitting one is found


class NoVariant(ValueError):
    """No fresh position of the same kind was found for a check."""


def key(position: Mapping[str, Any]) -> str:
    """A position as one comparable string: what "the same position" means."""
    return json.dumps(position, sort_keys=True, default=str)


def build(kind: str, position: Mapping[str, Any], rules: RuleSet) -> Question:
    if kind in kinds.OWN_KINDS:
        return kinds.ask(kind, position, rules)
    return quiz_ask(kind, position, rules)


def deck(rules: RuleSet) -> list[str]:
    return [c for c in IDS if in_deck(parse_card(c), rules.deck)]


def random_cards(rng: random.Random, rules: RuleSet, count: int, pool: Sequence[str] | None = None) -> list[str]:
    """``count`` random cards, no card more than twice."""
    pool = list(pool or deck(rules))
    chosen: list[str] = []
    while len(chosen) < count:
        card = rng.choice(pool)
        if chosen.count(card) < 2:
            chosen.append(card)
    return chosen


Maker = Callable[[random.Random], dict[str, Any] | None]


def search(kind: str, original: Mapping[str, Any], rules: RuleSet, seed: int, avoid: set[str],
           make: Maker, same: Callable[[Question], bool], prefer: Callable[[Question], bool] | None = None,
           tries: int = TRIES) -> dict[str, Any]:
    """The first made position that the engine accepts, that ``same`` keeps and that is none
    of ``avoid``; one that ``prefer`` likes too if found within the tries."""
    rng = random.Random(seed)
    fallback: dict[str, Any] | None = None
    waited = 0
    for _ in range(tries):
        if fallback is not None:
            waited += 1
            if waited > PATIENCE:
                break
        candidate = make(rng)
        if candidate is None or key(candidate) in avoid:
            continue
        try:
            question = build(kind, candidate, rules)
        except (RulesError, ValueError, KeyError, TypeError):
            continue
        if not same(question):
            continue
        if prefer is None or prefer(question):
            return candidate
        fallback = fallback or candidate
    if fallback is not None:
        return fallback
    raise NoVariant(f"no fresh {kind} position like {key(original)}")


def pick(kind: str, candidates: list[dict[str, Any]], rules: RuleSet, seed: int, avoid: set[str],
         same: Callable[[Question], bool], prefer: Callable[[Question], bool] | None = None) -> dict[str, Any]:
    """One of an enumerated list of candidates, chosen by the seed among those that fit."""
    fitting: list[dict[str, Any]] = []
    liked: list[dict[str, Any]] = []
    for candidate in candidates:
        if key(candidate) in avoid:
            continue
        try:
            question = build(kind, candidate, rules)
        except (RulesError, ValueError, KeyError, TypeError):
            continue
        if same(question):
            fitting.append(candidate)
            if prefer is None or prefer(question):
                liked.append(candidate)
    choice = liked or fitting
    if not choice:
        raise NoVariant(f"no fresh {kind} position like {candidates[:1]}")
    return random.Random(seed).choice(choice)
