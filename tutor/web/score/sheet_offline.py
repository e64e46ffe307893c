"""A sheet offline: `/<lang>/sheet/<key>/offline.json`, what the editor's phone keeps of a
sheet so that it can be read, and the next deals entered, without a connection.

The sheet's pages themselves are kept by the service worker (`Cache-Control: private,
no-cache`: never in a shared cache); static/js/sheet.js keeps this file on the phone
(IndexedDB) with the deals typed offline, shows them as rows of the sheet, and
static/js/sheet-queue.js sends them, in order, once there is a connection (each with its
one-time id, so a deal sent twice is stored once). What the rules say of the next deals is
offline_sheet.outlook, the engine's answers; a deal's score the calculator's table.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Final

from flask import current_app, url_for
from flask_babel import get_locale, ngettext
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from tutor.rules.games import GAMES, is_solo, played_games
from tutor.rules.sheet import QUICK_MAX, course_of
from tutor.web import words
from tutor.web.base import i18n
from tutor.web.score import offline, offline_sheet
from tutor.web.score.form import MESSAGES as FORM_MESSAGES
from tutor.web.score.form import message_template
from tutor.web.score.sheet import KEY, Loaded, bp
from tutor.web.score.sheet_forms import MESSAGES

# A count no sentence holds otherwise: a sentence said for it, with this number in the place
# of the count, is the sentence for any count but one (each language of the app uses its
# singular for one alone; the script fills the real count in).
MANY: Final = 7919


def for_counts(say: Callable[[int], str]) -> list[str]:
    """A sentence with a count in it, as [said of one, said of MANY]."""
    return [say(1), say(MANY)]


def quick_words() -> dict[str, str]:
    """A quick deal as the sheet's row says it, by the party that won and the kind of game."""
    return {"re": _("Re won, %(num)d"), "kontra": _("Kontra won, %(num)d"),
            "soloist": _("The soloist won, %(num)d"), "opponents": _("The opponents won, %(num)d")}


def offline_words(players: int) -> dict[str, Any]:
    """The words of the sheet's offline parts, in the page's language, with their %(name)s
    places open (the script fills them as Python's % does)."""
    return {
        # What the phone keeps, and what happens to it.
        "offline_at": _("Offline: this is the sheet as the server had it at %(time)s."),
        "offline": _("Offline: this is the sheet as it was last loaded on this phone."),
        "unreachable": _("The server cannot be reached just now: the deals stay on this phone and are sent later."),
        "kept": for_counts(lambda n: ngettext(
            "%(num)d deal is kept on this phone and sent as soon as there is a connection.",
            "%(num)d deals are kept on this phone and sent as soon as there is a connection.", n)),
        "sending": _("Sending the deals kept on this phone…"),
        "sent": for_counts(lambda n: ngettext("%(num)d deal from this phone is now on the sheet.",
                                              "%(num)d deals from this phone are now on the sheet.", n)),
        "needs_network": _("Changing or deleting a deal on the sheet needs a connection. New deals can be "
                           "entered offline: they are kept on this phone and sent once you are back online."),
        "pending": _("on this phone"),
        "refused_tag": _("not saved"),
        "refused": _("Deal %(num)d was not saved: %(reason)s"),
        "waiting": _("Deal %(num)d waits until the deal before it is saved or deleted."),
        "change": _("Change it"),
        "drop": _("Delete it"),
        "drop_confirm": _("Delete deal %(num)d from this phone? What was typed for it is lost."),
        "fix_needs_network": _("Changing a deal kept on this phone needs a connection: the form shows the "
                               "sheet as the server has it now."),
        "status": {"403": str(MESSAGES["read_only"]), "404": str(MESSAGES["not_found"]),
                   "other": _("The server refused this deal (error %(code)s).")},
        # The rows and what comes next.
        "games": {game: str(name) for game, name in words.GAMES.items()},
        "quick": quick_words(),
        "dealt_by": _("dealt by %(name)s"),
        "dealer_later": _("dealer: worked out when it is sent"),
        "compulsory": _("compulsory"),
        "vorgefuehrt": _("vorgeführt"),
        "bock": _("Bock ×%(num)d"),
        "starts_bock": _("starts Bock"),
        "sat_out": _("sat out"),
        "total_with": _("with the deals on this phone"),
        "caption": for_counts(lambda n: ngettext("%(num)d deal", "%(num)d deals", n)),
        "next": _("Next: deal %(num)d"),
        "enter": _("Enter deal %(num)d"),
        "solos": [game for game in GAMES if is_solo(game)],
        "correct": _("Correct the marked field to see the score."),
        "deals_tag": _("deals"),
        "sits_out_tag": _("sits out"),
        "owed_tag": _("solo owed"),
        "deals": _("Deals:"),
        "sits_out": _("Sits out:"),
        "no_bock": _("No Bock round running"),
        "owed": _("Compulsory solo still owed by:"),
        "all_played": _("Every compulsory solo of this round is played."),
        "vorgefuehrt_next": _("Vorgeführt: %(name)s has not played a compulsory solo and only as many deals remain "
                              "as solos are owed, so %(name)s must play a solo in this deal with the cards dealt."),
        "later": _("Further ahead this phone cannot work out who deals: the server does once the deals are sent."),
        # The forms.
        "deal": _("Deal %(num)d"),
        "all_play": _("All four play."),
        "vorgefuehrt_form": _("Vorgeführt: %(name)s must play a solo in this deal."),
        "without_bock": _("Type it without Bock: the sheet multiplies it by %(num)d."),
        "choose_dealer": _("Choose who dealt: this phone cannot work out the rotation this far ahead."),
        "kept_note": _("You are offline: the deal is kept on this phone and sent as soon as there is a "
                       "connection. Its score, worked out on this phone:"),
        "errors": {
            "required": str(FORM_MESSAGES["required"]),
            "not_a_number": str(FORM_MESSAGES["not_a_number"]),
            "choose": str(FORM_MESSAGES["unknown_choice"]),
            "winner": _("Please choose who won."),
            "value_range": message_template("out_of_range") % {"low": 1, "high": QUICK_MAX},
            "re_count": message_template("wrong_re_count"),
            "sat_out": str(FORM_MESSAGES["player_sat_out"]),
            "row_sum": {str(expected): ngettext(
                "The entries of this row sum to %(total)s, not zero: tick exactly %(num)d Re player.",
                "The entries of this row sum to %(total)s, not zero: tick exactly %(num)d Re players.",
                expected, total="%(total)s") for expected in (1, 2)},
        },
        "four_play": players == 4,
    }


