"""Score sheets for an evening, `/<lang>/sheet/`: players, deals entered through the
calculator's fields or quickly as on paper (the winners and the value), running totals,
dealer, Bock and compulsory solos.

A sheet has two links with unguessable keys: the editor's and a read-only one. Every write
carries the version of the sheet the form was made from; a stale one is a 409 with the sheet
as it now is. The bookkeeping itself is tutor.rules.sheet's; this module reads forms.
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import re
import unicodedata
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any, Final

import segno
from babel.numbers import format_currency, get_decimal_symbol
from flask import Blueprint, Flask, abort, current_app, g, make_response, redirect, render_template, request, url_for
from flask_babel import get_locale, ngettext
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from markupsafe import Markup, escape
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from tutor.parse import NumberError, whole_number
from tutor.rules.cards import DECK_POINTS
from tutor.rules.errors import RulesError
from tutor.rules.games import GAMES, check_game, is_solo, played_games
from tutor.rules.rulesets import OPTION_CHOICES, RULESETS, RuleSet
from tutor.rules.sheet import (
    MAX_CENTS,
    MAX_PLAYERS,
    MIN_CENTS,
    MIN_PLAYERS,
    QUICK_MAX,
    Deal,
    Evening,
    QuickResult,
    Row,
    check_deal,
    deal_score,
    entries_for,
    evening,
    player_stats,
    seating,
    settle_up,
)
from tutor.rules.terms import Party
from tutor.web import words
from tutor.web.base import htmx, i18n, security, shared
from tutor.web.base.rules import current_rules, decode, encode, rules_from_key, rules_key, to_cookie
from tutor.web.score.calculator import arrange, form_context
from tutor.web.score.form import MESSAGES as FORM_MESSAGES
from tutor.web.score.form import Form, field_name, message, read, summary_fields
from tutor.web.score.store import (
    AlreadySaved,
    Conflict,
    Listed,
    NotFound,
    Sheet,
    Store,
    StoredDeal,
    is_deal_id,
    new_deal_id,
)

bp = Blueprint("sheet", __name__, url_prefix=i18n.LANG_PREFIX + "/sheet")

KEY: Final = "<string(length=22):key>"
DEAL: Final = "<string(length=12):deal_id>"
MAX_NAME: Final = 24
MESSAGES: Final = {
    "conflict": _l("This sheet was changed on another phone meanwhile, so nothing was saved. "
                   "Here it is as it is now: check it and enter your change again."),
    "read_only": _l("This is the read-only link of the sheet: ask for the editor’s link to change it."),
    "bad_version": _l("This form is damaged: reload the sheet and try again."),
    "cents": _l("Enter the cents per point as a whole number from %(low)d to %(high)d."),
    "not_found": _l("This sheet is not on the server any more."),
}


def init_app(app: Flask) -> None:
    """SQLite in the instance folder unless DATABASE_URL names another database; the file
    and its tables are made on first use, so there is nothing to set up."""
    url = app.config.get("DATABASE_URL") or os.environ.get("DATABASE_URL")
    if not url:
        url = "sqlite:///" + os.path.join(app.instance_path, "doko.sqlite3")
    app.extensions["doko_store"] = Store(url)


# The pages a device may keep of a sheet: the list of its sheets, a sheet (the editor's or the
# read-only link), and the forms for a new deal, which work offline (static/js/sheet.js).
KEPT_PAGES: Final = frozenset({"sheet.index", "sheet.show", "sheet.new_deal", "sheet.new_quick"})


@bp.after_request
def private(response: Response) -> Response:
    """A sheet's address is its key: no shared cache keeps any of its pages. The pages to read
    it and to enter a deal may be kept on the device (its service worker keeps them for
    offline; the browser asks again every time, `no-cache`); an edit form, a file or the
    answer to a write is never kept."""
    kept = request.method == "GET" and request.endpoint in KEPT_PAGES and response.status_code in (200, 304)
    response.headers["Cache-Control"] = "private, no-cache" if kept else "private, no-store"
    return response


def store() -> Store:
    return current_app.extensions["doko_store"]  # type: ignore[no-any-return]


# --- reading the forms ---------------------------------------------------------------


def _version() -> int:
    try:
        return whole_number(request.form.get("version"), "version", low=0)
    except NumberError:
        abort(400, description=str(MESSAGES["bad_version"]))


def _once() -> str | None:
    """The one-time id a new deal's form carries (None from a form without one)."""
    text = request.form.get("once")
    if text is None:
        return None
    if not is_deal_id(text):
        abort(400, description=str(MESSAGES["bad_version"]))
    return text


def _kept_once() -> str | None:
    """The one-time id in a new deal form's address: a deal kept on the phone and refused,
    opened to be changed, keeps its id (None without one, or with a damaged one)."""
    text = request.args.get("once")
    return text if text is not None and is_deal_id(text) else None


def _seat(text: str | None, field: str, players: int) -> int | None:
    """A player's index from a form field, or None when it names nobody at the table."""
    try:
        return whole_number(text, field, low=0, high=players - 1, max_digits=2)
    except NumberError:
        return None


