"""A score sheet as a file: the CSV export, `/<lang>/sheet/<key>/sheet.csv` (one line per deal,
then the totals, for a spreadsheet); the JSON export of the whole sheet, `/<lang>/sheet/<key>/sheet.json`,
and its import on another device, `POST /<lang>/sheet/import`, which makes a new sheet.

The file is the sheet as the store keeps it (docs/sheet-file.md): players, rules key, Bock,
first dealer and each deal in the form ``to_data`` writes. The import trusts nothing in it:
each deal goes back through ``from_data``, is checked against the types ``Deal`` declares and
then by the engine (``check_deal``, ``evening``), so whatever a deal's stored form holds is
checked without a second list of its fields here. A refused file stores nothing; an accepted
one is written with all its deals in one transaction.
"""
from __future__ import annotations

import csv
import dataclasses
import io
import json
import re
import types
import unicodedata
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, Final, Literal, Union, get_args, get_origin, get_type_hints

from babel.numbers import get_decimal_symbol
from flask import current_app, redirect, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.wrappers import Response

from tutor.rules.errors import RulesError
from tutor.rules.rulesets import RuleSet
from tutor.rules.sheet import Deal, check_deal, evening
from tutor.web import words
from tutor.web.base import i18n
from tutor.web.base.rules import current_rules, rules_from_key, rules_key
from tutor.web.score.form import message
from tutor.web.score.sheet import KEY, Loaded, _new_sheet_page, bp, store
from tutor.web.score.sheet_forms import quick_said, read_players
from tutor.web.score.store_format import from_data, to_data

FORMAT: Final = "doko-tutor-sheet"
VERSION: Final = 1
MAX_BYTES: Final = 1024 * 1024  # a sheet of MAX_DEALS deals is about a quarter of this
MAX_DEALS: Final = 1000  # a long evening at seven players is a few rounds of 42 deals
FIELDS: Final = ("format", "version", "exported", "players", "rules", "bock", "first_dealer", "deals")
_DEAL_TYPES: Final = get_type_hints(Deal)


class Refused(Exception):
    """The file cannot become a sheet; ``message`` says why, translated."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclasses.dataclass(frozen=True)
class SheetFile:
    """What an accepted file holds, every part checked."""

    players: list[str]
    rules: RuleSet
    bock: bool
    first_dealer: int
    deals: list[Deal]


def document(loaded: Loaded) -> dict[str, Any]:
    """The whole sheet as a versioned document: what it needs to be rebuilt exactly. The deals
    are kept as entered (a dealer the rotation would move stays as typed), so the new sheet's
    evening is the same as this one's."""
    sheet = loaded.sheet
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported": datetime.now(UTC).isoformat(timespec="seconds"),
        "players": list(sheet.players),
        "rules": sheet.rules,
        "bock": sheet.bock,
        "first_dealer": sheet.first_dealer,
        "deals": [to_data(deal) for deal in loaded.deals],
    }


@bp.get("/" + KEY + "/sheet.json")
def export_json(key: str) -> Response:
    """The sheet as a JSON file, to import on another device (the read-only link may too)."""
    loaded = Loaded(key)
    body = document(loaded)
    text = json.dumps(body, ensure_ascii=False, indent=1)
    response = current_app.response_class(text + "\n", mimetype="application/json")
    name = file_name(loaded.sheet.players, body["exported"][:10], "json")
    response.headers["Content-Disposition"] = f"attachment; filename={name}"
    return response


# --- reading a file -------------------------------------------------------------------------


def _damaged(field: str) -> Refused:
    return Refused(_("The sheet file is damaged: “%(field)s” is missing or has the wrong kind of value.",
                     field=field))


def _fits(value: Any, hint: Any) -> bool:
    """Whether ``value`` has the type ``hint`` (as Deal declares its fields). A Literal only
    asks for the type of its values: which values are allowed is the engine's to say, in its
    own words. A hint this does not know lets the engine judge alone."""
    origin, args = get_origin(hint), get_args(hint)
    if hint is Any:
        return True
    if hint is type(None):
        return value is None
    if hint is bool:
        return isinstance(value, bool)
    if hint in (int, float, str):
        return isinstance(value, hint) and not isinstance(value, bool)
    if origin is Literal:
        return any(_fits(value, type(arg)) for arg in args)
    if origin in (Union, types.UnionType):
        return any(_fits(value, arg) for arg in args)
    if origin is tuple:
        if not isinstance(value, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_fits(item, args[0]) for item in value)
        return len(value) == len(args) and all(_fits(item, arg) for item, arg in zip(value, args, strict=True))
    if origin in (list, Sequence):
        return isinstance(value, list) and all(_fits(item, args[0]) for item in value)
    if origin in (dict, Mapping):
        return isinstance(value, Mapping) and all(_fits(k, args[0]) and _fits(v, args[1]) for k, v in value.items())
    return True


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON writes them (so ``true`` is not ``1`` and ``1`` is not ``1.0``)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def read_deal(data: Any, number: int) -> Deal:
    """One deal of the file, through ``from_data``: refused unless it has the types Deal
    declares and ``to_data`` would write it again as it stands (no field unknown or changed
    on the way in). Fields it leaves out take ``from_data``'s defaults."""
    damaged = Refused(_("Deal %(num)d in the file is damaged.", num=number))
    if not isinstance(data, dict):
        raise damaged
    try:
        deal = from_data(data)
        again = to_data(deal)
    except (KeyError, TypeError, ValueError, AttributeError):
        raise damaged from None
    for field in dataclasses.fields(Deal):
        if not _fits(getattr(deal, field.name), _DEAL_TYPES[field.name]):
            raise damaged
    if any(name not in again or not _same(value, again[name]) for name, value in data.items()):
        raise damaged
    return deal


