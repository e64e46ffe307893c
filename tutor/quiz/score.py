"""Score this deal: the summary of a played deal (card points, tricks, announcements,
extra points); answer who won and what each Re player writes on the sheet."""
from __future__ import annotations

import random
from typing import Final

from tutor.quiz.base import Choice, Field, Question, check
from tutor.quiz.positions import pick_game, play
from tutor.rules.announcements import NONE, SCHWARZ, announcement_id
from tutor.rules.explain import Reason, needs
from tutor.rules.games import is_normal_type, is_solo
from tutor.rules.rulesets import RuleSet
from tutor.rules.scoring import score

KIND: Final = "score"
SECTION: Final = "scoring"
WINNERS: Final = ("re", "kontra", "nobody")

__all__ = ["build", "check"]


def _said(rng: random.Random, level: int, party: str) -> str | None:
    roll = rng.random()
    if roll < 0.5:
        return None
    if roll < 0.8 or level == 0:
        return party
    return announcement_id(min(1 + int(rng.random() * (level + 1)), SCHWARZ), party)


def build(rng: random.Random, rules: RuleSet, level: int = 0) -> Question:
    """A deal played to the end, summed up as a player would tell it, and its score."""
    game = pick_game(rng, level, rules)
    deal = play(rng, rules, game).deal
    re_said, kontra_said = _said(rng, level, "re"), _said(rng, level, "kontra")
    re_points, re_tricks, extras = deal.facts()
    if not is_normal_type(deal.game):
        extras = {"re": {}, "kontra": {}}
    elif rules.karlchen != "win_or_catch":
        extras = {p: {k: n for k, n in e.items() if k != "karlchen_caught"} for p, e in extras.items()}
    result = score(rules, deal.game, re_points, re_tricks, re_said, kontra_said, extras)
    other = RuleSet.named("pagat" if rules.ruleset == "ddv" else "ddv").with_options(deck=rules.deck)
    elsewhere = score(other, deal.game, re_points, re_tricks, re_said, kontra_said, extras)
    levels = {p: (NONE if s is None else 0 if s == p else ("no_90", "no_60", "no_30", "schwarz").index(s) + 1)
              for p, s in (("re", re_said), ("kontra", kontra_said))}
    reasons = []
    if result.winner:
        need = needs(result.winner, levels["re"], levels["kontra"], rules.tricks)
        reasons.append(Reason("winner", {"party": result.winner, "points": need.points, "tricks": need.tricks}))
    else:
        reasons.append(Reason("nobody_won", {}))
    reasons.append(Reason("score_lines", {
        "lines": [(line.id, line.party, line.points) for line in result.lines],
        "value": result.value, "re": result.scores["re"], "kontra": result.scores["kontra"],
        "solo": is_solo(deal.game),
    }))
    winner_choices = tuple(Choice(w, label=w) for w in WINNERS)
    return Question(
        kind=KIND, seed=0, level=level, rules=rules, game=deal.game,
        prompt="score_solo" if is_solo(deal.game) else "score", params={},
        fields=(Field("winner", "one", winner_choices, label="winner"),
                Field("result", "number", low=-999, high=999, label="result_solo" if is_solo(deal.game) else "result")),
        answer=(result.winner or "nobody", str(result.scores["re"])),
        reasons=tuple(reasons), section=SECTION,
        facts={"re_points": re_points, "kontra_points": 240 - re_points, "re_tricks": re_tricks,
               "kontra_tricks": rules.tricks - re_tricks, "said": {"re": re_said, "kontra": kontra_said},
               "extras": {p: {k: n for k, n in e.items() if n} for p, e in extras.items()}},
        rules_decide=elsewhere.scores != result.scores or elsewhere.winner != result.winner,
    )
