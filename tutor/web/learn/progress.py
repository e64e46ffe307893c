"""Lesson progress on the device, no account: a small signed cookie.

It keeps the lessons started and finished (by their number on the path) and the last step
opened, so the path can mark what is done and offer to continue. Signing keeps a changed
cookie from being read as progress; nothing of value hangs on it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from tutor.web.base import signed

COOKIE: Final = "learn"
MAX_AGE: Final = 2 * 365 * 24 * 3600
MAX_LESSONS: Final = 99
MAX_STEP: Final = 99


@dataclass
class Progress:
    started: set[int] = field(default_factory=set)
    done: set[int] = field(default_factory=set)
    last: tuple[int, int] | None = None  # (lesson number, step number)

    def visit(self, lesson: int, step: int, last_step: bool) -> None:
        """A step was opened: the lesson is started, and finished once its last step is reached."""
        self.started.add(lesson)
        if last_step:
            self.done.add(lesson)
        self.last = (lesson, step)

    def state(self, lesson: int) -> str:
        return "done" if lesson in self.done else "started" if lesson in self.started else "new"

    def dump(self) -> dict[str, Any]:
        data: dict[str, Any] = {"s": sorted(self.started - self.done), "d": sorted(self.done)}
        if self.last:
            data["l"] = list(self.last)
        return data

    @classmethod
    def load(cls, data: Any) -> Progress:
        """Progress from the cookie's data; a fresh start for anything unexpected."""
        try:
            done = {int(n) for n in data["d"] if 0 < int(n) <= MAX_LESSONS}
            started = {int(n) for n in data["s"] if 0 < int(n) <= MAX_LESSONS} | done
            last = data.get("l")
            spot = None
            if last is not None:
                lesson, step = int(last[0]), int(last[1])
                if 0 < lesson <= MAX_LESSONS and 0 < step <= MAX_STEP and len(last) == 2:
                    spot = (lesson, step)
            return cls(started, done, spot)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            return cls()


SALT: Final = "learn-progress"


def read(secret: str, text: str | None) -> Progress:
    return signed.read(secret, SALT, text, Progress.load, Progress)


def write(secret: str, progress: Progress) -> str:
    return signed.write(secret, SALT, progress.dump())
