"""Questions in words: prompts, answers and the engine's reasons, in the page's language; the quiz
and the lessons both ask through it.

The engine says which rule decided (a code with parameters); this module only words it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from babel.lists import format_list
from babel.numbers import format_decimal
from flask import g, has_app_context
from flask_babel import get_locale, ngettext
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from tutor.analysis.tips import SIMULATIONS_PREFER, Tip
from tutor.quiz import KINDS
from tutor.quiz.base import Choice, Question
from tutor.quiz.why import Miss, why_not
from tutor.rules.announcements import announcement_id, shift
from tutor.rules.cards import RANK_POINTS, RANKS
from tutor.rules.explain import Reason
from tutor.rules.terms import ANNOUNCEMENT_IDS, GAME_IDS, PARTY_IDS, narrow
from tutor.rules.terms import LINE_ID_LIST as LINE_IDS
from tutor.web import words
from tutor.web.words import signed
from tutor.web.words.cards import card_face, suit_name

SEATS: Final = (_l("North"), _l("East"), _l("South"), _l("West"))
# Lessons (and play) name seats from the learner's own view: seat 0 is you, in the south,
# then West, North and East in play order. The quiz keeps SEATS.
LEARNER_SEATS: Final = (_l("South (you)"), _l("West"), _l("North"), _l("East"))
KIND_TITLES: Final = {
    "winner": _l("Who takes the trick"),
    "legal": _l("Which cards may be played"),
    "trumps": _l("Trumps"),
    "points": _l("Card points"),
    "announce": _l("Who may still announce"),
    "needs": _l("What a party needs"),
    "score": _l("Score the deal"),
    "game": _l("Which game is played"),
    "party": _l("Re or Kontra"),
    "best_card": _l("Find the best card"),
}
KIND_TEXTS: Final = {
    "winner": _l("Tap the card that takes the trick."),
    "legal": _l("Tick every card the player may play."),
    "trumps": _l("Which card is higher, and which cards are trumps."),
    "points": _l("Count the card points in a trick or a pile."),
    "announce": _l("Deadlines, replies and a wedding’s clarification."),
    "needs": _l("How many card points win, given the announcements."),
    "score": _l("Who won a deal and what each player writes."),
    "game": _l("From four reservations to the game and the first card."),
    "party": _l("The old ones, a wedding, a poverty, a solo."),
    "best_card": _l("From real deals: one card is clearly best, and a table tip says why."),
}
LEVEL_NAMES: Final = {
    0: _l("normal games"),
    1: _l("normal games and weddings"),
    2: _l("with solos"),
    3: _l("everything, house options too"),
}


def learner_view() -> None:
    """Name seats from the learner's view (LEARNER_SEATS) for the rest of this request."""
    g.learner_seats = True


def _is_learner(number: Any) -> bool:
    """Whether seats are named from the learner's view and this seat is the learner's own."""
    return number == 0 and has_app_context() and bool(g.get("learner_seats", False))


def seat(number: int) -> str:
    learner = has_app_context() and g.get("learner_seats", False)
    return str((LEARNER_SEATS if learner else SEATS)[number])


def hand_title(number: int, after_exchange: bool = False) -> str:
    """The heading over a player's cards: "Your hand" when they are the learner's own (lessons)."""
    if _is_learner(number):
        return _("Your cards after the exchange") if after_exchange else _("Your hand")
    if after_exchange:
        return _("%(seat)s’s cards after the exchange", seat=seat(number))
    return _("%(seat)s’s hand", seat=seat(number))


def player(number: int) -> str:
    """A player at an evening's table of four to seven (by the order they sit in)."""
    return _("Player %(num)d", num=number + 1)


def players(numbers: list[int]) -> str:
    return format_list([player(n) for n in numbers], locale=str(get_locale()))


def plays(pairs: list[tuple[int, str]]) -> list[tuple[str, str]]:
    """(seat, card) pairs as the trick partial takes them: (player name, card)."""
    return [(seat(s), c) for s, c in pairs]


def winner_index(pairs: list[tuple[int, str]], winner: int) -> int:
    """Where in the trick the winning seat played."""
    return [s for s, _c in pairs].index(winner)


def short(card_id: str) -> str:
    """A card as players write it: "D♣" in German, "Q♣" in English (from the card's face,
    worked out once per language)."""
    face = card_face(card_id)
    return face.letter + face.symbol


def game_name(game: str) -> str:
    return str(words.GAMES[narrow(game, GAME_IDS)])


def party_name(party: str) -> str:
    return str(words.PARTIES[narrow(party, PARTY_IDS)])


def announcement(level: int, party: str) -> str:
    return str(words.ANNOUNCEMENTS[announcement_id(level, party)])


