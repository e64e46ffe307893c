"""Play a deal with the tutor: `/<lang>/play/?s=<seed>&l=<level>&r=<rules>&m=<moves>`.

Every state of the deal is its URL: the seed deals the cards, the level says which games
the computer players (and the learner) may play, the rules travel along, and the moves are
what the learner chose so far (tutor.play's one-character encoding). No server storage.
A move arrives as one more query field (`card`, `announce`, `reserve` or `poverty`, the
buttons of one form); the answer is the next state's URL (a redirect, or for htmx the
table swapped in place with that URL pushed). The learner's quick checks ride along in the
URL too: `w` (who takes the trick just played), `g` and `v` (the winner and the value of
the finished deal). A tampered or impossible URL gets a message and a fresh deal (400).

This module is the blueprint and its answers; state.py reads and writes the state in the URL,
page.py makes what the page shows of it.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, make_response, redirect, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from tutor.play import LEVELS, parse_level, position
from tutor.rules.errors import RulesError
from tutor.web.base import htmx, i18n
from tutor.web.base.rules import COOKIE as RULES_COOKIE
from tutor.web.base.shared import shared
from tutor.web.play import stats as play_stats
from tutor.web.play.page import no_store, render
from tutor.web.play.state import DEFAULT_LEVEL, asked_move, count_finished, fresh, read_position, state_url

bp = Blueprint("play", __name__, url_prefix=i18n.LANG_PREFIX + "/play")


@bp.get("/")
@shared(RULES_COOKIE, play_stats.COOKIE)  # a state is its URL; the stats it shows, the cookie
def show() -> Response:
    """The deal at this URL, or a fresh one; with a move, the next state."""
    args = request.args
    if "s" not in args:
        try:
            level = parse_level(args.get("l", str(DEFAULT_LEVEL)))
        except RulesError:
            level = DEFAULT_LEVEL
        return no_store(redirect(state_url(fresh(level)), code=303))
    try:
        p = read_position(args)
    except RulesError:
        asked = args.get("l", "")
        p = fresh(int(asked) if asked in ("0", "1", "2") else DEFAULT_LEVEL)
        return render(p, message=_("This deal’s address was damaged or describes moves that cannot be made. "
                                   "Here is a fresh deal."), status=400)
    try:
        move = asked_move(args)
        if move is None:
            response = render(p)
            if htmx.is_partial(request):  # an answer to a check: its URL is a state too
                shown: dict[str, Any] = args.to_dict()
                # The rule of a dimmed card is no step of the deal: the address changes in place.
                header = "HX-Replace-Url" if "why" in shown else "HX-Push-Url"
                response.headers[header] = url_for("play.show", **shown)
            return response
        if p.turn is None:
            raise RulesError("moves_past_end", "m")
        after = position(p.rules, p.seed, p.then(move), p.level)
    except RulesError as error:
        return render(p, message=move_message(error.code), status=400)
    if not htmx.is_partial(request):
        return count_finished(after, redirect(state_url(after), code=303))
    # The next state is its own URL: a quick check answered before (`w`) is never judged
    # against the trick this move finishes, nor the end's answers against a new deal.
    response = render(after, answers=False)
    response.headers["HX-Push-Url"] = state_url(after)
    return count_finished(after, response)


@bp.get("/deal.json")
def deal_json() -> Response:
    """The finished deal as JSON: the API's deal-form request under `deal`, the score under
    `score` (`POST /api/v1/score` answers the same for the deal form)."""
    try:
        p = read_position(request.args)
        result = p.result
        if result is None:
            raise RulesError("not_finished", "m")
    except RulesError:
        return render(fresh(DEFAULT_LEVEL), message=_("Only a finished deal can be downloaded. Here is a fresh deal."),
                      status=400)
    body = json.dumps(result.as_json(), ensure_ascii=False, indent=1)
    response = make_response(body)
    response.mimetype = "application/json"
    response.headers["Content-Disposition"] = f'attachment; filename="doko-deal-{p.seed}.json"'
    return response


def move_message(code: str) -> str:
    if code in ("illegal_card", "card_not_in_hand"):
        return _("That card may not be played now. Choose one of the cards you can tap.")
    if code == "announcement_not_allowed":
        return _("That announcement is not allowed now.")
    if code == "moves_past_end":
        return _("The deal is over: start a new one or play this one again.")
    return _("That move is not possible here. Choose one of the buttons below.")


__all__ = ["bp", "LEVELS"]