def read_players(form: MultiDict[str, str], errors: dict[str, str]) -> list[str]:
    """4 to 7 names, each at most MAX_NAME characters, no two alike."""
    names = [n.strip() for n in form.getlist("player")[:MAX_PLAYERS + 1]]
    names = [n for n in names if n]
    if len(form.getlist("player")) > MAX_PLAYERS or not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        errors["player"] = _("Enter the names of %(low)d to %(high)d players.", low=MIN_PLAYERS, high=MAX_PLAYERS)
    elif any(len(n) > MAX_NAME or not n.isprintable() for n in names):
        errors["player"] = ngettext(
            "A name has at most %(num)d letter.", "A name has at most %(num)d letters.", MAX_NAME
        )
    elif len({n.casefold() for n in names}) != len(names):
        errors["player"] = _("Two players have the same name: tell them apart.")
    return names


def read_rules(form: MultiDict[str, str], errors: dict[str, str]) -> RuleSet:
    ruleset = form.get("ruleset", "")
    if ruleset not in RULESETS:
        errors["ruleset"] = _("Please choose one of the rule sets offered.")
        return current_rules()
    try:
        options = {name: decode(name, form[name]) for name in OPTION_CHOICES if name in form}
        return RuleSet.named(ruleset).with_options(**options)
    except RulesError as error:
        option = (error.field or "").rsplit(".", 1)[-1]
        errors[option] = _("“%(option)s” cannot be set to that value.", option=words.OPTIONS[option].name)
        return RuleSet.named(ruleset)


def read_deal(form: MultiDict[str, str], sheet: Sheet, rules: RuleSet, proposed_dealer: int,
              preview: bool = False) -> tuple[Form, Deal | None]:
    """The deal form: the calculator's summary plus who dealt and who was Re. A preview
    (while the form is being filled in) does not yet ask for what is still missing."""
    summary_form = read(form, rules, required=not preview)
    players = len(sheet.players)
    dealer_text = form.get("dealer", str(proposed_dealer))
    summary_form.values["dealer"] = dealer_text[:2]
    dealer = _seat(dealer_text, "dealer", players)
    if dealer is None:
        summary_form.error("dealer", str(_("Please choose one of the values offered.")))
    picked = form.getlist("re")[:MAX_PLAYERS + 1]
    seats = (_seat(p, "re_players", players) for p in picked)
    re_players = tuple(p for p in seats if p is not None)
    summary_form.values["re"] = ",".join(str(p) for p in re_players)
    if len(re_players) != len(picked):
        summary_form.error("re_players", str(_("Please choose one of the values offered.")))
    summary = summary_form.summary
    if summary is None or summary_form.errors or dealer is None:
        return summary_form, None
    # A dealer other than the rotation's is one typed by hand: the sheet keeps it after corrections.
    deal = Deal(summary.game, summary.re_points, summary.re_tricks, dealer, re_players,
                summary.re_announced, summary.kontra_announced, summary.extras, dealer != proposed_dealer)
    try:
        check_deal(rules, players, deal)
    except RulesError as error:
        still_picking = error.code == "wrong_re_count" and len(re_players) < error.params["expected"]
        if not (preview and still_picking):
            summary_form.error(field_name(error.field), message(error))
        return summary_form, None
    return summary_form, deal


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


def deal_fields(deal: Deal, rules: RuleSet) -> MultiDict[str, str]:
    """The form fields of a stored deal, for its edit form."""
    fields = MultiDict({"game": deal.game} if deal.quick else summary_fields(deal.summary, rules))
    fields["dealer"] = str(deal.dealer)
    for player in deal.re_players:
        fields.add("re", str(player))
    return fields


# --- quick entry: the winners and the value, as on paper ----------------------------------

QUICK_FIELDS: Final = ("game", "dealer", "re_players", "winner", "value")  # each with its error line


def read_quick(form: MultiDict[str, str], sheet: Sheet, rules: RuleSet, proposed_dealer: int,
               preview: bool = False) -> tuple[Form, Deal | None]:
    """The quick form: the game, who dealt, who was Re, which party won and the value. The
    engine checks the row this makes, so a row that does not sum to zero is refused with the
    check's own words. A preview does not yet ask for what is still missing."""
    players = len(sheet.players)
    values = {name: (form.get(name) or "").strip()[:12] for name in ("game", "dealer", "winner", "value")}
    values["game"] = values["game"] or "normal"
    values["dealer"] = values["dealer"] or str(proposed_dealer)
    values["bock"] = "on" if form.get("bock") == "on" and sheet.bock else ""
    quick = Form(values)
    choose = str(_("Please choose one of the values offered."))
    game = next((g for g in GAMES if g == values["game"]), None)
    if game is None:
        quick.error("game", choose)
    else:
        try:
            check_game(game, rules)
        except RulesError as error:
            quick.error("game", message(error))
    dealer = _seat(values["dealer"], "dealer", players)
    if dealer is None:
        quick.error("dealer", choose)
    picked = form.getlist("re")[:MAX_PLAYERS + 1]
    seats = (_seat(p, "re_players", players) for p in picked)
    re_players = tuple(p for p in seats if p is not None)
    values["re"] = ",".join(str(p) for p in re_players)
    if len(re_players) != len(picked):
        quick.error("re_players", choose)
    winner: Party | None = "re" if values["winner"] == "re" else "kontra" if values["winner"] == "kontra" else None
    if winner is None and (values["winner"] or not preview):
        quick.error("winner", choose if values["winner"] else str(_("Please choose who won.")))
    value = None
    if values["value"] or not preview:
        try:
            value = whole_number(values["value"], "value", low=1, high=QUICK_MAX, max_digits=2)
        except NumberError as error:
            if not values["value"]:
                quick.error("value", str(FORM_MESSAGES["required"]))
            elif error.reason in ("too_small", "too_large", "too_long"):
                quick.error("value", message(RulesError("out_of_range", "value", low=1, high=QUICK_MAX)))
            else:
                quick.error("value", str(FORM_MESSAGES["not_a_number"]))
    if quick.errors or game is None or dealer is None or winner is None or value is None:
        return quick, None
    deal = Deal.quick_entry(game, dealer, re_players, winner, value, values["bock"] == "on", dealer != proposed_dealer)
    try:
        check_deal(rules, players, deal)
    except RulesError as error:
        still_picking = error.code == "row_not_zero_sum" and len(re_players) < error.params["expected"]
        if not (preview and still_picking):
            quick.error(field_name(error.field), message(error))
        return quick, None
    return quick, deal


