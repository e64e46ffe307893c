"""Shared by the analysis tests: deals played by the computer players under several rule
sets, stopped anywhere, and chi-square's tail for the uniformity checks."""
from __future__ import annotations

import math

from tutor.play.deal import play_bots
from tutor.rules.deal import Deal
from tutor.rules.rulesets import RuleSet

DDV, PAGAT = RuleSet.named("ddv"), RuleSet.named("pagat")
RULES = [
    DDV,
    PAGAT,
    DDV.with_options(poverty=True, schweinchen=True, dullen="second_wins"),
    PAGAT.with_options(deck=40, schweinchen=True),
]


def finished(rules: RuleSet, seed: int, level: int = 2) -> Deal:
    deal = play_bots(rules, seed, level).deal
    assert deal is not None and deal.over
    return deal


def stopped(deal: Deal, cards: int) -> Deal:
    """The same deal played again from its start up to ``cards`` cards, with every
    announcement made at its moment."""
    first = deal.leaders[0]
    again = Deal(deal.rules, deal.dealt, deal.declared, first, declarer=deal.declarer, poverty=deal.poverty)
    pending = list(deal.announcements)
    order = [c for t in deal.tricks for c in t]
    for k in range(cards + 1):
        while pending and pending[0].played <= k:
            said = pending.pop(0)
            again.announce_level(said.seat, said.level)
        if k < cards:
            again.play(order[k])
    return again


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for chi-square with ``df`` degrees of freedom (the regularised upper
    incomplete gamma function, by its series or continued fraction)."""
    a, z = df / 2.0, x / 2.0
    if z <= 0:
        return 1.0
    gln = math.lgamma(a)
    if z < a + 1:  # series for the lower function
        term = total = 1.0 / a
        n = a
        for _ in range(10_000):
            n += 1
            term *= z / n
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return 1.0 - total * math.exp(-z + a * math.log(z) - gln)
    b, c, d = z + 1 - a, 1e300, 1 / (z + 1 - a)  # continued fraction for the upper one
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1 / (d if abs(d) > 1e-300 else 1e-300)
        c = b + an / c
        c = c if abs(c) > 1e-300 else 1e-300
        step = d * c
        h *= step
        if abs(step - 1) < 1e-15:
            break
    return math.exp(-z + a * math.log(z) - gln) * h