def round_lines(turns: list[list[Any]]) -> dict[str, str]:
    """The round's line of the next-deal box for each (round, deals left) the table reaches."""
    lines = {}
    for _dealer, _owed, _forced, round_number, left, _edges in turns:
        lines[f"{round_number}:{left}"] = ngettext("Round %(round)d: %(num)d deal left",
                                                   "Round %(round)d: %(num)d deals left", left, round=round_number)
    return lines


@bp.get("/" + KEY + "/offline.json")
def offline_data(key: str) -> Response:
    """What the editor's phone keeps of the sheet to go on offline: the sheet's state (its
    version, deals, totals), the engine's outlook for the next deals, the addresses of the
    forms and of the calculator's table, and the words."""
    loaded = Loaded(key)
    loaded.require_editor()
    sheet, rules = loaded.sheet, loaded.rules
    players = len(sheet.players)
    _rows, course = course_of(rules, players, loaded.deals, sheet.bock, sheet.first_dealer)
    outlook = offline_sheet.outlook(rules, players, sheet.bock, course)
    data = {
        "key": sheet.edit_key,
        "lang": str(get_locale() or i18n.DEFAULT_LANGUAGE),
        "version": sheet.version,
        "players": list(sheet.players),
        "count": len(loaded.deals),
        "totals": list(loaded.evening.totals),
        "deals": [stored.id for stored in loaded.stored],
        "bock": sheet.bock,
        "rounds": rules.has_rounds,
        "compulsory": rules.has_compulsory_solos,
        "games": list(played_games(rules)),
        "urls": {
            "sheet": url_for("sheet.show", key=sheet.edit_key),
            "deal": url_for("sheet.new_deal", key=sheet.edit_key),
            "quick": url_for("sheet.new_quick", key=sheet.edit_key),
            "table": url_for("score.offline_table", variant=offline.variant_key(rules), v=offline.version()),
        },
        "outlook": outlook,
        "round_lines": round_lines(outlook["turns"]) if rules.has_rounds else {},
        "quick_max": QUICK_MAX,
        "sign": {"plus": words.signed(1)[:-1], "minus": words.signed(-1)[:-1]},
        "many": MANY,
        "words": offline_words(players),
    }
    response = current_app.response_class(json.dumps(data, ensure_ascii=False, separators=(",", ":")),
                                          mimetype="application/json")
    return response
