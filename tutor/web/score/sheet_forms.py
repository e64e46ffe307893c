"""The score sheet's forms read: a new sheet's players and rules, a deal through the
calculator's fields (``read_deal``) or quickly as on paper (``read_quick``: the winners and the
value), and a stored deal back into its form's fields. Nothing here is stored or rendered.
"""

from __future__ import annotations

from typing import Final

from flask import abort, request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from werkzeug.datastructures import MultiDict

from tutor.parse import NumberError, whole_number
from tutor.rules.errors import RulesError
from tutor.rules.games import GAMES, check_game, is_solo
from tutor.rules.rulesets import OPTION_CHOICES, RULESETS, RuleSet
from tutor.rules.sheet import MAX_PLAYERS, MIN_PLAYERS, QUICK_MAX, Deal, Row, check_deal
from tutor.rules.terms import Party
from tutor.web import words
from tutor.web.base.rules import current_rules, decode
from tutor.web.score.form import MESSAGES as FORM_MESSAGES
from tutor.web.score.form import Form, field_name, message, read, summary_fields
from tutor.web.score.store_format import Sheet, is_deal_id

MAX_NAME: Final = 24
MESSAGES: Final = {
    "conflict": _l("This sheet was changed on another phone meanwhile, so nothing was saved. "
                   "Here it is as it is now: check it and enter your change again."),
    "read_only": _l("This is the read-only link of the sheet: ask for the editor’s link to change it."),
    "bad_version": _l("This form is damaged: reload the sheet and try again."),
    "cents": _l("Enter the cents per point as a whole number from %(low)d to %(high)d."),
    "not_found": _l("This sheet is not on the server any more."),
}




def form_version() -> int:
    try:
        return whole_number(request.form.get("version"), "version", low=0)
    except NumberError:
        abort(400, description=str(MESSAGES["bad_version"]))


def form_once() -> str | None:
    """The one-time id a new deal's form carries (None from a form without one)."""
    text = request.form.get("once")
    if text is None:
        return None
    if not is_deal_id(text):
        abort(400, description=str(MESSAGES["bad_version"]))
    return text


def kept_once() -> str | None:
    """The one-time id in a new deal form's address: a deal kept on the phone and refused,
    opened to be changed, keeps its id (None without one, or with a damaged one)."""
    text = request.args.get("once")
    return text if text is not None and is_deal_id(text) else None


def seat_of(text: str | None, field: str, players: int) -> int | None:
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
    dealer = seat_of(dealer_text, "dealer", players)
    if dealer is None:
        summary_form.error("dealer", str(_("Please choose one of the values offered.")))
    picked = form.getlist("re")[:MAX_PLAYERS + 1]
    seats = (seat_of(p, "re_players", players) for p in picked)
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


def deal_fields(deal: Deal, rules: RuleSet) -> MultiDict[str, str]:
    """The form fields of a stored deal, for its edit form."""
    fields = MultiDict({"game": deal.game} if deal.quick else summary_fields(deal.summary, rules))
    fields["dealer"] = str(deal.dealer)
    for player in deal.re_players:
        fields.add("re", str(player))
    return fields



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
    dealer = seat_of(values["dealer"], "dealer", players)
    if dealer is None:
        quick.error("dealer", choose)
    picked = form.getlist("re")[:MAX_PLAYERS + 1]
    seats = (seat_of(p, "re_players", players) for p in picked)
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
