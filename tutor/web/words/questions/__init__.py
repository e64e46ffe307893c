"""Questions in words: prompts, answers and the engine's reasons, in the page's language; the quiz
and the lessons both ask through it. The engine says which rule decided (a code with parameters);
this package only words it:

- names.py: seats, players, cards, games and parties, the quiz's kinds and topics, field labels
- prompts.py: the question, its choices and the right answer
- reasons.py: one reason as a sentence, by topic: tricks and cards (card_reasons.py), a deal's
  announcements, needs, score, game and parties (deal_reasons.py)
- misses.py: why not the learner's own choice, one sentence per misconception
- best_card.py: find the best card (its prompt, what the seat knows, the table tips)
- lessons.py: the kinds only lessons ask and the lessons' own kinds (infer, decide, sheet)

This module is the one namespace the templates get as ``text``: what they call on it.
"""

from tutor.web.words import signed
from tutor.web.words.questions.best_card import best_card_parties, by_seat, more_than_choices, seat_as_known
from tutor.web.words.questions.deal_reasons import score_total
from tutor.web.words.questions.lessons import bock_reason, deal_runs
from tutor.web.words.questions.misses import miss_groups
from tutor.web.words.questions.names import (
    KIND_TEXTS,
    KIND_TITLES,
    LEVEL_NAMES,
    field_label,
    hand_title,
    learner_view,
    listing,
    party_name,
    player,
    players,
    plays,
    seat,
    winner_index,
)
from tutor.web.words.questions.prompts import answer_text, choice_label, prompt
from tutor.web.words.questions.reasons import reason_text

__all__ = [
    "KIND_TEXTS", "KIND_TITLES", "LEVEL_NAMES", "answer_text", "best_card_parties", "bock_reason", "by_seat",
    "choice_label", "deal_runs", "field_label", "hand_title", "learner_view", "listing", "miss_groups",
    "more_than_choices", "party_name", "player", "players", "plays", "prompt", "reason_text", "score_total", "seat",
    "seat_as_known", "signed", "winner_index",
]
