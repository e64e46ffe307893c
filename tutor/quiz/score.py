"""Score this deal: the summary of a played deal (card points, tricks, announcements,
extra points); answer who won and what each Re player writes on the sheet."""
from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Final

from tutor.quiz.base import Choice, Field, Question, check, game_id, keys, number, said_of
from tutor.quiz.positions import pick_game, play
from tutor.rules.announcements import SCHWARZ, announcement_id, level_of
from tutor.rules.cards import DECK_POINTS
from tutor.rules.errors import RulesError
from tutor.rules.explain import Reason, needs
from tutor.rules.games import is_normal_type, is_solo
from tutor.rules.rulesets import RuleSet
from tutor.rules.scoring import EXTRAS, check_summary, default_re_tricks, score

KIND: Final = "score"
SECTION: Final = "scoring"
WINNERS: Final = ("re", "kontra", "nobody")

KEYS: Final = frozenset({"game", "re_points", "re_tricks", "said", "extras"})

__all__ = ["ask", "build", "check"]


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
    position = {"game": deal.game, "re_points": re_points, "re_tricks": re_tricks,
                "said": {"re": re_said, "kontra": kontra_said}, "extras": extras}
    return replace(ask(position, rules), level=level)


def ask(position: Mapping[str, Any], rules: RuleSet) -> Question:
    """Who won, and what each Re player (the soloist) writes: ``re_points``, ``re_tricks``
    (by default a count that fits the points), ``said`` (each party's highest announcement),
    ``extras`` (per party: fox, doppelkopf, karlchen, karlchen_caught), ``game`` ("normal").
    Extra points a game does not count are dropped, as the score sheet drops them."""
    keys(position, KEYS)
    game = game_id(position.get("game", "normal"), rules)
    re_points = number(position.get("re_points"), "re_points", 0, DECK_POINTS)
    re_tricks = number(position["re_tricks"], "re_tricks", 0, rules.tricks) if "re_tricks" in position else \
        default_re_tricks(rules, re_points)
    said = said_of(position.get("said"))
    re_said, kontra_said = said["re"], said["kontra"]
    given = position.get("extras") or {}
    if not isinstance(given, Mapping) or set(given) - {"re", "kontra"}:
        raise RulesError("bad_type", "extras", expected="re and kontra")
    extras: dict[str, dict[str, int]] = {}
    for party in ("re", "kontra"):
        counts = given.get(party, {})
        if not isinstance(counts, Mapping) or set(counts) - set(EXTRAS):
            raise RulesError("unknown_extra", f"extras.{party}")
        extras[party] = {k: number(n, f"extras.{party}.{k}", 0, rules.tricks) for k, n in counts.items()}
    if not is_normal_type(game):
        extras = {"re": {}, "kontra": {}}
    elif rules.karlchen != "win_or_catch":
        extras = {p: {k: n for k, n in e.items() if k != "karlchen_caught"} for p, e in extras.items()}
    check_summary(rules, game, re_points, re_tricks, extras)
    result = score(rules, game, re_points, re_tricks, re_said, kontra_said, extras)
    other = rules.other(deck=rules.deck)
    elsewhere = score(other, game, re_points, re_tricks, re_said, kontra_said, extras)
    levels = {p: level_of(s, p) for p, s in (("re", re_said), ("kontra", kontra_said))}
    reasons = []
    if result.winner:
        need = needs(result.winner, levels["re"], levels["kontra"], rules.tricks)
        reasons.append(Reason("winner", {"party": result.winner, "points": need.points, "tricks": need.tricks}))
    else:
        reasons.append(Reason("nobody_won", {}))
    reasons.append(Reason("score_lines", {
        "lines": [(line.id, line.party, line.points) for line in result.lines],
        "value": result.value, "re": result.scores["re"], "kontra": result.scores["kontra"],
        "solo": is_solo(game),
    }))
    winner_choices = tuple(Choice(w, label=w) for w in WINNERS)
    return Question(
        kind=KIND, seed=0, level=0, rules=rules, game=game,
        prompt="score_solo" if is_solo(game) else "score", params={},
        fields=(Field("winner", "one", winner_choices, label="winner"),
                Field("result", "number", low=-999, high=999, label="result_solo" if is_solo(game) else "result")),
        answer=(result.winner or "nobody", str(result.scores["re"])),
        reasons=tuple(reasons), section=SECTION,
        facts={"re_points": re_points, "kontra_points": DECK_POINTS - re_points, "re_tricks": re_tricks,
               "kontra_tricks": rules.tricks - re_tricks, "said": {"re": re_said, "kontra": kontra_said},
               "extras": {p: {k: n for k, n in e.items() if n} for p, e in extras.items()}},
        rules_decide=elsewhere.scores != result.scores or elsewhere.winner != result.winner,
    )
