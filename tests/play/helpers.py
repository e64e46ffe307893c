"""Shared by the play tests: rule sets to cover, a random human, independent checks."""

from __future__ import annotations

import random

from tutor.play.deal import Position, position
from tutor.play.moves import Move
from tutor.rules.cards import parse_card
from tutor.rules.games import game_table, is_normal_type
from tutor.rules.rulesets import RuleSet

DDV, PAGAT = RuleSet.named("ddv"), RuleSet.named("pagat")
RULES = [
    DDV,
    PAGAT,
    DDV.with_options(poverty=True, schweinchen=True, dullen="second_wins"),
    PAGAT.with_options(deck=40, dullen="second_wins_except_last", schweinchen=True),
    DDV.with_options(deck=40, karlchen="win_or_catch", solo_lead="soloist"),
    PAGAT.with_options(solo_lead="soloist", karlchen="win"),
]


def random_human(rules: RuleSet, seed: int, level: int, rng: random.Random, announce: float = 0.1) -> Position:
    """Play a deal to the end as a human who picks among the possible moves at random,
    announcing now and then; each step derived afresh from the moves string."""
    moves = ""
    while True:
        p = position(rules, seed, moves, level)
        if p.turn is None:
            return p
        choices = p.turn.moves()
        announcements = [m for m in choices if m.kind == "announce"]
        if announcements and rng.random() < announce:
            move = rng.choice(announcements)
        else:
            move = rng.choice([m for m in choices if m.kind != "announce"])
        moves = p.then(move)


def check_legal(p: Position) -> None:
    """Every card of the finished deal was legal, checked from the hands it was played
    from with the engine's follow rule, not with the play engine's own bookkeeping."""
    game = p.game
    assert game is not None
    rules = p.rules
    if rules.schweinchen and is_normal_type(game) and not any(h.count("AD") == 2 for h in p.dealt):
        rules = rules.with_options(schweinchen=False)
    hands = [[parse_card(c) for c in h] for h in p.dealt]
    assert sorted(c for h in hands for c in h) == sorted(
        c for t in p.tricks for c in (parse_card(x.card) for x in t.cards)
    )
    for trick in p.tricks:
        # A wedding that became a solo played its first three tricks under the wedding's trumps.
        table = game_table(trick.game, rules if is_normal_type(trick.game) else p.rules)
        played: list[int] = []
        for pc in trick.cards:
            card = parse_card(pc.card)
            assert card in table.legal(hands[pc.seat], played), (trick, pc)
            hands[pc.seat].remove(card)
            played.append(card)


__all__ = ["DDV", "PAGAT", "RULES", "Move", "random_human", "check_legal"]
