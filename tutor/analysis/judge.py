"""How good is each card here: one decision of one seat, judged by simulation.

The hidden hands are drawn among those consistent with what the seat has seen
(``tutor.analysis.worlds``), N worlds; every distinct legal card (equivalent cards grouped)
is played in the same worlds and the deal played out by the computer players
(``tutor.play.bots``) to the end, without further announcements. A card's value is the
expected sheet score of the seat (a soloist's divided by three), with its party's card
points beside it. The best card is chosen on one half of the worlds and every card's loss
measured on the other half, and the other way round (so a card's loss is never measured on
the worlds that made another card look best: the winner's curse of PLAY-REVIEW.md §6.4);
the verdicts follow ``tutor.analysis.verdicts``, the reasons ``tutor.analysis.tips``.

Successive halving keeps it quick: all candidates are played in the first 20 worlds; those
that trail the leader by more than ``DROP_ERRORS`` standard errors and ``DROP_GAP`` stop
there, and again after 40 and 70 worlds; the rest go on to all N. A card that stopped early
has its loss measured on the worlds it was played in.
"""
from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from tutor.analysis.tips import Situation, Tip, explain
from tutor.analysis.verdicts import Verdict, verdict
from tutor.analysis.view import SeatView
from tutor.analysis.worlds import NoWorld, Worlds
from tutor.play import bots
from tutor.rules.cards import DECK_POINTS, JACK_OF_CLUBS, POINTS, QUEEN_OF_CLUBS, Card, deck
from tutor.rules.deal import Deal
from tutor.rules.games import is_normal_type, is_solo
from tutor.rules.terms import Party

SAMPLES_MIN: Final = 10
SAMPLES_MAX: Final = 1000
ROUNDS: Final = (20, 40, 70)  # after these many worlds, candidates far behind the leader stop
DROP_ERRORS: Final = 3.0  # standard errors behind the leader at which a candidate stops early …
DROP_GAP: Final = 0.5  # … if it is also this far behind (game points per player)
BOOTSTRAP: Final = 60  # resamples of the worlds behind a loss's standard error
Player = Callable[[Deal, int], Card]


@dataclass(frozen=True, slots=True)
class CardValue:
    """One candidate: the card, the equivalent cards it stands for, its value (mean sheet
    score of the seat per player) and standard error, its party's mean card points, its
    loss against the best card on worlds not used to choose it (with the standard error of
    that paired difference, and the same in card points), the worlds it was played in, the
    verdict and the reason (None where no tip applies or none is given)."""

    card: Card
    same_as: tuple[Card, ...]
    value: float
    error: float
    card_points: float
    loss: float
    loss_error: float
    card_points_loss: float
    card_points_loss_error: float
    worlds: int
    verdict: Verdict
    reason: Tip | None = None


@dataclass(frozen=True, slots=True)
class Analysis:
    """The judgement of one decision. ``silent``: why no card is judged (``single_candidate``,
    ``decided``: every card scores the same in every world, ``unmodelled``: a wedding before
    its clarification, ``unreliable``: most drawn worlds could not make the view; in a review,
    ``no_world``: no world could, and no card is judged); None when the verdicts stand."""

    seat: int
    samples: int
    party_known: Party | None
    cards: tuple[CardValue, ...]
    best: tuple[Card, ...]
    silent: str | None = None
    rejected: int = 0


def play_out(deal: Deal, player: Player = bots.choose_card) -> None:
    """The computer players play the deal to its end (no announcements)."""
    if player is bots.choose_card:
        bots.play_out(deal)  # the same cards, with a trick's look-ups made once
        return
    play, choose = deal.play, player
    while deal.turn is not None:
        play(choose(deal, deal.turn))


def seat_result(deal: Deal, seat: int) -> tuple[float, int]:
    """The seat's sheet score per player (a soloist's divided by three) and its party's card
    points, at the end of ``deal``."""
    re_points, re_score, kontra_score = deal.figures()  # those of deal.outcome(), without its lines
    party = deal.parties[seat] or "kontra"
    per = (re_score if party == "re" else kontra_score) / (3 if is_solo(deal.game) and party == "re" else 1)
    points = re_points if party == "re" else DECK_POINTS - re_points
    return per, points