def quick_fields(row: Row, rules: RuleSet) -> MultiDict[str, str]:
    """The quick form's fields of a deal on the sheet. A deal entered with card points gives
    its winners and value too (the party that writes the plus, and what its players write),
    so it can be turned into a quick deal."""
    deal = row.deal
    fields = MultiDict({"game": deal.game, "dealer": str(deal.dealer)})
    for player in deal.re_players:
        fields.add("re", str(player))
    if deal.quick is not None:
        winner: str = deal.quick.winner
        value = deal.quick.value
    else:
        kontra = row.score.scores["kontra"]
        winner, value = ("re" if kontra < 0 else "kontra" if kontra > 0 else ""), abs(kontra)
    fields["winner"] = winner
    fields["value"] = str(value) if value else ""
    if row.bock_trigger:
        fields["bock"] = "on"
    return fields


def quick_said(deal: Deal) -> str:
    """A quick deal as the sheet's row and the CSV say it: "Re won, 3"."""
    if deal.quick is None:
        return ""
    value, solo = deal.quick.value, is_solo(deal.game)
    if deal.quick.winner == "re":
        return _("The soloist won, %(num)d", num=value) if solo else _("Re won, %(num)d", num=value)
    return _("The opponents won, %(num)d", num=value) if solo else _("Kontra won, %(num)d", num=value)


# --- loading ---------------------------------------------------------------------------


class Loaded:
    """A sheet with its deals and everything the rules say about them."""

    def __init__(self, key: str) -> None:
        try:
            self.sheet, self.can_edit, self.stored = store().load(key)
        except NotFound:
            abort(404)
        self.rules = rules_from_key(self.sheet.rules)
        self.deals = [from_data(d.data) for d in self.stored]
        self.evening: Evening = evening(self.rules, len(self.sheet.players), self.deals, self.sheet.bock,
                                        self.sheet.first_dealer)

    def require_editor(self) -> None:
        if not self.can_edit:
            page = render_template("errors/error.html", code=403, message=str(MESSAGES["read_only"]))
            abort(make_response(page, 403))

    def stored_deal(self, deal_id: str, version: int | None = None) -> tuple[int, StoredDeal]:
        """The deal and its place. A deal gone since the form was made from `version` was
        deleted on another phone meanwhile: the conflict page (409), not a 404."""
        for index, stored in enumerate(self.stored):
            if stored.id == deal_id:
                return index, stored
        if version is not None and version < self.sheet.version:
            page = render_template("sheet/show.html", **sheet_context(self), notice=str(MESSAGES["conflict"]))
            abort(make_response(page, 409))
        abort(404)


def _shown_deal(loaded: Loaded, deal_id: str) -> int:
    """The place of a deal whose page is asked for. A deal no longer on the sheet (deleted,
    perhaps by the very page before: the back button, a reload) leads to the sheet (303)."""
    if not any(stored.id == deal_id for stored in loaded.stored):
        abort(redirect(url_for("sheet.show", key=loaded.sheet.edit_key), code=303))
    index, _stored = loaded.stored_deal(deal_id)
    return index


def sheet_context(loaded: Loaded) -> dict[str, Any]:
    sheet = loaded.sheet
    return {
        "sheet": sheet,
        "loaded": loaded,
        "ev": loaded.evening,
        "rows": list(zip(loaded.evening.rows, loaded.stored, strict=True)),
        "players": sheet.players,
        "names_of": lambda indices: ", ".join(sheet.players[i] for i in indices),
        "can_edit": loaded.can_edit,
        "sheet_rules": loaded.rules,
        "signed": words.signed,
        "number": words.number,
        # Whole addresses only under a host TRUSTED_HOSTS vouches for; elsewhere a path that
        # the browser makes whole (app.js), and no QR code: no page carries a made-up Host.
        "edit_url": security.external_url("sheet.show", key=sheet.edit_key),
        "view_url": security.external_url("sheet.show", key=sheet.view_key),
        "whole_links": bool(current_app.config.get("TRUSTED_HOSTS")),
        "view_qr": view_qr,
        "chart": chart(loaded.evening),
        "stats": player_stats(loaded.evening),
        "quick_said": quick_said,
        **settle_context(loaded),
    }


