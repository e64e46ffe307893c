"""Prints how fast the analysis is on one core (aims of issue 21, part 8):

- a bot rollout: one whole deal played out by the computer players from its first card and
  scored as the analysis scores it (``seat_result``), on a copy of the engine's Deal (aim:
  under 100 µs);
- the live hint: every candidate of the hardest decision of a deal (the one with the most
  distinct legal cards), N = 100 worlds (aim: under 300 ms);
- a full review of a deal for one seat, every decision at N = 100 (aim: under 1 s).

Each figure is CPU time of this process (what the work costs, whatever else the machine
runs) and, beside it, wall time. Deals are bot-only deals of both rule sets, level 1.

With --pool, it also starts the app (as `make run` does), runs eight reviews at once through
the analysis pool while it asks for the home page, and prints the home page's p99 then and
without them.

Run: .venv/bin/python bench/analysis.py [deals, default 12] [--pool]
"""
from __future__ import annotations

import os
import random
import statistics
import sys
import time
from collections.abc import Callable

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from tutor.analysis.judge import analyse, candidates, play_out, seat_result  # noqa: E402
from tutor.analysis.review import replay_start, review  # noqa: E402
from tutor.analysis.view import SeatView  # noqa: E402
from tutor.play.deal import play_bots  # noqa: E402
from tutor.rules.deal import Deal  # noqa: E402
from tutor.rules.rulesets import RuleSet  # noqa: E402

RULES = (RuleSet.named("ddv"), RuleSet.named("pagat"))


def timed(work: Callable[[], object]) -> tuple[float, float]:
    """CPU seconds and wall seconds of one run of ``work``."""
    cpu, wall = time.process_time(), time.perf_counter()
    work()
    return time.process_time() - cpu, time.perf_counter() - wall


def hardest(deal: Deal, seat: int) -> SeatView:
    """The seat's decision with the most candidates (equivalent cards once)."""
    again = replay_start(deal)
    pending = list(deal.announcements)
    best: tuple[int, SeatView] | None = None
    for k, card in enumerate(c for t in deal.tricks for c in t):
        while pending and pending[0].played <= k:
            said = pending.pop(0)
            again.announce_level(said.seat, said.level)
        if again.turn == seat:
            view = SeatView.of(again, seat)
            size = len(candidates(view, again))
            if best is None or size > best[0]:
                best = (size, view)
        again.play(card)
    assert best is not None
    return best[1]


def main() -> None:
    deals = int(next((a for a in sys.argv[1:] if a.isdigit()), "12"))
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[-1]})  # one core
    games = [play_bots(RULES[i % 2], 31_000 + i, 1).deal for i in range(deals)]
    finished = [g for g in games if g is not None]
    print(f"analysis benchmark, one core, {len(finished)} deals, Python {sys.version.split()[0]}; CPU time (wall time)")

    starts = [replay_start(d) for d in finished] * 20

    def rollouts() -> None:
        for start in starts:
            deal = start.copy()
            play_out(deal)
            seat_result(deal, 0)  # scored as the analysis scores every rollout

    best_cpu, best_wall = min(timed(rollouts) for _ in range(3))
    print(f"bot rollout of a whole deal, copied and scored: {best_cpu / len(starts) * 1e6:6.0f} µs "
          f"({best_wall / len(starts) * 1e6:.0f} µs)  aim < 100 µs")

    hints = []
    for i, deal in enumerate(finished):
        view = hardest(deal, i % 4)
        cpu, wall = timed(lambda view=view: analyse(view, 100, seed=1))
        hints.append((cpu, wall, len(candidates(view, replay_start(deal)))))
    worst = max(hints)
    print(f"live hint, hardest decision, N = 100: median {statistics.median(h[0] for h in hints) * 1e3:.0f} ms, "
          f"worst {worst[0] * 1e3:.0f} ms ({worst[1] * 1e3:.0f} ms) with {worst[2]} candidates  aim < 300 ms")

    reviews = []
    for i, deal in enumerate(finished):
        reviews.append(timed(lambda deal=deal, i=i: review(deal, i % 4, 100, seed=1)))
    print(f"full review of one seat's deal, N = 100: median {statistics.median(r[0] for r in reviews):.2f} s, "
          f"worst {max(reviews)[0]:.2f} s ({max(reviews)[1]:.2f} s)  aim < 1 s")
    if "--pool" in sys.argv:
        pool_figures(finished)


def pool_figures(finished: list[Deal]) -> None:
    """The home page's p99 alone, and while eight clients keep asking the served app for
    analyses (POST /api/v1/analyse, 1000 worlds each): the app's pool runs them off the
    request threads, at most ANALYSIS_LIMIT at once per web worker, and answers 503 beyond."""
    import _serve  # noqa: I001  first: it keeps bench/http.py from hiding the standard library's http
    import json
    import threading
    import urllib.error
    import urllib.request

    from tutor.rules.cards import card_id

    bodies = []
    for i, deal in enumerate(finished[:8]):
        view = hardest(deal, i % 4)
        bodies.append(json.dumps({
            "rules": view.rules.ruleset, "game": view.game, "seat": view.seat, "first_leader": view.first_leader,
            "hand": [card_id(c) for c in view.hand], "tricks": [[card_id(c) for c in t] for t in view.tricks],
            "announced": [{"seat": a.seat, "id": a.id, "party": a.party, "played": a.played}
                          for a in view.announcements],
            "reservations": {view.declared: view.declarer} if view.declared != "normal" else None,
            "samples": 1000, "seed": i,
        }).encode())

    def p99(base: str, seconds: float) -> tuple[float, int]:
        times = []
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            start = time.perf_counter()
            with urllib.request.urlopen(base + "/en/") as response:
                response.read()
            times.append(time.perf_counter() - start)
        return statistics.quantiles(times, n=100)[98], len(times)

    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, os.sched_getaffinity(0) | set(range(os.cpu_count() or 1)))  # the server gets every core
    with _serve.Server() as server:
        alone, asked = p99(server.base, 10)
        stop = threading.Event()
        answered = {"ok": 0, "busy": 0}

        def client(body: bytes) -> None:
            while not stop.is_set():
                request = urllib.request.Request(server.base + "/api/v1/analyse", body,
                                                 {"Content-Type": "application/json"})
                try:
                    with urllib.request.urlopen(request, timeout=60) as response:
                        response.read()
                    answered["ok"] += 1
                except urllib.error.HTTPError as error:
                    error.read()
                    error.close()  # an unread, unclosed answer keeps its connection, and the server waits on it
                    answered["busy" if error.code == 503 else "ok"] += 1
                    time.sleep(0.5)

        clients = [threading.Thread(target=client, args=(b,)) for b in bodies]
        for c in clients:
            c.start()
        time.sleep(2)
        busy, asked_busy = p99(server.base, 10)
        stop.set()
        for c in clients:
            c.join()
    print(f"home page p99: {alone * 1e3:.1f} ms alone ({asked} requests), {busy * 1e3:.1f} ms while eight clients "
          f"ask for analyses ({asked_busy} requests; {answered['ok']} analyses answered, {answered['busy']} busy)")


if __name__ == "__main__":
    random.seed(0)
    main()
