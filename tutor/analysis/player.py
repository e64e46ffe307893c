"""The strongest computer player: every card chosen by the analysis (``judge.analyse``), the
computer players of ``tutor.play.bots`` playing out each candidate in worlds drawn from what
this player has seen; its reservations and announcements are the heuristic bots'.

>>> analysis_player(20).name
'analysis, 20 worlds'
"""
from __future__ import annotations

from tutor.analysis.judge import analyse
from tutor.analysis.view import SeatView
from tutor.analysis.worlds import NoWorld
from tutor.play import bots
from tutor.play.players import HEURISTIC, Player
from tutor.rules.cards import Card
from tutor.rules.deal import Deal


def analysis_player(samples: int = 20, seed: int = 0) -> Player:
    """A player that plays the best card of the analysis with ``samples`` worlds a decision,
    seeded by ``seed`` and the moment of the decision (so a deal plays the same every time)."""

    def card(deal: Deal, seat: int) -> Card:
        legal = deal.legal()
        if len(legal) == 1:
            return legal[0]
        moment = (seed * 64 + len(deal.tricks)) * 4 + len(deal.trick)
        try:
            result = analyse(SeatView.of(deal, seat), samples, moment)
        except NoWorld:
            return bots.choose_card(deal, seat)  # a view the worlds cannot make (a silent wedding unseen)
        return result.best[0]

    return HEURISTIC.playing(f"analysis, {samples} worlds", card)