# Line colours and dash patterns for up to seven players: told apart by colour and by dash.
CHART_STYLES: Final = (("#1f6f4a", ""), ("#b3261e", "6 3"), ("#1a4fa0", "2 3"), ("#8a5a00", "8 3 2 3"),
                       ("#6a1b9a", "1 2"), ("#00695c", "10 4"), ("#444444", "4 2 1 2"))


def chart(ev: Evening) -> dict[str, Any]:
    """Each player's running total over the evening as SVG coordinates (drawn in the
    template): x is the deal, y the total; 0 is a line of its own."""
    width, height, pad = 320, 180, 24
    series = [[0, *(row.totals[p] for row in ev.rows)] for p in range(ev.players)]
    low = min(min(s) for s in series)
    high = max(max(s) for s in series)
    span = max(high - low, 1)
    steps = max(len(ev.rows), 1)

    def x(i: int) -> float:
        return round(pad + i * (width - 2 * pad) / steps, 1)

    def y(v: int) -> float:
        return round(height - pad - (v - low) * (height - 2 * pad) / span, 1)

    lines = [{"points": " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(values)), "colour": CHART_STYLES[p][0],
              "dash": CHART_STYLES[p][1], "end": (x(len(values) - 1), y(values[-1]))}
             for p, values in enumerate(series)]
    return {"width": width, "height": height, "lines": lines, "zero": y(0), "left": pad, "right": width - pad,
            "low": low, "high": high, "top": y(high), "bottom": y(low)}


def view_qr(url: str) -> Markup:
    """The read-only link as a QR code, an SVG the page shows inline (no script, no style)."""
    code = segno.make(url, error="m")
    title = escape(_("QR code of the read-only link"))
    svg = code.svg_inline(scale=6, border=4, title=title, dark="#000", light="#fff", svgclass="qr", lineclass=None)
    return Markup(svg.replace("<svg ", '<svg role="img" ', 1))  # noqa: S704 (segno's own SVG, the title escaped)


# --- views -------------------------------------------------------------------------------


@bp.get("/")
def index() -> tuple[str, int]:
    """Start a sheet: players, rules, Bock; and the sheets opened on this device."""
    return _new_sheet_page({}, {"player": []}, current_rules(), 200)


# --- my sheets on this device -------------------------------------------------------------
# The links of the sheets opened here, newest first, in a cookie of this device only: nobody
# has to bookmark an editor's link to find the evening again.
MY_SHEETS: Final = "sheets"
MY_SHEETS_KEPT: Final = 12
MY_SHEETS_DAYS: Final = 400


def my_sheet_keys() -> list[str]:
    keys = (security.cookie(request, MY_SHEETS) or "").split(".")
    return [k for k in keys if len(k) == 22 and k.replace("-", "").replace("_", "").isalnum()][:MY_SHEETS_KEPT]


def my_sheets() -> list[Listed]:
    """The sheets this device opened that still exist, newest first, each with its date, its
    number of deals and whether it was imported."""
    return store().listed(my_sheet_keys())


@bp.after_request
def remember_sheet(response: Response) -> Response:
    """After a sheet page is shown, put its link first in this device's list."""
    if request.endpoint == "sheet.show" and response.status_code in (200, 304) and not htmx.is_partial(request):
        key = (request.view_args or {}).get("key", "")
        keys = [key, *(k for k in my_sheet_keys() if k != key)][:MY_SHEETS_KEPT]
        security.set_cookie(response, request, MY_SHEETS, ".".join(keys), MY_SHEETS_DAYS * 86400)
    return response


def _new_sheet_page(errors: dict[str, str], values: dict[str, Any], rules: RuleSet, status: int) -> tuple[str, int]:
    return render_template(
        "sheet/new.html", errors=errors, values=values, rules=rules, rulesets=RULESETS, choices=OPTION_CHOICES,
        encode=encode, max_players=MAX_PLAYERS, max_name=MAX_NAME, my_sheets=my_sheets(),
    ), status


@bp.post("/")
def create() -> Response | tuple[str, int]:
    """Store a new sheet and open its editor's link (303)."""
    errors: dict[str, str] = {}
    names = read_players(request.form, errors)
    rules = read_rules(request.form, errors)
    bock = request.form.get("bock", "") == "on"
    first = request.form.get("first_dealer", "0")
    # The choice names a field ("Player 4"); a field left empty before it moves the players on.
    named = [i for i, n in enumerate(request.form.getlist("player")[:MAX_PLAYERS]) if n.strip()]
    field = _seat(first, "first_dealer", MAX_PLAYERS)
    first_dealer = named.index(field) if field in named else None
    if field is None:
        errors.setdefault("first_dealer", _("Please choose one of the values offered."))
    elif first_dealer is None:
        errors.setdefault("first_dealer", _("Player %(num)d has no name: choose a player who plays.", num=field + 1))
    unknown = set(request.form) - {"player", "ruleset", "bock", "first_dealer", *OPTION_CHOICES}
    if unknown:
        errors.setdefault("form", _("The request could not be understood."))
    if errors:
        values = {"player": request.form.getlist("player")[:MAX_PLAYERS], "bock": bock, "first_dealer": first}
        return _new_sheet_page(errors, values, rules, 400)
    assert first_dealer is not None
    sheet = store().create_sheet(names, rules_key(rules), bock, first_dealer)
    return redirect(url_for("sheet.show", key=sheet.edit_key), code=303)