def prompt(q: Question) -> str:
    """The question itself."""
    p = q.params
    if _is_learner(p.get("seat")) and q.prompt in LEARNER_PROMPTS:
        return LEARNER_PROMPTS[q.prompt](p)
    if q.prompt == "winner_complete":
        return _("Which card takes this trick?")
    if q.prompt == "winner_so_far":
        return _("Which card takes this trick so far?")
    if q.prompt == "legal":
        return _("%(seat)s is to play. Tick every card %(seat)s may play.", seat=seat(p["seat"]))
    if q.prompt == "higher":
        return _("Which of these two cards is higher?")
    if q.prompt == "is_trump":
        return _("Is this card a trump?")
    if q.prompt == "points_trick":
        return _("How many card points are in this trick?")
    if q.prompt == "points_pile":
        return ngettext(
            "How many card points are in this trick?", "How many card points are in these %(num)d tricks?", p["count"]
        )
    if q.prompt == "announce_what":
        return ngettext(
            "What may %(seat)s (%(party)s, %(num)d card in hand) announce now? Tick everything allowed, or nothing.",
            "What may %(seat)s (%(party)s, %(num)d cards in hand) announce now? Tick everything allowed, or nothing.",
            p["cards"],
            seat=seat(p["seat"]),
            party=party_name(p["party"]),
        )
    if q.prompt == "announce_who":
        return _("Which players may announce something now? Tick them all, or nobody.")
    if q.prompt == "needs":
        return _("What does %(party)s need to win?", party=party_name(p["party"]))
    if q.prompt == "needs_solo":
        return _("In a solo (the soloist is Re), what does %(party)s need to win?", party=party_name(p["party"]))
    if q.prompt == "score":
        return _("Who won this deal, and what does each Re player write on the score sheet?")
    if q.prompt == "score_solo":
        return _("Who won this solo, and what does the soloist (Re) write on the score sheet?")
    if q.prompt == "game":
        return _("Which game is played, and who plays the first card?")
    if q.prompt == "leader":
        return _("Everybody is healthy: who plays the first card?")
    if q.prompt == "party":
        return _("Which party is %(seat)s in?", seat=seat(p["seat"]))
    if q.prompt in ("best_card", "best_card_lead"):
        return best_card_prompt(q)
    if q.prompt in LESSON_PROMPTS:
        return LESSON_PROMPTS[q.prompt](p)
    raise KeyError(q.prompt)


def choice_label(choice: Choice) -> str:
    """What a choice says when it is not a card."""
    p = choice.params
    if choice.label == "seat":
        return seat(p["seat"])
    if choice.label in ("yes", "no"):
        return _("Yes") if choice.label == "yes" else _("No")
    if choice.label in ("re", "kontra"):
        return party_name(choice.label)
    if choice.label == "nobody":
        return _("Nobody")
    if choice.label == "normal":
        return game_name("normal")
    if choice.label == "declared":
        # The seat first: a game's name may carry its German name in brackets already.
        return _(
            "%(seat)s: %(game)s",
            game=game_name(p["game"]) if p["game"] != "poverty" else str(words.GAMES["poverty"]),
            seat=seat(p["seat"]),
        )
    if choice.label == "need":
        return need_text(choice.value)
    if choice.label in ANNOUNCEMENT_IDS:
        return str(words.ANNOUNCEMENTS[narrow(choice.label, ANNOUNCEMENT_IDS)])
    if choice.label in EXTRA_CHOICES:
        return str(EXTRA_CHOICES[choice.label])
    if choice.label == "player":
        return player(p["player"])
    if choice.label == "recall":
        return _("Answer %(num)d", num=p["index"])
    if choice.label == "unknown":
        return _("Can’t tell yet")
    if choice.label == "play_on":
        return _("Play on and say nothing more")
    raise KeyError(choice.label)


def need_text(value: str) -> str:
    if value == "all":
        return _("all tricks")
    if value == "one":
        return _("at least one trick")
    return _("at least %(points)d card points", points=int(value[1:]))


def field_label(name: str | None) -> str:
    return {
        "winner": _("Who won?"),
        "result": _("Points for each Re player"),
        "result_solo": _("Points for the soloist"),
        "game": _("Game"),
        "leader": _("Plays the first card"),
        "extras": _("Extra points"),
        "possible": _("Could this row be on the sheet?"),
        "dealer": _("Deals next"),
        "player": _("Must play a solo"),
        "poverty": _("May declare poverty"),
        "choice": _("Your choice"),
        "sheet": _("Points"),
    }.get(name or "", "")


def section_name(section: str) -> str:
    """The topic a question belongs to, as a heading or a link names it."""
    return str(SECTION_NAMES.get(section, ""))


