"""Pins of what play URLs give: the same seed, level, rules and moves must deal the same
cards and make the computer players choose the same cards and announcements, release after
release, since a shared or bookmarked deal is its URL. ``pins.json`` holds digests of a few
hundred deals, bot-only and walked by a seeded random learner; regenerate it only when a
change of the computer players is meant to change their cards, and say which in the commit:

    .venv/bin/python -m tests.play.pins
"""
from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

from tutor.play.deal import SEED_MAX, Position, play_bots, position
from tutor.rules.rulesets import RuleSet

PINS = Path(__file__).with_name("pins.json")
DDV, PAGAT = RuleSet.named("ddv"), RuleSet.named("pagat")
RULES = [
    DDV,
    PAGAT,
    DDV.with_options(poverty=True, schweinchen=True, dullen="second_wins"),
    PAGAT.with_options(deck=40, dullen="second_wins_except_last", schweinchen=True),
    DDV.with_options(deck=40, karlchen="win_or_catch", solo_lead="soloist"),
    PAGAT.with_options(solo_lead="soloist", karlchen="win"),
]
BOT_DEALS = 60  # per rule set and level
WALKS = 12  # per rule set and level


def _hash(value: Any) -> str:
    return hashlib.sha256(repr(value).encode()).hexdigest()[:16]


def cards_of(p: Position) -> tuple[Any, ...]:
    """Everything the cards and the announcements decide: the game, every trick, who said what."""
    tricks = tuple((t.leader, tuple((c.seat, c.card) for c in t.cards), t.winner, t.points) for t in p.tricks)
    said = tuple((a.seat, a.party, a.id, a.cards_in_hand, a.trick) for a in p.announcements)
    poverty = p.poverty and (p.poverty.poor, p.poverty.acceptor, p.poverty.trumps_passed, p.poverty.passed,
                             p.poverty.returned)
    score = p.result and (p.result.score.winner, p.result.score.value, p.result.winners)
    return (p.dealer, p.redeals, p.said, p.game, p.declarer, p.first_leader, p.dealt, p.parties, tricks, said,
            poverty, score, p.trick)


def turn_of(p: Position) -> tuple[Any, ...] | None:
    """What the learner is offered now (the options, the announcements with their deadlines)."""
    t = p.turn
    if t is None:
        return None
    return (t.kind, t.options, t.hand, t.cards_in_hand, t.reason, tuple((a.id, a.until) for a in t.announce),
            t.deadlines_passed, t.must, t.chosen, t.count, p.known)


def reveals_of(p: Position) -> tuple[Any, ...]:
    return tuple((t.number, tuple((r.cause, r.seat, r.party) for r in t.reveals), t.running) for t in p.tricks)


def walk(rules: RuleSet, seed: int, level: int, rng: random.Random) -> tuple[str, list[Position]]:
    """A seeded random learner's deal: the moves, and the position after each prefix."""
    moves, seen = "", []
    while True:
        p = position(rules, seed, moves, level)
        seen.append(p)
        if p.turn is None:
            return moves, seen
        choices = p.turn.moves()
        announcements = [m for m in choices if m.kind == "announce"]
        if announcements and rng.random() < 0.2:
            move = rng.choice(announcements)
        else:
            move = rng.choice([m for m in choices if m.kind != "announce"])
        moves = p.then(move)


def cases() -> list[tuple[str, int, int, int, str | None]]:
    """(kind, rules index, seed, level, moves or None for a bot-only deal)."""
    found: list[tuple[str, int, int, int, str | None]] = []
    rng = random.Random(2026)
    for r in range(len(RULES)):
        for level in (0, 1, 2):
            for _ in range(BOT_DEALS):
                found.append(("bots", r, rng.randint(0, SEED_MAX), level, None))
            for _ in range(WALKS):
                found.append(("walk", r, rng.randint(0, SEED_MAX), level, ""))
    return found


def digest(kind: str, r: int, seed: int, level: int, moves: str | None) -> dict[str, Any]:
    rules = RULES[r]
    if kind == "bots":
        p = play_bots(rules, seed, level)
        return {"game": p.game, "cards": _hash(cards_of(p)), "reveals": _hash(reveals_of(p))}
    assert moves is not None
    seen = [position(rules, seed, moves[:i], level) for i in range(len(moves) + 1)]
    end = seen[-1]
    return {"game": end.game, "moves": moves, "cards": _hash(cards_of(end)),
            "turns": _hash(tuple(turn_of(p) for p in seen)), "reveals": _hash(reveals_of(end))}


def make() -> list[dict[str, Any]]:
    pins = []
    for kind, r, seed, level, moves in cases():
        if kind == "walk":
            moves, _ = walk(RULES[r], seed, level, random.Random(seed))
        pins.append({"kind": kind, "rules": r, "seed": seed, "level": level, **digest(kind, r, seed, level, moves)})
    return pins


if __name__ == "__main__":
    PINS.write_text("[\n" + ",\n".join(json.dumps(pin) for pin in make()) + "\n]\n")
    print(f"wrote {PINS}")
