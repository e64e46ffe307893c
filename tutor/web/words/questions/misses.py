"""Why not that one: the rule against the learner's own choice (tutor/quiz/why.py) in words,
one sentence per misconception, and the lines a wrong score left out."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from babel.lists import format_list
from flask_babel import get_locale, ngettext
from flask_babel import gettext as _

from tutor.quiz import KINDS
from tutor.quiz.base import Question
from tutor.quiz.why import Miss, why_not
from tutor.rules.terms import LINE_ID_LIST as LINE_IDS
from tutor.rules.terms import narrow
from tutor.web import words
from tutor.web.words import signed
from tutor.web.words.questions.best_card import best_card_miss
from tutor.web.words.questions.names import need_text, party_name, seat, short, suit_of
from tutor.web.words.questions.prompts import card_choice, choice_label
from tutor.web.words.questions.reasons import reason_text


def misses(q: Question, given: tuple[str, ...] | list[str]) -> tuple[Miss, ...]:
    """The wrong parts of an answer, each with the rule against it (see tutor/quiz/why.py).
    Nothing for the kinds only lessons ask (extras, sheet_row, dealer, poverty, recall): the
    engine has no rule against a single choice there, and their own reasons already speak of
    the very position asked about."""
    if q.kind not in KINDS:
        return ()
    return why_not(q, given)


def miss_text(miss: Miss, q: Question) -> str:
    """Why a choice the learner made (or a right one she missed) is not the engine's answer."""
    p: dict[str, Any] = miss.reason.params
    code = miss.reason.code
    if q.kind == "best_card":
        return best_card_miss(miss, q)
    if code in MISS_WORDS:
        return MISS_WORDS[code](p, short(p["card"]) if "card" in p else "", q)
    return reason_text(miss.reason, q)  # a rule that words its own choice (announcements)


def _winning(p: dict[str, Any]) -> str:
    return short(p["winning"])


