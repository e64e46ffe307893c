"""One reason of the engine as a sentence, whatever the question's kind: the reasons about
cards (card_reasons.py), about a deal (deal_reasons.py), of the lessons' kinds (lessons.py)
and of the best card (best_card.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from tutor.quiz.base import Question
from tutor.rules.explain import Reason
from tutor.web.words.questions.best_card import best_card_reason
from tutor.web.words.questions.card_reasons import WORDS
from tutor.web.words.questions.deal_reasons import GROUPED as DEAL_REASONS
from tutor.web.words.questions.lessons import LESSON_REASONS, lesson_reason
from tutor.web.words.questions.names import short

# Reasons worded by one function per topic, which takes the code.
GROUPED: Final[dict[str, Callable[[dict[str, Any], str, Question], str]]] = {
    **DEAL_REASONS, **dict.fromkeys(LESSON_REASONS, lesson_reason)
}


def reason_text(reason: Reason, q: Question) -> str:
    """One reason of the engine as a sentence."""
    p: dict[str, Any] = reason.params
    code = reason.code
    if q.kind == "best_card":
        return best_card_reason(reason)
    card = short(p["card"]) if "card" in p else ""
    if code in WORDS:
        return WORDS[code](p, card, q)
    return GROUPED[code](p, code, q)


def card_rule_text(reason: Reason) -> str:
    """A reason about cards alone (who takes a trick, which cards may follow a lead) as a
    sentence, without a question around it: the rules reference words its examples so."""
    p: dict[str, Any] = reason.params
    return str(WORDS[reason.code](p, short(p["card"]) if "card" in p else "", None))


def trick_reason_text(reason: Reason) -> str:
    """A reason about a trick or a card, worded without a question (the play page explains
    each trick of a deal with it)."""
    p: dict[str, Any] = reason.params
    text: str = WORDS[reason.code](p, short(p["card"]) if "card" in p else "", None)
    return text
