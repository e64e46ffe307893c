"""Prints how fast the rules engine is on one core: trick evaluations, announcement queries,
and whole random deals (dealt, played legally at random, scored) per second.

Run: .venv/bin/python bench/engine.py [seconds per figure, default 2]
"""
from __future__ import annotations

import os
import random
import sys
import time
from collections.abc import Callable

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from tutor.rules.announcements import may_announce  # noqa: E402
from tutor.rules.cards import deck  # noqa: E402
from tutor.rules.deals import random_deal  # noqa: E402
from tutor.rules.games import game_table  # noqa: E402
from tutor.rules.rulesets import RuleSet  # noqa: E402


def rate(work: Callable[[int], None], seconds: float, batch: int = 1000, windows: int = 5) -> float:
    """Operations per second of ``work(batch)``: the best of several equal time windows, since
    a shared machine only ever makes a window slower, never faster."""
    best = 0.0
    for _ in range(windows):
        done, start = 0, time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds / windows:
            work(batch)
            done += batch
        best = max(best, done / elapsed)
    return best


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core
    rules = RuleSet.named("ddv")
    rng = random.Random(1)
    table = game_table("normal", rules)
    cards = deck()
    tricks = [rng.sample(cards, 4) for _ in range(1000)]

    def evaluate_tricks(n: int) -> None:
        winner = table.winner
        for trick in tricks[:n]:
            winner(trick)

    questions = [
        (rng.choice(["re", "kontra"]), rng.randint(0, 12), rng.choice([None, "no_90"]), rng.choice([None, "no_60"]))
        for _ in range(1000)
    ]

    def query_announcements(n: int) -> None:
        for party, cards_in_hand, own, opponent in questions[:n]:
            if own and party == "kontra" or opponent is None:
                own = None
            may_announce(rules, "normal", party, cards_in_hand, own, opponent if opponent != party else None)

    def play_deals(n: int) -> None:
        for _ in range(n):
            random_deal(rng, rules).score()

    print(f"engine benchmark, one core, best of 5 windows in {seconds:g} s per figure, Python {sys.version.split()[0]}")
    print(f"trick evaluations per second:      {rate(evaluate_tricks, seconds):>12,.0f}")
    print(f"announcement queries per second:   {rate(query_announcements, seconds):>12,.0f}")
    print(f"random deals dealt, played, scored per second: {rate(play_deals, seconds, 100):>8,.0f}")


if __name__ == "__main__":
    main()
