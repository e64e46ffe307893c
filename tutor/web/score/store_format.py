"""What the sheets' store keeps and gives back: a sheet's record (``Sheet``), a sheet as a
device's list shows it (``Listed``), a stored deal (``StoredDeal``), the ids of links and deals,
and a deal's storage format (``to_data``/``from_data``: the JSON the store keeps in each deal's
row and a sheet's file holds, docs/sheet-file.md).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from tutor.rules.sheet import Deal, QuickResult


@dataclass(frozen=True)
class Sheet:
    id: str
    edit_key: str
    view_key: str
    players: tuple[str, ...]
    rules: str  # the rules key, ``ddv`` or ``pagat|deck=40``
    bock: bool
    first_dealer: int
    version: int


@dataclass(frozen=True)
class Listed:
    """A sheet as a device's list of its sheets shows it: the key it was opened with,
    whether that is the editor's, when it was started, its deals, and whether it came from
    a sheet file."""

    key: str
    sheet: Sheet
    editor: bool
    created: datetime
    deals: int
    imported: bool


@dataclass(frozen=True)
class StoredDeal:
    id: str
    position: int
    data: dict[str, Any]


def new_key() -> str:
    """An unguessable id for a link: 128 random bits."""
    return secrets.token_urlsafe(16)


def new_deal_id() -> str:
    """A deal's id: 48 random bits, unique within its sheet; the deal form carries it."""
    return secrets.token_hex(6)


def is_deal_id(text: str) -> bool:
    return len(text) == 12 and all(ch in "0123456789abcdef" for ch in text)


def to_data(deal: Deal) -> dict[str, Any]:
    """A deal as the store keeps it (and a sheet's export writes it). A quick deal has its
    winners and value under "quick" and no card points; older deals have no "quick"."""
    if deal.quick is not None:
        return {"game": deal.game, "dealer": deal.dealer, "re_players": list(deal.re_players),
                "dealer_by_hand": deal.dealer_by_hand,
                "quick": {"winner": deal.quick.winner, "value": deal.quick.value, "bock": deal.quick.bock}}
    return {"game": deal.game, "re_points": deal.re_points, "re_tricks": deal.re_tricks, "dealer": deal.dealer,
            "re_players": list(deal.re_players), "re_announced": deal.re_announced,
            "kontra_announced": deal.kontra_announced,
            "extras": {p: dict(c) for p, c in deal.extras.items()}, "dealer_by_hand": deal.dealer_by_hand}


def from_data(data: dict[str, Any]) -> Deal:
    """The deal to_data wrote (check it with check_deal before trusting it)."""
    quick = data.get("quick")
    if quick is not None:
        # Card points left in a quick deal's data are kept, so check_deal refuses the deal.
        return Deal(data["game"], data.get("re_points", 0), data.get("re_tricks", 0), data["dealer"],
                    tuple(data["re_players"]), data.get("re_announced"), data.get("kontra_announced"),
                    data.get("extras", {}), bool(data.get("dealer_by_hand", False)),
                    QuickResult(quick["winner"], quick["value"], bool(quick.get("bock", False))))
    return Deal(data["game"], data["re_points"], data["re_tricks"], data["dealer"], tuple(data["re_players"]),
                data.get("re_announced"), data.get("kontra_announced"), data.get("extras", {}),
                bool(data.get("dealer_by_hand", False)))
