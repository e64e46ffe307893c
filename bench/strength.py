"""Prints how strong the computer players are, in the duplicate format: the same deals (the
same seed deals the same cards) played twice, one seat played by each of two kinds of player,
the other three seats by the heuristic bots both times; the mean score per deal of that seat
(its sheet score, a soloist's whole) for each kind, and the mean of the differences with its
95 % interval. The tested seat moves round the table from deal to deal; the rule sets
alternate (ddv, pagat); every kind of game (level 2: normal games, weddings, solos, poverty
under pagat).

Comparisons: ``new-vs-old``, the heuristic bots of tutor/play/bots.py against the bots of
main (bench/bots_before.py); ``analysis``, the analysis player (tutor/analysis/player.py)
against the heuristic bots.

Run: .venv/bin/python bench/strength.py [comparison] [deals, default 2000] [worlds per decision, default 20]
"""
from __future__ import annotations

import math
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))

from bots_before import BEFORE  # noqa: E402

from tutor.analysis.player import analysis_player  # noqa: E402
from tutor.play.deal import play_bots  # noqa: E402
from tutor.play.players import HEURISTIC, Player  # noqa: E402
from tutor.rules.rulesets import RuleSet  # noqa: E402

RULES = (RuleSet.named("ddv"), RuleSet.named("pagat"))
FIRST_SEED = 90_000


def seat_score(rules: RuleSet, seed: int, seat: int, player: Player) -> int:
    """The tested seat's sheet score when ``player`` plays it and the heuristic bots the rest."""
    players = [HEURISTIC] * 4
    players[seat] = player
    p = play_bots(rules, seed, 2, players)
    assert p.result is not None
    return p.result.score.scores[p.parties[seat] or "kontra"]


def main() -> None:
    which = sys.argv[1] if len(sys.argv) > 1 else "new-vs-old"
    deals = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    samples = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core
    if which == "new-vs-old":
        first, second = HEURISTIC, BEFORE
    elif which == "analysis":
        first, second = analysis_player(samples), HEURISTIC
    else:
        raise SystemExit(f"unknown comparison {which!r}: new-vs-old or analysis")
    start = time.perf_counter()
    a_scores, b_scores, diffs = [], [], []
    for i in range(deals):
        rules, seed, seat = RULES[i % 2], FIRST_SEED + i, i % 4
        a, b = seat_score(rules, seed, seat, first), seat_score(rules, seed, seat, second)
        a_scores.append(a)
        b_scores.append(b)
        diffs.append(a - b)
        if (i + 1) % 500 == 0:
            print(f"  {i + 1} deals, {time.perf_counter() - start:.0f} s", flush=True)
    mean = sum(diffs) / deals
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (deals - 1))
    half = 1.96 * sd / math.sqrt(deals)
    changed = sum(d != 0 for d in diffs)
    print(f"strength, duplicate, {deals} deals (seeds {FIRST_SEED}-{FIRST_SEED + deals - 1}, ddv and pagat, level 2), "
          f"{time.perf_counter() - start:.0f} s")
    print(f"{first.name:<28} mean score per deal {sum(a_scores) / deals:+.3f}")
    print(f"{second.name:<28} mean score per deal {sum(b_scores) / deals:+.3f}")
    print(f"difference per deal {mean:+.3f}, 95 % interval [{mean - half:+.3f}, {mean + half:+.3f}] "
          f"(SD {sd:.2f}; the seat's result differed in {changed} deals)")


if __name__ == "__main__":
    main()
