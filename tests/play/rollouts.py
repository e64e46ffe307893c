"""Recorded bot rollouts: the cards the computer players choose when they play a deal out
from a position, as the analysis does thousands of times (``tutor.analysis.judge.play_out``).
A faster rollout must choose exactly these cards, and the engine must score them the same.

The positions: bot-only deals of every kind of game (level 2: solos, weddings, poverty), of
ddv and pagat and of house options, cut after a seeded number of their cards (with the
announcements made by then), the same deals' starts after a seeded number of random
legal cards (positions the bots would not reach themselves), and dealt hands played as each
solo and as a wedding, declared or silent, from a seeded number of random legal cards on. ``rollouts.json`` holds, per
position, every card played from it and the score. Regenerate it only when a change of the
computer players is meant to change their cards, and say which in the commit:

    .venv/bin/python -m tests.play.rollouts
"""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from tutor.analysis.judge import play_out
from tutor.analysis.review import replay_start, replay_to
from tutor.play import bots
from tutor.play.deal import SEED_MAX, play_bots
from tutor.rules.cards import QUEEN_OF_CLUBS, card_id
from tutor.rules.deal import Deal
from tutor.rules.deals import deal_hands
from tutor.rules.reservations import ANNOUNCED_SOLOS
from tutor.rules.rulesets import RuleSet

ROLLOUTS = Path(__file__).with_name("rollouts.json")
DDV, PAGAT = RuleSet.named("ddv"), RuleSet.named("pagat")
RULES = [
    DDV,
    PAGAT,
    DDV.with_options(poverty=True, schweinchen=True, dullen="second_wins"),
    PAGAT.with_options(deck=40, dullen="second_wins_except_last", schweinchen=True),
]
DEALS = (150, 150, 40, 40)  # bot-only deals per rule set; each gives two positions
DECLARED = 6  # dealt hands per rule set and game declared


def positions() -> list[tuple[str, int, int, int, Deal]]:
    """(kind, rules index, seed, cards before, position): ``cut`` a bot deal after that many
    of its cards, ``random`` its start after that many random legal cards."""
    found = []
    rng = random.Random(1202)
    for r, count in enumerate(DEALS):
        for _ in range(count):
            seed = rng.randint(0, SEED_MAX)
            deal = play_bots(RULES[r], seed, 2).deal
            if deal is None:
                continue  # thrown in: nobody plays a card
            cards = sum(len(t) for t in deal.tricks)
            cut = rng.randrange(cards)
            found.append(("cut", r, seed, cut, replay_to(deal, cut)))
            start = replay_start(deal)
            moves = rng.randrange(cards)
            walk = random.Random(seed)
            for _ in range(moves):
                start.play(walk.choice(start.legal()))
            found.append(("random", r, seed, moves, start))
        for game in (*ANNOUNCED_SOLOS, "wedding", "silent_wedding"):
            for _ in range(DECLARED):
                seed = rng.randint(0, SEED_MAX)
                deal = _declared(RULES[r], game, seed)
                found.append((game, r, seed, sum(len(t) for t in deal.tricks) + len(deal.trick), deal))
    return found


def _declared(rules: RuleSet, game: str, seed: int) -> Deal:
    """Dealt hands played as ``game`` by a seeded declarer (a wedding's groom holds both Q♣),
    after a seeded number of random legal cards."""
    walk = random.Random(seed)
    while True:
        hands = deal_hands(walk, rules)
        grooms = [s for s in range(4) if hands[s].count(QUEEN_OF_CLUBS) == 2]
        if "wedding" not in game or grooms:
            break
    declarer = grooms[0] if "wedding" in game else walk.randrange(4)
    deal = Deal(rules, hands, game, walk.randrange(4), declarer=declarer)
    for _ in range(walk.randrange(4 * rules.tricks)):
        deal.play(walk.choice(deal.legal()))
    return deal


def rollout(deal: Deal, card_by_card: bool = False) -> dict[str, Any]:
    """Every card the bots play from ``deal`` on (a copy), and the engine's score of it: as
    the analysis plays it out, or ``card_by_card`` with ``choose_card`` asked at every turn."""
    again = deal.copy()
    before = sum(len(t) for t in again.tricks) + len(again.trick)
    if card_by_card:
        while again.turn is not None:
            again.play(bots.choose_card(again, again.turn))
    else:
        play_out(again)
    cards = [c for t in again.tricks for c in t][before:]
    score = again.outcome()
    return {"cards": " ".join(card_id(c) for c in cards), "game": again.game, "parties": "".join(
        p[0] if p else "-" for p in again.parties), "score": [score.re_points, score.value, score.scores["re"]]}


def make() -> list[dict[str, Any]]:
    return [{"kind": kind, "rules": r, "seed": seed, "before": before, **rollout(deal)}
            for kind, r, seed, before, deal in positions()]


if __name__ == "__main__":
    ROLLOUTS.write_text("[\n" + ",\n".join(json.dumps(pin) for pin in make()) + "\n]\n")
    print(f"wrote {ROLLOUTS}")