def _players(names: Any) -> list[str]:
    """The names as the new-sheet form takes them: 4 to 7, none empty, no two alike."""
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise _damaged("players")
    if any(not n.strip() for n in names):
        raise Refused(_("A player in the file has no name."))
    errors: dict[str, str] = {}
    kept = read_players(MultiDict([("player", n) for n in names]), errors)
    if errors:
        raise Refused(errors["player"])
    return kept


def read_file(raw: bytes) -> SheetFile:
    """The sheet a file holds, or Refused with the reason: not JSON, another format or
    version, a part of the wrong type, rules or players the new-sheet form would refuse,
    too many deals, or a deal the engine refuses (its number and the engine's reason)."""
    not_ours = Refused(_("This file is not a sheet exported from Doko Tutor."))
    try:
        doc = json.loads(raw.decode("utf-8-sig"), parse_constant=_no_constant)
    except (ValueError, RecursionError):  # not UTF-8, not JSON, NaN, a number too long
        raise not_ours from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise not_ours
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise _damaged("version")
    if version > VERSION:
        raise Refused(_("This sheet file comes from a newer version of Doko Tutor (format %(version)d) and "
                        "cannot be read here yet.", version=version))
    unknown = sorted(set(doc) - set(FIELDS))
    if unknown:
        raise _damaged(unknown[0][:40])
    for field in FIELDS[3:]:
        if field not in doc:
            raise _damaged(field)
    if not isinstance(doc.get("exported", ""), str):
        raise _damaged("exported")
    players = _players(doc["players"])
    if not isinstance(doc["rules"], str):
        raise _damaged("rules")
    try:
        rules = rules_from_key(doc["rules"])
    except RulesError:
        raise Refused(_("The rules in the file are not known here.")) from None
    bock, first_dealer, deals = doc["bock"], doc["first_dealer"], doc["deals"]
    if not isinstance(bock, bool):
        raise _damaged("bock")
    if not _fits(first_dealer, int) or not 0 <= first_dealer < len(players):
        raise _damaged("first_dealer")
    if not isinstance(deals, list):
        raise _damaged("deals")
    if len(deals) > MAX_DEALS:
        raise Refused(ngettext("A sheet file has at most %(num)d deal.", "A sheet file has at most %(num)d deals.",
                               MAX_DEALS))
    checked = []
    for number, data in enumerate(deals, start=1):
        deal = read_deal(data, number)
        try:
            check_deal(rules, len(players), deal)
        except RulesError as error:
            raise Refused(_("Deal %(num)d cannot be on this sheet: %(reason)s", num=number,
                            reason=message(error))) from None
        checked.append(deal)
    try:
        evening(rules, len(players), checked, bock, first_dealer)
    except (RulesError, ValueError, TypeError, KeyError):  # the engine's last word: never a half sheet
        raise not_ours from None
    return SheetFile(players, rules, bock, first_dealer, checked)


def _no_constant(name: str) -> None:
    raise ValueError(name)  # NaN and Infinity are not JSON


@bp.post("/import")
def import_sheet() -> Response | tuple[str, int]:
    """A sheet file becomes a new sheet with new links (303 to its editor, which this device
    then lists as its own); a file that cannot is the start page again with the reason (400,
    413 when it is too large), and nothing is stored."""
    request.max_content_length = MAX_BYTES + 64 * 1024  # the file and the form around it
    try:
        upload = request.files.get("sheet")
        fields = set(request.form) | set(request.files)
    except RequestEntityTooLarge:
        return _refused(_("The file is too large for a sheet file (at most %(size)s).", size="1 MB"), 413)
    if fields - {"sheet"}:
        return _refused(_("The request could not be understood."))
    if upload is None or not upload.filename:
        return _refused(_("Choose a sheet file to import."))
    raw = upload.read(MAX_BYTES + 1)
    if len(raw) > MAX_BYTES:
        return _refused(_("The file is too large for a sheet file (at most %(size)s).", size="1 MB"), 413)
    try:
        found = read_file(raw)
    except Refused as refused:
        return _refused(refused.message)
    sheet = store().create_sheet(found.players, rules_key(found.rules), found.bock, found.first_dealer,
                                 [to_data(deal) for deal in found.deals], imported=True)
    return redirect(url_for("sheet.show", key=sheet.edit_key), code=303)


def _refused(reason: str, status: int = 400) -> tuple[str, int]:
    text = reason + " " + _("Nothing was imported.")
    return _new_sheet_page({"import": text}, {"player": []}, current_rules(), status)


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