# --- settle-up ---------------------------------------------------------------------------
# The money is shown in euros, and in reais in Brazilian Portuguese (the app's "pt").
CURRENCY: Final = {"pt": "BRL"}


def money(cents: int, signed: bool = False) -> str:
    """Cents as the page's language writes money: 1,50 € in German, R$ 1,50 in Brazil."""
    locale = str(get_locale() or i18n.DEFAULT_LANGUAGE)
    text = format_currency(Decimal(abs(cents)) / 100, CURRENCY.get(locale.split("_")[0], "EUR"), locale=locale)
    if signed and cents:
        return ("+" if cents > 0 else "\u2212") + text
    return text


def settle_context(loaded: Loaded) -> dict[str, Any]:
    """The settle-up box: the cents per point as typed, what is wrong with it, and the
    balances and payments the engine works out."""
    text = request.args.get("cents")
    context: dict[str, Any] = {"cents_text": (text or "")[:8], "cents_error": None, "settlement": None,
                               "money": money, "min_cents": MIN_CENTS, "max_cents": MAX_CENTS}
    if text is None:
        return context
    try:
        cents = whole_number(text, "cents", low=MIN_CENTS, high=MAX_CENTS, max_digits=3)
    except NumberError:
        context["cents_error"] = str(MESSAGES["cents"]) % {"low": MIN_CENTS, "high": MAX_CENTS}
        return context
    context["settlement"] = settle_up(loaded.evening.totals, cents)
    return context


def sheet_etag(sheet: Sheet) -> str:
    """What a sheet's page depends on, as a (weak) entity tag: the sheet's last change (its
    version), the address (key, language, settle-up), the part asked for (the page, the
    read-only link's live part, the settle-up box), where it is shown (scheme, host, script
    root, language) with the app's version, and for a whole page
    the visitor's rules (base.html names them). Nothing of it changes while the sheet does
    not, so a phone that follows the sheet asks and gets a 304 until a deal is entered."""
    part = (htmx.target(request) or "live") if htmx.is_partial(request) else "page:" + to_cookie(current_rules())
    text = "\0".join((sheet.id, str(sheet.version), request.full_path, part, *shared.address_key()))
    return hashlib.sha256(text.encode()).hexdigest()[:24]


@bp.get("/" + KEY)
def show(key: str) -> Response:
    """The sheet: every deal with each player's entry, the checks, the totals, what is next;
    with ``?cents=`` also who pays whom (htmx asks for just that box). A request that names
    the sheet's current tag (If-None-Match) is a 304: nothing changed. The tag names all the
    page depends on but the cookies it reads, so a page is rendered once for its tag and kept
    with the cookies it read: sent again while they say the same (one query, no rules work)."""
    try:
        sheet, _editor = store().find(key)
    except NotFound:
        abort(404)
    tag = sheet_etag(sheet)
    if request.if_none_match.contains_weak(tag):
        unchanged = current_app.response_class(status=304)
        unchanged.set_etag(tag, weak=True)
        return unchanged
    kept = shared.store("sheet_pages", SHEET_PAGES_KEPT, _page_size)
    found: tuple[str, tuple[tuple[str, str | None], ...]] | None = shared.look(kept, tag)
    if found is not None and all(security.cookie(request, name) == value for name, value in found[1]):
        body, read_then = found  # rendered for this tag, and every cookie it read says what it said then
    else:
        loaded = Loaded(key)
        context = sheet_context(loaded)
        if htmx.target(request) == "settle-up":
            template = "sheet/_settle.html"
        else:
            template = "sheet/_live.html" if htmx.is_partial(request) else "sheet/show.html"
        body = render_template(template, **context)
        if context["cents_error"]:
            return make_response(body, 400)
        read = sorted(security.cookies_read(request.environ))
        read_then = tuple((name, security.cookie(request, name)) for name in read)
        shared.keep(kept, tag, (body, read_then))
    response = shared.send_compressed(make_response(body, 200), ("sheet", tag, read_then))  # compressed once too
    response.set_etag(tag, weak=True)
    return response


SHEET_PAGES_KEPT: Final = 4 * 1024 * 1024  # characters of rendered sheets (20-60 kB each), by their tag


def _page_size(found: tuple[str, tuple[tuple[str, str | None], ...]]) -> int:
    return len(found[0]) + 64 * len(found[1])


