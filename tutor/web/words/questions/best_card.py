"""Find the best card (tutor/quiz/best_card.py) in words: its prompt, what the seat knows, and
its reasons, the table tips of tutor/web/words/analysis.py or what the simulations measured."""

from __future__ import annotations

from babel.numbers import format_decimal
from flask_babel import get_locale, ngettext
from flask_babel import gettext as _

from tutor.analysis.tips import SIMULATIONS_PREFER, Tip
from tutor.quiz.base import Question
from tutor.quiz.why import Miss
from tutor.rules.explain import Reason
from tutor.rules.terms import ANNOUNCEMENT_IDS, narrow
from tutor.web import words
from tutor.web.words.questions.names import listing, party_name, seat, short


def best_card_prompt(q: Question) -> str:
    p = q.params
    where = seat(p["seat"])
    if p.get("party") is None:
        if q.prompt == "best_card_lead":
            return _("You are %(seat)s and lead to trick %(num)d. Which card is best?", seat=where, num=p["trick"])
        return _("You are %(seat)s and play to trick %(num)d. Which card is best?", seat=where, num=p["trick"])
    if q.prompt == "best_card_lead":
        return _("You are %(seat)s (%(party)s) and lead to trick %(num)d. Which card is best?",
                 seat=where, party=party_name(p["party"]), num=p["trick"])
    return _("You are %(seat)s (%(party)s) and play to trick %(num)d. Which card is best?",
             seat=where, party=party_name(p["party"]), num=p["trick"])


def seat_as_known(number: int, me: int) -> str:
    """A seat's name, "(you)" added for the seat the question puts the learner in."""
    return _("%(seat)s (you)", seat=seat(number)) if number == me else seat(number)


def best_card_parties(q: Question) -> list[tuple[str, str]]:
    """Who the seat knows to be Re, to be Kontra, and whose party it cannot tell yet, and what
    was announced: (heading, seats) rows."""
    f = q.facts
    rows = []
    for party in ("re", "kontra", None):
        seats = [seat_as_known(s, f["seat"]) for s in range(len(f["known"])) if f["known"][s] == party]
        if seats:
            rows.append((party_name(party) if party else _("Party not known yet"), listing(seats)))
    said = "; ".join(
        _("%(seat)s: %(text)s", seat=seat(s), text=party_name(party) if ident == party else
          _("%(party)s, %(announcement)s", party=party_name(party), announcement=announcement_name(ident)))
        for s, party, ident in f["said"])
    rows.append((_("Announced"), said or _("nothing")))
    return rows


def announcement_name(ident: str) -> str:
    return str(words.ANNOUNCEMENTS[narrow(ident, ANNOUNCEMENT_IDS)])


def by_seat(plays: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """A trick's (seat, card) pairs in seat order, as a row of the tricks so far shows them."""
    return sorted(plays)


def more_than_choices(q: Question) -> bool:
    """Whether the hand holds cards that are not among the choices (not legal now)."""
    chosen = {c.card for c in q.fields[0].choices} | {x for c in q.fields[0].choices for x in c.params.get("same", ())}
    return bool(set(q.facts["hand"]) - chosen)


def game_points(value: float) -> str:
    """A measured loss in game points, one decimal, as the page's language writes it."""
    return format_decimal(value, format="0.0", locale=str(get_locale()))


def best_card_reason(reason: Reason) -> str:
    """A best_card question's reason: its tip, or what the simulations measured."""
    # Imported here: the words of the analysis name seats and cards with this module's words.
    from tutor.web.words.analysis import tip_text

    p = reason.params
    if reason.code == "simulated_loss":
        return ngettext(
            "The computer players played the deal on from here %(num)d time, with hidden hands that fit "
            "everything you could see: every other card cost at least %(loss)s game points a deal.",
            "The computer players played the deal on from here %(num)d times, with hidden hands that fit "
            "everything you could see: every other card cost at least %(loss)s game points a deal.",
            p["samples"], loss=game_points(p["loss"]))
    return tip_text(Tip(reason.code, p))


def best_card_miss(miss: Miss, q: Question) -> str:
    """Against the card picked: the tip that explains the best card against it (unless the
    question's own reason already says it, or no tip does), and what it cost."""
    p = miss.reason.params
    cost = _("The %(card)s you picked cost %(loss)s game points a deal more than %(better)s.",
             card=short(p["card"]), loss=game_points(p["loss"]), better=short(p["better"])) if "loss" in p else ""
    tip = Reason(miss.reason.code, {k: v for k, v in p.items() if k not in ("choice", "loss")})
    if tip.code == SIMULATIONS_PREFER or tip == q.reasons[0]:
        return cost or best_card_reason(tip)
    return f"{cost} {best_card_reason(tip)}".strip()
