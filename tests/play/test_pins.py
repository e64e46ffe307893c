"""Play URLs keep giving the deals they gave: the pinned digests of tests/play/pins.py."""
from __future__ import annotations

import json

import pytest

from tests.play.pins import PINS, digest

PINNED = json.loads(PINS.read_text())
WEDDINGS = ("wedding", "wedding_solo")


@pytest.mark.parametrize("chunk", range(4))
def test_pinned_deals_deal_and_play_the_same_cards(chunk):
    for pin in PINNED[chunk::4]:
        now = digest(pin["kind"], pin["rules"], pin["seed"], pin["level"], pin.get("moves"))
        where = (pin["kind"], pin["rules"], pin["seed"], pin["level"], pin.get("moves"))
        assert now["game"] == pin["game"], where
        assert now["cards"] == pin["cards"], where
        if "turns" in pin:
            assert now["turns"] == pin["turns"], where
        assert now["reveals"] == pin["reveals"], where