def answer_text(q: Question) -> str:
    """The right answer in words, for the feedback line."""
    parts = []
    for f, value in zip(q.fields, q.answer, strict=True):
        if f.mode == "number":
            parts.append(signed(int(value)) if f.name == "result" else value)
            continue
        chosen = (
            [c for c in f.choices if c.value in value.split(",")]
            if f.mode == "many"
            else [c for c in f.choices if c.value == value]
        )
        words = [card_choice(c) if c.card else choice_label(c) for c in chosen]
        if f.mode == "many" and not words:
            words = [_("none")]
        parts.append(", ".join(words))
    return " · ".join(parts)


def card_choice(choice: Choice) -> str:
    """A card to tap in words; cards that do the same here (one choice) as "J♠ or J♥"."""
    assert choice.card is not None
    same = choice.params.get("same", ())
    if not same:
        return short(choice.card)
    return format_list([short(c) for c in (choice.card, *same)], style="or", locale=str(get_locale()))


def _cards(ids: list[str]) -> str:
    return ", ".join(short(c) for c in ids)


def reason_text(reason: Reason, q: Question) -> str:
    """One reason of the engine as a sentence."""
    p: dict[str, Any] = reason.params
    code = reason.code
    if q.kind == "best_card":
        return best_card_reason(reason)
    card = short(p["card"]) if "card" in p else ""
    if code in WORDS:
        return WORDS[code](p, card, q)
    return GROUPED[code](p, code, q)


def card_rule_text(reason: Reason) -> str:
    """A reason about cards alone (who takes a trick, which cards may follow a lead) as a
    sentence, without a question around it: the rules reference words its examples so."""
    p: dict[str, Any] = reason.params
    return str(WORDS[reason.code](p, short(p["card"]) if "card" in p else "", None))


def _suit(p: dict[str, Any]) -> str:
    return suit_name(p["suit"])


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
                 "wins.", suit=_suit(p), card=c)
    return _("The lead is %(suit)s, but a trump beats every plain card: the highest trump in this trick, %(card)s, "
             "wins.", suit=_suit(p), card=c)


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
            suit=_suit(p),
            cards=_cards(p["discards"]),
            card=c,
        )
    return ngettext(
        "The lead is %(suit)s and nobody played a trump: %(cards)s, of another suit, cannot win. The highest %(suit)s "
        "card, %(card)s, wins.",
        "The lead is %(suit)s and nobody played a trump: %(cards)s, of other suits, cannot win. The highest %(suit)s "
        "card, %(card)s, wins.",
        len(p["discards"]),
        suit=_suit(p),
        cards=_cards(p["discards"]),
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
            suit=_suit(p),
            card=c,
        )
        if p.get("trumpless")
        else _(
            "The lead is %(suit)s and nobody played a trump: the highest %(suit)s card, %(card)s, wins.",
            suit=_suit(p),
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
    "higher_in_suit": lambda p, c, q: _("Both are plain %(suit)s cards: %(card)s ranks higher.", suit=_suit(p), card=c),
    "led_suit_wins": lambda p, c, q: _("Different plain suits: the card led wins."),
    "is_trump": lambda p, c, q: _(
        "%(card)s is a trump in this game: number %(rank)d of %(count)d, highest first.",
        card=c,
        rank=p["rank"],
        count=p["count"],
    ),
    "no_trumps": lambda p, c, q: _("This game has no trumps at all."),
    "plain_card": lambda p, c, q: _(
        "%(card)s is not a trump in this game: it is a plain %(suit)s card.", card=c, suit=_suit(p)
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
        _("The lead is %(suit)s and the player holds plain %(suit)s cards: one of them must be played.", suit=_suit(p))
        + (
            " "
            + ngettext(
                "%(cards)s is a trump, not %(suit)s, so it does not follow.",
                "%(cards)s are trumps, not %(suit)s, so they do not follow.",
                len(p["trumps_of_suit"]),
                cards=_cards(p["trumps_of_suit"]),
                suit=_suit(p),
            )
            if p["trumps_of_suit"]
            else ""
        )
    ),
    "void_any_card": lambda p, c, q: _(
        "The lead is %(suit)s and the player holds no plain %(suit)s card: any card may be played, a trump or not.",
        suit=_suit(p),
    ),
    "card_points": lambda p, c, q: _points(p, "card_points", q),
}
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


