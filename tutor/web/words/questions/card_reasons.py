"""The engine's reasons about tricks and cards in words: who takes a trick, which card is
higher or a trump, which cards may follow, card points (RULES.md §3–4)."""

from __future__ import annotations

from typing import Any, Final

from flask_babel import gettext as _
from flask_babel import ngettext

from tutor.quiz.base import Question
from tutor.rules.cards import RANK_POINTS, RANKS
from tutor.web import words
from tutor.web.words.questions.names import cards_text, short, suit_of


def _points(p: dict[str, Any], code: str, q: Question) -> str:
    sums = " + ".join(f"{short(c)} {n}" for c, n in p["cards"])
    ranks = ", ".join(f"{words.RANKS[r]} {RANK_POINTS[r]}" for r in RANKS)
    return (
        _("%(sums)s = %(total)d card points.", sums=sums, total=p["total"])
        + " "
        + _("Card points: %(ranks)s.", ranks=ranks)
    )


def _trump_on_plain(p: dict[str, Any], c: str) -> str:
    # "The highest trump" of a single trump reads as if it were the top trump (§4.2.2 of the
    # play review: a 9♦ is the lowest); say which trump of this trick it is.
    if p.get("trumps", 2) == 1:
        return _("The lead is %(suit)s, but a trump beats every plain card: the only trump in this trick, %(card)s, "
                 "wins.", suit=suit_of(p), card=c)
    return _("The lead is %(suit)s, but a trump beats every plain card: the highest trump in this trick, %(card)s, "
             "wins.", suit=suit_of(p), card=c)


def _highest_trump(p: dict[str, Any], c: str) -> str:
    if p.get("trumps", 2) == 1:
        return _("A trump was led and nobody else played one: %(card)s wins.", card=c)
    return _("A trump was led: the highest trump in this trick, %(card)s, wins.", card=c)


def _off_suit_cannot_win(p: dict[str, Any], c: str) -> str:
    if p.get("trumpless"):
        return ngettext(
            "The lead is %(suit)s and this game has no trumps: %(cards)s, of another suit, cannot win. The highest "
            "%(suit)s card, %(card)s, wins.",
            "The lead is %(suit)s and this game has no trumps: %(cards)s, of other suits, cannot win. The highest "
            "%(suit)s card, %(card)s, wins.",
            len(p["discards"]),
            suit=suit_of(p),
            cards=cards_text(p["discards"]),
            card=c,
        )
    return ngettext(
        "The lead is %(suit)s and nobody played a trump: %(cards)s, of another suit, cannot win. The highest %(suit)s "
        "card, %(card)s, wins.",
        "The lead is %(suit)s and nobody played a trump: %(cards)s, of other suits, cannot win. The highest %(suit)s "
        "card, %(card)s, wins.",
        len(p["discards"]),
        suit=suit_of(p),
        cards=cards_text(p["discards"]),
        card=c,
    )


WORDS: Final = {
    # Tricks (RULES.md §3).
    "only_card": lambda p, c, q: _("Only one card is on the table: %(card)s takes the trick so far.", card=c),
    "first_of_equal": lambda p, c, q: _("Two %(card)s in one trick: the first one played wins.", card=c),
    "second_dulle": lambda p, c, q: _("Under your house rules the second Dulle (10♥) beats the first."),
    "first_dulle_in_last_trick": lambda p, c, q: _(
        "Under your house rules the second Dulle beats the first, except in the last trick: here the first wins."
    ),
    "schweinchen": lambda p, c, q: _(
        "Both A♦ were declared as Schweinchen: they are the highest trumps, and %(card)s wins.", card=c
    ),
    "trump_on_plain": lambda p, c, q: _trump_on_plain(p, c),
    "highest_trump": lambda p, c, q: _highest_trump(p, c),
    "off_suit_cannot_win": lambda p, c, q: _off_suit_cannot_win(p, c),
    "highest_of_suit": lambda p, c, q: (
        _(
            "The lead is %(suit)s and this game has no trumps: the highest %(suit)s card, %(card)s, wins.",
            suit=suit_of(p),
            card=c,
        )
        if p.get("trumpless")
        else _(
            "The lead is %(suit)s and nobody played a trump: the highest %(suit)s card, %(card)s, wins.",
            suit=suit_of(p),
            card=c,
        )
    ),
    # Two cards, one card.
    "trump_beats_plain": lambda p, c, q: _(
        "%(card)s is a trump in this game and %(other)s is not: any trump beats a plain card.",
        card=c,
        other=short(p["other"]),
    ),
    "higher_trump": lambda p, c, q: _(
        "Both are trumps: %(card)s is trump number %(rank)d of %(count)d, %(other)s number %(other_rank)d.",
        card=c,
        other=short(p["other"]),
        rank=p["rank"],
        other_rank=p["other_rank"],
        count=p["count"],
    ),
    "higher_in_suit": lambda p, c, q: _(
        "Both are plain %(suit)s cards: %(card)s ranks higher.", suit=suit_of(p), card=c
    ),
    "led_suit_wins": lambda p, c, q: _("Different plain suits: the card led wins."),
    "is_trump": lambda p, c, q: _(
        "%(card)s is a trump in this game: number %(rank)d of %(count)d, highest first.",
        card=c,
        rank=p["rank"],
        count=p["count"],
    ),
    "no_trumps": lambda p, c, q: _("This game has no trumps at all."),
    "plain_card": lambda p, c, q: _(
        "%(card)s is not a trump in this game: it is a plain %(suit)s card.", card=c, suit=suit_of(p)
    ),
    # Following suit.
    "leading": lambda p, c, q: _("Whoever leads may play any card."),
    "must_follow_trump": lambda p, c, q: _(
        "A trump (%(lead)s) was led and the player holds trumps: a trump must be played.", lead=short(p["lead"])
    ),
    "no_trump_any_card": lambda p, c, q: _(
        "A trump (%(lead)s) was led and the player holds none: any card may be played.", lead=short(p["lead"])
    ),
    "must_follow_suit": lambda p, c, q: (
        _(
            "The lead is %(suit)s and the player holds plain %(suit)s cards: one of them must be played.",
            suit=suit_of(p),
        )
        + (
            " "
            + ngettext(
                "%(cards)s is a trump, not %(suit)s, so it does not follow.",
                "%(cards)s are trumps, not %(suit)s, so they do not follow.",
                len(p["trumps_of_suit"]),
                cards=cards_text(p["trumps_of_suit"]),
                suit=suit_of(p),
            )
            if p["trumps_of_suit"]
            else ""
        )
    ),
    "void_any_card": lambda p, c, q: _(
        "The lead is %(suit)s and the player holds no plain %(suit)s card: any card may be played, a trump or not.",
        suit=suit_of(p),
    ),
    "card_points": lambda p, c, q: _points(p, "card_points", q),
}
