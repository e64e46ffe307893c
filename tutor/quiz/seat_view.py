"""One seat's view of a deal in play as plain data, and back: what the best_card kind keeps of
a mined position and what a caller gives ``ask``. The shape is the analysis request's of
API.md (``game``, ``seat``, ``first_leader``, ``hand``, ``tricks`` with the unfinished last
one, ``announced``, ``reservations``), plus ``held``: the cards this seat knows another seat
began the play with (what a poverty's exchange showed it), by seat.

>>> from tutor.rules.rulesets import RuleSet
>>> data = {"game": "normal", "seat": 0, "first_leader": 0,
...         "hand": ["QC", "10H", "QS", "QH", "JC", "AD", "AC", "10C", "AS", "KS", "AH", "9H"],
...         "tricks": [[]], "announced": [], "reservations": None}
>>> view = read_view(data, RuleSet.named("ddv"))
>>> view.seat, len(view.hand), view_data(view) == data
(0, 12, True)
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from tutor.analysis.view import Said, SeatView
from tutor.quiz.base import card_ids, copies, game_id, given_seat, keys, number
from tutor.rules.announcements import PARTIES
from tutor.rules.cards import card_id, parse_card
from tutor.rules.errors import RulesError
from tutor.rules.games import SOLOS
from tutor.rules.rulesets import RuleSet
from tutor.rules.terms import ANNOUNCEMENT_IDS, SEATS, Party

VIEW_KEYS: Final = frozenset({"game", "seat", "first_leader", "hand", "tricks", "announced", "reservations", "held"})
# The key of "reservations" that names a game's declarer (a solo's is "solo").
_DECLARER_KEY: Final = {"wedding": "wedding", "silent_wedding": "silent_wedding", "poverty": "poverty"}
_RESERVATION_KEYS: Final = frozenset({"wedding", "silent_wedding", "solo", "poverty", "returned", "trumps_returned",
                                      "schweinchen"})

__all__ = ["VIEW_KEYS", "read_view", "view_data"]


def view_data(view: SeatView) -> dict[str, Any]:
    """The view as plain data (card ids, seats)."""
    reservations: dict[str, int] = {}
    key = _DECLARER_KEY.get(view.game, "solo" if view.game in SOLOS else None)
    if key is not None and view.declarer is not None:
        reservations[key] = view.declarer
    if view.acceptor is not None:
        reservations["returned"] = view.acceptor
    if view.trumps_returned is not None:
        reservations["trumps_returned"] = view.trumps_returned
    if view.schweinchen is not None:
        reservations["schweinchen"] = view.schweinchen
    said = []
    for s in view.announcements:
        item: dict[str, Any] = {"seat": s.seat, "id": s.id}
        if s.played is not None:
            item["played"] = s.played
        if s.party is not None:
            item["party"] = s.party
        said.append(item)
    data: dict[str, Any] = {
        "game": view.game, "seat": view.seat, "first_leader": view.first_leader,
        "hand": [card_id(c) for c in view.hand], "tricks": [[card_id(c) for c in t] for t in view.tricks],
        "announced": said, "reservations": reservations or None,
    }
    if any(view.held):
        data["held"] = [[card_id(c) for c in cards] for cards in view.held]
    return data


def read_view(data: Mapping[str, Any], rules: RuleSet) -> SeatView:
    """The view this plain data describes, checked as far as a view can be (the seat to play,
    the cards, the seat's own follows: ``SeatView.check``); RulesError naming the key at
    fault. Whether any deal fits it is the worlds' to say (``tutor.analysis.worlds``)."""
    keys(data, VIEW_KEYS)
    game = game_id(data.get("game", "normal"), rules)
    seat = given_seat(data.get("seat", 0), "seat")
    first_leader = given_seat(data.get("first_leader"), "first_leader")
    hand = card_ids(data.get("hand"), rules, "hand", 1, rules.tricks)
    tricks = _tricks(data.get("tricks"), rules)
    copies([hand, *tricks], "tricks")
    said = _announced(data.get("announced", []), rules)
    declarer, acceptor, returned, schweinchen = _reservations(data.get("reservations"), game)
    held = _held(data.get("held"), rules)
    view = SeatView(rules, game, seat, tuple(parse_card(c) for c in hand), first_leader,
                    tuple(tuple(parse_card(c) for c in t) for t in tricks), said, declarer, acceptor, returned, held,
                    schweinchen)
    view.check()
    return view


def _tricks(value: Any, rules: RuleSet) -> list[list[str]]:
    if not isinstance(value, (list, tuple)) or not 1 <= len(value) <= rules.tricks:
        raise RulesError("wrong_count", "tricks", low=1, high=rules.tricks)
    last = len(value) - 1
    return [card_ids(t, rules, f"tricks.{i}", 0 if i == last else SEATS, SEATS) for i, t in enumerate(value)]


def _announced(value: Any, rules: RuleSet) -> tuple[Said, ...]:
    if not isinstance(value, (list, tuple)):
        raise RulesError("bad_type", "announced", expected="list")
    said = []
    for i, item in enumerate(value):
        name = f"announced.{i}"
        if not isinstance(item, Mapping):
            raise RulesError("bad_type", name, expected="seat and id")
        keys(item, frozenset({"seat", "id", "played", "party"}))
        seat = given_seat(item.get("seat"), f"{name}.seat")
        ident = item.get("id")
        if ident not in ANNOUNCEMENT_IDS:
            raise RulesError("unknown_announcement", f"{name}.id", value=str(ident)[:12], party="")
        party: Party | None = None
        if item.get("party") is not None:
            if item["party"] not in PARTIES:
                raise RulesError("unknown_party", f"{name}.party", value=str(item["party"])[:12])
            party = "re" if item["party"] == "re" else "kontra"
        played = None if item.get("played") is None else number(item["played"], f"{name}.played", 0, 4 * rules.tricks)
        said.append(Said(seat, ident, played, party))
    return tuple(said)


def _reservations(value: Any, game: str) -> tuple[int | None, int | None, int | None, int | None]:
    """The declarer, a poverty's acceptor and the trumps it said it returned, and the seat
    that declared the Schweinchen."""
    if value is None:
        value = {}
    if not isinstance(value, Mapping):
        raise RulesError("bad_type", "reservations", expected="seats by reservation")
    keys(value, _RESERVATION_KEYS)
    key = _DECLARER_KEY.get("wedding" if game == "wedding_solo" else game, "solo" if game in SOLOS else None)
    for name in value:
        if name not in (key, "schweinchen") and not (game == "poverty" and name in ("returned", "trumps_returned")):
            raise RulesError("reservation_does_not_fit", f"reservations.{name}", game=game)
    declarer = None if key is None else given_seat(value.get(key), f"reservations.{key}")
    acceptor = given_seat(value.get("returned"), "reservations.returned") if game == "poverty" else None
    returned = None
    if value.get("trumps_returned") is not None:
        returned = number(value["trumps_returned"], "reservations.trumps_returned", 0, 3)
    schweinchen = None
    if value.get("schweinchen") is not None:
        schweinchen = given_seat(value["schweinchen"], "reservations.schweinchen")
    return declarer, acceptor, returned, schweinchen


def _held(value: Any, rules: RuleSet) -> tuple[tuple[int, ...], ...]:
    if value is None:
        return ((), (), (), ())
    if not isinstance(value, (list, tuple)) or len(value) != SEATS:
        raise RulesError("wrong_count", "held", expected=SEATS)
    return tuple(tuple(parse_card(c) for c in card_ids(cards, rules, f"held.{s}", 0, 3)) if cards else ()
                 for s, cards in enumerate(value))
