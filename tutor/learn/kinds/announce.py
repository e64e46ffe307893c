"""``decide`` with ``announce``: say a limit now, or play on; the engine scores the outcome
both ways, and the limit must lose the deal that playing on wins."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tutor.quiz.base import SEATS, Choice, Field, Question, card_ids, copies, number
from tutor.rules.announcements import level_of, may_announce
from tutor.rules.cards import DECK_POINTS, card_points
from tutor.rules.errors import RulesError
from tutor.rules.explain import Reason, needs
from tutor.rules.rulesets import RuleSet
from tutor.rules.scoring import default_re_tricks, score


def ask_announce(position: Mapping[str, Any], rules: RuleSet) -> Question:
    """Say a limit now, or play on: the learner's party (``known`` 0), ``cards`` in hand,
    ``said``, the tricks each party has ``taken`` so far, and an ``outcome`` (Re's card
    points at the end) that the engine scores both ways. The claim: the limit is allowed,
    the other party already holds half of what it needs against it, and at that outcome
    the limit loses the deal that playing on wins."""
    party = position.get("known", {}).get("0") or position.get("known", {}).get(0)
    if party not in ("re", "kontra"):
        raise RulesError("unknown_party", "known", value=str(party)[:12])
    other = "kontra" if party == "re" else "re"
    cards = number(position.get("cards"), "cards", 1, rules.tricks)
    said = {"re": None, "kontra": None, **(position.get("said") or {})}
    own, theirs = said[party], said[other]
    limit = position.get("announce")
    level = level_of(limit, party, "announce")
    allowed = may_announce(rules, "normal", party, cards, own, theirs)
    if limit not in allowed:
        raise RulesError("claim_fails", "announce", claim="allowed", card=str(limit))
    taken = position.get("taken") or {}
    piles = {p: [c for t in taken.get(p, []) for c in card_ids(t, rules, f"taken.{p}", SEATS, SEATS)]
             for p in ("re", "kontra")}
    copies([piles["re"], piles["kontra"]], "taken")
    if len(piles["re"]) + len(piles["kontra"]) != SEATS * (rules.tricks - cards):
        raise RulesError("wrong_count", "taken", expected=rules.tricks - cards)
    have = sum(card_points(c) for c in piles[other])
    re_level = level if party == "re" else level_of(theirs, "re")
    kontra_level = level if party == "kontra" else level_of(theirs, "kontra")
    need = needs(other, re_level, kontra_level, rules.tricks)
    if need.points is None or have * 2 < need.points:
        raise RulesError("claim_fails", "taken", claim="half_there", card=str(have))
    end = number(position.get("outcome"), "outcome", 0, DECK_POINTS)
    re_points = end
    tricks = default_re_tricks(rules, re_points)
    plain = score(rules, "normal", re_points, tricks, *(_said_pair(party, own, theirs)))
    bold = score(rules, "normal", re_points, tricks, *(_said_pair(party, limit, theirs)))
    if plain.winner != party or bold.winner == party:
        raise RulesError("claim_fails", "outcome", claim="limit_loses", card=str(end))
    best = position.get("best", "play_on")
    if best != "play_on":
        raise RulesError("claim_fails", "best", claim="limit_loses", card=str(best)[:8])
    choices = (Choice("play_on", label="play_on"), Choice(str(limit), label=str(limit)))
    reasons = (
        Reason("decide_limit_half", {"party": other, "points": have, "need": need.points, "cards": cards,
                                     "announcement": limit}),
        Reason("decide_limit_outcome", {"party": party, "re_points": re_points, "announcement": limit,
                                        "with": bold.scores[party], "without": plain.scores[party],
                                        "winner_with": bold.winner}),
    )
    return Question(
        kind="decide", seed=0, level=0, rules=rules, game="normal", prompt="decide_announce",
        params={"party": party, "cards": cards, "announcement": limit},
        fields=(Field("choice", "one", choices),), answer=(best,), reasons=reasons, section="announcements",
        facts={"decision": "announce", "party": party, "cards": cards, "said": said,
               "taken": {p: sum(card_points(c) for c in piles[p]) for p in piles},
               "tricks_taken": {p: len(piles[p]) // SEATS for p in piles},
               "others": {str(limit): Reason("decide_limit_risk", {"announcement": limit, "party": party})}},
    )


def _said_pair(party: str, own: str | None, theirs: str | None) -> tuple[str | None, str | None]:
    return (own, theirs) if party == "re" else (theirs, own)
