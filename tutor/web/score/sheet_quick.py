"""Quick entry on the score sheet, as on paper: the game, who was Re, who won and the value,
`/<lang>/sheet/<key>/quick/…` (the form is read by sheet_forms.read_quick).
"""

from __future__ import annotations

from flask import render_template, request
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response

from tutor.rules.games import played_games
from tutor.rules.sheet import MAX_PLAYERS, QUICK_MAX, Deal, deal_score, entries_for, seating
from tutor.web.base import htmx
from tutor.web.score.form import Form
from tutor.web.score.sheet import DEAL, KEY, Loaded, bp, sheet_context, shown_deal
from tutor.web.score.sheet_forms import QUICK_FIELDS, kept_once, quick_fields, read_quick, seat_of
from tutor.web.score.sheet_saving import add_from_form, preview_status, update_from_form
from tutor.web.score.store_format import new_deal_id


def quick_page(loaded: Loaded, form: Form, deal: Deal | None, deal_id: str | None, status: int,
               notice: str | None = None, once: str | None = None) -> tuple[str, int]:
    """The quick form (new or edit), or for htmx just the row it makes."""
    ev = loaded.evening
    if deal_id is None:
        number, multiplier, dealer_default = len(loaded.deals) + 1, ev.next_multiplier, ev.next_dealer
    else:
        index, _stored = loaded.stored_deal(deal_id)
        number, multiplier, dealer_default = index + 1, ev.rows[index].multiplier, ev.rows[index].deal.dealer
    players = len(loaded.sheet.players)
    chosen = seat_of(form.values.get("dealer"), "dealer", players)
    dealer = dealer_default if chosen is None else chosen
    form.values["dealer"] = str(dealer)
    playing, sitting_out = seating(players, dealer)
    entries = entries_for(players, deal, deal_score(loaded.rules, deal), multiplier) if deal else None
    partial = htmx.is_partial(request)
    return render_template(
        "sheet/_quick_result.html" if partial else "sheet/quick.html",
        **sheet_context(loaded), form=form, deal=deal, deal_id=deal_id, deal_number=number, multiplier=multiplier,
        games=played_games(loaded.rules), playing=playing, sitting_out=sitting_out, entries=entries,
        re_set={seat_of(p, "re", MAX_PLAYERS) for p in form.values.get("re", "").split(",")} - {None},
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
    return quick_page(loaded, form, deal, None, preview_status(form), once=kept_once())


@bp.post("/" + KEY + "/quick")
def add_quick(key: str) -> Response | tuple[str, int]:
    """Add a quick deal; back to the sheet (303). 400 with the reasons, 409 if the sheet changed."""
    return add_from_form(key, read_quick, quick_page)


@bp.get("/" + KEY + "/quick/" + DEAL)
def edit_quick(key: str, deal_id: str) -> tuple[str, int]:
    """Change a deal on the sheet as the winners and the value (or delete it)."""
    loaded = Loaded(key)
    loaded.require_editor()
    row = loaded.evening.rows[shown_deal(loaded, deal_id)]
    fields = request.args if request.args else quick_fields(row, loaded.rules)
    form, deal = read_quick(fields, loaded.sheet, loaded.rules, row.rotation_dealer, preview=True)
    return quick_page(loaded, form, deal, deal_id, preview_status(form))


@bp.post("/" + KEY + "/quick/" + DEAL)
def update_quick(key: str, deal_id: str) -> Response | tuple[str, int]:
    """Save a deal as the winners and the value; every total, Bock and dealer after it follows."""
    return update_from_form(key, deal_id, read_quick, quick_page)
