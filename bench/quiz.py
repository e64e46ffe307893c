"""Prints how many quiz questions the engine builds per second, for each kind, on one core:
the user's default rules (ddv), every level in turn, fresh seeds.

Run: .venv/bin/python bench/quiz.py [seconds per kind, default 2] [ruleset, default ddv]
"""
from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from tutor.quiz import KINDS, MAX_LEVEL, make  # noqa: E402
from tutor.rules.rulesets import RuleSet  # noqa: E402


def rate(kind: str, rules: RuleSet, seconds: float) -> float:
    """Questions of one kind built per second, levels and seeds varying."""
    make(kind, 0, rules)  # warm the engine's caches first
    done, seed, start = 0, 1, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(50):
            make(kind, seed, rules, seed % (MAX_LEVEL + 1))
            seed += 1
        done += 50
    return done / elapsed


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    rules = RuleSet.named(sys.argv[2] if len(sys.argv) > 2 else "ddv")
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core
    print(f"quiz benchmark, one core, {seconds:g} s per kind, rules {rules.ruleset}, Python {sys.version.split()[0]}")
    for kind in KINDS:
        print(f"{kind:<10} questions per second: {rate(kind, rules, seconds):>8,.0f}")


if __name__ == "__main__":
    main()