def _deal_page(
    loaded: Loaded, form: Form, deal_id: str | None, status: int, notice: str | None = None, once: str | None = None
) -> tuple[str, int]:
    """The deal form (new or edit), or for htmx just the preview of its result."""
    ev = loaded.evening
    if deal_id is None:
        dealer_default = ev.next_dealer
        number = len(loaded.deals) + 1
        multiplier = ev.next_multiplier
    else:
        index, _stored = loaded.stored_deal(deal_id)
        dealer_default = ev.rows[index].deal.dealer
        number = index + 1
        multiplier = ev.rows[index].multiplier
    chosen = _seat(form.values.get("dealer"), "dealer", len(loaded.sheet.players))
    dealer = dealer_default if chosen is None else chosen
    form.values["dealer"] = str(dealer)
    playing, sitting_out = seating(len(loaded.sheet.players), dealer)
    result = arrange(form.summary.score(loaded.rules), form.summary.game, multiplier) if form.summary else None
    partial = htmx.is_partial(request)
    context = form_context(form, loaded.rules)
    context["field_names"] = [*context["field_names"], "dealer", "re_players"]
    return render_template(
        "sheet/_preview.html" if partial else "sheet/deal.html",
        **{**sheet_context(loaded), **context},
        deal_id=deal_id, deal_number=number, multiplier=multiplier, playing=playing, sitting_out=sitting_out,
        re_set={_seat(p, "re", MAX_PLAYERS) for p in form.values.get("re", "").split(",")} - {None},
        once=once or new_deal_id(),
        result=result, kontra_points=DECK_POINTS - form.summary.re_points if form.summary else None,
        oob=True, partial=partial, notice=notice,
    ), status


def _preview_status(form: Form) -> int:
    """A deal form opened with values it cannot read is a 400; htmx's live preview while the
    form is filled in stays a 200 (its fragment shows the messages next to the fields)."""
    return 400 if form.errors and not htmx.is_partial(request) else 200


@bp.get("/" + KEY + "/deal")
def new_deal(key: str) -> tuple[str, int]:
    """Enter the next deal: the calculator's fields, who dealt and who was Re."""
    loaded = Loaded(key)
    loaded.require_editor()
    args = request.args if request.args else MultiDict({"dealer": str(loaded.evening.next_dealer)})
    form, _deal = read_deal(args, loaded.sheet, loaded.rules, loaded.evening.next_dealer, preview=True)
    if not request.args:
        form.errors.clear()
    return _deal_page(loaded, form, None, _preview_status(form), once=_kept_once())


@bp.post("/" + KEY + "/deal")
def add_deal(key: str) -> Response | tuple[str, int]:
    """Add a deal; back to the sheet (303). 400 with the reasons, 409 if the sheet changed."""
    return _add(key, read_deal, _counted_page)


@bp.get("/" + KEY + "/deal/" + DEAL)
def edit_deal(key: str, deal_id: str) -> tuple[str, int]:
    """Change a deal already on the sheet (or delete it)."""
    loaded = Loaded(key)
    loaded.require_editor()
    row = loaded.evening.rows[_shown_deal(loaded, deal_id)]
    fields = request.args if request.args else deal_fields(row.deal, loaded.rules)
    form, _deal = read_deal(fields, loaded.sheet, loaded.rules, row.rotation_dealer, preview=True)
    return _deal_page(loaded, form, deal_id, _preview_status(form))


@bp.get("/" + KEY + "/deal/" + DEAL + "/undo")
def undo_deal(key: str, deal_id: str) -> tuple[str, int]:
    """Undo a deal: its page with the delete button open, one tap to confirm."""
    loaded = Loaded(key)
    loaded.require_editor()
    row = loaded.evening.rows[_shown_deal(loaded, deal_id)]
    g.undo = True  # the page opens its delete section
    if row.deal.quick is not None:
        quick, deal = read_quick(quick_fields(row, loaded.rules), loaded.sheet, loaded.rules, row.rotation_dealer,
                                 preview=True)
        return _quick_page(loaded, quick, deal, deal_id, 200)
    form, _deal = read_deal(deal_fields(row.deal, loaded.rules), loaded.sheet, loaded.rules, row.rotation_dealer,
                            preview=True)
    return _deal_page(loaded, form, deal_id, 200)


@bp.post("/" + KEY + "/deal/" + DEAL)
def update_deal(key: str, deal_id: str) -> Response | tuple[str, int]:
    """Save a changed deal; every total, Bock and dealer after it follows."""
    return _update(key, deal_id, read_deal, _counted_page)


@bp.post("/" + KEY + "/deal/" + DEAL + "/delete")
def delete_deal(key: str, deal_id: str) -> Response | tuple[str, int]:
    """Delete a deal; the sheet recomputes everything after it."""
    loaded = Loaded(key)
    loaded.require_editor()
    version = _version()
    loaded.stored_deal(deal_id, version)
    try:
        store().delete_deal(loaded.sheet, version, deal_id)
    except Conflict:
        fresh = Loaded(key)
        return render_template("sheet/show.html", **sheet_context(fresh), notice=str(MESSAGES["conflict"])), 409
    except NotFound:
        abort(404)
    return redirect(url_for("sheet.show", key=key), code=303)


# --- quick entry ----------------------------------------------------------------------------


