"""Lesson progress on the device, no account: a small signed cookie.

It keeps the lessons started (by their stable ``key`` from lesson.toml, so a new order of
the path keeps them), the checks answered right in each (a two-letter mark per step), and
the last step opened. A lesson is done once every one of its checks was answered right at
least once (Lichess's stages, Duolingo's units): opening its last step is not enough. A check
missed remembers the positions missed (a short hash of each) until it is answered right on
another: the answer to a position shown with its answer does not count.
Signing keeps a changed cookie from being read as progress; nothing of value hangs on it.
"""
from __future__ import annotations

import re
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final

from tutor.web.base import signed

COOKIE: Final = "learn"
MAX_AGE: Final = 2 * 365 * 24 * 3600
MAX_LESSONS: Final = 99
MAX_STEP: Final = 99
MARK_ALPHABET: Final = "0123456789abcdefghijklmnopqrstuvwxyz"
_MARKS: Final = re.compile(r"^(?:[0-9a-z]{2}){0,40}$")
_MARK: Final = re.compile(r"^[0-9a-z]{2}$")
MISSED_PER_CHECK: Final = 6  # positions remembered per check missed, the latest kept
MISSED_CHECKS: Final = 12  # checks with misses remembered, the latest kept
POSITION_LIMIT: Final = 2**32


def mark_of(step_id: str) -> str:
    """A step's two-letter mark in the cookie (tests check that no two steps of one lesson
    share one)."""
    n = zlib.crc32(step_id.encode("utf-8")) % (len(MARK_ALPHABET) ** 2)
    return MARK_ALPHABET[n // len(MARK_ALPHABET)] + MARK_ALPHABET[n % len(MARK_ALPHABET)]


@dataclass
class Progress:
    started: set[int] = field(default_factory=set)
    right: dict[int, set[str]] = field(default_factory=dict)  # lesson key -> marks of checks answered right
    last: tuple[int, int] | None = None  # (lesson key, step number)
    # (lesson key, mark) -> positions missed (lessons.position_id), for checks not yet right
    missed: dict[tuple[int, str], list[int]] = field(default_factory=dict)

    def visit(self, lesson: int, step: int) -> None:
        """A step was opened: the lesson is started, and it is where the learner is."""
        self.started.add(lesson)
        self.last = (lesson, step)

    def answered(self, lesson: int, step_id: str) -> None:
        """A check was answered right (its own position or a fresh one of the same kind)."""
        self.started.add(lesson)
        self.right.setdefault(lesson, set()).add(mark_of(step_id))
        self.missed.pop((lesson, mark_of(step_id)), None)

    def miss(self, lesson: int, step_id: str, position: int) -> None:
        """A check was answered wrong about this position, whose answer the learner now sees:
        answered right again, it does not count (until the check is right on another)."""
        self.started.add(lesson)
        if mark_of(step_id) in self.right.get(lesson, set()):
            return
        where = (lesson, mark_of(step_id))
        seen = [p for p in self.missed.pop(where, []) if p != position] + [position]
        self.missed[where] = seen[-MISSED_PER_CHECK:]
        while len(self.missed) > MISSED_CHECKS:
            del self.missed[next(iter(self.missed))]

    def counts(self, lesson: int, step_id: str, position: int) -> bool:
        """Whether a right answer about this position counts: not one missed before."""
        return position not in self.missed.get((lesson, mark_of(step_id)), [])

    def done_checks(self, lesson: int, step_ids: Iterable[str]) -> int:
        marks = self.right.get(lesson, set())
        return sum(mark_of(s) in marks for s in step_ids)

    def state(self, lesson: int, step_ids: Iterable[str]) -> str:
        """"done" once every check of ``step_ids`` was answered right, "started", or "new"."""
        ids = list(step_ids)
        if ids and self.done_checks(lesson, ids) == len(ids):
            return "done"
        return "started" if lesson in self.started else "new"

    def dump(self) -> dict[str, Any]:
        data: dict[str, Any] = {"s": sorted(self.started - set(self.right))}
        if self.right:
            data["r"] = {str(k): "".join(sorted(v)) for k, v in sorted(self.right.items())}
        if self.last:
            data["l"] = list(self.last)
        if self.missed:
            data["m"] = [[lesson, mark, *positions] for (lesson, mark), positions in self.missed.items()]
        return data

    @classmethod
    def load(cls, data: Any) -> Progress:
        """Progress from the cookie's data; a fresh start for anything unexpected. A cookie of
        the first version ("d": lessons whose last step was opened) keeps them as started:
        done now means every check answered right."""
        try:
            started = {int(n) for n in data["s"] if 0 < int(n) <= MAX_LESSONS}
            started |= {int(n) for n in data.get("d", []) if 0 < int(n) <= MAX_LESSONS}
            right: dict[int, set[str]] = {}
            for key, marks in dict(data.get("r", {})).items():
                lesson = int(key)
                if 0 < lesson <= MAX_LESSONS and isinstance(marks, str) and _MARKS.match(marks):
                    right[lesson] = {marks[i:i + 2] for i in range(0, len(marks), 2)}
            started |= set(right)
            last = data.get("l")
            spot = None
            if last is not None:
                lesson, step = int(last[0]), int(last[1])
                if 0 < lesson <= MAX_LESSONS and 0 < step <= MAX_STEP and len(last) == 2:
                    spot = (lesson, step)
            missed: dict[tuple[int, str], list[int]] = {}
            for entry in list(data.get("m", []))[-MISSED_CHECKS:]:
                lesson, mark, *positions = entry
                if not (isinstance(lesson, int) and 0 < lesson <= MAX_LESSONS and isinstance(mark, str)
                        and _MARK.match(mark)):
                    continue
                kept = [int(p) for p in positions if isinstance(p, int) and 0 <= p < POSITION_LIMIT]
                if kept:
                    missed[(lesson, mark)] = kept[-MISSED_PER_CHECK:]
            return cls(started, right, spot, missed)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            return cls()


SALT: Final = "learn-progress"


def read(secret: str, text: str | None) -> Progress:
    return signed.read(secret, SALT, text, Progress.load, Progress)


def write(secret: str, progress: Progress) -> str:
    return signed.write(secret, SALT, progress.dump())
