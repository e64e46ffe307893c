"""Trump order: which of two cards is higher in this game, or is this card a trump at all."""
from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Final

from tutor.quiz.base import Choice, Field, Question, card_ids, check, game_id, keys, yes_no
from tutor.quiz.positions import base_rules, pick_game
from tutor.rules.cards import Card, card_id, deck, rank_of, suit_of
from tutor.rules.errors import RulesError
from tutor.rules.explain import compare_reason, trump_reason
from tutor.rules.games import GameTable, game_table, is_normal_type
from tutor.rules.rulesets import RuleSet

KIND: Final = "trumps"
SECTION: Final = "trumps"

KEYS: Final = frozenset({"card", "cards", "game"})

__all__ = ["ask", "build", "check"]


def _game(rng: random.Random, level: int, rules: RuleSet) -> str:
    game = pick_game(rng, level, rules)
    return "normal" if game in ("wedding", "poverty") and rng.random() < 0.5 else game


def build(rng: random.Random, rules: RuleSet, level: int = 0) -> Question:
    """Two cards to compare, or one card to place, with the engine's trump order as reason."""
    cards = sorted(set(deck(rules.deck)))
    while True:
        game = _game(rng, level, rules)
        table = game_table(game, rules)
        if rng.random() < 0.6:
            position = _higher(rng, game, table, cards)
        else:
            position = _is_trump(rng, game, cards)
        if position is None:
            continue
        question = ask(position, rules)
        # Below the top level, keep to answers that house options do not change.
        if question.rules_decide and level < 3:
            continue
        return replace(question, level=level)


def ask(position: Mapping[str, Any], rules: RuleSet) -> Question:
    """Is ``card`` a trump in ``game`` ("normal"), or which of ``cards`` (two different cards,
    the first led) is higher."""
    keys(position, KEYS)
    game = game_id(position.get("game", "normal"), rules)
    schweinchen = rules.schweinchen and is_normal_type(game)
    if ("card" in position) == ("cards" in position):
        raise RulesError("missing_field", "card", expected="card or cards")
    plain = base_rules(rules)
    if "card" in position:
        card = card_ids([position["card"]], rules, "card", 1, 1)[0]
        trump, reason = trump_reason(card, game, rules)
        answer = "yes" if trump else "no"
        return Question(
            kind=KIND, seed=0, level=0, rules=rules, game=game, prompt="is_trump", params={},
            fields=(Field("trump", "one", yes_no()),),
            answer=(answer,), reasons=(reason,), section=SECTION,
            facts={"card": card, "schweinchen": schweinchen},
            rules_decide=("yes" if trump_reason(card, game, plain)[0] else "no") != answer,
        )
    first, second = card_ids(position["cards"], rules, "cards", 2, 2)
    if first == second:
        raise RulesError("same_card", "cards", card=first)
    win, reason = compare_reason(first, second, game, rules)
    return Question(
        kind=KIND, seed=0, level=0, rules=rules, game=game, prompt="higher", params={},
        fields=(Field("card", "one", (Choice("0", card=first), Choice("1", card=second))),),
        answer=(str(win),), reasons=(reason,), section=SECTION,
        facts={"cards": (first, second), "schweinchen": schweinchen},
        rules_decide=compare_reason(first, second, game, plain)[0] != win,
    )


def _higher(rng: random.Random, game: str, table: GameTable, cards: list[Card]) -> dict[str, Any] | None:
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
    return {"game": game, "cards": [card_id(a), card_id(b)]}


def _is_trump(rng: random.Random, game: str, cards: list[Card]) -> dict[str, Any]:
    # The cards people get wrong: the 10♥, queens and jacks, the diamonds, the led suit's ace.
    tricky = [c for c in cards if rank_of(c) in ("Q", "J") or suit_of(c) in ("H", "D") or rank_of(c) == "A"]
    return {"game": game, "card": card_id(rng.choice(tricky))}
