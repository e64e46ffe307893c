"""Which cards may you play: a hand and the trick so far; tick every card you may play.

Positions come from legal random deals, chosen where following suit is the lesson: a plain
lead while the hand holds trumps of that suit's letter, a trump lead, a void.
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Final

from tutor.quiz.base import (
    SEATS,
    Choice,
    Field,
    Question,
    card_ids,
    check,
    copies,
    flag,
    game_id,
    given_seat,
    keys,
    number,
)
from tutor.quiz.positions import display_order, game_of, hand_before, pick_game, play, rules_of, schweinchen_in_play
from tutor.rules.cards import card_id, parse_card
from tutor.rules.errors import RulesError
from tutor.rules.explain import legal_reason
from tutor.rules.games import game_table, is_normal_type
from tutor.rules.rulesets import RuleSet

KIND: Final = "legal"
SECTION: Final = "trumps"
WANTED: Final = ("must_follow_suit", "must_follow_trump", "void_any_card", "no_trump_any_card")

KEYS: Final = frozenset({"hand", "trick", "leader", "game", "number", "schweinchen"})

__all__ = ["ask", "build", "check"]


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
            if len(legal) == len(distinct) and (reason.code != target or level == 0):
                continue  # every card legal: only worth asking as the lesson itself, never of a newcomer
            if reason.code == target or (reason.code == "must_follow_suit" and reason.params["trumps_of_suit"]):
                break
        else:
            continue
        question = ask({"hand": ids, "trick": trick, "leader": deal.leaders[t], "game": deal.game, "number": t + 1,
                        "schweinchen": schweinchen_in_play(position)}, rules)
        return replace(question, level=level)


def ask(position: Mapping[str, Any], rules: RuleSet) -> Question:
    """Which cards may be played: ``hand`` (the player's cards), ``trick`` (1-3 cards played
    before, in play order), ``game`` ("normal"); optional ``leader`` (the seat of the trick's
    first card: by default the one that makes the player seat 0, the learner), ``number``
    (the trick's number) and ``schweinchen`` (as in the winner kind)."""
    keys(position, KEYS)
    game = game_id(position.get("game", "normal"), rules)
    trick = card_ids(position.get("trick"), rules, "trick", 1, SEATS - 1)
    hand = card_ids(position.get("hand"), rules, "hand", 1, rules.tricks)
    copies([hand, trick], "hand")
    if game == "normal" and hand.count("QC") == 2:
        raise RulesError("hand_does_not_fit", "hand", game=game, card="QC")
    leader = given_seat(position.get("leader", (SEATS - len(trick)) % SEATS), "leader")
    trick_number = number(position.get("number", 1), "number", 1, rules.tricks)
    declared = flag(position.get("schweinchen", rules.schweinchen and is_normal_type(game)), "schweinchen")
    played = rules if declared or not rules.schweinchen else rules.with_options(schweinchen=False)
    table = game_table(game_of(game), played)
    ids = [card_id(c) for c in display_order([parse_card(c) for c in hand], table)]
    legal, reason = legal_reason(ids, trick, game_of(game), played)
    distinct = list(dict.fromkeys(ids))
    plays = [((leader + k) % SEATS, c) for k, c in enumerate(trick)]
    choices = tuple(Choice(c, card=c, params={"count": ids.count(c)}) for c in distinct)
    return Question(
        kind=KIND, seed=0, level=0, rules=rules, game=game,
        prompt="legal", params={"seat": (leader + len(trick)) % SEATS, "trick": trick_number},
        fields=(Field("cards", "many", choices),),
        answer=(",".join(sorted(legal)),),
        reasons=(reason,),
        section=SECTION,
        facts={"plays": plays, "hand": ids, "legal": legal},
    )