MISS_WORDS: Final[dict[str, Callable[[dict[str, Any], str, Question], str]]] = {
    # Tricks.
    "second_of_equal": lambda p, c, q: _(
        "The %(card)s you picked was played after the other %(card)s: of two equal cards the first one wins.", card=c
    ),
    "first_dulle_beaten": lambda p, c, q: _(
        "The %(card)s you picked was the first Dulle: under your house rules the second one beats it.", card=c
    ),
    "second_dulle_in_last_trick": lambda p, c, q: _(
        "The %(card)s you picked was the second Dulle, but in the last trick the first one wins.", card=c
    ),
    "lower_trump": lambda p, c, q: _(
        "The %(card)s you picked is a trump, but a lower one: number %(rank)d of %(count)d, and %(winning)s is "
        "number %(winning_rank)d.",
        card=c, rank=p["rank"], count=p["count"], winning=_winning(p), winning_rank=p["winning_rank"],
    ),
    "plain_under_trump": lambda p, c, q: _(
        "The %(card)s you picked is not a trump, and %(winning)s is: any trump beats a plain card.",
        card=c, winning=_winning(p),
    ),
    "discard_cannot_win": lambda p, c, q: _(
        "The %(card)s you picked is neither %(suit)s, the suit led, nor a trump: such a card never wins a trick.",
        card=c, suit=suit_of(p),
    ),
    "lower_of_suit": lambda p, c, q: _(
        "The %(card)s you picked follows suit, but %(winning)s is a higher %(suit)s card.",
        card=c, winning=_winning(p), suit=suit_of(p),
    ),
    # Following suit.
    "may_lead_any": lambda p, c, q: _("Whoever leads may play any card, the %(card)s too.", card=c),
    "follows_suit": lambda p, c, q: _(
        "You left out the %(card)s: it is a plain %(suit)s card, so it follows the lead and may be played.",
        card=c, suit=suit_of(p),
    ),
    "follows_trump": lambda p, c, q: _(
        "You left out the %(card)s: it is a trump, so it follows the trump lead and may be played.", card=c
    ),
    "void_card_free": lambda p, c, q: _(
        "You left out the %(card)s: with no plain %(suit)s card in hand, any card may be played.",
        card=c, suit=suit_of(p),
    ),
    "no_trump_card_free": lambda p, c, q: _(
        "You left out the %(card)s: with no trump in hand, any card may be played on a trump lead.", card=c
    ),
    "not_a_trump_must_follow": lambda p, c, q: _(
        "The %(card)s you ticked is not a trump: a trump was led, and the player holds trumps, so one must be played.",
        card=c,
    ),
    "trump_not_the_suit": lambda p, c, q: _(
        "The %(card)s you ticked is a trump, not a %(suit)s card: it does not follow the %(suit)s lead, and the "
        "player holds plain %(suit)s cards.",
        card=c, suit=suit_of(p),
    ),
    "must_follow_suit_not_this": lambda p, c, q: _(
        "The %(card)s you ticked is not a %(suit)s card: the player holds plain %(suit)s cards and must play one.",
        card=c, suit=suit_of(p),
    ),
    # Two cards, one card.
    "plain_below_trump": lambda p, c, q: _(
        "The %(card)s you picked is a plain card, and %(other)s is a trump: any trump beats a plain card.",
        card=c, other=short(p["other"]),
    ),
    "lower_trump_of_two": lambda p, c, q: _(
        "The %(card)s you picked is trump number %(rank)d of %(count)d, lower than %(other)s (number %(other_rank)d).",
        card=c, other=short(p["other"]), rank=p["rank"], other_rank=p["other_rank"], count=p["count"],
    ),
    "lower_in_suit": lambda p, c, q: _(
        "The %(card)s you picked ranks lower in %(suit)s than %(other)s.", card=c, other=short(p["other"]),
        suit=suit_of(p),
    ),
    "not_the_led_suit": lambda p, c, q: _(
        "The %(card)s you picked was not led: between two plain suits, the card led wins.", card=c
    ),
    "said_plain_but_trump": lambda p, c, q: _(
        "You said no, but %(card)s is a trump here: number %(rank)d of %(count)d.",
        card=c, rank=p["rank"], count=p["count"],
    ),
    "said_trump_but_plain": lambda p, c, q: _(
        "You said yes, but %(card)s is a plain %(suit)s card in this game.", card=c, suit=suit_of(p)
    ),
    "said_trump_but_no_trumps": lambda p, c, q: _(
        "You said yes, but %(card)s is no trump: this game has no trumps at all.", card=c
    ),
    # Card points.
    "points_missed_card": lambda p, c, q: _(
        "You counted %(choice)s, %(points)d too few: did you leave out the %(card)s (%(points)d)? The total is "
        "%(total)d.",
        choice=p["choice"], points=p["points"], card=c, total=p["total"],
    ),
    "points_off": lambda p, c, q: _(
        "You counted %(choice)s; the cards add up to %(total)d.", choice=p["choice"], total=p["total"]
    ),
    # What a party needs.
    "need_too_few": lambda p, c, q: _(
        "%(choice)s is not enough: %(party)s needs %(need)s.",
        choice=need_text(p["choice"]), party=party_name(p["party"]), need=need_text(p["right"]),
    ),
    "need_more_than_needed": lambda p, c, q: _(
        "%(choice)s is more than needed: %(need)s already wins for %(party)s.",
        choice=need_text(p["choice"]), party=party_name(p["party"]), need=need_text(p["right"]),
    ),
    "need_tricks_not_points": lambda p, c, q: _(
        "Card points do not decide here: %(party)s needs %(need)s.",
        party=party_name(p["party"]), need=need_text(p["right"]),
    ),
    "need_other_tricks": lambda p, c, q: _(
        "Not %(choice)s: %(party)s needs %(need)s.",
        choice=need_text(p["choice"]), party=party_name(p["party"]), need=need_text(p["right"]),
    ),
    "need_points_not_tricks": lambda p, c, q: _(
        "Tricks alone do not decide here: %(party)s needs %(need)s.",
        party=party_name(p["party"]), need=need_text(p["right"]),
    ),
    # Scoring.
    "party_lost": lambda p, c, q: _(
        "%(choice)s did not win: %(party)s reached what it needed.",
        choice=party_name(p["choice"]), party=party_name(p["party"]),
    ),
    "somebody_won": lambda p, c, q: _(
        "Nobody wins only when both parties miss what they announced: here %(party)s won.",
        party=party_name(p["party"]),
    ),
    "nobody_won_not_party": lambda p, c, q: _(
        "%(choice)s did not win: both parties missed what they announced, so nobody won.",
        choice=party_name(p["choice"]),
    ),
    "result_sign": lambda p, c, q: _(
        "You wrote %(choice)s: the right number with the wrong sign. The score is seen from Re: %(right)s.",
        choice=signed(int(p["choice"])), right=signed(p["right"]),
    ),
    "result_not_tripled": lambda p, c, q: _(
        "You wrote the deal’s value, %(choice)s: the soloist plays against three and writes it three times, "
        "%(right)s.",
        choice=signed(int(p["choice"])), right=signed(p["right"]),
    ),
    "result_off": lambda p, c, q: _(
        "You wrote %(choice)s; the lines add up to %(right)s.", choice=signed(int(p["choice"])),
        right=signed(p["right"]),
    ),
    # Which game, who leads, which party.
    # The right answer's own reasons follow the misses: the rule that decides is said there once.
    "does_not_lead": lambda p, c, q: _("%(choice)s does not play the first card.", choice=seat(p["seat"])),
    "reservation_stands": lambda p, c, q: _(
        "Not a normal game: %(seat)s’s reservation stands.", seat=seat(p["seat"])
    ),
    "outranked_in_turn": lambda p, c, q: _(
        "%(choice)s’s reservation is of the same kind as %(winner)s’s, and %(winner)s was asked earlier.",
        choice=seat(p["seat"]), winner=seat(p["winner"]),
    ),
    "outranked_by_kind": lambda p, c, q: _(
        "%(choice)s’s reservation gives way to %(winner)s’s.", choice=seat(p["seat"]), winner=seat(p["winner"]),
    ),
    "party_not_this": lambda p, c, q: _(
        "%(seat)s is not %(choice)s.", seat=seat(p["seat"]), choice=party_name(p["choice"]),
    ),
}


