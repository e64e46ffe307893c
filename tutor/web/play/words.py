"""The play page's sentences: seats seen from the learner, what revealed a party, why these
cards may be played, announcement deadlines, reservations. The engine says what happened
(codes, seats, card ids); this module only says it in the page's language."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from babel.lists import format_list
from flask import g
from flask_babel import get_locale, lazy_pgettext, ngettext
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from tutor.play import AnnounceOption, Reveal
from tutor.rules.explain import Reason
from tutor.web import words
from tutor.web.words.cards import suit_name
from tutor.web.words.questions import short

# Seat 0 is the learner, then the others in play order.
SEATS: Final = (lazy_pgettext("seat at the table", "You"), _l("West"), _l("North"), _l("East"))
LEVEL_NAMES: Final = {
    0: _l("Normal games"),
    1: _l("Weddings too"),
    2: _l("Solos and poverty too"),
}


def seat(number: int) -> str:
    """A seat's name in the page's language (looked up once a request: a page names seats often)."""
    names: list[str] | None = g.get("play_seats")
    if names is None:
        names = g.play_seats = [str(name) for name in SEATS]
    return names[number]


def party(name: str | None) -> str:
    return str(words.PARTIES["re" if name == "re" else "kontra"])


def known_line(known: Sequence[str | None]) -> str:
    """What the learner knows of the others' parties, in a sentence."""
    others = [(s, known[s]) for s in range(1, len(known)) if known[s] is not None]
    if not others:
        return _("Nobody else’s party is known yet.")
    return _("Known: %(parties)s.", parties=format_list([_("%(seat)s %(party)s", seat=seat(s), party=party(p))
                                                         for s, p in others], locale=str(get_locale())))


def cards(ids: Sequence[str]) -> str:
    return ", ".join(short(c) for c in ids)


def seats_list(numbers: Sequence[int]) -> str:
    return format_list([seat(s) for s in numbers], locale=str(get_locale()))


def legal_text(reason: Reason | None) -> str:
    """Why the learner may play exactly these cards (the engine's legal reason)."""
    if reason is None:
        return ""
    p = reason.params
    code = reason.code
    if code == "leading":
        return _("You lead this trick: any card may be played.")
    if code == "must_follow_trump":
        return _("A trump (%(lead)s) was led and you hold trumps: you must play a trump.", lead=short(p["lead"]))
    if code == "no_trump_any_card":
        return _("A trump (%(lead)s) was led and you hold none: any card may be played.", lead=short(p["lead"]))
    if code == "must_follow_suit":
        text = _(
            "The lead is %(suit)s and you hold plain %(suit)s cards: you must play one of them.",
            suit=suit_name(p["suit"]),
        )
        if p.get("trumps_of_suit"):
            text += " " + ngettext(
                "%(cards)s is a trump, not %(suit)s, so it does not follow.",
                "%(cards)s are trumps, not %(suit)s, so they do not follow.",
                len(p["trumps_of_suit"]),
                cards=cards(p["trumps_of_suit"]),
                suit=suit_name(p["suit"]),
            )
        return text
    return _(
        "The lead is %(suit)s and you hold no plain %(suit)s card: any card may be played, a trump or not.",
        suit=suit_name(p["suit"]),
    )


def forbidden_text(reason: Reason | None) -> str:
    """One line on a card that may not be played now."""
    if reason is None:
        return ""
    if reason.code == "must_follow_trump":
        return _("not a trump: you must follow with a trump")
    return _("you must follow %(suit)s", suit=suit_name(reason.params.get("suit", "C")))


def deadline_text(option: AnnounceOption, cards_in_hand: int) -> str:
    """An announcement offered now, with its deadline: "Re: until you have 11 cards"."""
    name = str(words.ANNOUNCEMENTS[option.id])  # type: ignore[index]
    if option.until >= cards_in_hand:
        return _("%(announcement)s: now, before you play your next card", announcement=name)
    return ngettext(
        "%(announcement)s: until you have %(num)d card",
        "%(announcement)s: until you have %(num)d cards",
        option.until,
        announcement=name,
    )


def passed_text(ids: Sequence[str]) -> str:
    names = format_list([str(words.ANNOUNCEMENTS[i]) for i in ids], locale=str(get_locale()))  # type: ignore[index]
    return _("Too late now for %(announcements)s: that deadline has passed.", announcements=names)


def reveal_texts(reveals: Sequence[Reveal], winner: int, declarer: int | None) -> list[str]:
    """What a trick showed about the parties, one sentence per cause."""
    texts = []
    by_cause: dict[str, list[Reveal]] = {}
    for r in reveals:
        by_cause.setdefault(r.cause, []).append(r)
    for r in by_cause.get("old_one", []):
        texts.append(_("%(seat)s played a Q♣: %(seat)s is Re.", seat=seat(r.seat)))
    for r in by_cause.get("announcement", []):
        texts.append(_("%(seat)s announced, so %(seat)s is %(party)s.", seat=seat(r.seat), party=party(r.party)))
    if "clarification" in by_cause:
        # The partner is the one the clarification showed as Re beside the groom: the winner
        # of the trick that clarified (the reveal is filed under that trick).
        partner = next((r.seat for r in by_cause["clarification"] if r.party == "re" and r.seat != declarer), winner)
        if partner == 0:
            texts.append(_("You took this trick: you are the wedding’s partner, Re with %(groom)s.",
                           groom=seat(declarer or 0)))
        elif declarer == 0:
            texts.append(_("%(seat)s took this trick: %(seat)s is your partner, Re with you. The other two are "
                           "Kontra.", seat=seat(partner)))
        else:
            texts.append(_("%(seat)s took this trick: %(seat)s is the wedding’s partner, Re with %(groom)s. "
                           "The other two are Kontra.", seat=seat(partner), groom=seat(declarer or 0)))
    if "wedding_solo" in by_cause:
        if declarer == 0:
            texts.append(_("Nobody else took one of the first three tricks: you play the wedding alone, a solo."))
        else:
            texts.append(_("Nobody else took one of the first three tricks: %(seat)s plays the wedding alone, "
                           "a solo against the other three.", seat=seat(declarer or 0)))
    for r in by_cause.get("silent_wedding", []):
        texts.append(_("%(seat)s played the second Q♣: a silent wedding, %(seat)s plays alone against the other "
                       "three.", seat=seat(r.seat)))
    deduced = by_cause.get("deduced", [])
    if deduced:
        known = format_list(
            [_("%(seat)s %(party)s", seat=seat(r.seat), party=party(r.party)) for r in deduced],
            locale=str(get_locale()),
        )
        texts.append(_("So now you know: %(known)s.", known=known))
    return texts


def reservation_label(option: str, both_queens: bool) -> str:
    if option == "healthy":
        if both_queens:
            return _("Healthy: keep both Q♣ to yourself (a silent wedding)")
        return _("Healthy")
    if option == "wedding":
        return _("Wedding: the first other player to take a trick becomes your partner")
    if option == "poverty":
        return _("Poverty: pass your trumps to a partner")
    return str(words.GAMES[option])  # type: ignore[index]


def said_text(said: str | None) -> str:
    """A player's answer to "any reservation?" as the others hear it."""
    if said is None:
        return _("not asked yet")
    return _("healthy") if said == "healthy" else _("reservation")
