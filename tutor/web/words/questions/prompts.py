"""A question and its choices in words: the prompt, each choice, the right answer."""

from __future__ import annotations

from babel.lists import format_list
from flask_babel import get_locale, ngettext
from flask_babel import gettext as _

from tutor.quiz.base import Choice, Question
from tutor.rules.terms import ANNOUNCEMENT_IDS, narrow
from tutor.web import words
from tutor.web.words import signed
from tutor.web.words.questions.best_card import best_card_prompt
from tutor.web.words.questions.lessons import EXTRA_CHOICES, LEARNER_PROMPTS, LESSON_PROMPTS
from tutor.web.words.questions.names import game_name, is_learner, need_text, party_name, player, seat, short


def prompt(q: Question) -> str:
    """The question itself."""
    p = q.params
    if is_learner(p.get("seat")) and q.prompt in LEARNER_PROMPTS:
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
