"""`POST /api/v1/analyse` (API.md): a seat's view in, each candidate card's value, error,
loss, verdict and reason out. This module reads the request into the engine's ``SeatView``
and writes the analysis as the answer; the analysis itself is tutor.analysis's."""
from __future__ import annotations

from typing import Any, Final

from flask_babel import force_locale
from flask_babel import gettext as _

from tutor.analysis.judge import SAMPLES_MAX, SAMPLES_MIN, Analysis, CardValue
from tutor.analysis.view import Said, SeatView
from tutor.rules.announcements import PARTIES
from tutor.rules.cards import Card, card_id
from tutor.rules.errors import RulesError
from tutor.rules.games import SOLOS, check_game
from tutor.rules.rulesets import RuleSet, parse_rules
from tutor.rules.terms import ANNOUNCEMENT_IDS, SEATS, Party
from tutor.web.api import fields
from tutor.web.words.analysis import tip_text
from tutor.web.words.errors import api_locale

FIELDS: Final = frozenset({"rules", "game", "seat", "first_leader", "hand", "tricks", "announced", "reservations",
                           "samples", "seed"})
SEED_MAX: Final = 2**31 - 1
# What a game's reservation names, by game: the key in "reservations" that must be there.
_DECLARER_KEY: Final = {"wedding": "wedding", "wedding_solo": "wedding", "silent_wedding": "silent_wedding",
                        "poverty": "poverty"}
_RESERVATION_KEYS: Final = frozenset({"wedding", "silent_wedding", "solo", "poverty", "returned", "trumps_returned",
                                      "schweinchen"})


def seat_view(body: dict[str, Any]) -> SeatView:
    """The seat's view the request describes; RulesError naming the field at fault."""
    rules = parse_rules(body.get("rules", "ddv"))
    game = check_game(fields.required(body, "game"), rules)
    seat = fields.integer(fields.required(body, "seat"), "seat", 0, SEATS - 1)
    first_leader = fields.integer(fields.required(body, "first_leader"), "first_leader", 0, SEATS - 1)
    hand = fields.card_list(fields.required(body, "hand"), rules, "hand", 1, rules.tricks)
    tricks = _tricks(fields.required(body, "tricks"), rules)
    fields.at_most_two([("hand", hand)] + [(f"tricks.{t}", list(trick)) for t, trick in enumerate(tricks)])
    announced = _announced(body.get("announced", []), rules)
    declarer, acceptor, trumps_returned, schweinchen = _reservations(body.get("reservations"), game)
    view = SeatView(rules, game, seat, tuple(hand), first_leader, tricks, announced, declarer, acceptor,
                    trumps_returned, ((), (), (), ()), schweinchen)
    view.check()
    return view


def samples_and_seed(body: dict[str, Any]) -> tuple[int, int]:
    samples = fields.integer(body.get("samples", 100), "samples", SAMPLES_MIN, SAMPLES_MAX)
    seed = fields.integer(body.get("seed", 0), "seed", 0, SEED_MAX)
    return samples, seed


def _tricks(value: Any, rules: RuleSet) -> tuple[tuple[Card, ...], ...]:
    if not isinstance(value, list):
        raise RulesError("bad_type", "tricks", expected="array")
    if len(value) > rules.tricks:
        raise RulesError("out_of_range", "tricks", low=0, high=rules.tricks)
    if not value:
        return ((),)  # nothing played yet: the seat leads the first trick
    tricks = []
    for t, trick in enumerate(value):
        last = t == len(value) - 1
        tricks.append(tuple(fields.card_list(trick, rules, f"tricks.{t}", 0 if last else SEATS, SEATS)))
    return tuple(tricks)


