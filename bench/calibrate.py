"""Prints the figures the analysis's verdict thresholds are calibrated on (docs/analysis.md):
the noise of a card's loss, how verdicts are spread over real decisions, how often two
independent runs (other worlds) agree, how often a card that is no worse is called a
mistake, and how many verdicts a table tip explains.

The decisions are every card-choice of seat 0 in bot-only deals (normal games and weddings,
both rule sets), judged as the review would judge them.

With a third argument, each of the first decisions is also judged with that many worlds as a
reference (600, say), and the verdicts at N are set against the reference's losses: how
often a mistake at N is less than a quarter game point at the reference (a false alarm), how
often a mistake at the reference is called good at N.

Run: .venv/bin/python bench/calibrate.py [deals, default 40] [samples, default 100] [reference worlds]
"""
from __future__ import annotations

import os
import statistics
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from tutor.analysis.judge import analyse  # noqa: E402
from tutor.analysis.view import SeatView  # noqa: E402
from tutor.play.deal import play_bots  # noqa: E402
from tutor.rules.deal import Deal  # noqa: E402
from tutor.rules.rulesets import RuleSet  # noqa: E402

RULES = (RuleSet.named("ddv"), RuleSet.named("pagat"))


def decisions(deal: Deal, seat: int) -> list[SeatView]:
    """The seat's views at each of its turns, the deal played again from its start."""
    again = Deal(deal.rules, deal.dealt, deal.declared, deal.leaders[0], declarer=deal.declarer,
                 poverty=deal.poverty)
    pending = list(deal.announcements)
    views = []
    for k, card in enumerate(c for t in deal.tricks for c in t):
        while pending and pending[0].played <= k:
            said = pending.pop(0)
            again.announce_level(said.seat, said.level)
        if again.turn == seat:
            views.append(SeatView.of(again, seat))
        again.play(card)
    return views


def main() -> None:
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    samples = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    reference = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    against: Counter[tuple[str, str]] = Counter()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[-1]})  # one core
    errors: list[float] = []
    cp_errors: list[float] = []
    verdicts: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    agree = disagree = flipped = 0
    judged = 0
    start = time.perf_counter()
    for i in range(deals):
        deal = play_bots(RULES[i % 2], 7000 + i, 1).deal
        assert deal is not None
        for view in decisions(deal, 0):
            first = analyse(view, samples, seed=1)
            if first.silent:
                verdicts[f"silent: {first.silent}"] += 1
                continue
            judged += 1
            second = analyse(view, samples, seed=2)
            again = {c.card: c.verdict for c in second.cards}
            if reference:
                truth = {c.card: c for c in analyse(view, reference, seed=99, halving=False).cards}
                for c in first.cards:
                    ref = truth[c.card]
                    size = ("best or < 0.25" if ref.verdict == "best" or ref.loss < 0.25 else
                            "0.25-0.75" if ref.loss < 0.75 else "0.75-1.5" if ref.loss < 1.5 else ">= 1.5")
                    against[c.verdict, size] += 1
            for c in first.cards:
                if c.verdict == "best":
                    continue
                verdicts[c.verdict] += 1
                if c.worlds == samples:
                    errors.append(c.loss_error)
                    cp_errors.append(c.card_points_loss_error)
                if c.reason is not None:
                    reasons[c.reason.code] += 1
                other = again.get(c.card, "best")
                if other == c.verdict:
                    agree += 1
                else:
                    disagree += 1
                    # A mistake or blunder in one run that the other run calls good or best.
                    if c.verdict in ("mistake", "blunder") and other in ("good", "best"):
                        flipped += 1
    took = time.perf_counter() - start
    print(f"calibration, {deals} deals, seat 0, N = {samples}, {judged} judged decisions, {took:.0f} s")
    print(f"standard error of a loss (game points per player): median {statistics.median(errors):.3f}, "
          f"90th percentile {statistics.quantiles(errors, n=10)[-1]:.3f}")
    print(f"standard error of a card-point loss: median {statistics.median(cp_errors):.1f}, "
          f"90th percentile {statistics.quantiles(cp_errors, n=10)[-1]:.1f}")
    total = sum(v for k, v in verdicts.items() if not k.startswith("silent"))
    for name, count in sorted(verdicts.items()):
        print(f"  {name:<28} {count:>5}" + (f"  {count / total:6.1%}" if not name.startswith("silent") else ""))
    print(f"verdicts the same in a second run on other worlds: {agree / (agree + disagree):.1%}; "
          f"a mistake or blunder the other run calls good or best: {flipped}")
    explained = sum(v for k, v in reasons.items() if k != "simulations_prefer")
    print(f"reasons: {explained} explained by a tip, {reasons['simulations_prefer']} only 'simulations prefer'")
    for code, count in reasons.most_common():
        print(f"  {code:<22} {count:>5}")
    if reference:
        sizes = ("best or < 0.25", "0.25-0.75", "0.75-1.5", ">= 1.5")
        print(f"verdicts at N = {samples} (rows) against the loss measured with {reference} worlds (columns):")
        print(f"  {'':<12}" + "".join(f"{size:>16}" for size in sizes))
        for name in ("best", "good", "unclear", "inaccuracy", "mistake", "blunder"):
            print(f"  {name:<12}" + "".join(f"{against[name, size]:>16}" for size in sizes))


if __name__ == "__main__":
    main()
