"""A deal of the score sheet through the calculator's fields: its form (new, edit, undo),
saving it and deleting it, `/<lang>/sheet/<key>/deal/…`.
"""

from __future__ import annotations

from flask import abort, g, redirect, render_template, request, url_for
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response

from tutor.rules.cards import DECK_POINTS
from tutor.rules.sheet import MAX_PLAYERS, Deal, seating
from tutor.web.base import htmx
from tutor.web.score.calculator import arrange, form_context
from tutor.web.score.form import Form
from tutor.web.score.sheet import DEAL, KEY, Loaded, bp, sheet_context, shown_deal, store
from tutor.web.score.sheet_forms import (
    MESSAGES,
    deal_fields,
    form_version,
    kept_once,
    quick_fields,
    read_deal,
    read_quick,
    seat_of,
)
from tutor.web.score.sheet_quick import quick_page
from tutor.web.score.sheet_saving import add_from_form, preview_status, update_from_form
from tutor.web.score.store import Conflict, NotFound
from tutor.web.score.store_format import new_deal_id


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
    chosen = seat_of(form.values.get("dealer"), "dealer", len(loaded.sheet.players))
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
        re_set={seat_of(p, "re", MAX_PLAYERS) for p in form.values.get("re", "").split(",")} - {None},
        once=once or new_deal_id(),
        result=result, kontra_points=DECK_POINTS - form.summary.re_points if form.summary else None,
        oob=True, partial=partial, notice=notice,
    ), status


def _counted_page(loaded: Loaded, form: Form, deal: Deal | None, deal_id: str | None, status: int,
                  notice: str | None = None, once: str | None = None) -> tuple[str, int]:
    """The full form's page in the quick form's terms (it shows what was typed, not the deal)."""
    return _deal_page(loaded, form, deal_id, status, notice=notice, once=once)


@bp.get("/" + KEY + "/deal")
def new_deal(key: str) -> tuple[str, int]:
    """Enter the next deal: the calculator's fields, who dealt and who was Re."""
    loaded = Loaded(key)
    loaded.require_editor()
    args = request.args if request.args else MultiDict({"dealer": str(loaded.evening.next_dealer)})
    form, _deal = read_deal(args, loaded.sheet, loaded.rules, loaded.evening.next_dealer, preview=True)
    if not request.args:
        form.errors.clear()
    return _deal_page(loaded, form, None, preview_status(form), once=kept_once())


@bp.post("/" + KEY + "/deal")
def add_deal(key: str) -> Response | tuple[str, int]:
    """Add a deal; back to the sheet (303). 400 with the reasons, 409 if the sheet changed."""
    return add_from_form(key, read_deal, _counted_page)


@bp.get("/" + KEY + "/deal/" + DEAL)
def edit_deal(key: str, deal_id: str) -> tuple[str, int]:
    """Change a deal already on the sheet (or delete it)."""
    loaded = Loaded(key)
    loaded.require_editor()
    row = loaded.evening.rows[shown_deal(loaded, deal_id)]
    fields = request.args if request.args else deal_fields(row.deal, loaded.rules)
    form, _deal = read_deal(fields, loaded.sheet, loaded.rules, row.rotation_dealer, preview=True)
    return _deal_page(loaded, form, deal_id, preview_status(form))


@bp.get("/" + KEY + "/deal/" + DEAL + "/undo")
def undo_deal(key: str, deal_id: str) -> tuple[str, int]:
    """Undo a deal: its page with the delete button open, one tap to confirm."""
    loaded = Loaded(key)
    loaded.require_editor()
    row = loaded.evening.rows[shown_deal(loaded, deal_id)]
    g.undo = True  # the page opens its delete section
    if row.deal.quick is not None:
        quick, deal = read_quick(quick_fields(row, loaded.rules), loaded.sheet, loaded.rules, row.rotation_dealer,
                                 preview=True)
        return quick_page(loaded, quick, deal, deal_id, 200)
    form, _deal = read_deal(deal_fields(row.deal, loaded.rules), loaded.sheet, loaded.rules, row.rotation_dealer,
                            preview=True)
    return _deal_page(loaded, form, deal_id, 200)


@bp.post("/" + KEY + "/deal/" + DEAL)
def update_deal(key: str, deal_id: str) -> Response | tuple[str, int]:
    """Save a changed deal; every total, Bock and dealer after it follows."""
    return update_from_form(key, deal_id, read_deal, _counted_page)


@bp.post("/" + KEY + "/deal/" + DEAL + "/delete")
def delete_deal(key: str, deal_id: str) -> Response | tuple[str, int]:
    """Delete a deal; the sheet recomputes everything after it."""
    loaded = Loaded(key)
    loaded.require_editor()
    version = form_version()
    loaded.stored_deal(deal_id, version)
    try:
        store().delete_deal(loaded.sheet, version, deal_id)
    except Conflict:
        fresh = Loaded(key)
        return render_template("sheet/show.html", **sheet_context(fresh), notice=str(MESSAGES["conflict"])), 409
    except NotFound:
        abort(404)
    return redirect(url_for("sheet.show", key=key), code=303)