# --- Why not that one: the rule against the learner's own choice (tutor/quiz/why.py) -------


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
        card=c, suit=_suit(p),
    ),
    "lower_of_suit": lambda p, c, q: _(
        "The %(card)s you picked follows suit, but %(winning)s is a higher %(suit)s card.",
        card=c, winning=_winning(p), suit=_suit(p),
    ),
    # Following suit.
    "may_lead_any": lambda p, c, q: _("Whoever leads may play any card, the %(card)s too.", card=c),
    "follows_suit": lambda p, c, q: _(
        "You left out the %(card)s: it is a plain %(suit)s card, so it follows the lead and may be played.",
        card=c, suit=_suit(p),
    ),
    "follows_trump": lambda p, c, q: _(
        "You left out the %(card)s: it is a trump, so it follows the trump lead and may be played.", card=c
    ),
    "void_card_free": lambda p, c, q: _(
        "You left out the %(card)s: with no plain %(suit)s card in hand, any card may be played.",
        card=c, suit=_suit(p),
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
        card=c, suit=_suit(p),
    ),
    "must_follow_suit_not_this": lambda p, c, q: _(
        "The %(card)s you ticked is not a %(suit)s card: the player holds plain %(suit)s cards and must play one.",
        card=c, suit=_suit(p),
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
        suit=_suit(p),
    ),
    "not_the_led_suit": lambda p, c, q: _(
        "The %(card)s you picked was not led: between two plain suits, the card led wins.", card=c
    ),
    "said_plain_but_trump": lambda p, c, q: _(
        "You said no, but %(card)s is a trump here: number %(rank)d of %(count)d.",
        card=c, rank=p["rank"], count=p["count"],
    ),
    "said_trump_but_plain": lambda p, c, q: _(
        "You said yes, but %(card)s is a plain %(suit)s card in this game.", card=c, suit=_suit(p)
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
# --- Find the best card (tutor/quiz/best_card.py): the table tips of tutor/web/words/analysis.py --


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
            rows.append((party_name(party) if party else _("Party not known yet"), _listed(seats)))
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


# --- The kinds only lessons ask (extras, sheet_row, dealer, poverty, recall) -----------------

# Prompts about the learner's own seat, in the second person (lessons).
LEARNER_PROMPTS: Final[dict[str, Callable[[dict[str, Any]], str]]] = {
    "legal": lambda p: _("Your turn. Tick every card you may play."),
    "party": lambda p: _("Which party are you in?"),
    "announce_what": lambda p: ngettext(
        "You are %(party)s with %(num)d card in hand. What may you announce now? Tick everything allowed, or nothing.",
        "You are %(party)s with %(num)d cards in hand. What may you announce now? Tick everything allowed, or "
        "nothing.",
        p["cards"], party=party_name(p["party"])),
}
LESSON_PROMPTS: Final[dict[str, Callable[[dict[str, Any]], str]]] = {
    "extras": lambda p: (
        _("This is the last trick. Which extra points does its winner’s party earn? Tick each one, or none.")
        if p.get("last")
        else _("Which extra points does the winner’s party earn with this trick? Tick each one, or none.")
    ),
    "sheet_row": lambda p: _("Could this row be on a score sheet?"),
    "dealer_next": lambda p: ngettext(
        "%(num)d player at the table. Who deals next?", "%(num)d players at the table. Who deals next?", p["players"]
    ),
    "dealer_solo": lambda p: _("Who must play a solo in the next deal?"),
    "poverty": lambda p: _("You were dealt this hand. May you declare poverty?"),
    "recall": lambda p: _("Which one is right?"),
    "infer": lambda p: _("Which party is %(seat)s in, as far as you can tell?", seat=seat(p["seat"])),
    "name": lambda p: {
        "dulle": lambda: _("Which of these cards is the Dulle?"),
        "alten": lambda: _("Which of these cards is one of die Alten, the old ones?"),
        "fuchs": lambda: _("Which of these cards is the Fuchs, the fox?"),
        "karlchen": lambda: _("Which of these cards is Karlchen?"),
    }[p["name"]](),
    "decide_card": lambda p: _("Your turn. Which card do you play?"),
    "decide_lead": lambda p: _("You lead. Which card do you play?"),
    "decide_announce": lambda p: ngettext(
        "You hold %(num)d card. Do you say “%(announcement)s” now?",
        "You hold %(num)d cards. Do you say “%(announcement)s” now?",
        p["cards"], announcement=str(words.ANNOUNCEMENTS[narrow(p["announcement"], ANNOUNCEMENT_IDS)])),
    "sheet_total": lambda p: _("What is %(player)s’s total after these deals?", player=player(p["player"])),
    "sheet_entry": lambda p: _("What does %(player)s write in deal %(num)d?", player=player(p["player"]),
                               num=p["deal"]),
}
EXTRA_CHOICES: Final = {
    "fox": _l("Fox caught (Fuchs)"),
    "doppelkopf": _l("Doppelkopf (40 or more)"),
    "karlchen": _l("Karlchen takes the last trick"),
    "karlchen_caught": _l("Karlchen caught"),
}
SECTION_NAMES: Final = {
    "trumps": _l("Trumps and tricks"),
    "cards": _l("Cards and card points"),
    "announcements": _l("Announcements"),
    "winning": _l("What each party needs"),
    "scoring": _l("Scoring"),
    "parties": _l("Re and Kontra"),
    "reservations": _l("Reservations"),
    "sheet": _l("The score sheet"),
    "history": _l("History"),
}


def listing(values: list[Any]) -> str:
    """Items as a sentence lists them in the page's language ("A, B and C")."""
    return _listed(values)


def _listed(values: list[Any]) -> str:
    return format_list([str(v) for v in values], locale=str(get_locale()))


def _lesson(p: dict[str, Any], code: str, q: Question) -> str:
    def who(key: str) -> str:
        return seat(p[key])

    texts: dict[str, Callable[[], str]] = {
        "no_extras_in_solo": lambda: _(
            "%(game)s is a solo: no extra points count in a solo.", game=game_name(p["game"])),
        "doppelkopf_trick": lambda: _(
            "The trick holds %(points)d card points, 40 or more: a Doppelkopf.", points=p["points"]),
        "no_doppelkopf": lambda: _(
            "The trick holds %(points)d card points, fewer than 40: no Doppelkopf.", points=p["points"]),
        "fox_caught": lambda: _(
            "%(seat)s played a fox (A♦) and the other party took it: a fox caught for %(party)s.",
            seat=who("seat"), party=party_name(p["party"])),
        "fox_own": lambda: _(
            "The fox (A♦) of %(seat)s stays with its own party, %(party)s: nothing is caught.",
            seat=who("seat"), party=party_name(p["party"])),
        "karlchen_wins_last": lambda: _(
            "The J♣ of %(seat)s (Karlchen) takes the last trick: an extra point for %(party)s.",
            seat=who("seat"), party=party_name(p["party"])),
        "karlchen_caught": lambda: _(
            "%(winner)s beat the other party’s Karlchen (J♣ of %(seat)s) in the last trick: under your rules "
            "that earns %(party)s a point.", winner=who("winner"), seat=who("seat"), party=party_name(p["party"])),
        "karlchen_caught_not_counted": lambda: _(
            "%(winner)s beat the other party’s Karlchen (J♣ of %(seat)s) in the last trick, but these rules count "
            "only a Karlchen that takes the last trick itself.", winner=who("winner"), seat=who("seat")),
        "karlchen_not_last": lambda: _(
            "The J♣ of %(seat)s counts as Karlchen only in the last trick; this is not the last one.",
            seat=who("seat")),
        "karlchen_beaten_by_partner": lambda: _(
            "%(winner)s beat the J♣ of %(seat)s, but both are %(party)s: a partner’s Karlchen earns nothing.",
            winner=who("winner"), seat=who("seat"), party=party_name(p["party"])),
        "row_sums_to_zero": lambda: _("%(entries)s add up to 0, as every row must.", entries=_listed(p["entries"])),
        "row_sum_not_zero": lambda: _(
            "%(entries)s add up to %(sum)s, not 0: what one party wins the other loses, so every row sums to zero.",
            entries=_listed(p["entries"]), sum=signed(p["sum"])),
        "row_same_parity": lambda: (
            _("All four entries are even, as they may be.") if all(p["even"])
            else _("All four entries are odd, as they may be.")),
        "row_mixed_parity": lambda: _(
            "Some entries are even (%(even)s) and some odd (%(odd)s): in one row they are all even or all odd.",
            even=_listed([e for e, even in zip(p["entries"], p["even"], strict=True) if even]),
            odd=_listed([e for e, even in zip(p["entries"], p["even"], strict=True) if not even])),
        "dealer_moves_left": lambda: _(
            "%(dealer)s dealt; the deal passes to the left, to %(next)s.",
            dealer=player(p["dealer"]), next=player(p["next"])),
        "same_dealer_after_compulsory": lambda: _(
            "%(soloist)s played a compulsory solo, so the same dealer, %(dealer)s, deals again.",
            soloist=player(p["soloist"]), dealer=player(p["dealer"])),
        "dealer_moves_after_vorgefuehrt": lambda: _(
            "%(soloist)s had to play the compulsory solo at the end of the round (vorgeführt): then nobody deals "
            "again, and the deal passes from %(dealer)s to %(next)s.",
            soloist=player(p["soloist"]), dealer=player(p["dealer"]), next=player(p["next"])),
        "sitting_out": lambda: ngettext(
            "%(seats)s sits out while %(dealer)s deals.", "%(seats)s sit out while %(dealer)s deals.",
            len(p["seats"]), seats=players(p["seats"]), dealer=player(p["dealer"])),
        "vorgefuehrt": lambda: ngettext(
            "Still owing a compulsory solo: %(owed)s; only %(num)d deal is left. The first of them in turn, "
            "%(player)s, must play a solo now (vorgeführt).",
            "Still owing a compulsory solo: %(owed)s; only %(num)d deals are left. The first of them in turn, "
            "%(player)s, must play a solo now (vorgeführt).",
            p["deals_left"], owed=players(p["owed"]), player=player(p["player"])),
        "no_solo_due": lambda: (
            ngettext(
                "Still owing a compulsory solo: %(owed)s; %(num)d deal is left, enough for each: nobody must play "
                "one now.",
                "Still owing a compulsory solo: %(owed)s; %(num)d deals are left, enough for each: nobody must play "
                "one now.",
                p["deals_left"], owed=players(p["owed"]))
            if p["owed"] else _("Nobody owes a compulsory solo any more: nobody must play one now.")),
        "poverty_allowed": lambda: ngettext(
            "The hand holds %(num)d trump (%(cards)s; the A♦ counts), no more than %(most)d: poverty may be declared.",
            "The hand holds %(num)d trumps (%(cards)s; the A♦ counts), no more than %(most)d: poverty may be declared.",
            p["count"], cards=_cards(p["trumps"]) or _("none"), most=p["most"]),
        "poverty_too_many_trumps": lambda: ngettext(
            "The hand holds %(num)d trump (%(cards)s; the A♦ counts), more than %(most)d: no poverty.",
            "The hand holds %(num)d trumps (%(cards)s; the A♦ counts), more than %(most)d: no poverty.",
            p["count"], cards=_cards(p["trumps"]), most=p["most"]),
        "recall": lambda: _("Answer %(num)d is right.", num=p["answer"]),
        **_own_kind_texts(p),
    }
    return texts[code]()


LESSON_REASONS: Final = (
    "no_extras_in_solo", "doppelkopf_trick", "no_doppelkopf", "fox_caught", "fox_own", "karlchen_wins_last",
    "karlchen_caught", "karlchen_caught_not_counted", "karlchen_not_last", "karlchen_beaten_by_partner",
    "row_sums_to_zero", "row_sum_not_zero", "row_same_parity", "row_mixed_parity", "dealer_moves_left",
    "same_dealer_after_compulsory", "dealer_moves_after_vorgefuehrt", "sitting_out", "vorgefuehrt", "no_solo_due",
    "poverty_allowed", "poverty_too_many_trumps", "recall",
    "infer_own_hand", "infer_played_old_one", "infer_announced", "infer_no_trump", "infer_by_count", "infer_unknown",
    "decide_outcome", "decide_can_be_beaten", "decide_cannot_be_beaten", "decide_partner_gets_most",
    "decide_fox_home", "decide_cheapest_winner", "decide_duck_cheap", "decide_sure_winner", "decide_fresh_ace",
    "decide_re_leads_trump", "decide_plain_lead", "decide_limit_half", "decide_limit_outcome", "decide_limit_risk",
    "sheet_row", "infer_silent_wedding", "name_card",
)
GROUPED.update({code: _lesson for code in LESSON_REASONS})
def trick_reason_text(reason: Reason) -> str:
    """A reason about a trick or a card, worded without a question (the play page explains
    each trick of a deal with it)."""
    p: dict[str, Any] = reason.params
    text: str = WORDS[reason.code](p, short(p["card"]) if "card" in p else "", None)
    return text


# --- The lessons' own kinds (tutor/learn/kinds.py): infer, decide, sheet ----------------


def _suit_of_card(card: str) -> str:
    return suit_name(card[-1])


def _own_kind_texts(p: dict[str, Any]) -> dict[str, Callable[[], str]]:
    """The sentences of the reasons the lessons' own kinds give (each a function of ``p``)."""
    def who(key: str = "seat") -> str:
        return seat(p[key])

    def card(key: str = "card") -> str:
        return short(p[key])

    return {
        "infer_own_hand": lambda: (_("You hold a Q♣, so you are Re.") if p["party"] == "re"
                                   else _("You hold no Q♣, so you are Kontra.")),
        "infer_played_old_one": lambda: _(
            "%(seat)s played a Q♣ in trick %(num)d: whoever holds a Q♣ is Re.", seat=who(), num=p["trick"]),
        "infer_announced": lambda: _("%(seat)s announced “%(party)s”.", seat=who(), party=party_name(p["party"])),
        "infer_no_trump": lambda: _(
            "%(seat)s did not follow the trump lead in trick %(num)d, so holds no trump any more, and so no Q♣: "
            "Kontra.", seat=who(), num=p["trick"]),
        "infer_by_count": lambda: _(
            "Both %(other)s players are known (%(others)s), so %(seat)s is %(party)s.", seat=who(),
            party=party_name(p["party"]), other=party_name("kontra" if p["party"] == "re" else "re"),
            others=format_list([seat(s) for s in p["others"]], locale=str(get_locale()))),
        "infer_unknown": lambda: _(
            "Nothing %(seat)s has played yet shows whether %(seat)s holds a Q♣: you can’t tell yet.", seat=who()),
        "decide_outcome": lambda: {
            "you": lambda: _("With the %(card)s you take the trick yourself: %(points)d card points.",
                             card=card(), points=p["points"]),
            "partner": lambda: _("With the %(card)s the trick stays with your partner, %(seat)s: %(points)d card "
                                 "points for your side.", card=card(), seat=who(), points=p["points"]),
            "opponent": lambda: _("With the %(card)s the trick goes to %(seat)s, of the other party: %(points)d card "
                                  "points for them.", card=card(), seat=who(), points=p["points"]),
            "unknown": lambda: _("With the %(card)s the trick goes to %(seat)s, whose party you don’t know yet: "
                                 "%(points)d card points.", card=card(), seat=who(), points=p["points"]),
        }[p["side"]](),
        "decide_can_be_beaten": lambda: ngettext(
            "The %(card)s can still be beaten: %(num)d card you have not seen beats it (%(cards)s).",
            "The %(card)s can still be beaten: %(num)d cards you have not seen beat it (%(cards)s, …).",
            p["count"], card=card(), cards=", ".join(short(c) for c in p["cards"])),
        "decide_cannot_be_beaten": lambda: _(
            "No card you have not seen can beat the %(card)s: it takes the trick for sure.", card=card()),
        "decide_partner_gets_most": lambda: _(
            "Your partner has the trick: the %(card)s leaves it to him and adds the most card points you can give "
            "(schmieren).", card=card()),
        "decide_fox_home": lambda: _(
            "Your side takes this trick, so your fox (A♦) comes home: its 11 card points are yours, and the other "
            "party catches nothing."),
        "decide_cheapest_winner": lambda: _(
            "The %(card)s takes the trick just as well as a higher trump: keep the higher ones for the tricks that "
            "need them.", card=card()),
        "decide_duck_cheap": lambda: _(
            "The trick holds only %(points)d card points: not worth your Dulle. The %(card)s gives the other party "
            "as little as you can.", points=p["points"], card=card()),
        "decide_sure_winner": lambda: _(
            "No card still out can beat the %(card)s: it takes the trick whatever the others play.", card=card()),
        "decide_fresh_ace": lambda: ngettext(
            "Nobody has led %(suit)s yet, and %(num)d other card of that suit is still out: the %(card)s will most "
            "likely be followed, not trumped.",
            "Nobody has led %(suit)s yet, and %(num)d other cards of that suit are still out: the %(card)s will most "
            "likely be followed, not trumped.",
            p["left"], suit=_suit_of_card(p["card"]), card=card()),
        "decide_re_leads_trump": lambda: ngettext(
            "You are Re with %(num)d trump: lead trumps, so that Kontra’s trumps fall and your partner sees where "
            "you stand.",
            "You are Re with %(num)d trumps: lead trumps, so that Kontra’s trumps fall and your partner sees where "
            "you stand.", p["trumps"]),
        "decide_plain_lead": lambda: (
            ngettext(
                "Someone has led %(suit)s before: only %(num)d card of that suit is left for the others, so the "
                "%(card)s may well be trumped.",
                "Someone has led %(suit)s before: only %(num)d cards of that suit are left for the others, so the "
                "%(card)s may well be trumped.", p["left"], suit=_suit_of_card(p["card"]), card=card())
            if p["led"] else
            _("The %(card)s is a plain card below the ace: leading it hands the trick to a higher card or a trump.",
              card=card()) if not p["ace"] else
            _("The %(card)s is a plain ace: a fine lead for Kontra, but as Re your trumps come first.", card=card())),
        "decide_limit_half": lambda: ngettext(
            "%(party)s already holds %(points)d card points and needs %(need)d against “%(announcement)s”, with "
            "%(num)d trick still to play.",
            "%(party)s already holds %(points)d card points and needs %(need)d against “%(announcement)s”, with "
            "%(num)d tricks still to play.", p["cards"], party=party_name(p["party"]), points=p["points"],
            need=p["need"], announcement=str(words.ANNOUNCEMENTS[narrow(p["announcement"], ANNOUNCEMENT_IDS)])),
        "decide_limit_outcome": lambda: _(
            "Say Re ends with %(points)d card points: without “%(announcement)s” your side wins and each of you "
            "writes %(without)s; with it your side loses the deal and each of you writes %(lost)s.",
            points=p["re_points"], without=signed(p["without"]), lost=signed(p["with"]),
            announcement=str(words.ANNOUNCEMENTS[narrow(p["announcement"], ANNOUNCEMENT_IDS)])),
        "decide_limit_risk": lambda: _(
            "“%(announcement)s” stakes the whole deal: if the other party gets there, you lose everything, your "
            "“%(party)s” too.", announcement=str(words.ANNOUNCEMENTS[narrow(p["announcement"], ANNOUNCEMENT_IDS)]),
            party=party_name(p["party"])),
        "sheet_row": lambda: _sheet_row_text(p),
        "infer_silent_wedding": lambda: _(
            "%(groom)s played both Q♣: a silent wedding, %(groom)s alone against the other three, who are all "
            "Kontra.", groom=seat(p["groom"])),
        "name_card": lambda: {
            "dulle": lambda: _("The Dulle is the 10♥."),
            "alten": lambda: _("Die Alten, the old ones, are the two Q♣."),
            "fuchs": lambda: _("The Fuchs, the fox, is the A♦."),
            "karlchen": lambda: _("Karlchen is the J♣."),
        }[p["name"]](),
    }


def deal_runs(deals: list[tuple[int, str, int | None, bool]]) -> list[tuple[int, int, int, str, int | None, bool]]:
    """The deals of an evening as a list shows them: (first, last, dealer, game, soloist,
    compulsory), four or more normal games in a row folded into one line (first < last)."""
    runs: list[tuple[int, int, int, str, int | None, bool]] = []
    i = 0
    while i < len(deals):
        j = i
        while j < len(deals) and deals[j][1] == "normal":
            j += 1
        if j - i >= 4:
            runs.append((i + 1, j, deals[i][0], "normal", None, False))
            i = j
            continue
        dealer, game, soloist, compulsory = deals[i]
        runs.append((i + 1, i + 1, dealer, game, soloist, compulsory))
        i += 1
    return runs


def bock_reason(code: str) -> str:
    """Why a deal starts a Bock round (the house option): a tie, or a "Re" or "Kontra" lost."""
    return {
        "tie": _("120 : 120, so a Bock round follows."),
        "lost_re": _("“Re” was announced and lost, so a Bock round follows."),
        "lost_kontra": _("“Kontra” was announced and lost, so a Bock round follows."),
    }[code]


def _sheet_row_text(p: dict[str, Any]) -> str:
    entry = p["entries"][p["player"]]
    if entry is None:
        text = _("Deal %(num)d: %(player)s sits out and writes nothing; total %(total)s.", num=p["number"],
                 player=player(p["player"]), total=signed(p["total"]))
    else:
        text = _("Deal %(num)d: %(player)s writes %(entry)s; total %(total)s.", num=p["number"],
                 player=player(p["player"]), entry=signed(entry), total=signed(p["total"]))
    if p["multiplier"] > 1:
        text += " " + _("(Bock: this deal counts %(num)d times.)", num=p["multiplier"])
    return text


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
        len(cards), cards=_card_list(cards), suit=_suit(p)),
    "must_follow_suit_not_this": lambda p, cards: ngettext(
        "The %(cards)s you ticked is not one of the %(suit)s: while you still hold plain %(suit)s, you must play one.",
        "The %(cards)s you ticked are not %(suit)s: while you still hold plain %(suit)s, you must play one.",
        len(cards), cards=_card_list(cards), suit=_suit(p)),
    "not_a_trump_must_follow": lambda p, cards: ngettext(
        "The %(cards)s you ticked is no trump: on a trump lead you must play a trump while you hold one.",
        "The %(cards)s you ticked are no trumps: on a trump lead you must play a trump while you hold one.",
        len(cards), cards=_card_list(cards)),
    "follows_suit": lambda p, cards: ngettext(
        "You left out the %(cards)s: all plain %(suit)s follow the lead and may be played.",
        "You left out the %(cards)s: all plain %(suit)s follow the lead and may be played.",
        len(cards), cards=_card_list(cards), suit=_suit(p)),
    "follows_trump": lambda p, cards: ngettext(
        "You left out the %(cards)s: every trump follows a trump lead, whatever suit it shows.",
        "You left out the %(cards)s: every trump follows a trump lead, whatever suit they show.",
        len(cards), cards=_card_list(cards)),
    "void_card_free": lambda p, cards: ngettext(
        "You left out the %(cards)s: with no plain %(suit)s in hand you may play any card.",
        "You left out the %(cards)s: with no plain %(suit)s in hand you may play any card.",
        len(cards), cards=_card_list(cards), suit=_suit(p)),
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