def names_choice(miss: Miss, q: Question | None = None) -> bool:
    """Whether the sentence of a miss says itself which choice it is about and how."""
    if q is not None and q.kind == "best_card":
        return "loss" in miss.reason.params  # "The 10♥ you picked cost …"
    return miss.reason.code in MISS_WORDS


def miss_label(miss: Miss, q: Question) -> str:
    """The choice a miss is about, in words (a card as players write it)."""
    f = next(f for f in q.fields if f.name == miss.field)
    choice = next((c for c in f.choices if c.value == miss.value), None)
    if choice is None:
        return signed(int(miss.value)) if f.name == "result" else miss.value
    return card_choice(choice) if choice.card else choice_label(choice)


# --- One sentence per misconception ------------------------------------------------------


@dataclass(frozen=True)
class MissGroup:
    """The wrong parts of an answer that one misconception explains, in one sentence:
    ``labels`` are the choices it is about, ``picked`` whether the learner ticked them
    (wrongly) or left them out."""

    text: str
    picked: bool
    labels: tuple[str, ...]


def _card_list(cards: list[str]) -> str:
    return format_list([short(c) for c in cards], locale=str(get_locale()))


# For each rule against a card of a "tick every card" question: one sentence for all the
# cards it is against (``n`` cards, listed in ``cards``).
GROUP_WORDS: Final[dict[str, Callable[[dict[str, Any], list[str]], str]]] = {
    "trump_not_the_suit": lambda p, cards: ngettext(
        "The %(cards)s you ticked is a trump, not one of the plain %(suit)s: it does not follow the %(suit)s lead.",
        "The %(cards)s you ticked are trumps, not plain %(suit)s: they do not follow the %(suit)s lead.",
        len(cards), cards=_card_list(cards), suit=suit_of(p)),
    "must_follow_suit_not_this": lambda p, cards: ngettext(
        "The %(cards)s you ticked is not one of the %(suit)s: while you still hold plain %(suit)s, you must play one.",
        "The %(cards)s you ticked are not %(suit)s: while you still hold plain %(suit)s, you must play one.",
        len(cards), cards=_card_list(cards), suit=suit_of(p)),
    "not_a_trump_must_follow": lambda p, cards: ngettext(
        "The %(cards)s you ticked is no trump: on a trump lead you must play a trump while you hold one.",
        "The %(cards)s you ticked are no trumps: on a trump lead you must play a trump while you hold one.",
        len(cards), cards=_card_list(cards)),
    "follows_suit": lambda p, cards: ngettext(
        "You left out the %(cards)s: all plain %(suit)s follow the lead and may be played.",
        "You left out the %(cards)s: all plain %(suit)s follow the lead and may be played.",
        len(cards), cards=_card_list(cards), suit=suit_of(p)),
    "follows_trump": lambda p, cards: ngettext(
        "You left out the %(cards)s: every trump follows a trump lead, whatever suit it shows.",
        "You left out the %(cards)s: every trump follows a trump lead, whatever suit they show.",
        len(cards), cards=_card_list(cards)),
    "void_card_free": lambda p, cards: ngettext(
        "You left out the %(cards)s: with no plain %(suit)s in hand you may play any card.",
        "You left out the %(cards)s: with no plain %(suit)s in hand you may play any card.",
        len(cards), cards=_card_list(cards), suit=suit_of(p)),
    "no_trump_card_free": lambda p, cards: ngettext(
        "You left out the %(cards)s: with no trump in hand you may play any card on a trump lead.",
        "You left out the %(cards)s: with no trump in hand you may play any card on a trump lead.",
        len(cards), cards=_card_list(cards)),
    "may_lead_any": lambda p, cards: ngettext(
        "Whoever leads may play any card: the %(cards)s too.", "Whoever leads may play any card: the %(cards)s too.",
        len(cards), cards=_card_list(cards)),
}


