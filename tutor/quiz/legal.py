"""Which cards may you play: a hand and the trick so far; tick every card you may play.

Positions come from legal random deals, chosen where following suit is the lesson: a plain
lead while the hand holds trumps of that suit's letter, a trump lead, a void.
"""
from __future__ import annotations

import random
from typing import Final

from tutor.quiz.base import Choice, Field, Question, check
from tutor.quiz.positions import display_order, game_of, hand_before, pick_game, play, rules_of
from tutor.rules.cards import card_id
from tutor.rules.explain import legal_reason
from tutor.rules.rulesets import RuleSet

KIND: Final = "legal"
SECTION: Final = "trumps"
WANTED: Final = ("must_follow_suit", "must_follow_trump", "void_any_card", "no_trump_any_card")

__all__ = ["build", "check"]


def build(rng: random.Random, rules: RuleSet, level: int = 0) -> Question:
    """A player's hand and the cards already in the trick, with the legal cards and why."""
    while True:
        game = pick_game(rng, level, rules)
        position = play(rng, rules, game)
        deal, table = position.deal, position.table
        target = rng.choice(WANTED)
        # Early tricks: fuller hands make for a real choice.
        for _ in range(6):
            t = int(rng.random() * min(len(deal.tricks) - 2, 7))
            i = 1 + int(rng.random() * 3)
            seat = deal.seat_of(t, i)
            hand = display_order(hand_before(deal, seat, t), table)
            trick = [card_id(c) for c in deal.tricks[t][:i]]
            ids = [card_id(c) for c in hand]
            legal, reason = legal_reason(ids, trick, game_of(deal.game), rules_of(position))
            distinct = list(dict.fromkeys(ids))
            if len(legal) == len(distinct) and reason.code != target:
                continue  # every card legal: only worth asking as the lesson itself
            if reason.code == target or (reason.code == "must_follow_suit" and reason.params["trumps_of_suit"]):
                break
        else:
            continue
        plays = [(deal.seat_of(t, k), c) for k, c in enumerate(trick)]
        choices = tuple(Choice(c, card=c, params={"count": ids.count(c)}) for c in distinct)
        return Question(
            kind=KIND, seed=0, level=level, rules=rules, game=deal.game,
            prompt="legal", params={"seat": seat, "trick": t + 1},
            fields=(Field("cards", "many", choices),),
            answer=(",".join(sorted(legal)),),
            reasons=(reason,),
            section=SECTION,
            facts={"plays": plays, "hand": ids, "legal": legal},
        )
