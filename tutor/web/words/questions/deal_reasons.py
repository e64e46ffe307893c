"""The engine's reasons about a deal in words, one function per topic, which takes the code:
announcements, what a party needs, the score, which game is played, Re or Kontra."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from babel.lists import format_list
from flask_babel import get_locale, ngettext
from flask_babel import gettext as _

from tutor.quiz.base import Question
from tutor.rules.announcements import shift
from tutor.rules.explain import Reason
from tutor.web import words
from tutor.web.words import signed
from tutor.web.words.questions.names import announcement, need_text, party_name, seat


def _level_name(level: int, party: str) -> str:
    return announcement(level, party)


def _announce(p: dict[str, Any], code: str, q: Question) -> str:
    party = p.get("party") or q.params.get("party", "re")
    name = _level_name(p["level"], party) if "level" in p else ""

    def who(text: str) -> str:
        # One message, so each language places and spaces the colon its own way.
        return _("%(seat)s: %(text)s", seat=seat(p["seat"]), text=text) if "seat" in p else text

    if code == "wedding_unclarified":
        text = _("Nobody may announce before the wedding’s clarification trick is complete.")
    elif code == "already_made":
        text = _("“%(announcement)s” has been announced already.", announcement=name)
    elif code == "too_late":
        text = ngettext(
            "“%(announcement)s” needs %(num)d card in hand; it is too late.",
            "“%(announcement)s” needs %(num)d cards in hand; it is too late.",
            p["needed"],
            announcement=_level_name(p["missed"], party),
        )
        if p["missed"] != p["level"]:
            text = _skipped_too_late(p, name, party)
    elif code == "skipped_level_too_late":
        text = _skipped_too_late(p, name, party)
    elif code == "reply_in_time":
        text = ngettext(
            "%(party)s may still reply with “%(announcement)s”: %(num)d card in hand is enough after the other party "
            "announced.",
            "%(party)s may still reply with “%(announcement)s”: %(num)d cards in hand are enough after the other "
            "party announced.",
            p["needed"],
            party=party_name(party),
            announcement=_level_name(0, party),
        )
    elif code == "reply_too_late":
        text = ngettext(
            "Even a reply with “%(announcement)s” needs %(num)d card in hand: too late.",
            "Even a reply with “%(announcement)s” needs %(num)d cards in hand: too late.",
            p["needed"],
            announcement=_level_name(0, party),
        )
    elif code == "rides_along":
        text = ngettext(
            "“%(target)s” is in time (%(num)d card needed), and “%(announcement)s” comes with it even though its own "
            "deadline has passed.",
            "“%(target)s” is in time (%(num)d cards needed), and “%(announcement)s” comes with it even though its own "
            "deadline has passed.",
            p["needed"],
            target=name,
            announcement=_level_name(0, party),
        )
    elif code == "all_made":
        return who(_("Everything has been announced already."))
    else:  # in_time
        text = ngettext(
            "“%(announcement)s” needs %(num)d card in hand: in time.",
            "“%(announcement)s” needs %(num)d cards in hand: in time.",
            p["needed"],
            announcement=name,
        )
    moved = p.get("trick") and shift(q.rules, p["trick"]) > shift(q.rules)
    if moved and code not in ("wedding_unclarified", "already_made"):
        text += " " + ngettext(
            "(The wedding was clarified in trick %(trick)d: every deadline falls %(num)d card later.)",
            "(The wedding was clarified in trick %(trick)d: every deadline falls %(num)d cards later.)",
            shift(q.rules, p["trick"]) - shift(q.rules),
            trick=p["trick"],
        )
    return who(text)


def _skipped_too_late(p: dict[str, Any], name: str, party: str) -> str:
    return ngettext(
        "“%(target)s” would make “%(announcement)s” too, which needs %(num)d card in hand: too late.",
        "“%(target)s” would make “%(announcement)s” too, which needs %(num)d cards in hand: too late.",
        p["needed"],
        target=name,
        announcement=_level_name(p["missed"], party),
    )


def _needs(p: dict[str, Any], code: str, q: Question) -> str:
    party = party_name(p["party"])
    other = party_name("kontra" if p["party"] == "re" else "re")
    if code == "meet_own_announcement":
        text = _(
            "%(party)s announced “%(announcement)s” and wins only by making it.",
            party=party,
            announcement=_level_name(p["own"], p["party"]),
        )
    elif code == "opponent_misses":
        text = _(
            "%(other)s announced “%(announcement)s”; %(party)s wins as soon as %(other)s misses it.",
            party=party,
            other=other,
            announcement=_level_name(p["opponent"], "kontra" if p["party"] == "re" else "re"),
        )
    elif code == "kontra_alone_moves_line":
        text = _(
            "“Kontra” was announced and “Re” was not, which moves the line: %(party)s needs %(need)s.",
            party=party,
            need=_need(p),
        )
    else:
        text = _("Nobody announced more than Re or Kontra: %(party)s needs %(need)s.", party=party, need=_need(p))
    text += _tie(p)
    if p.get("nobody"):
        text += " " + _("If neither party makes its announcement, nobody wins the deal.")
    return text


def _tie(p: dict[str, Any]) -> str:
    """Why the line is 121 and not 120, where it is: a 120:120 tie goes to Kontra (RULES.md §7)."""
    if (p.get("party"), p.get("points")) in (("re", 121), ("kontra", 120)):
        return " " + _("Why 121 and not 120: at 120 to 120 Kontra wins, so Re needs one card point more than half.")
    return ""


def _need(p: dict[str, Any]) -> str:
    return need_text(f"p{p['points']:d}") if p.get("points") is not None else need_text(p["tricks"])


def _score(p: dict[str, Any], code: str, q: Question) -> str:
    if code == "nobody_won":
        return _("Both parties announced more than Re or Kontra and neither made it: nobody won.")
    if code == "winner":
        return _("%(party)s won: it needed %(need)s.", party=party_name(p["party"]), need=_need(p)) + _tie(p)
    lines = "; ".join(
        _("%(line)s (%(party)s) %(points)d", line=words.LINES[line_id], party=party_name(party), points=points)
        for line_id, party, points in p["lines"]
    ) or _("no lines")
    return _("Lines: %(lines)s.", lines=lines) + " " + score_total(Reason(code, p))


def score_total(reason: Reason) -> str:
    """What the lines add up to, and what each player writes."""
    p = reason.params
    if p["solo"]:
        total = _(
            "Value %(value)s, seen from Re. The soloist writes three times: %(re)s; each opponent %(kontra)s.",
            value=signed(p["value"]),
            re=signed(p["re"]),
            kontra=signed(p["kontra"]),
        )
    else:
        total = _(
            "Value %(value)s, seen from Re: each Re player writes %(re)s, each Kontra player %(kontra)s.",
            value=signed(p["value"]),
            re=signed(p["re"]),
            kontra=signed(p["kontra"]),
        )
    return total


def _game(p: dict[str, Any], code: str, q: Question) -> str:
    others = format_list([seat(s) for s in p.get("others", ())], locale=str(get_locale()))
    texts = {
        "all_healthy": lambda: _("Everybody is healthy: a normal game."),
        "only_reservation": lambda: _("%(seat)s is the only one with a reservation.", seat=seat(p["seat"])),
        "earlier_in_turn": lambda: _(
            "Of reservations of the same kind, the one asked earlier wins: %(seat)s, before %(others)s.",
            seat=seat(p["seat"]),
            others=others,
        ),
        "priority_ddv": lambda: _(
            "DDV rules: a compulsory solo comes before a voluntary solo, a solo before poverty and a wedding; "
            "%(seat)s wins over %(others)s.",
            seat=seat(p["seat"]),
            others=others,
        ),
        "priority_pagat": lambda: _(
            "Classic rules: a solo comes before poverty, poverty before a wedding; %(seat)s wins over %(others)s.",
            seat=seat(p["seat"]),
            others=others,
        ),
        "left_of_dealer_leads": lambda: _(
            "The dealer’s left neighbour, %(seat)s, plays the first card.", seat=seat(p["seat"])
        ) + (" " + _("A wedding is no solo: the groom does not lead, the first card is played as in a normal game.")
             if q is not None and q.game == "wedding" else ""),
        "solo_lead_left_by_solo_kind": lambda: _(
            "A voluntary solo is led by the dealer’s left neighbour, %(seat)s.", seat=seat(p["seat"])
        ),
        "solo_lead_left_left_of_dealer": lambda: _(
            "Under these rules the dealer’s left neighbour, %(seat)s, leads every solo.", seat=seat(p["seat"])
        ),
        "solo_lead_left_soloist": lambda: _(
            "The dealer’s left neighbour, %(seat)s, plays the first card.", seat=seat(p["seat"])
        ),
        "compulsory_soloist_leads": lambda: _(
            "A compulsory solo is led by the soloist, %(seat)s, and the same dealer deals again.", seat=seat(p["seat"])
        ),
        "soloist_leads": lambda: _("Under these rules the soloist, %(seat)s, leads.", seat=seat(p["seat"])),
    }
    return texts[code]()


def _party(p: dict[str, Any], code: str, q: Question) -> str:
    who = seat(p["seat"])
    texts = {
        "holds_old_one": lambda: _("%(seat)s holds a Q♣ (die Alten): the holders of the Q♣ are Re.", seat=who),
        "no_old_one": lambda: _("%(seat)s holds no Q♣ (die Alten), so %(seat)s is Kontra.", seat=who),
        "wedding_groom": lambda: _(
            "%(seat)s holds both Q♣ and declared a wedding: Re, with the partner found in the clarification trick.",
            seat=who,
        ),
        "wedding_became_solo": lambda: _(
            "%(seat)s won the first three tricks alone: the wedding became a solo, and %(seat)s is Re alone.", seat=who
        ),
        "wedding_partner": lambda: _(
            "%(seat)s was the first other player to win one of the first three tricks (trick %(num)d): the partner, "
            "Re.",
            seat=who,
            num=p["clarification"],
        ),
        "wedding_opponent": lambda: _(
            "Trick %(num)d went to %(partner)s, the first other player to win one: %(seat)s is Kontra.",
            seat=who,
            num=p["clarification"],
            partner=seat(p["partner"]),
        ),
        "wedding_solo_opponent": lambda: _(
            "%(groom)s won the first three tricks: a solo, and everybody else is Kontra.", groom=seat(p["groom"])
        ),
        "poverty_poor": lambda: _(
            "%(seat)s declared poverty: the poor player and the one who takes the cards are Re.", seat=who
        ),
        "poverty_acceptor": lambda: _(
            "%(seat)s took the poverty: the poor player and the one who takes the cards are Re.", seat=who
        ),
        "poverty_other": lambda: _(
            "In a poverty the poor player and the one who takes the cards are Re, whoever holds the Q♣: %(seat)s is "
            "Kontra.",
            seat=who,
        ),
        "soloist": lambda: _("%(seat)s plays alone: the soloist is Re.", seat=who),
        "solo_opponent": lambda: _("Against a solo the other three players are Kontra.", seat=who),
    }
    return texts[code]()



# Reasons worded by one function per topic, which takes the code.
GROUPED: Final[dict[str, Callable[[dict[str, Any], str, Question], str]]] = {
    code: words
    for words, codes in (
        (
            _announce,
            (
                "wedding_unclarified",
                "already_made",
                "too_late",
                "skipped_level_too_late",
                "reply_in_time",
                "reply_too_late",
                "rides_along",
                "in_time",
                "all_made",
            ),
        ),
        (_needs, ("meet_own_announcement", "opponent_misses", "kontra_alone_moves_line", "plain_majority")),
        (_score, ("nobody_won", "winner", "score_lines")),
        (
            _game,
            (
                "all_healthy",
                "only_reservation",
                "earlier_in_turn",
                "priority_ddv",
                "priority_pagat",
                "left_of_dealer_leads",
                "solo_lead_left_by_solo_kind",
                "solo_lead_left_left_of_dealer",
                "solo_lead_left_soloist",
                "compulsory_soloist_leads",
                "soloist_leads",
            ),
        ),
        (
            _party,
            (
                "holds_old_one",
                "no_old_one",
                "wedding_groom",
                "wedding_became_solo",
                "wedding_partner",
                "wedding_opponent",
                "wedding_solo_opponent",
                "poverty_poor",
                "poverty_acceptor",
                "poverty_other",
                "soloist",
                "solo_opponent",
            ),
        ),
    )
    for code in codes
}