def candidates(view: SeatView, deal: Deal) -> list[tuple[Card, tuple[Card, ...]]]:
    """The distinct legal cards, equivalent ones grouped: the two copies of a card, and
    cards of one suit (or both trumps) with the same card points and no card between them
    still out, so that either does the same in every world. The Q♣ of a normal game (it
    shows its player's party) and Karlchen stand alone."""
    table = deal.table
    unseen = Counter(deck(view.rules.deck)) - Counter(view.hand)
    for trick in view.tricks:
        unseen -= Counter(trick)
    out = set(unseen)  # cards that can still be in another hand
    power, suit_class = table.power, table.suit_class
    alone = set()
    if is_normal_type(deal.game):
        alone.add(JACK_OF_CLUBS)  # Karlchen can score in the last trick
    if deal.game in ("normal", "silent_wedding"):
        alone.add(QUEEN_OF_CLUBS)  # playing it shows its player's party
    groups: list[list[Card]] = []
    for card in sorted(deal.legal(), key=lambda c: (suit_class[c], -power[c])):
        if groups and card not in alone and groups[-1][-1] not in alone:
            prev = groups[-1][-1]
            # Equivalent: same suit, same points, and nothing out that one beats and the other
            # does not (a card between them, or another copy of the higher one).
            if suit_class[prev] == suit_class[card] and POINTS[prev] == POINTS[card] and not any(
                suit_class[c] == suit_class[card] and power[card] < power[c] <= power[prev] for c in out
            ):
                groups[-1].append(card)
                continue
        groups.append([card])
    return [(g[0], tuple(g[1:])) for g in groups]


def analyse(view: SeatView, samples: int = 100, seed: int = 0, player: Player = bots.choose_card,
            halving: bool = True) -> Analysis:
    """Every distinct legal card of ``view``'s seat, judged in ``samples`` worlds."""
    if not SAMPLES_MIN <= samples <= SAMPLES_MAX:
        raise ValueError(f"samples {samples} outside {SAMPLES_MIN}-{SAMPLES_MAX}")
    worlds = Worlds(view)
    rng = random.Random(seed)
    seat = view.seat
    bases: list[Deal] = []
    rejected = 0
    while len(bases) < samples and rejected <= 2 * samples:
        hands = worlds.sample(rng)
        try:
            bases.append(worlds.deal(hands))
        except ValueError:
            rejected += 1
    if not bases:
        raise NoWorld("no_world", "announced")  # every world refused the announcements as given
    first = bases[0]
    groups = candidates(view, first)
    party = view.party_known
    if len(groups) < 2:
        card, same = groups[0]
        return Analysis(seat, len(bases), party, (_only(card, same),), (card,), "single_candidate", rejected)
    values, points = _play(groups, bases, seat, player, halving)
    situation = Situation.of(view, first)
    result = _judge(groups, values, points, situation, seed)
    silent = None
    if rejected > len(bases):
        silent = "unreliable"  # PLAY-REVIEW.md §7.4: the inferences from play do not hold together
    elif first.clarified == 0:
        silent = "unmodelled"  # a wedding before its clarification: nobody knows his party yet
    elif all(c.verdict in ("best", "good") for c in result) and _all_equal(values):
        silent = "decided"  # every card scores the same in every world
    if silent in ("unreliable", "unmodelled"):
        result = [c if c.verdict == "best" else _replace_verdict(c, "unclear", None) for c in result]
    best = tuple(c.card for c in result if c.verdict == "best")
    return Analysis(seat, len(bases), party, tuple(result), best, silent, rejected)


def _all_equal(values: list[list[float]]) -> bool:
    n = max(len(v) for v in values)
    full = [v for v in values if len(v) == n]
    return all(len(set(column)) == 1 for column in zip(*full, strict=True))


def _only(card: Card, same: tuple[Card, ...]) -> CardValue:
    return CardValue(card, same, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0, "best")


def _replace_verdict(c: CardValue, new: Verdict, reason: Tip | None) -> CardValue:
    return CardValue(c.card, c.same_as, c.value, c.error, c.card_points, c.loss, c.loss_error, c.card_points_loss,
                     c.card_points_loss_error, c.worlds, new, reason)