def _dulle_first(codes_cards: list[str], code: str, p: dict[str, Any]) -> str:
    """The misconception at its root, where the Dulle is one of the cards: it is a trump."""
    if "10H" not in codes_cards:
        return ""
    if code == "trump_not_the_suit" and p.get("suit") == "H":
        return _("The 10♥ is a trump (the Dulle), not a heart.") + " "
    if code == "follows_trump":
        return _("The 10♥ is a trump (the Dulle), the highest of all.") + " "
    return ""


def miss_groups(q: Question, given: tuple[str, ...] | list[str]) -> list[MissGroup]:
    """The wrong parts of an answer grouped by the rule against them: one sentence for the
    cards one misconception explains ("the 10♥ is a trump"), one per choice elsewhere; for a
    score, the line that was forgotten where one explains the number. The lessons' own kinds
    add what the chosen card would have done."""
    if q.kind == "decide":
        chosen = given[0] if given else None
        reason = q.facts.get("others", {}).get(chosen)
        if chosen is None or reason is None:
            return []
        label = short(chosen) if q.facts.get("decision") == "card" else choice_label(
            next(c for c in q.fields[0].choices if c.value == chosen))
        return [MissGroup(reason_text(reason, q), True, (label,))]
    found = misses(q, given)
    groups: list[MissGroup] = []
    by_code: dict[tuple[str, bool], list[Miss]] = {}
    for miss in found:
        if q.kind == "legal" and miss.reason.code in GROUP_WORDS:
            by_code.setdefault((miss.reason.code, miss.picked), []).append(miss)
            continue
        text = miss_text(miss, q)
        if q.kind == "score" and miss.reason.code == "result_off":
            text = forgotten_text(q, int(miss.value)) or text
        elif q.kind == "score" and miss.reason.code == "result_sign" and forgotten_lines(q, int(miss.value)) \
                and not {line for line, _party, _points in forgotten_lines(q, int(miss.value))} & set(FORGOTTEN_LAST):
            # The right number with the wrong sign, but explained by lines left out beside the
            # card points (Kontra's extras, an announcement): that is the likelier mistake.
            text = forgotten_text(q, int(miss.value))
        groups.append(MissGroup(text, miss.picked, (miss_label(miss, q),)))
    for (code, picked), grouped in by_code.items():
        cards = [m.value for m in grouped]
        p = grouped[0].reason.params
        text = _dulle_first(cards, code, p) + GROUP_WORDS[code](p, cards)
        groups.insert(0, MissGroup(text, picked, tuple(short(c) for c in cards)))
    return groups


def forgotten_lines(q: Question, result: int) -> list[tuple[str, str, int]]:
    """The scoring lines whose leaving out gives ``result`` (what each Re player, or the
    soloist, writes): the fewest that explain the learner's number, or none."""
    p = q.reasons[-1].params
    lines: list[tuple[str, str, int]] = [(str(a), str(b), int(c)) for a, b, c in p["lines"]]
    factor = 3 if p["solo"] else 1

    def without(left_out: list[tuple[str, str, int]]) -> int:
        kept = list(lines)
        for line in left_out:
            kept.remove(line)
        return factor * sum(points if party == "re" else -points for _line, party, points in kept)

    # The line a learner most likely forgot first: the ones beside the card points (against the
    # old ones, announcements, extras), then the ladder of card points, "won" last.
    lines.sort(key=lambda line: 1 + FORGOTTEN_LAST.index(line[0]) if line[0] in FORGOTTEN_LAST else 0)
    for one in lines:
        if without([one]) == result:
            return [one]
    for i, one in enumerate(lines):
        for two in lines[i + 1:]:
            if without([one, two]) == result:
                return [one, two]
    return []


FORGOTTEN_LAST: Final = ("below_90", "below_60", "below_30", "schwarz", "won")


def forgotten_text(q: Question, result: int) -> str:
    """"You left out ..." naming the forgotten line(s), or "" when none explains the number."""
    missing = forgotten_lines(q, result)
    if not missing:
        return ""
    names = format_list([_("“%(line)s” (%(points)d for %(party)s)", line=words.LINES[narrow(line_id, LINE_IDS)],
                           points=points, party=party_name(party)) for line_id, party, points in missing],
                        locale=str(get_locale()))
    return ngettext("You wrote %(choice)s: you left out the line %(lines)s.",
                    "You wrote %(choice)s: you left out the lines %(lines)s.", len(missing),
                    choice=signed(result), lines=names)
