"""Saving a deal from the score sheet's forms, the full form and the quick form alike: saved
once however often it is sent, 400 with the reasons, 409 when another phone changed the sheet
first; a deal a phone kept offline is answered in JSON (static/js/sheet-queue.js).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from flask import abort, current_app, redirect, request, url_for
from flask_babel import gettext as _
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from tutor.rules.rulesets import RuleSet
from tutor.rules.sheet import Deal
from tutor.web.base import htmx
from tutor.web.score.form import Form
from tutor.web.score.sheet import Loaded, store
from tutor.web.score.sheet_forms import MESSAGES, form_once, form_version
from tutor.web.score.store import AlreadySaved, Conflict, NotFound
from tutor.web.score.store_format import Sheet, to_data

Reader = Callable[[MultiDict[str, str], Sheet, RuleSet, int], tuple[Form, Deal | None]]
FormPage = Callable[..., tuple[str, int]]  # (loaded, form, deal, deal_id, status, notice=, once=)


def preview_status(form: Form) -> int:
    """A deal form opened with values it cannot read is a 400; htmx's live preview while the
    form is filled in stays a 200 (its fragment shows the messages next to the fields)."""
    return 400 if form.errors and not htmx.is_partial(request) else 200


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


def add_from_form(key: str, reader: Reader, page: FormPage) -> Response | tuple[str, int]:
    """A new deal from a form: saved once however often the form is sent, 400 with the
    reasons, 409 if another phone changed the sheet first."""
    if wants_json():
        try:
            return _add_kept(key, reader)
        except HTTPException as error:
            return _refusal(error)
    loaded = Loaded(key)
    loaded.require_editor()
    version = form_version()
    once = form_once()
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
    version = form_version()
    once = form_once()
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


def update_from_form(key: str, deal_id: str, reader: Reader, page: FormPage) -> Response | tuple[str, int]:
    """A changed deal from a form; every total, Bock and dealer after it follows."""
    loaded = Loaded(key)
    loaded.require_editor()
    version = form_version()
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
