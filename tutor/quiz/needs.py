"""What Re, or Kontra, needs to win, given what both parties announced (RULES.md §7, §10)."""
from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Final

from tutor.quiz.base import Choice, Field, Question, check, game_id, keys, party_of, said_of
from tutor.rules.announcements import NONE, SCHWARZ, announcement_id, level_of
from tutor.rules.errors import RulesError
from tutor.rules.explain import Need, Reason, needs, needs_reason
from tutor.rules.games import is_solo
from tutor.rules.rulesets import RuleSet

KIND: Final = "needs"
SECTION: Final = "winning"
# Every answer a question can have, in the order the choices are listed.
ANSWERS: Final = ("p30", "p60", "p90", "p120", "p121", "p151", "p181", "p211", "one", "all")

KEYS: Final = frozenset({"party", "said", "game", "choices"})

__all__ = ["ask", "build", "check", "need_value"]


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
    right = need_value(needs(party, re_level, kontra_level, rules.tricks))
    others = [a for a in ANSWERS if a != right]
    # Distractors close to the answer teach more than far ones.
    others.sort(key=lambda a: (abs(ANSWERS.index(a) - ANSWERS.index(right)), rng.random()))
    said = {"re": announcement_id(re_level, "re") if re_level != NONE else None,
            "kontra": announcement_id(kontra_level, "kontra") if kontra_level != NONE else None}
    position = {"party": party, "said": said, "game": "solo_queens" if solo else "normal",
                "choices": [right, *others[:3]]}
    return replace(ask(position, rules), level=level)


def ask(position: Mapping[str, Any], rules: RuleSet) -> Question:
    """What ``party`` needs to win, given ``said`` (each party's highest announcement);
    ``game`` ("normal"; a solo asks for the soloist's Re). ``choices`` (the answer among
    them) are optional: by default the answer and its three nearest neighbours."""
    keys(position, KEYS)
    party = party_of(position.get("party"), "party")
    said = said_of(position.get("said"))
    game = game_id(position.get("game", "normal"), rules)
    solo = is_solo(game)
    re_level, kontra_level = level_of(said["re"], "re"), level_of(said["kontra"], "kontra")
    need = needs(party, re_level, kontra_level, rules.tricks)
    right = need_value(need)
    if "choices" in position:
        chosen = position["choices"]
        if not isinstance(chosen, list) or right not in chosen or not set(chosen) <= set(ANSWERS) or len(chosen) < 2:
            raise RulesError("bad_choices", "choices")
    else:
        chosen = [right, *sorted((a for a in ANSWERS if a != right),
                                 key=lambda a: (abs(ANSWERS.index(a) - ANSWERS.index(right)), ANSWERS.index(a)))[:3]]
    shown = sorted(set(chosen), key=ANSWERS.index)
    reason = needs_reason(party, re_level, kontra_level)
    reason = Reason(reason.code, {**reason.params, "points": need.points, "tricks": need.tricks,
                                  "nobody": need.nobody_possible})
    return Question(
        kind=KIND, seed=0, level=0, rules=rules, game=game,
        prompt="needs_solo" if solo else "needs", params={"party": party},
        fields=(Field("need", "one", tuple(Choice(a, label="need") for a in shown)),),
        answer=(right,), reasons=(reason,), section=SECTION,
        facts={"said": said, "solo": solo},
    )
