"""Quiz progress on the device, no account: a signed cookie the server reads and writes.

Per kind: questions answered, right, the streak, the level and a Leitner box for spaced
review (a missed kind is due again at once and the next day; one answered right waits
1, 2, 4, 8, 16 days). The cookie also keeps the questions answered lately, so a question
posted twice counts once, and today's daily challenge.

Signing keeps the server's count honest against a changed cookie; it cannot stop someone
from restoring an old cookie, and nothing of value hangs on it.
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any, Final

from tutor.quiz import KINDS, MAX_LEVEL
from tutor.web.base import signed

COOKIE: Final = "quiz"
MAX_AGE: Final = 2 * 365 * 24 * 3600
INTERVALS: Final = (0, 1, 2, 4, 8, 16)  # days until a kind is due again, by Leitner box
RECENT: Final = 40  # questions remembered as answered
LEVEL_UP: Final = 3  # right answers in a row that bring in the next level
DAILY_LENGTH: Final = 10
MAX_GIVEN: Final = 80  # characters of a missed daily answer kept to explain it afterwards


def today() -> int:
    """Today as a day number (UTC): the daily challenge is the same for everyone that day."""
    return datetime.now(UTC).date().toordinal()


def day_text(day: int) -> str:
    return date.fromordinal(day).isoformat()


@dataclass
class KindProgress:
    answered: int = 0
    right: int = 0
    streak: int = 0
    best: int = 0
    level: int = 0
    box: int = 0
    due: int = 0  # day number when the kind is due for review

    @property
    def accuracy(self) -> int | None:
        return round(100 * self.right / self.answered) if self.answered else None

    def record(self, correct: bool, day: int) -> None:
        self.answered += 1
        if correct:
            self.right += 1
            self.streak += 1
            self.best = max(self.best, self.streak)
            if self.streak % LEVEL_UP == 0:
                self.level = min(MAX_LEVEL, self.level + 1)
            self.box = min(len(INTERVALS) - 1, self.box + 1)
        else:
            self.streak = 0
            self.level = max(0, self.level - 1)
            self.box = 0
        self.due = day + INTERVALS[self.box]


@dataclass
class Progress:
    kinds: dict[str, KindProgress] = field(default_factory=dict)
    recent: list[str] = field(default_factory=list)
    last: str | None = None
    daily_day: int = 0
    daily: str = ""  # "1" right, "0" wrong, per daily question answered today
    daily_levels: str = ""  # the level each of today's daily questions was asked at
    daily_given: list[str] = field(default_factory=list)  # a missed one's answer ("" when right)

    def of(self, kind: str) -> KindProgress:
        return self.kinds.setdefault(kind, KindProgress())

    def levels(self) -> dict[str, int]:
        """The level of every kind met."""
        return {k: p.level for k, p in self.kinds.items()}

    def level(self, kind: str) -> int:
        """The level questions of this kind start at (0 for a kind not met yet)."""
        return self.kinds[kind].level if kind in self.kinds else 0

    def met(self) -> list[str]:
        return [k for k in KINDS if k in self.kinds and self.kinds[k].answered]

    def due(self, day: int) -> list[str]:
        """Kinds met and due for review, the shakiest first."""
        due = [k for k in self.met() if self.kinds[k].due <= day]
        return sorted(due, key=lambda k: (self.kinds[k].box, self.kinds[k].due))

    def answered(self, key: str) -> bool:
        return key in self.recent

    def remember(self, key: str) -> None:
        self.recent = [*self.recent, key][-RECENT:]

    def daily_today(self, day: int) -> str:
        return self.daily if self.daily_day == day else ""

    def record_daily(self, day: int, correct: bool, level: int = 0, given: tuple[str, ...] = ()) -> None:
        if self.daily_day != day:
            self.daily_levels, self.daily_given = "", []
        self.daily = self.daily_today(day) + ("1" if correct else "0")
        self.daily_levels += str(level)
        answer = "" if correct else "\x1f".join(given)
        self.daily_given.append(answer if len(answer) <= MAX_GIVEN else "")
        self.daily_day = day

    def daily_missed(self, day: int) -> list[int]:
        """Today's daily questions answered wrong, by index."""
        return [i for i, r in enumerate(self.daily_today(day)) if r == "0"]

    def daily_answer(self, day: int, index: int) -> tuple[int, tuple[str, ...] | None]:
        """The level a daily question of today was asked at, and the wrong answer given."""
        level = int(self.daily_levels[index]) if index < len(self.daily_levels) else 0
        given = self.daily_given[index] if index < len(self.daily_given) else ""
        return level, tuple(given.split("\x1f")) if given else None

    def next_mixed(self, rng: random.Random, day: int) -> str:
        """The kind mixed practice asks next: a kind due for review (missed ones first),
        else one of the kinds met, never the same twice running when there is a choice; a
        new kind joins while fewer than three are known."""
        met = self.met()
        due = [k for k in self.due(day) if k != self.last]
        if due:
            return due[0]
        pool = [k for k in met if k != self.last]
        unmet = [k for k in KINDS if k not in met]
        if unmet and (len(met) < 3 or rng.random() < 0.2):
            pool.append(unmet[0])
        return rng.choice(pool) if pool else KINDS[0]

    def dump(self) -> dict[str, Any]:
        return {
            "k": {k: [p.answered, p.right, p.streak, p.best, p.level, p.box, p.due] for k, p in self.kinds.items()},
            "r": self.recent, "l": self.last, "d": [self.daily_day, self.daily, self.daily_levels, self.daily_given],
        }

    @classmethod
    def load(cls, data: Any) -> Progress:
        """Progress from the cookie's data; a fresh start for anything unexpected."""
        try:
            kinds = {k: KindProgress(*map(int, v)) for k, v in data["k"].items() if k in KINDS and len(v) == 7}
            recent = [str(r) for r in data["r"]][-RECENT:]
            last = data["l"] if data["l"] in KINDS else None
            day, daily = int(data["d"][0]), str(data["d"][1])
            if set(daily) - {"0", "1"} or len(daily) > DAILY_LENGTH:
                raise ValueError(daily)
            levels = str(data["d"][2]) if len(data["d"]) > 2 else ""
            given = [str(a)[:MAX_GIVEN] for a in data["d"][3]][:DAILY_LENGTH] if len(data["d"]) > 3 else []
            if set(levels) - {str(n) for n in range(MAX_LEVEL + 1)} or len(levels) > DAILY_LENGTH:
                raise ValueError(levels)
            return cls(kinds, recent, last, day, daily, levels, given)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            return cls()


SALT: Final = "quiz-progress"


def read(secret: str, text: str | None) -> Progress:
    return signed.read(secret, SALT, text, Progress.load, Progress)


def write(secret: str, progress: Progress) -> str:
    return signed.write(secret, SALT, progress.dump())


def daily_plan(day: int, levels: Mapping[str, int] | None = None) -> list[tuple[str, int, int]]:
    """Today's ten questions as (kind, seed, level): every kind once (ten kinds, ten
    questions; were there fewer kinds, more drawn among them), in an order and with seeds drawn
    from the date, so everyone gets the same kinds and seeds; each at the learner's own level
    of its kind (``levels``; a kind not met yet is level 0)."""
    rng = random.Random(f"daily-{day}")
    kinds = list(KINDS)
    rng.shuffle(kinds)
    while len(kinds) < DAILY_LENGTH:
        kinds.append(rng.choice(KINDS))
    kinds = kinds[:DAILY_LENGTH]
    levels = levels or {}
    return [(kind, rng.getrandbits(31), levels.get(kind, 0)) for kind in kinds]