def _announced(value: Any, rules: RuleSet) -> tuple[Said, ...]:
    if not isinstance(value, list):
        raise RulesError("bad_type", "announced", expected="array")
    said = []
    for i, item in enumerate(value):
        field = f"announced.{i}"
        if not isinstance(item, dict):
            raise RulesError("bad_type", field, expected="object")
        for name in item:
            if name not in ("seat", "id", "party", "played"):
                raise RulesError("unknown_field", f"{field}.{str(name)[:20]}")
        seat = fields.integer(fields.required_in(item, "seat", field), f"{field}.seat", 0, SEATS - 1)
        ident = fields.required_in(item, "id", field)
        if ident not in ANNOUNCEMENT_IDS:
            raise RulesError("unknown_announcement", f"{field}.id", value=str(ident)[:12], party="")
        party: Party | None = None
        if item.get("party") is not None:
            if item["party"] not in PARTIES:
                raise RulesError("unknown_party", f"{field}.party")
            party = "re" if item["party"] == "re" else "kontra"
        if ident in PARTIES and party is not None and party != ident:
            raise RulesError("unknown_announcement", f"{field}.id", value=ident, party=party)
        played = None
        if item.get("played") is not None:
            played = fields.integer(item["played"], f"{field}.played", 0, 4 * rules.tricks)
        said.append(Said(seat, ident, played, party))
    return tuple(said)


def _reservations(value: Any, game: str) -> tuple[int | None, int | None, int | None, int | None]:
    """The declarer, a poverty's acceptor and the trumps it returned, and the Schweinchen's
    declarer, as the request's "reservations" names them for its game."""
    if value is None:
        value = {}
    if not isinstance(value, dict):
        raise RulesError("bad_type", "reservations", expected="object or null")
    for name in value:
        if name not in _RESERVATION_KEYS:
            raise RulesError("unknown_field", f"reservations.{str(name)[:20]}")
    seats = {name: fields.integer(v, f"reservations.{name}", 0, SEATS - 1)
             for name, v in value.items() if name != "trumps_returned" and v is not None}
    key = _DECLARER_KEY.get(game, "solo" if game in SOLOS else None)
    for name in seats:
        if name not in (key, "schweinchen") and not (game == "poverty" and name == "returned"):
            raise RulesError("reservation_does_not_fit", f"reservations.{name}", game=game)
    declarer = seats.get(key) if key else None
    if key and declarer is None:
        raise RulesError("missing_field", f"reservations.{key}")
    acceptor = trumps_returned = None
    if game == "poverty":
        acceptor = seats.get("returned")
        if acceptor is None:
            raise RulesError("missing_field", "reservations.returned")
        if acceptor == declarer:
            raise RulesError("reservation_does_not_fit", "reservations.returned", game=game)
        if value.get("trumps_returned") is not None:
            trumps_returned = fields.integer(value["trumps_returned"], "reservations.trumps_returned", 0, 3)
    elif value.get("trumps_returned") is not None:
        raise RulesError("reservation_does_not_fit", "reservations.trumps_returned", game=game)
    return declarer, acceptor, trumps_returned, seats.get("schweinchen")


def answer(analysis: Analysis) -> dict[str, Any]:
    """The analysis as API.md's response, reasons worded in the request's language."""
    with force_locale(api_locale()):
        cards = [_card(c) for c in analysis.cards]
    return {
        "seat": analysis.seat,
        "samples": analysis.samples,
        "party_known": analysis.party_known,
        "silent": analysis.silent,
        "cards": cards,
        "best": [card_id(c) for c in analysis.best],
    }


def _card(c: CardValue) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "card": card_id(c.card),
        "value": round(c.value, 4),
        "error": round(c.error, 4),
        "card_points": round(c.card_points, 2),
        "loss": round(c.loss, 4),
        "verdict": c.verdict,
    }
    if c.same_as:
        entry["same_as"] = [card_id(x) for x in c.same_as]
    if c.reason is not None and c.verdict in ("inaccuracy", "mistake", "blunder"):
        entry["reason"] = {"code": c.reason.code, "message": tip_text(c.reason, seat=_seat)}
    return entry


def _seat(number: int) -> str:
    return _("Player %(num)d", num=number)
