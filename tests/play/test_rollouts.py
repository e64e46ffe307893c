"""The computer players' rollouts choose the cards they always chose: every card of the
recorded rollouts of tests/play/rollouts.py, and the engine scores them the same."""
from __future__ import annotations

import json

import pytest

from tests.play.rollouts import ROLLOUTS, positions, rollout

RECORDED = json.loads(ROLLOUTS.read_text())


def test_the_recorded_positions_are_the_positions_of_now():
    found = [(kind, r, seed, before) for kind, r, seed, before, _ in positions()]
    assert found == [(pin["kind"], pin["rules"], pin["seed"], pin["before"]) for pin in RECORDED]


@pytest.mark.parametrize("card_by_card", [False, True], ids=["play_out", "choose_card"])
def test_every_card_of_every_recorded_rollout(card_by_card):
    """The analysis's rollouts (``bots.play_out``, a trick at a time) and ``choose_card``
    asked at every turn both play exactly the recorded cards."""
    every = positions()
    assert len(every) == len(RECORDED)
    for (kind, r, seed, before, deal), pin in zip(every, RECORDED, strict=True):
        now = rollout(deal, card_by_card)
        where = (kind, r, seed, before)
        played, recorded = now["cards"].split(), pin["cards"].split()
        first = next((i for i, (a, b) in enumerate(zip(played, recorded, strict=False)) if a != b), None)
        assert first is None and len(played) == len(recorded), (where, first, played, recorded)
        assert now == {k: pin[k] for k in now}, where
