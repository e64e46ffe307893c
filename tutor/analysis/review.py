"""A whole finished deal reviewed for one seat: every card it chose, judged as it could have
judged it then, with the better card and the reason.

The deal is played again from its start on the engine's Deal, with every announcement at
its moment; at each of the seat's turns the seat's view is analysed (``analyse``), seeded
from the review's seed and the turn, so the same deal, seat, samples and seed always give
the same review.
"""
from __future__ import annotations

from dataclasses import dataclass

from tutor.analysis.judge import Analysis, Player, analyse
from tutor.analysis.tips import Tip
from tutor.analysis.verdicts import Verdict
from tutor.analysis.view import SeatView
from tutor.analysis.worlds import NoWorld
from tutor.play import bots
from tutor.rules.cards import Card
from tutor.rules.deal import Deal
from tutor.rules.errors import RulesError
from tutor.rules.terms import SEATS


@dataclass(frozen=True, slots=True)
class Judgement:
    """One decision of the reviewed seat: the trick (1-based) and the card it played, its
    verdict (None where there was nothing to choose), the best card when the played one was
    not, the reason, the loss against the best, and the whole analysis."""

    trick: int
    card: Card
    verdict: Verdict | None
    better: Card | None
    reason: Tip | None
    loss: float
    analysis: Analysis


def replay_start(deal: Deal) -> Deal:
    """A fresh deal with the same cards, game and first leader as ``deal``, nothing played."""
    first = deal.leaders[0] if deal.leaders else deal.leader
    return Deal(deal.rules, deal.dealt, deal.declared, first, declarer=deal.declarer, poverty=deal.poverty,
                dealer=deal.dealer)


def played_cards(deal: Deal) -> list[Card]:
    """Every card of ``deal`` in the order it was played, the open trick's included."""
    return [c for trick in deal.tricks for c in trick] + list(deal.trick)


def replay_to(deal: Deal, before: int) -> Deal:
    """``deal`` as it stood after its first ``before`` cards, with every announcement made by
    then: the moment of the decision that played card number ``before + 1``."""
    cards = played_cards(deal)
    if not 0 <= before <= len(cards):
        raise RulesError("out_of_range", "k", low=0, high=len(cards))
    again = replay_start(deal)
    pending = list(deal.announcements)
    for k in range(before + 1):
        while pending and pending[0].played <= k:
            said = pending.pop(0)
            again.announce_level(said.seat, said.level)
        if k < before:
            again.play(cards[k])
    return again


def review(deal: Deal, seat: int, samples: int = 100, seed: int = 0,
           player: Player = bots.choose_card) -> tuple[Judgement, ...]:
    """Every card ``seat`` played in the finished ``deal``, judged."""
    if not deal.over:
        raise RulesError("not_finished", "tricks")
    if not 0 <= seat < SEATS:
        raise RulesError("out_of_range", "seat", low=0, high=SEATS - 1)
    again = replay_start(deal)
    pending = list(deal.announcements)
    judged = []
    for k, card in enumerate(played_cards(deal)):
        while pending and pending[0].played <= k:
            said = pending.pop(0)
            again.announce_level(said.seat, said.level)
        if again.turn == seat:
            view = SeatView.of(again, seat)
            try:
                analysis = analyse(view, samples, decision_seed(seed, k), player)
            except NoWorld:
                # The worlds cannot make this view (a silent wedding nobody has noticed, whose
                # signs contradict the worlds' "healthy means no wedding"): not judged.
                analysis = Analysis(seat, 0, view.party_known, (), (), "no_world")
            judged.append(_judgement(len(again.tricks) + 1, card, analysis))
        again.play(card)
    return tuple(judged)


def decision_seed(seed: int, before: int) -> int:
    """The seed of the analysis of the decision after ``before`` cards, in a review seeded
    ``seed``: a decision asked alone (a note, a retry) is judged as the review judges it."""
    return seed * 64 + before


def _judgement(trick: int, card: Card, analysis: Analysis) -> Judgement:
    if analysis.silent in ("single_candidate", "no_world"):
        return Judgement(trick, card, None, None, None, 0.0, analysis)
    mine = next(c for c in analysis.cards if c.card == card or card in c.same_as)
    better = None if mine.verdict == "best" or not analysis.best else analysis.best[0]
    return Judgement(trick, card, mine.verdict, better, mine.reason, mine.loss, analysis)
