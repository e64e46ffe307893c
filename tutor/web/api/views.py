"""The JSON API v1 (API.md): the rules engine over HTTP, strict about its input.

Every bad request is a 400 with ``{"error": {"code", "message", "field"}}``, never a 500.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, request
from werkzeug.exceptions import RequestEntityTooLarge

from tutor.analysis import pool
from tutor.rules.announcements import PARTIES, may_announce, wedding_clarification
from tutor.rules.cards import DECK_POINTS, POINTS
from tutor.rules.deals import READ_FROM_TRICKS, parse_trick_list, replay
from tutor.rules.errors import RulesError
from tutor.rules.games import CLARIFICATION_TRICKS, WEDDINGS, check_game, game_table
from tutor.rules.rulesets import RuleSet, parse_rules
from tutor.rules.scoring import EXTRAS, check_summary, default_re_tricks, extra_max, score
from tutor.web.api import analyse, fields
from tutor.web.api.openapi import OPENAPI
from tutor.web.words.errors import api_error, json_response

bp = Blueprint("api", __name__, url_prefix="/api/v1")

MAX_BODY = 64 * 1024


@bp.errorhandler(RulesError)
def rules_error(error: RulesError) -> Response:
    """Any input the engine refuses: a 400 naming the field and why."""
    return api_error(error.code, error.field, error.params)


@bp.errorhandler(RequestEntityTooLarge)
def too_large(error: RequestEntityTooLarge) -> Response:
    """Bodies over 64 KiB are bad input like any other, not a 413 (API.md)."""
    return api_error("too_large", None, {})


# A wrong method (405 with Allow) and an unknown path (404) are routing's answers; the app's
# error handlers (tutor/web/shell/errors.py) give them the API's JSON shape.


def _reject_constant(name: str) -> None:
    raise ValueError(name)  # NaN and Infinity are not JSON


def _body(allowed: set[str]) -> dict[str, Any]:
    """The request's JSON object; RulesError for anything else or an unexpected field."""
    if (request.content_length or 0) > MAX_BODY:
        raise RulesError("too_large")
    raw = request.get_data(cache=True)
    if len(raw) > MAX_BODY:
        raise RulesError("too_large")
    try:
        body = json.loads(raw, parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        raise RulesError("bad_json") from None
    if not isinstance(body, dict):
        raise RulesError("not_object")
    for name in body:
        if name not in allowed:
            raise RulesError("unknown_field", str(name)[:40])
    return body


def _rules_and_game(body: dict[str, Any]) -> tuple[RuleSet, str]:
    rules = parse_rules(body.get("rules", "ddv"))  # the DDV tournament rules by default
    return rules, check_game(fields.required(body, "game"), rules)


def _post(allowed: set[str]) -> Callable[[Callable[[dict[str, Any]], Any]], Callable[[], Response]]:
    """Parse the body once with its allowed fields; the view returns plain data."""

    def wrap(view: Callable[[dict[str, Any]], Any]) -> Callable[[], Response]:
        def endpoint() -> Response:
            return json_response(view(_body(allowed)))

        endpoint.__name__ = view.__name__
        endpoint.__doc__ = view.__doc__
        return endpoint

    return wrap


@bp.post("/trick")
@_post({"rules", "game", "cards", "last_trick"})
def trick(body: dict[str, Any]) -> dict[str, Any]:
    """Who takes this trick so far, its card points, and which of its cards are trumps."""
    rules, game = _rules_and_game(body)
    cards = fields.card_list(fields.required(body, "cards"), rules, "cards", 1, 4)
    fields.at_most_two([("cards", cards)])
    last = fields.boolean(body.get("last_trick", False), "last_trick")
    table = game_table(game, rules)
    return {
        "winner": table.winner(cards, last),
        "points": sum(POINTS[c] for c in cards),
        "trumps": [table.is_trump(c) for c in cards],
    }


@bp.post("/legal")
@_post({"rules", "game", "hand", "trick"})
def legal(body: dict[str, Any]) -> dict[str, Any]:
    """Which cards of the hand may be played to the trick so far."""
    rules, game = _rules_and_game(body)
    hand = fields.card_list(fields.required(body, "hand"), rules, "hand", 1, rules.tricks)
    trick = fields.card_list(body.get("trick", []), rules, "trick", 0, 3)
    fields.at_most_two([("hand", hand), ("trick", trick)])
    allowed = set(game_table(game, rules).legal(hand, trick))
    ids = [body["hand"][i] for i, c in enumerate(hand) if c in allowed]
    return {"legal": list(dict.fromkeys(ids))}


@bp.post("/announcements")
@_post({"rules", "game", "party", "cards_in_hand", "own", "opponent", "wedding_clarified_in_trick"})
def announcements(body: dict[str, Any]) -> dict[str, Any]:
    """Every announcement the player may make now, lowest first."""
    rules, game = _rules_and_game(body)
    party = fields.required(body, "party")
    if party not in PARTIES:
        raise RulesError("unknown_party", "party")
    cards = fields.integer(fields.required(body, "cards_in_hand"), "cards_in_hand", 0, rules.tricks)
    given = body.get("wedding_clarified_in_trick")
    if given is not None and game in WEDDINGS:
        given = fields.integer(given, "wedding_clarified_in_trick", 0, CLARIFICATION_TRICKS)
    wedding = wedding_clarification(game, given)
    own, opponent = body.get("own"), body.get("opponent")
    return {"allowed": may_announce(rules, game, party, cards, own, opponent, wedding)}


def _announcements(value: Any) -> tuple[str | None, str | None]:
    if not isinstance(value, dict):
        raise RulesError("bad_type", "announcements", expected="object")
    for name in value:
        if name not in PARTIES:
            raise RulesError("unknown_field", f"announcements.{str(name)[:20]}")
    return value.get("re"), value.get("kontra")


def _extras(value: Any, rules: RuleSet) -> dict[str, dict[str, int]]:
    if not isinstance(value, dict):
        raise RulesError("bad_type", "extras", expected="object")
    extras: dict[str, dict[str, int]] = {}
    for party, counts in value.items():
        if party not in PARTIES:
            raise RulesError("unknown_field", f"extras.{str(party)[:20]}")
        if not isinstance(counts, dict):
            raise RulesError("bad_type", f"extras.{party}", expected="object")
        for name, count in counts.items():
            if name not in EXTRAS:
                raise RulesError("unknown_field", f"extras.{party}.{str(name)[:20]}")
            fields.integer(count, f"extras.{party}.{name}", 0, extra_max(name, rules))
        extras[party] = dict(counts)
    return extras


SUMMARY_FIELDS = {"rules", "game", "re_points", "re_tricks", "announcements", "extras"}
DEAL_FIELDS = {"rules", "game", "parties", "first_leader", "tricks", "announcements", "schweinchen"}


@bp.post("/score")
@_post(SUMMARY_FIELDS | DEAL_FIELDS)
def score_deal(body: dict[str, Any]) -> dict[str, Any]:
    """Score a deal from its summary, or from its tricks (the deal form)."""
    rules, game = _rules_and_game(body)
    deal_form = "tricks" in body
    stray = set(body) - (DEAL_FIELDS if deal_form else SUMMARY_FIELDS)
    if stray:
        raise RulesError("illegal_combination", sorted(stray)[0])
    re_said, kontra_said = _announcements(body.get("announcements", {}))
    if not deal_form:
        re_points = fields.integer(fields.required(body, "re_points"), "re_points", 0, DECK_POINTS)
        if "re_tricks" in body:
            re_tricks = fields.integer(body["re_tricks"], "re_tricks", 0, rules.tricks)
        else:
            re_tricks = default_re_tricks(rules, re_points)
        extras = _extras(body.get("extras", {}), rules)
        check_summary(rules, game, re_points, re_tricks, extras)
        return score(rules, game, re_points, re_tricks, re_said, kontra_said, extras).as_dict()
    first_leader = fields.integer(fields.required(body, "first_leader"), "first_leader", 0, 3)
    tricks = parse_trick_list(fields.required(body, "tricks"), rules)
    schweinchen: int | None = READ_FROM_TRICKS
    if "schweinchen" in body:
        given = body["schweinchen"]
        schweinchen = None if given is None else fields.integer(given, "schweinchen", 0, 3)
    deal = replay(rules, game, first_leader, tricks, fields.required(body, "parties"), schweinchen)
    result = deal.score(re_said, kontra_said).as_dict()
    result["trick_winners"] = list(deal.winners)
    return result


@bp.post("/analyse")
@_post(set(analyse.FIELDS))
def analyse_card(body: dict[str, Any]) -> dict[str, Any]:
    """How good is each card here: one decision of one seat, judged by simulation."""
    view = analyse.seat_view(body)
    samples, seed = analyse.samples_and_seed(body)
    return analyse.answer(pool.shared().analyse(view, samples, seed))


@bp.errorhandler(pool.Busy)
def busy(error: pool.Busy) -> Response:
    """Every worker of the analysis has its work: a 503, to be tried again in a moment."""
    response = api_error("busy", None, {}, status=503)
    response.headers["Retry-After"] = "2"
    return response


@bp.get("/openapi.json")
def openapi() -> Response:
    """The OpenAPI 3.1 document of this API."""
    return json_response(OPENAPI)
