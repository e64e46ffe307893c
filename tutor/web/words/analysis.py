"""What the analysis says about a card, in the page's language: the verdicts and the table
tips behind them (tutor.analysis.tips gives the codes). Short, as a club player says it.

Seats are named by the caller (``seat``): the play page names them from the learner's chair,
the API by number; the quiz's names are the default.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from flask_babel.speaklater import LazyString

from tutor.analysis.tips import Tip
from tutor.analysis.verdicts import Verdict
from tutor.web.words.cards import suit_name
from tutor.web.words.questions.names import seat as quiz_seat
from tutor.web.words.questions.names import short

VERDICTS: Final[dict[Verdict, LazyString]] = {
    "best": _l("Best"),
    "good": _l("Good"),
    "inaccuracy": _l("Small slip"),
    "mistake": _l("Mistake"),
    "blunder": _l("Blunder"),
    "unclear": _l("Too close to call"),
}


def verdict_name(verdict: Verdict) -> str:
    return str(VERDICTS[verdict])


def tip_text(tip: Tip, seat: Callable[[int], str] = quiz_seat) -> str:
    """The sentence of a tip (its code and parameters), seats named by ``seat``."""
    p: dict[str, Any] = tip.params
    card = short(p["card"]) if "card" in p else ""
    better = short(p["better"]) if "better" in p else ""
    who = seat(p["seat"]) if "seat" in p else ""
    suit = suit_name(p["suit"]) if "suit" in p else ""
    code = tip.code
    if code == "schmieren":
        return _("%(seat)s, your partner, had the trick safe with %(winning)s: put points on it, %(better)s rather "
                 "than %(card)s.", seat=who, winning=short(p["winning"]), better=better, card=card)
    if code == "points_to_opponents":
        return _("This trick goes to the other side (%(seat)s): throw your cheapest card, not %(card)s.",
                 seat=who, card=card)
    if code == "lowest_winner":
        return _("%(better)s takes this trick just as well: keep %(card)s for later.", better=better, card=card)
    if code == "shown_void":
        return _("%(seat)s showed in trick %(trick)d that he has no %(suit)s left: a high %(suit)s card gets "
                 "trumped.", seat=who, trick=p["trick"], suit=suit)
    if code == "second_round":
        return _("There has been a round of %(suit)s already: someone is likely out of it, so %(card)s led now is "
                 "usually lost.", suit=suit, card=card)
    if code == "kontra_aces":
        return _("As Kontra, cash a short ace in its suit’s first round: %(better)s.", better=better)
    if code == "re_trumps":
        return _("As Re, lead trumps and pull the others’ trumps: %(better)s rather than %(card)s.",
                 better=better, card=card)
    if code == "trumps_from_top":
        return _("With %(num)d trumps, start from the top: %(better)s.", num=p["trumps"], better=better)
    if code == "dulle_cheap":
        return ngettext("Keep the Dulle for a trick worth it: only %(num)d card point lay on the table.",
                        "Keep the Dulle for a trick worth it: only %(num)d card points lay on the table.", p["points"])
    if code == "dulle_worth_it":
        return ngettext("Take this %(num)d-point trick with the Dulle.",
                        "Take this %(num)d-point trick with the Dulle.", p["points"])
    if code == "fox":
        return _("Play the fox when your partner already has the trick or nobody can take it: %(seat)s could.",
                 seat=who)
    if code == "trump_that_holds":
        return _("With an opponent still to play, ruff with at least a jack: %(better)s rather than %(card)s.",
                 better=better, card=card)
    if code == "partner_ace":
        return _("Your partner’s %(ace)s would have won this first round: don’t trump it.", ace=short(p["ace"]))
    if code == "keep_karlchen":
        return _("Keep the J♣ (Karlchen) if you can: won in the last trick, it scores a point.")
    if code == "groom_lead":
        return _("As the one who declared the wedding, let someone else take an early trick: lead a low plain "
                 "card, not %(card)s.", card=card)
    return _("The computer’s simulations slightly prefer %(better)s.", better=better)