def _play(groups: Sequence[tuple[Card, tuple[Card, ...]]], bases: Sequence[Deal], seat: int, player: Player,
          halving: bool) -> tuple[list[list[float]], list[list[int]]]:
    """Each candidate's score and card points world by world (the first worlds only, for a
    candidate that stopped early)."""
    values: list[list[float]] = [[] for _ in groups]
    points: list[list[int]] = [[] for _ in groups]
    alive = list(range(len(groups)))
    start = 0
    rounds = [b for b in ROUNDS if b < len(bases)] if halving else []
    for stop in [*rounds, len(bases)]:
        for k in alive:
            card = groups[k][0]
            for base in bases[start:stop]:
                deal = base.copy()
                deal.play(card)
                play_out(deal, player)
                v, p = seat_result(deal, seat)
                values[k].append(v)
                points[k].append(p)
        start = stop
        if stop < len(bases) and len(alive) > 2:
            leader = max(alive, key=lambda k: _mean(values[k]))
            keep = []
            for k in alive:
                diffs = [a - b for a, b in zip(values[leader], values[k], strict=True)]
                gap, error = _mean(diffs), _error(diffs)
                if k == leader or gap <= DROP_ERRORS * error or gap < DROP_GAP:
                    keep.append(k)
            alive = keep
    return values, points


def _held_out(values: list[list[float]], points: list[list[int]], full: list[int],
              worlds: Sequence[int]) -> tuple[list[float], list[float]]:
    """Every candidate's loss and card-point loss against the best card, the best chosen on
    one half of ``worlds`` (every other one) and each loss measured on the other half, both
    ways round; a candidate played in fewer worlds is measured on those it was played in."""
    halves = (worlds[0::2], worlds[1::2])
    best_of = []
    for half in halves:
        best_of.append(max(full, key=lambda k: (sum(values[k][i] for i in half), sum(points[k][i] for i in half))))
    losses, cp_losses = [], []
    for k in range(len(values)):
        mine, my_points = values[k], points[k]
        m = len(mine)
        total = cp_total = 0.0
        count = 0
        for side, half in enumerate(halves):
            best, best_points = values[best_of[1 - side]], points[best_of[1 - side]]  # chosen on the other half
            for i in half:
                if i < m:
                    total += best[i] - mine[i]
                    cp_total += best_points[i] - my_points[i]
                    count += 1
        losses.append(total / count if count else 0.0)
        cp_losses.append(cp_total / count if count else 0.0)
    return losses, cp_losses


def _judge(groups: Sequence[tuple[Card, tuple[Card, ...]]], values: list[list[float]], points: list[list[int]],
           situation: Situation, seed: int = 0) -> list[CardValue]:
    n = max(len(v) for v in values)
    full = [k for k in range(len(groups)) if len(values[k]) == n]
    best_all = max(full, key=lambda k: (_mean(values[k]), _mean(points[k])))
    losses, cp_losses = _held_out(values, points, full, range(n))
    # The standard error of a loss by the bootstrap over the worlds, the choice of the best
    # card redone in every resample: that choice is noisy too when cards are close, and the
    # paired difference alone understated the spread of the loss from one run to the next by
    # a third (docs/analysis.md).
    rng = random.Random(seed)
    resampled: list[list[float]] = [[] for _ in groups]
    resampled_points: list[list[float]] = [[] for _ in groups]
    for _ in range(BOOTSTRAP):
        drawn = [int(rng.random() * n) for _ in range(n)]
        again, again_points = _held_out(values, points, full, drawn)
        for k in range(len(groups)):
            resampled[k].append(again[k])
            resampled_points[k].append(again_points[k])
    result = []
    for k, (card, same) in enumerate(groups):
        loss, cp_loss = losses[k], cp_losses[k]
        loss_error, cp_error = _spread(resampled[k]), _spread(resampled_points[k])
        reason = None
        if k == best_all:
            judged: Verdict = "best"
            loss = cp_loss = 0.0  # the best card loses nothing to itself
        else:
            judged = verdict(loss, loss_error, cp_loss, cp_error)
            if judged in ("inaccuracy", "mistake", "blunder"):
                reason = explain(situation, groups[best_all][0], card)
        result.append(CardValue(card, same, _mean(values[k]), _error(values[k]), _mean(points[k]), loss, loss_error,
                                cp_loss, cp_error, len(values[k]), judged, reason))
    return result


def _spread(xs: Sequence[float]) -> float:
    """The standard deviation of bootstrap estimates: the standard error of the estimate."""
    n = len(xs)
    mean = sum(xs) / n
    return math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1))


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def _error(xs: Sequence[float]) -> float:
    n = len(xs)
    if n < 2:
        return 0.0
    mean = sum(xs) / n
    return math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1) / n)


__all__ = ["Analysis", "CardValue", "analyse", "candidates", "play_out", "seat_result"]
