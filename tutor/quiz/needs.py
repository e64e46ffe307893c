"""What Re, or Kontra, needs to win, given what both parties announced (RULES.md §7, §10)."""
from __future__ import annotations

import random
from typing import Final

from tutor.quiz.base import Choice, Field, Question, check
from tutor.rules.announcements import NONE, SCHWARZ, announcement_id
from tutor.rules.explain import Need, Reason, needs, needs_reason
from tutor.rules.rulesets import RuleSet

KIND: Final = "needs"
SECTION: Final = "winning"
# Every answer a question can have, in the order the choices are listed.
ANSWERS: Final = ("p30", "p60", "p90", "p120", "p121", "p151", "p181", "p211", "one", "all")

__all__ = ["build", "check", "need_value"]


def need_value(need: Need) -> str:
    """The choice value of a need: ``p121`` for card points, ``one``/``all`` for tricks."""
    return need.tricks if need.tricks else f"p{need.points}"


def _level(rng: random.Random, level: int) -> int:
    roll = rng.random()
    if roll < 0.35:
        return NONE
    if roll < 0.6 or level == 0:
        return 0
    return 1 + min(int(rng.random() * (level + 1)), SCHWARZ - 1) if rng.random() < 0.8 else SCHWARZ


def build(rng: random.Random, rules: RuleSet, level: int = 0) -> Question:
    """Both parties' announcements and the question for one party."""
    re_level, kontra_level = _level(rng, level), _level(rng, level)
    party = "re" if rng.random() < 0.5 else "kontra"
    solo = level >= 2 and rng.random() < 0.3
    need = needs(party, re_level, kontra_level, rules.tricks)
    right = need_value(need)
    others = [a for a in ANSWERS if a != right]
    # Distractors close to the answer teach more than far ones.
    others.sort(key=lambda a: (abs(ANSWERS.index(a) - ANSWERS.index(right)), rng.random()))
    shown = sorted([right, *others[:3]], key=ANSWERS.index)
    reason = needs_reason(party, re_level, kontra_level)
    reason = Reason(reason.code, {**reason.params, "points": need.points, "tricks": need.tricks,
                                  "nobody": need.nobody_possible})
    said = {"re": announcement_id(re_level, "re") if re_level != NONE else None,
            "kontra": announcement_id(kontra_level, "kontra") if kontra_level != NONE else None}
    return Question(
        kind=KIND, seed=0, level=level, rules=rules, game="solo_queens" if solo else "normal",
        prompt="needs_solo" if solo else "needs", params={"party": party},
        fields=(Field("need", "one", tuple(Choice(a, label="need") for a in shown)),),
        answer=(right,), reasons=(reason,), section=SECTION,
        facts={"said": said, "solo": solo},
    )
