"""Trump order: which of two cards is higher in this game, or is this card a trump at all."""
from __future__ import annotations

import random
from dataclasses import replace
from typing import Final

from tutor.quiz.base import Choice, Field, Question, check
from tutor.quiz.positions import base_rules, pick_game
from tutor.rules.cards import Card, card_id, deck, rank_of, suit_of
from tutor.rules.explain import compare_reason, trump_reason
from tutor.rules.games import GameTable, game_table, is_normal_type
from tutor.rules.rulesets import RuleSet

KIND: Final = "trumps"
SECTION: Final = "trumps"

__all__ = ["build", "check"]


def _game(rng: random.Random, level: int, rules: RuleSet) -> str:
    game = pick_game(rng, level, rules)
    return "normal" if game in ("wedding", "poverty") and rng.random() < 0.5 else game


def build(rng: random.Random, rules: RuleSet, level: int = 0) -> Question:
    """Two cards to compare, or one card to place, with the engine's trump order as reason."""
    cards = sorted(set(deck(rules.deck)))
    plain = base_rules(rules)
    while True:
        game = _game(rng, level, rules)
        table = game_table(game, rules)
        if rng.random() < 0.6:
            question = _higher(rng, rules, game, table, cards)
        else:
            question = _is_trump(rng, rules, game, table, cards)
        if question is None:
            continue
        # Below the top level, keep to answers that house options do not change.
        house = _answer(question, plain) != question.answer
        if house and level < 3:
            continue
        return replace(question, level=level, rules_decide=house)


def _answer(question: Question, rules: RuleSet) -> tuple[str, ...]:
    if question.prompt == "is_trump":
        return ("yes" if trump_reason(question.facts["card"], question.game, rules)[0] else "no",)
    first, second = question.facts["cards"]
    return (str(compare_reason(first, second, question.game, rules)[0]),)


def _higher(rng: random.Random, rules: RuleSet, game: str, table: GameTable, cards: list[Card]) -> Question | None:
    trumps = [c for c in cards if table.is_trump(c)]
    roll = rng.random()
    if roll < 0.6 and len(trumps) >= 2:
        i = int(rng.random() * (len(trumps) - 1))
        j = min(len(trumps) - 1, i + 1 + int(rng.random() * 3))  # neighbours are the hard ones
        a, b = trumps[i], trumps[j]
    elif roll < 0.8 and trumps:
        a = rng.choice(trumps)
        same = [c for c in cards if not table.is_trump(c) and suit_of(c) == suit_of(a)]
        if not same:
            return None
        b = rng.choice(same)
    else:
        suit = rng.choice(sorted({suit_of(c) for c in cards if not table.is_trump(c)}))
        same = [c for c in cards if not table.is_trump(c) and suit_of(c) == suit]
        if len(same) < 2:
            return None
        a, b = rng.sample(same, 2)
    if rng.random() < 0.5:
        a, b = b, a
    first, second = card_id(a), card_id(b)
    win, reason = compare_reason(first, second, game, rules)
    return Question(
        kind=KIND, seed=0, level=0, rules=rules, game=game, prompt="higher", params={},
        fields=(Field("card", "one", (Choice("0", card=first), Choice("1", card=second))),),
        answer=(str(win),), reasons=(reason,), section=SECTION,
        facts={"cards": (first, second), "schweinchen": rules.schweinchen and is_normal_type(game)},
    )


def _is_trump(rng: random.Random, rules: RuleSet, game: str, table: GameTable, cards: list[Card]) -> Question | None:
    # The cards people get wrong: the 10♥, queens and jacks, the diamonds, the led suit's ace.
    tricky = [c for c in cards if rank_of(c) in ("Q", "J") or suit_of(c) in ("H", "D") or rank_of(c) == "A"]
    card = card_id(rng.choice(tricky))
    trump, reason = trump_reason(card, game, rules)
    return Question(
        kind=KIND, seed=0, level=0, rules=rules, game=game, prompt="is_trump", params={},
        fields=(Field("trump", "one", (Choice("yes", label="yes"), Choice("no", label="no"))),),
        answer=("yes" if trump else "no",), reasons=(reason,), section=SECTION,
        facts={"card": card, "schweinchen": rules.schweinchen and is_normal_type(game)},
    )
