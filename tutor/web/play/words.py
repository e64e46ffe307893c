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

from tutor.play import AnnounceOption, PovertyView, Reveal
from tutor.rules.announcements import announcement_id
from tutor.rules.cards import DECK_POINTS
from tutor.rules.explain import Need, Reason
from tutor.rules.rulesets import RuleSet
from tutor.web import words
from tutor.web.words.cards import suit_name
from tutor.web.words.questions.names import short

# Seat 0 is the learner, then the others in play order.
SEATS: Final = (lazy_pgettext("seat at the table", "You"), _l("West"), _l("North"), _l("East"))
LEVEL_NAMES: Final = {
    0: _l("Normal games"),
    1: _l("Weddings too"),
    2: _l("Solos and poverty too"),
}


def level_names(rules: RuleSet) -> dict[int, str]:
    """The levels a new deal may be played at, each named for what it offers under these
    rules: without the poverty house option the top level brings solos alone."""
    names = {level: str(name) for level, name in LEVEL_NAMES.items()}
    if not rules.poverty:
        names[2] = _("Solos too")
    return names


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


def deadline_text(option: AnnounceOption, cards_in_hand: int, tricks: int) -> str:
    """Until when an announcement offered now may be made: "before you play card 2 of 12"
    (``until``: the fewest cards the learner may hold and still make it)."""
    if option.until >= cards_in_hand:
        return _("Now or never: before your next card.")
    return _("Last chance: before you play card %(card)d of %(total)d.", card=tricks - option.until + 1,
             total=tricks)


def _name(ident: str) -> str:
    return str(words.ANNOUNCEMENTS[ident])  # type: ignore[index]


def _missed(reason: Reason, party: str) -> str:
    return _name(announcement_id(reason.params["missed"], party))


def option_reason(option: AnnounceOption, party: str) -> str:
    """Why an announcement is open now when that needs saying, and why its deadline is what
    it is when another rule sets it (the engine's reasons: RULES.md §6, §10)."""
    texts = []
    reason, closing = option.reason, option.until_reason
    own = _name(announcement_id(0, party))
    if reason is not None and reason.code == "rides_along":
        texts.append(_("The deadline for %(own)s has passed, but under these rules it comes along with "
                       "%(announcement)s.", own=own, announcement=_name(option.id)))
    elif reason is not None and reason.code == "reply_in_time":
        texts.append(_("The other party has announced: as an answer you have one card longer."))
    if closing is not None and closing.code in ("too_late", "skipped_level_too_late") \
            and closing.params.get("missed", closing.params.get("level")) != closing.params.get("level"):
        texts.append(_("%(announcement)s includes %(lower)s, so it closes with that one’s deadline.",
                       announcement=_name(option.id), lower=_missed(closing, party)))
    elif closing is not None and closing.code == "reply_too_late" and option.id == own:
        texts.append(_("It closes with the deadline for an answer."))
    return " ".join(texts)


def commitment(need: Need, level: int, party: str) -> str:
    """What an announcement commits the learner's party to (the engine's `needs` once it is
    made): the card points it must then take, or every trick."""
    if need.tricks == "all":
        return _("Your party then must take every trick: one to the others and you lose the deal.")
    if need.points is None:
        return ""
    if level == 0:
        return _("Your party then needs %(points)d card points to win.", points=need.points)
    return _("Your party then needs %(points)d card points: if the others take %(theirs)d, you lose the whole deal.",
             points=need.points, theirs=DECK_POINTS - need.points + 1)  # the others then reach what you miss


def passed_text(ids: Sequence[str], reasons: Sequence[Reason] = ()) -> str:
    """The announcements that were open at the learner's last turn and are not any more, and
    why: their own deadline, or a lower level they include whose deadline has passed."""
    own = [i for i, r in zip(ids, reasons, strict=False)
           if r.code != "skipped_level_too_late" and r.params.get("missed", r.params.get("level")) == r.params["level"]]
    locale = str(get_locale())
    if len(reasons) != len(ids) or not own or len(own) == len(ids):
        names = format_list([_name(i) for i in ids], locale=locale)
        return _("Too late now for %(announcements)s: that deadline has passed.", announcements=names)
    rest = [i for i in ids if i not in own]
    return _("Too late now for %(announcements)s: that deadline has passed. So it is for %(higher)s too, which "
             "would include it.", announcements=format_list([_name(i) for i in own], locale=locale),
             higher=format_list([_name(i) for i in rest], locale=locale))


def why_not_text(card: str, reason: Reason | None) -> str:
    """Why the card the learner tapped may not be played now."""
    return _("%(card)s may not be played now.", card=short(card)) + " " + legal_text(reason)


def poverty_line(pv: PovertyView | None) -> str:
    """What the poor player and the acceptor saw of the exchange (no one else sees it)."""
    if pv is None or not pv.returned:
        return ""
    if pv.poor == 0:
        return _("Came back to you: %(cards)s.", cards=cards(pv.returned))
    if pv.acceptor == 0:
        return _("You took %(taken)s and gave back %(cards)s.", taken=cards(pv.passed), cards=cards(pv.returned))
    return ""


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
