"""``name``: the four cards with names of their own (the Dulle, die Alten, the Fuchs,
Karlchen)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from tutor.quiz.base import Choice, Field, Question, card_ids, keys
from tutor.rules.cards import ACE_OF_DIAMONDS, JACK_OF_CLUBS, QUEEN_OF_CLUBS, TEN_OF_HEARTS, card_id
from tutor.rules.errors import RulesError
from tutor.rules.explain import Reason
from tutor.rules.rulesets import RuleSet

NAMES: Final = {"dulle": TEN_OF_HEARTS, "alten": QUEEN_OF_CLUBS, "fuchs": ACE_OF_DIAMONDS, "karlchen": JACK_OF_CLUBS}
NAME_KEYS: Final = frozenset({"name", "cards"})


def ask_name(position: Mapping[str, Any], rules: RuleSet) -> Question:
    """Which of these cards is the one with this name (RULES.md §1): ``name`` (dulle, alten,
    fuchs, karlchen) and ``cards`` (2-6 different cards, that one among them)."""
    keys(position, NAME_KEYS)
    name = position.get("name")
    if name not in NAMES:
        raise RulesError("unknown_value", "name", value=str(name)[:12])
    cards = card_ids(position.get("cards"), rules, "cards", 2, 6)
    if len(set(cards)) != len(cards):
        raise RulesError("too_many_copies", "cards", card=cards[0], count=2)
    wanted = card_id(NAMES[name])
    if wanted not in cards:
        raise RulesError("missing_field", "cards", expected=wanted)
    return Question(
        kind="name", seed=0, level=0, rules=rules, game="normal", prompt="name", params={"name": name},
        fields=(Field("card", "one", tuple(Choice(c, card=c) for c in cards)),), answer=(wanted,),
        reasons=(Reason("name_card", {"name": name, "card": wanted}),), section="cards",
        facts={"cards": cards},
    )
