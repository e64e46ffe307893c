"""Which party a player is in: the Q♣ in a normal game, a wedding's clarification trick,
a poverty, a solo (RULES.md §4)."""
from __future__ import annotations

import random
from typing import Any, Final

from tutor.quiz.base import SEATS, Choice, Field, Question, check
from tutor.quiz.positions import display_order, pick_game, play
from tutor.rules.cards import QUEEN_OF_CLUBS, card_id
from tutor.rules.deals import clarification_trick
from tutor.rules.explain import party_reason
from tutor.rules.rulesets import RuleSet

KIND: Final = "party"
SECTION: Final = "parties"

__all__ = ["build", "check"]


def build(rng: random.Random, rules: RuleSet, level: int = 0) -> Question:
    """A seat of a played deal, what the table saw, and that seat's party."""
    game = pick_game(rng, level, rules)
    position = play(rng, rules, game)
    deal, info = position.deal, position.info
    seat = int(rng.random() * SEATS)
    if deal.game in ("wedding", "wedding_solo") and seat == info["groom"] and rng.random() < 0.7:
        seat = (seat + 1 + int(rng.random() * 3)) % SEATS  # the partner is the question
    if deal.game == "poverty" and seat in (info["poor"], info["acceptor"]) and rng.random() < 0.5:
        # The instructive seat: one holding a Q♣ and still Kontra.
        holders = [s for s in range(SEATS) if QUEEN_OF_CLUBS in deal.hands[s] and s not in (info["poor"], info["acceptor"])]
        seat = holders[0] if holders else seat
    facts: dict[str, Any] = {"seat": seat, "hand": [card_id(c) for c in display_order(list(deal.hands[seat]), position.table)]}
    extra: dict[str, Any] = {}
    if deal.game in ("wedding", "wedding_solo"):
        groom = info["groom"]
        clarified = clarification_trick(groom, deal.winners)
        extra = {"groom": groom, "clarification": clarified,
                 "partner": None if clarified is None else deal.winners[clarified - 1]}
        shown = 3 if clarified is None else clarified
        facts["tricks"] = [
            ([(deal.seat_of(t, i), card_id(c)) for i, c in enumerate(deal.tricks[t])], deal.winners[t])
            for t in range(shown)
        ]
    elif deal.game == "poverty":
        extra = {"poor": info["poor"], "acceptor": info["acceptor"]}
    elif "soloist" in info:
        extra = {"soloist": info["soloist"]}
    elif deal.game == "silent_wedding":
        extra = {"groom": info["groom"]}
    facts.update(extra)
    queens = list(deal.hands[seat]).count(QUEEN_OF_CLUBS)
    reason = party_reason(deal.game, deal.parties, seat, queens, **extra)
    choices = (Choice("re", label="re"), Choice("kontra", label="kontra"))
    return Question(
        kind=KIND, seed=0, level=level, rules=rules, game=deal.game, prompt="party", params={"seat": seat},
        fields=(Field("party", "one", choices),), answer=(deal.parties[seat],),
        reasons=(reason,), section=SECTION, facts=facts,
    )
