"""Score sheets for an evening, `/<lang>/sheet/`: players, deals entered through the
calculator's fields or quickly as on paper (the winners and the value), running totals,
dealer, Bock and compulsory solos.

A sheet has two links with unguessable keys: the editor's and a read-only one. Every write
carries the version of the sheet the form was made from; a stale one is a 409 with the sheet
as it now is. The bookkeeping itself is tutor.rules.sheet's.

This module is the blueprint and the sheet's own pages: a new sheet, the sheet with its
settle-up, what every page of a sheet is shown with (``Loaded``, ``sheet_context``). The rest
of the sheet's routes are on the same blueprint: the deal form (sheet_deals.py), quick entry
(sheet_quick.py), the files (sheet_file.py) and offline (sheet_offline.py); the forms are
read in sheet_forms.py and saved in sheet_saving.py.
"""

from __future__ import annotations

import hashlib
import os
from decimal import Decimal
from typing import Any, Final

from babel.numbers import format_currency
from flask import Blueprint, Flask, abort, current_app, make_response, redirect, render_template, request, url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from tutor.parse import NumberError, whole_number
from tutor.rules.rulesets import OPTION_CHOICES, RULESETS, RuleSet
from tutor.rules.sheet import MAX_CENTS, MAX_PLAYERS, MIN_CENTS, Evening, evening, player_stats, settle_up
from tutor.web import words
from tutor.web.base import htmx, i18n, security, shared
from tutor.web.base.rules import current_rules, encode, rules_from_key, rules_key, to_cookie
from tutor.web.score.sheet_chart import chart
from tutor.web.score.sheet_devices import my_sheet_keys, remember_sheet, view_qr
from tutor.web.score.sheet_forms import MAX_NAME, MESSAGES, quick_said, read_players, read_rules, seat_of
from tutor.web.score.store import NotFound, Store
from tutor.web.score.store_format import Listed, Sheet, StoredDeal, from_data

bp = Blueprint("sheet", __name__, url_prefix=i18n.LANG_PREFIX + "/sheet")

KEY: Final = "<string(length=22):key>"
DEAL: Final = "<string(length=12):deal_id>"


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


# After a sheet page is shown, its link goes first in this device's list (sheet_devices.py).
bp.after_request(remember_sheet)


def store() -> Store:
    return current_app.extensions["doko_store"]  # type: ignore[no-any-return]


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


def shown_deal(loaded: Loaded, deal_id: str) -> int:
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


# --- views -------------------------------------------------------------------------------


@bp.get("/")
def index() -> tuple[str, int]:
    """Start a sheet: players, rules, Bock; and the sheets opened on this device."""
    return _new_sheet_page({}, {"player": []}, current_rules(), 200)


def my_sheets() -> list[Listed]:
    """The sheets this device opened that still exist, newest first, each with its date, its
    number of deals and whether it was imported."""
    return store().listed(my_sheet_keys())


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
    field = seat_of(first, "first_dealer", MAX_PLAYERS)
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
