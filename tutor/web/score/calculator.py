"""The score calculator, `/<lang>/score/`: what is this deal worth, line by line?

A plain GET form: its URL reproduces the result (the rules travel in it too), htmx only
swaps the result in as fields change. Impossible input is a 400 with the reason next to the
field; the engine decides what is possible and what a deal scores.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, abort, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from tutor.rules.announcements import PARTIES, announcement_choices
from tutor.rules.cards import DECK_POINTS
from tutor.rules.errors import RulesError
from tutor.rules.games import GAMES, is_solo, played_games
from tutor.rules.rulesets import RuleSet
from tutor.rules.scoring import EXTRAS, Score, counted_extras, extra_max
from tutor.web import words
from tutor.web.base import htmx, i18n
from tutor.web.base.rules import COOKIE as RULES_COOKIE
from tutor.web.base.rules import current_rules, rules_from_key, rules_key
from tutor.web.base.shared import shared
from tutor.web.score import offline
from tutor.web.score.form import EXTRA_LABELS, Form, field_names, message, message_template, read, winner_text

bp = Blueprint("score", __name__, url_prefix=i18n.LANG_PREFIX)


@dataclass
class Result:
    """A score arranged as a sheet shows it: each line with the party that earns it."""

    winner: str
    lines: list[tuple[str, int | None, int | None]]  # name, Re's points, Kontra's points
    re_total: int
    kontra_total: int
    value: int
    writes: list[tuple[str, str]]  # who, what each writes


def arrange(result: Score, game: str, multiplier: int = 1) -> Result:
    """The engine's lines as rows of a sheet, and what each player writes."""
    rows = [(str(words.LINES[line.id]), line.points if line.party == "re" else None,
             line.points if line.party == "kontra" else None) for line in result.lines]
    re_total = sum(line.points for line in result.lines if line.party == "re")
    kontra_total = sum(line.points for line in result.lines if line.party == "kontra")
    re_writes, kontra_writes = (words.signed(result.scores[p] * multiplier) for p in PARTIES)
    if is_solo(game):
        writes = [(_("The soloist"), re_writes), (_("Each of the three opponents"), kontra_writes)]
    else:
        writes = [(_("Each Re player"), re_writes), (_("Each Kontra player"), kontra_writes)]
    return Result(winner_text(result, game), rows, re_total, kontra_total, result.value, writes)


def form_context(form: Form, rules: RuleSet) -> dict[str, Any]:
    """What the summary fields need to render, for the calculator and the sheet alike."""
    return {
        "form": form,
        "rules": rules,
        "games": played_games(rules),
        "announcements": {p: announcement_choices(p) for p in PARTIES},
        "extras": counted_extras(rules),
        "extra_labels": EXTRA_LABELS,
        "extra_max": {e: extra_max(e, rules) for e in counted_extras(rules)},
        "field_names": field_names(rules),
        "is_solo": is_solo(form.values.get("game", "normal")) if form.values.get("game") in GAMES else False,
        "signed": words.signed,
        "deck_points": DECK_POINTS,
    }


# Every field the calculator's URL may carry (Karlchen caught only where the rules count it).
URL_FIELDS = frozenset(("rules", *field_names(RuleSet.named("pagat"))))


def short_args(args: Mapping[str, str]) -> dict[str, Any]:
    """The fields worth keeping in the address: no empty ones, no extra points of 0, nothing
    the calculator does not know. The result stays the same; the address gets short."""
    return {name: value for name, value in args.items()
            if name in URL_FIELDS and value != "" and not (value == "0" and name.split("_", 1)[-1] in EXTRAS)}


@bp.get("/score/")
@shared(RULES_COOKIE)  # the query and the rules cookie (when the query names no rules)
def calculator() -> Response:
    """The calculator: the form, and the result of what it holds."""
    short = short_args(request.args)
    if not htmx.is_partial(request) and len(short) < len(list(request.args.items(multi=True))):
        # A plain form submission sends every field: answer at the short address instead.
        return redirect(url_for("score.calculator", **short), code=303)
    rules = current_rules()
    form_rules_error = None
    if "rules" in request.args:
        try:
            rules = rules_from_key(request.args.get("rules", ""))
        except RulesError as error:
            form_rules_error = message(error)
    form = read(request.args, rules, required=False)
    if form_rules_error:
        form.error("rules", form_rules_error)
        form.summary = None
    result = arrange(form.summary.score(rules), form.summary.game) if form.summary else None
    partial = htmx.is_partial(request)
    template = "score/_result.html" if partial else "score/calculator.html"
    context = form_context(form, rules)
    context["field_names"] = [*context["field_names"], "rules"]
    body = render_template(
        template,
        **context,
        result=result,
        calc_rules_key=rules_key(rules),
        kontra_points=DECK_POINTS - form.summary.re_points if form.summary else None,
        oob=True,
        partial=partial,
        settings_url=url_for("settings.show", next=url_for("score.calculator")),
        offline_table_url=offline_table_url(rules),
    )
    response = make_response(body, 400 if form.errors else 200)
    if partial:
        response.headers["HX-Replace-Url"] = url_for("score.calculator", **short)  # for bookmarks
    return response


# --- the calculator offline ------------------------------------------------------------


def offline_table_url(rules: RuleSet) -> str:
    """Where the page's offline table lives: versioned, so a new engine means a new URL."""
    return url_for("score.offline_table", variant=offline.variant_key(rules), v=offline.version())


def offline_words() -> dict[str, Any]:
    """The words the offline result shows, in the page's language."""
    return {
        "lines": {line: str(name) for line, name in words.LINES.items()},
        "parties": {party: str(words.PARTIES[party]) for party in PARTIES},
        "winner": {"re": _("Re wins."), "kontra": _("Kontra wins."), "soloist": _("The soloist wins."),
                   "opponents": _("The opponents win."),
                   "nobody": _("Nobody wins: neither party made its announcement.")},
        "writes": {"soloist": _("The soloist"), "opponents": _("Each of the three opponents"),
                   "re": _("Each Re player"), "kontra": _("Each Kontra player")},
        "caption": _("Scoring lines"), "line": _("Line"), "total": _("Total"),
        "value": _("Value for Re (Re minus Kontra)"), "nothing": _("No line scores: the deal is worth nothing."),
        "empty": _("Enter Re’s card points to see the score."),
        "correct": _("Correct the marked field to see the score."),
        "messages": {code: message_template(code) for code in (*offline.FORM_CODES, *offline.ENGINE_CODES)},
        "offline": _("Scored on this phone: you are offline."),
        "solo_games": [game for game in GAMES if is_solo(game)],
        "plus": words.signed(1)[:-1], "minus": words.signed(-1)[:-1],
    }


@bp.get("/score/table/<variant>.json")
def offline_table(variant: str) -> Response:
    """The engine's answers for one variant of the rules, with the words to show them."""
    try:
        table = offline.build(variant)
    except ValueError:
        abort(404)
    response = make_response(json.dumps({**table, "words": offline_words()}, separators=(",", ":"),
                                         ensure_ascii=False))
    response.mimetype = "application/json"
    response.headers["Cache-Control"] = "public, max-age=31536000, immutable"  # the URL carries the version
    return response