def _quick_page(loaded: Loaded, form: Form, deal: Deal | None, deal_id: str | None, status: int,
                notice: str | None = None, once: str | None = None) -> tuple[str, int]:
    """The quick form (new or edit), or for htmx just the row it makes."""
    ev = loaded.evening
    if deal_id is None:
        number, multiplier, dealer_default = len(loaded.deals) + 1, ev.next_multiplier, ev.next_dealer
    else:
        index, _stored = loaded.stored_deal(deal_id)
        number, multiplier, dealer_default = index + 1, ev.rows[index].multiplier, ev.rows[index].deal.dealer
    players = len(loaded.sheet.players)
    chosen = _seat(form.values.get("dealer"), "dealer", players)
    dealer = dealer_default if chosen is None else chosen
    form.values["dealer"] = str(dealer)
    playing, sitting_out = seating(players, dealer)
    entries = entries_for(players, deal, deal_score(loaded.rules, deal), multiplier) if deal else None
    partial = htmx.is_partial(request)
    return render_template(
        "sheet/_quick_result.html" if partial else "sheet/quick.html",
        **sheet_context(loaded), form=form, deal=deal, deal_id=deal_id, deal_number=number, multiplier=multiplier,
        games=played_games(loaded.rules), playing=playing, sitting_out=sitting_out, entries=entries,
        re_set={_seat(p, "re", MAX_PLAYERS) for p in form.values.get("re", "").split(",")} - {None},
        once=once or new_deal_id(), field_names=QUICK_FIELDS, quick_max=QUICK_MAX, oob=True, partial=partial,
        notice=notice,
    ), status


@bp.get("/" + KEY + "/quick")
def new_quick(key: str) -> tuple[str, int]:
    """Enter the next deal quickly: the game, who was Re, who won and the value."""
    loaded = Loaded(key)
    loaded.require_editor()
    args = request.args if request.args else MultiDict({"dealer": str(loaded.evening.next_dealer)})
    form, deal = read_quick(args, loaded.sheet, loaded.rules, loaded.evening.next_dealer, preview=True)
    return _quick_page(loaded, form, deal, None, _preview_status(form), once=_kept_once())


@bp.post("/" + KEY + "/quick")
def add_quick(key: str) -> Response | tuple[str, int]:
    """Add a quick deal; back to the sheet (303). 400 with the reasons, 409 if the sheet changed."""
    return _add(key, read_quick, _quick_page)


@bp.get("/" + KEY + "/quick/" + DEAL)
def edit_quick(key: str, deal_id: str) -> tuple[str, int]:
    """Change a deal on the sheet as the winners and the value (or delete it)."""
    loaded = Loaded(key)
    loaded.require_editor()
    row = loaded.evening.rows[_shown_deal(loaded, deal_id)]
    fields = request.args if request.args else quick_fields(row, loaded.rules)
    form, deal = read_quick(fields, loaded.sheet, loaded.rules, row.rotation_dealer, preview=True)
    return _quick_page(loaded, form, deal, deal_id, _preview_status(form))


@bp.post("/" + KEY + "/quick/" + DEAL)
def update_quick(key: str, deal_id: str) -> Response | tuple[str, int]:
    """Save a deal as the winners and the value; every total, Bock and dealer after it follows."""
    return _update(key, deal_id, read_quick, _quick_page)


# --- saving a deal: the full form and the quick form alike ------------------------------

Reader = Callable[[MultiDict[str, str], Sheet, RuleSet, int], tuple[Form, Deal | None]]
FormPage = Callable[..., tuple[str, int]]  # (loaded, form, deal, deal_id, status, notice=, once=)


def _counted_page(loaded: Loaded, form: Form, deal: Deal | None, deal_id: str | None, status: int,
                  notice: str | None = None, once: str | None = None) -> tuple[str, int]:
    """The full form's page in the quick form's terms (it shows what was typed, not the deal)."""
    return _deal_page(loaded, form, deal_id, status, notice=notice, once=once)


def wants_json() -> bool:
    """Whether the sender asks for the answer as JSON rather than a page: the deals a phone
    kept offline are sent so (static/js/sheet-queue.js), and read the answer, not a page."""
    return request.accept_mimetypes.best == "application/json"


def _json(data: dict[str, Any], status: int) -> Response:
    response = current_app.response_class(json.dumps(data, ensure_ascii=False), status, mimetype="application/json")
    response.vary.add("Accept")
    return response


def refused(status: int, code: str, text: str, fields: dict[str, str] | None = None) -> Response:
    """A deal refused, as the queue keeps it with the deal: the reason in the page's words and,
    for a form that cannot be read, each field's own message."""
    return _json({"error": {"code": code, "message": text, "fields": fields or {}}}, status)


def _refusal(error: HTTPException) -> Response:
    """A refusal made by abort() (a damaged form, the read-only link, a sheet gone) as JSON."""
    status = error.get_response().status_code
    if status == 403:
        return refused(403, "read_only", str(MESSAGES["read_only"]))
    if status == 404:
        return refused(404, "not_found", str(MESSAGES["not_found"]))
    own = error.description and error.description != type(error).description  # ours are translated
    return refused(status, "bad_request", str(error.description) if own else _("The request could not be understood."))


def _add(key: str, reader: Reader, page: FormPage) -> Response | tuple[str, int]:
    """A new deal from a form: saved once however often the form is sent, 400 with the
    reasons, 409 if another phone changed the sheet first."""
    if wants_json():
        try:
            return _add_kept(key, reader)
        except HTTPException as error:
            return _refusal(error)
    loaded = Loaded(key)
    loaded.require_editor()
    version = _version()
    once = _once()
    form, deal = reader(request.form, loaded.sheet, loaded.rules, loaded.evening.next_dealer)
    if deal is None:
        return page(loaded, form, None, None, 400, once=once)
    try:
        store().add_deal(loaded.sheet, version, to_data(deal), once)
    except AlreadySaved:
        pass  # the same form sent again (its answer was lost): saved the first time
    except Conflict:
        return page(Loaded(key), form, deal, None, 409, notice=str(MESSAGES["conflict"]), once=once)
    # The top of the sheet: the next deal's button, and every player's name with the total
    # and who deals next (the table's totals alone, further down, show no names).
    return redirect(url_for("sheet.show", key=key), code=303)


