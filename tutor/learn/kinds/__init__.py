"""Question kinds only lessons ask, built here from the engine's pieces: what the table can
tell of a player's party from the cards played (``infer``), which card to play where one
is clearly right (``decide``) and the totals of an evening's score sheet (``sheet``).

Each ``ask`` takes a position as plain data (lessons/README.md) and returns a quiz
Question, so the web layer shows and checks it as every other check. Every fact is the
engine's: legal cards, trick winners, card points, announcements, scores and sheets. The
engine has no function for a party shown by play nor for a card judged good: those are
written here (``infer_parties``, ``judge``) and could move into the engine later.

One module per kind: infer.py, decide.py (with announce.py for a decision to announce),
sheet.py and name.py; played.py checks the tricks a position gives as played.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from tutor.learn.kinds.decide import CLAIMS, JUDGES, Situation, Verdict, ask_decide, judge, seat_view_data, situation
from tutor.learn.kinds.infer import ask_infer, infer_parties
from tutor.learn.kinds.name import NAMES, ask_name
from tutor.learn.kinds.sheet import ask_sheet
from tutor.quiz.base import Question
from tutor.rules.rulesets import RuleSet

__all__ = ["CLAIMS", "JUDGES", "NAMES", "OWN_KINDS", "Situation", "Verdict", "ask", "infer_parties", "judge",
           "seat_view_data", "situation"]

OWN_KINDS: Final[dict[str, Callable[[Mapping[str, Any], RuleSet], Question]]] = {
    "name": ask_name,
    "infer": ask_infer,
    "decide": ask_decide,
    "sheet": ask_sheet,
}


def ask(kind: str, position: Mapping[str, Any], rules: RuleSet) -> Question:
    return OWN_KINDS[kind](position, rules)
