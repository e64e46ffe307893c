"""Lesson progress on the device, no account: a small signed cookie.

It keeps the lessons started (by their stable ``key`` from lesson.toml, so a new order of
the path keeps them), the checks answered right in each (a two-letter mark per step), and
the last step opened. A lesson is done once every one of its checks was answered right at
least once (Lichess's stages, Duolingo's units): opening its last step is not enough.
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

    def visit(self, lesson: int, step: int) -> None:
        """A step was opened: the lesson is started, and it is where the learner is."""
        self.started.add(lesson)
        self.last = (lesson, step)

    def answered(self, lesson: int, step_id: str) -> None:
        """A check was answered right (its own position or a fresh one of the same kind)."""
        self.started.add(lesson)
        self.right.setdefault(lesson, set()).add(mark_of(step_id))

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
            return cls(started, right, spot)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            return cls()


SALT: Final = "learn-progress"


def read(secret: str, text: str | None) -> Progress:
    return signed.read(secret, SALT, text, Progress.load, Progress)


def write(secret: str, progress: Progress) -> str:
    return signed.write(secret, SALT, progress.dump())
