"""Spaced review per rule: each question is decided by a rule (a reason code, why.rule_of);
a miss puts that rule into the deck, and the FSRS scheduler (the ``fsrs`` package) decides
when it is due again. A rule answered right goes further out, one missed comes back soon.

The deck is plain data, small enough for a cookie: per rule its kind, the level it was
missed at and the scheduler's state, times in whole minutes.

>>> from datetime import UTC, datetime, timedelta
>>> deck, now = Deck(), datetime(2026, 3, 1, 12, tzinfo=UTC)
>>> deck.record("winner", 0, "first_of_equal", False, now)
>>> deck.record("legal", 0, "must_follow_suit", True, now)  # right and not in the deck: nothing to review
>>> [code for code, _e in deck.due(now + timedelta(minutes=10))]
['first_of_equal']
>>> Deck.load(deck.dump()) == deck
True
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from fsrs import Card, Rating, Scheduler, State

from tutor.quiz import KINDS, MAX_LEVEL

__all__ = ["MAX_RULES", "Deck", "Entry"]

MAX_RULES: Final = 24  # rules kept; beyond that the ones due last (the best known) go
EPOCH: Final = datetime(2026, 1, 1, tzinfo=UTC)
# No fuzzing: the same answers on the same clock give the same schedule.
SCHEDULER: Final = Scheduler(enable_fuzzing=False)


def _minutes(moment: datetime) -> int:
    return int((moment - EPOCH).total_seconds() // 60)


def _moment(minutes: int) -> datetime:
    return EPOCH + timedelta(minutes=minutes)


class Entry:
    """One rule in review: the kind and level to ask it in, and the scheduler's card. An
    entry read from the cookie keeps its row and makes the card only when it is asked for
    (an answer reschedules one rule; the others go back into the cookie as they came)."""

    __slots__ = ("_card", "_row", "kind", "level")

    def __init__(self, kind: str, level: int, card: Card | None = None, row: tuple[Any, ...] | None = None) -> None:
        self.kind, self.level, self._card, self._row = kind, level, card, row

    @property
    def card(self) -> Card:
        if self._card is None:
            _kind, _level, state, step, stability, difficulty, due, last = self._row or ()
            self._card = Card(card_id=1, state=State(state), step=step, stability=stability, difficulty=difficulty,
                              due=_moment(due), last_review=None if last is None else _moment(last))
        return self._card

    @property
    def due(self) -> datetime:
        """When the rule is due again (read off the row, without making the card)."""
        return self.card.due if self._row is None else _moment(self._row[6])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Entry) and self.dump() == other.dump()

    def __repr__(self) -> str:
        return f"Entry({self.kind!r}, {self.level}, due={self.due.isoformat()})"

    def dump(self) -> list[Any]:
        if self._row is not None and self._card is None:
            return [KINDS.index(self.kind), self.level, *self._row[2:]]
        c = self.card
        return [KINDS.index(self.kind), self.level, int(c.state), c.step,
                None if c.stability is None else round(c.stability, 3),
                None if c.difficulty is None else round(c.difficulty, 3),
                _minutes(c.due), None if c.last_review is None else _minutes(c.last_review)]

    @classmethod
    def load(cls, row: Any) -> Entry:
        """An entry from its row, every value checked (ValueError, TypeError or IndexError
        for anything a dump cannot have written); its card is made when asked for."""
        kind, level, state, step, stability, difficulty, due, last = row
        checked = (int(kind), max(0, min(MAX_LEVEL, int(level))), int(State(int(state))),
                   None if step is None else int(step), None if stability is None else float(stability),
                   None if difficulty is None else float(difficulty), int(due), None if last is None else int(last))
        return cls(KINDS[checked[0]], checked[1], row=checked)


@dataclass
class Deck:
    """The rules in review, by reason code."""

    entries: dict[str, Entry] = field(default_factory=dict)

    def record(self, kind: str, level: int, code: str, correct: bool, now: datetime) -> None:
        """An answer to a question decided by rule ``code``: a miss schedules the rule (again),
        a right answer to a rule in review moves it further out."""
        entry = self.entries.get(code)
        if entry is None:
            if correct:
                return
            entry = Entry(kind, level, Card(card_id=1, due=now))
        card, _log = SCHEDULER.review_card(entry.card, Rating.Good if correct else Rating.Again, now)
        self.entries[code] = Entry(entry.kind, min(entry.level, level), card)
        if len(self.entries) > MAX_RULES:
            last = max(self.entries, key=lambda c: self.entries[c].due)
            del self.entries[last]

    def due(self, now: datetime) -> list[tuple[str, Entry]]:
        """The rules due now, longest overdue first."""
        due = [(code, e) for code, e in self.entries.items() if e.due <= now]
        return sorted(due, key=lambda item: item[1].due)

    def next_due(self, now: datetime, last_kind: str | None = None) -> tuple[str, Entry] | None:
        """The rule to review next: the longest overdue, of another kind than the last one
        asked when there is a choice (mixing kinds)."""
        due = self.due(now)
        if not due:
            return None
        return next((item for item in due if item[1].kind != last_kind), due[0])

    def dump(self) -> dict[str, list[Any]]:
        return {code: e.dump() for code, e in self.entries.items()}

    @classmethod
    def load(cls, data: Any) -> Deck:
        """A deck from its dump; an empty one for anything unexpected."""
        try:
            items: Iterable[tuple[str, Any]] = data.items()
            entries = {str(code)[:40]: Entry.load(row) for code, row in items}
        except (AttributeError, TypeError, ValueError, IndexError):
            return cls()
        return cls(dict(list(entries.items())[:MAX_RULES]))
