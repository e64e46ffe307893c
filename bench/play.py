"""Prints how fast the play engine is on one core: computer players deciding whole deals
(dealt, reserved, played and scored), and deriving a position from a URL's seed and moves
in the middle of a deal, the work behind every play page; then the server time of a whole
play response (a mid-deal URL rendered through the Flask test client, aim: under 20 ms).

Run: .venv/bin/python bench/play.py [deals, default 10000]
"""

from __future__ import annotations

import os
import random
import sys
import time
from collections.abc import Callable

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from tutor.play.deal import SEED_MAX, play_bots, position  # noqa: E402
from tutor.rules.rulesets import RuleSet  # noqa: E402

RULES = [
    RuleSet.named("ddv"),
    RuleSet.named("pagat"),
    RuleSet.named("ddv").with_options(poverty=True, schweinchen=True),
    RuleSet.named("pagat").with_options(deck=40, dullen="second_wins"),
]


def best_of(runs: int, work: Callable[[], object]) -> float:
    """Seconds of the quickest run: a shared machine only ever makes a run slower."""
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core
    print(f"play benchmark, one core, Python {sys.version.split()[0]}")
    for level in (0, 1, 2):

        def bots_only(level: int = level) -> None:
            for i in range(deals):
                _ = play_bots(RULES[i % len(RULES)], i * 7919 % SEED_MAX, level).result

        seconds = best_of(3, bots_only)
        print(
            f"level {level}: {deals:,} whole bot deals, scored: {seconds:6.2f} s"
            f"  ({seconds / deals * 1e6:,.0f} µs a deal)"
        )

    # Positions a page derives: a human playing random legal moves, stopped halfway and at
    # the last card, each derived afresh from its moves string as a request would.
    rng = random.Random(3)
    samples = []
    for i in range(60):
        rules, seed, level = RULES[i % len(RULES)], rng.randint(0, SEED_MAX), i % 3
        moves, stops = "", []
        while True:
            p = position(rules, seed, moves, level)
            if p.turn is None:
                break
            stops.append(moves)
            moves = p.then(rng.choice(p.turn.moves()))
        samples.append((rules, seed, level, stops[len(stops) // 2]))
        samples.append((rules, seed, level, stops[-1]))

    def derive() -> None:
        for rules, seed, level, moves in samples:
            p = position(rules, seed, moves, level)
            _ = p.tricks, p.turn  # what the page shows: every trick with its reason and facts

    per = best_of(5, derive) / len(samples)
    print(f"position from seed and moves, mid-deal and at the last card, with trick facts: {per * 1e3:.2f} ms")

    def derive_end() -> None:
        for rules, seed, level, moves in samples[1::2]:
            p = position(rules, seed, moves, level)
            assert p.turn is not None
            card = p.turn.moves()[-1]  # the last card: the deal ends, the result is built
            q = position(rules, seed, p.then(card), level)
            _ = q.tricks, q.result

    per_end = best_of(5, derive_end) / (len(samples) // 2)
    print(f"position at the end, with the score and the deal form (two derivations): {per_end * 1e3:.2f} ms")
    serve(samples)


def serve(samples: list[tuple[RuleSet, int, int, str]]) -> None:
    """The play page's server time: a mid-deal URL and a move on it, rendered by the app
    (view, engine, templates, catalogs) through the test client, a page and an htmx swap."""
    import tempfile
    from urllib.parse import urlencode

    here = os.path.dirname(os.path.abspath(__file__))  # bench/http.py would hide the standard library's http
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]
    from app import create_app
    from tutor.web.base.rules import rules_key

    app = create_app({"TESTING": True}, instance_path=tempfile.mkdtemp(prefix="doko-bench-"))
    client = app.test_client()
    mid = samples[::2]
    urls = [f"/en/play/?{urlencode({'s': seed, 'l': level, 'r': rules_key(rules), 'm': moves})}"
            for rules, seed, level, moves in mid]
    moved = []
    for (rules, seed, level, moves), url in zip(mid, urls, strict=True):
        turn = position(rules, seed, moves, level).turn
        assert turn is not None
        move = turn.moves()[-1]
        moved.append(f"{url}&{move.kind}={move.value}")
    for url in urls + moved:
        assert client.get(url).status_code in (200, 303)

    def pages() -> None:
        for url in urls:
            client.get(url)

    def swaps() -> None:
        for url in moved:
            client.get(url, headers={"HX-Request": "true"})

    page = best_of(5, pages) / len(urls)
    swap = best_of(5, swaps) / len(moved)
    print(f"play response, mid-deal URL as a whole page (test client): {page * 1e3:.2f} ms")
    print(f"play response, a move swapped in by htmx (test client): {swap * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
