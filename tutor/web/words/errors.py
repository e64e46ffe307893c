"""The JSON API's error messages, one per error code, translated for the caller.

Codes are the contract (API.md); messages are for people and follow ``Accept-Language``.
"""
from __future__ import annotations

import json
from typing import Any, Final

from flask import Response, request
from flask_babel import force_locale, ngettext
from flask_babel import lazy_gettext as _l

MESSAGES = {
    "bad_json": _l("The request body is not valid JSON."),
    "not_object": _l("The request body must be a JSON object."),
    "too_large": _l("The request body is larger than 64 KiB."),
    "missing_field": _l("This field is required."),
    "unknown_field": _l("This field is not part of the request."),
    "bad_type": _l("This field has the wrong type: expected %(expected)s."),
    "unknown_ruleset": _l("Unknown rule set “%(value)s”: use ddv or pagat."),
    "unknown_option": _l("Unknown house option “%(option)s”."),
    "bad_option_value": _l("This value is not allowed for the house option “%(option)s”."),
    "unknown_game": _l("Unknown game “%(value)s”."),
    "poverty_not_played": _l("Poverty is not played under these rules: turn on the poverty house option."),
    "unknown_card": _l("“%(value)s” is not a card: write rank and suit, like QC or 10H."),
    "card_not_in_deck": _l("%(card)s is not in the deck without nines."),
    "too_many_copies": _l("%(card)s appears more than twice: the deck holds every card twice."),
    "out_of_range": _l("This must be a whole number from %(low)s to %(high)s."),
    "points_do_not_fit_tricks": _l("In %(tricks)s tricks Re can only have %(low)s to %(high)s card points."),
    "too_many_extras": _l("One deal cannot hold that many of these extra points."),
    "extras_need_tricks": _l("A party that took %(tricks)s tricks cannot have earned this extra point."),
    "extras_need_points": _l("Each Doppelkopf is a trick of 40 points or more: this party has too few points."),
    "karlchen_both_parties": _l("Only one party takes the last trick, so only one can score Karlchen."),
    "unknown_announcement": _l("“%(value)s” is not an announcement this party can have made."),
    "illegal_card": _l("%(card)s in trick %(trick)s breaks the rules: that player could have followed suit."),
    "unknown_party": _l("A party is either re or kontra."),
    "schweinchen_mismatch": _l("These tricks cannot be played with Schweinchen declared or without."),
    "schweinchen_contradicted": _l("The tricks contradict this: whoever holds both A♦ declares them as Schweinchen, "
                                   "and nobody else can."),
    "schweinchen_not_played": _l("Schweinchen is not played here: it needs its house option and a normal game, a "
                                 "wedding or a poverty."),
    "wedding_only": _l("The clarification trick is given for a declared wedding only."),
    "illegal_combination": _l("Give either the summary of a deal or its tricks, not both."),
    "reservation_does_not_fit": _l("This reservation does not fit the game “%(game)s”."),
    "not_to_play": _l("This seat is not to play now: the tricks give the turn to seat %(seat)s."),
    "no_world": _l("No deal fits what this seat has seen: the hand, the tricks and the announcements contradict "
                   "each other."),
    "deal_over": _l("The deal is over: every card has been played."),
    "announcement_not_allowed": _l("This announcement cannot have been made at that point of the deal."),
    "busy": _l("The analysis is busy: try again in a moment."),
    "not_found": _l("There is no such endpoint."),
    "method_not_allowed": _l("This endpoint only answers %(allowed)s requests."),
    "bad_request": _l("The request could not be understood."),
    "internal_error": _l("Something went wrong on our side. Please try again."),
}
LOCALES: Final = ("en", "de", "it", "es", "fr", "pt")


def error_message(code: str, params: dict[str, Any]) -> str:
    """The message for an error code in the current locale."""
    if code == "wrong_count":
        return str(ngettext(
            "Expected %(num)d item here, got %(got)s.", "Expected %(num)d items here, got %(got)s.",
            params.get("expected", 0), got=params.get("got", 0),
        ))
    if code == "wrong_re_count":
        return str(ngettext(
            "This game has exactly %(num)d Re player.", "This game has exactly %(num)d Re players.",
            params.get("expected", 0),
        ))
    template = MESSAGES.get(code, MESSAGES["bad_type"])
    return str(template) % _Params(params)


class _Params(dict):  # type: ignore[type-arg]
    """Fills a placeholder that an error did not supply with nothing rather than failing."""

    def __missing__(self, key: str) -> str:
        return ""


def api_locale() -> str:
    """The API's language: the request's ``Accept-Language``, English by default."""
    return request.accept_languages.best_match(LOCALES) or "en"


def json_response(data: Any, status: int = 200) -> Response:
    return Response(json.dumps(data, ensure_ascii=False), status, content_type="application/json; charset=utf-8")


def api_error(code: str, field: str | None, params: dict[str, Any], status: int = 400) -> Response:
    """An API error in the shape API.md documents: ``{"error": {"code", "message", "field"}}``."""
    with force_locale(api_locale()):
        message = error_message(code, params)
    return json_response({"error": {"code": code, "message": message, "field": field}}, status)
