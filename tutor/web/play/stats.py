"""The learner's deals on the device, no account: a small signed cookie with the deals
played, the deals won and the points written. The deals counted lately are remembered by a
short key, so reloading the end of a deal counts it once."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Final

from tutor.web.base import signed

COOKIE: Final = "play"
MAX_AGE: Final = 2 * 365 * 24 * 3600
RECENT: Final = 20
MAX_COUNT: Final = 10**7


@dataclass
class Stats:
    played: int = 0
    won: int = 0
    points: int = 0
    recent: list[str] = field(default_factory=list)

    def record(self, key: str, won: bool, points: int) -> bool:
        """Count a finished deal once; False if it was counted already."""
        if key in self.recent:
            return False
        self.played = min(MAX_COUNT, self.played + 1)
        self.won = min(self.played, self.won + int(won))
        self.points = max(-MAX_COUNT, min(MAX_COUNT, self.points + points))
        self.recent = [*self.recent, key][-RECENT:]
        return True

    def dump(self) -> dict[str, Any]:
        return {"p": self.played, "w": self.won, "t": self.points, "r": self.recent}

    @classmethod
    def load(cls, data: Any) -> Stats:
        """Stats from the cookie's data; a fresh start for anything unexpected."""
        try:
            played, won, points = int(data["p"]), int(data["w"]), int(data["t"])
            recent = [str(r)[:16] for r in data["r"]][-RECENT:]
            if not 0 <= won <= played <= MAX_COUNT or abs(points) > MAX_COUNT:
                raise ValueError(played)
            return cls(played, won, points, recent)
        except (KeyError, TypeError, ValueError, AttributeError):
            return cls()


def deal_key(*parts: object) -> str:
    return hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()[:12]


SALT: Final = "play-stats"


def read(secret: str, text: str | None) -> Stats:
    return signed.read(secret, SALT, text, Stats.load, Stats)


def write(secret: str, stats: Stats) -> str:
    return signed.write(secret, SALT, stats.dump())