def _add_kept(key: str, reader: Reader) -> Response:
    """A deal a phone kept while it was offline, sent by its queue: as a form would be, with
    JSON for an answer. 201 with the deal's id and the sheet's version after it; 200 when this
    deal (its one-time id) is on the sheet already, the answer to an earlier send lost; 400 or
    409 with the reason, and the deal stays on the phone."""
    loaded = Loaded(key)
    loaded.require_editor()
    version = _version()
    once = _once()
    if once is not None and any(stored.id == once for stored in loaded.stored):
        return _json({"saved": once, "again": True}, 200)
    if version != loaded.sheet.version:
        # Typed on a sheet that has changed since (its dealer, its Bock): the phone shows the
        # sheet as it is now and the deal with this reason, to be changed or deleted.
        return refused(409, "conflict", str(MESSAGES["conflict"]))
    form, deal = reader(request.form, loaded.sheet, loaded.rules, loaded.evening.next_dealer)
    if deal is None:
        reasons = dict(form.errors)
        first = next(iter(reasons.values()), _("The request could not be understood."))
        return refused(400, "invalid", first, reasons)
    try:
        saved = store().add_deal(loaded.sheet, version, to_data(deal), once)
    except AlreadySaved:
        return _json({"saved": once, "again": True}, 200)
    except Conflict:
        return refused(409, "conflict", str(MESSAGES["conflict"]))
    return _json({"saved": saved, "version": version + 1}, 201)


def _update(key: str, deal_id: str, reader: Reader, page: FormPage) -> Response | tuple[str, int]:
    """A changed deal from a form; every total, Bock and dealer after it follows."""
    loaded = Loaded(key)
    loaded.require_editor()
    version = _version()
    index, _stored = loaded.stored_deal(deal_id, version)
    form, deal = reader(request.form, loaded.sheet, loaded.rules, loaded.evening.rows[index].rotation_dealer)
    if deal is None:
        return page(loaded, form, None, deal_id, 400)
    try:
        store().update_deal(loaded.sheet, version, deal_id, to_data(deal))
    except Conflict:
        fresh = Loaded(key)
        fresh.stored_deal(deal_id, version)  # deleted meanwhile: the sheet with the conflict notice
        return page(fresh, form, deal, deal_id, 409, notice=str(MESSAGES["conflict"]))
    except NotFound:
        abort(404)
    return redirect(url_for("sheet.show", key=key), code=303)  # the top, with the names, as after a new deal


@bp.get("/" + KEY + "/sheet.csv")
def export(key: str) -> Response:
    """The sheet as CSV: one line per deal with each player's points, then the totals; a
    quick deal has no card points and says its winners and value instead. UTF-8
    with a byte-order mark, and ``;`` between cells where the language writes a decimal
    comma, so that Excel and LibreOffice open it in columns in German as in English."""
    loaded = Loaded(key)
    players = loaded.sheet.players
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";" if get_decimal_symbol(i18n.select_locale()) == "," else ",")
    bock = loaded.sheet.bock  # a sheet without Bock rounds has no Bock column: it would be all ones
    writer.writerow([_("Deal"), _("Dealer"), _("Game"), _("Compulsory solo"), _("Re"), _("Re’s card points"),
                     _("Quick entry"), *([_("Bock")] if bock else []), *map(_cell, players)])
    for row in loaded.evening.rows:
        deal = row.deal
        compulsory = _("vorgeführt") if row.vorgefuehrt else _("compulsory") if row.compulsory else ""
        writer.writerow([row.number, _cell(players[deal.dealer]), str(words.GAMES[deal.game]), compulsory,
                         " + ".join(_cell(players[p]) for p in deal.re_players),
                         "" if deal.quick else deal.re_points, quick_said(deal),
                         *([row.multiplier] if bock else []), *("" if e is None else e for e in row.entries)])
    writer.writerow([_("Total"), "", "", "", "", "", "", *([""] if bock else []), *loaded.evening.totals])
    response = current_app.response_class("\ufeff" + out.getvalue(), mimetype="text/csv")
    name = file_name(players, datetime.now(UTC).date().isoformat(), "csv")
    response.headers["Content-Disposition"] = f"attachment; filename={name}"
    return response


def file_name(players: Sequence[str], day: str, extension: str) -> str:
    """``doko-sheet-2026-12-01-anna-bert-carl-dora.csv``: readable, ASCII only, the same for
    the CSV and the JSON file of a sheet."""
    plain = unicodedata.normalize("NFKD", "-".join(players)).encode("ascii", "ignore").decode().lower()
    names = re.sub(r"[^a-z0-9]+", "-", plain).strip("-")[:60].strip("-")
    return f"doko-sheet-{day}" + (f"-{names}" if names else "") + "." + extension


def _cell(text: str) -> str:
    """A name as a CSV cell that no spreadsheet runs as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
