"""What the learner practises, kept on the device in one small signed cookie that the quiz and
the lessons share: the rules due for spaced review (tutor/quiz/review.py) and the streak of
days with a finished daily challenge or review session.

A lesson that checks a question calls ``schedule_miss(question)`` when the learner missed it:
the rule that decides it joins the review, and the cookie is written with the response.

The streak counts days, not answers: at most one a day, and only a finished daily challenge
(ten questions at the learner's levels) or a finished review session (rules the learner
missed before) earns it, so easy drill cannot inflate it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final

from flask import after_this_request, current_app, g, has_app_context, has_request_context, request
from itsdangerous import BadSignature
from werkzeug.wrappers import Response

from tutor.quiz.base import Question
from tutor.quiz.review import Deck
from tutor.quiz.why import rule_of
from tutor.web.base import security, signed

COOKIE: Final = "practice"
MAX_AGE: Final = 2 * 365 * 24 * 3600
REVIEW_SESSION: Final = 5  # answers in review that finish a session (or fewer, when nothing more is due)

__all__ = ["Practice", "current", "now", "save", "schedule_miss", "streak"]


def now() -> datetime:
    """The clock review is scheduled by (tests set ``PRACTICE_NOW`` in the app's config)."""
    fixed = current_app.config.get("PRACTICE_NOW") if has_app_context() else None
    return fixed if isinstance(fixed, datetime) else datetime.now(UTC)


def day_of(moment: datetime) -> int:
    return moment.date().toordinal()


@dataclass
class Practice:
    deck: Deck = field(default_factory=Deck)
    streak_day: int = 0  # the last day that counted
    streak: int = 0
    best: int = 0
    review_day: int = 0
    reviewed: int = 0  # answers in review on review_day

    def current_streak(self, day: int) -> int:
        """Days in a row up to today (or yesterday: today may still come)."""
        return self.streak if self.streak_day >= day - 1 else 0

    def count_day(self, day: int) -> None:
        """A finished daily challenge or review session today."""
        if self.streak_day == day:
            return
        self.streak = self.streak + 1 if self.streak_day == day - 1 else 1
        self.streak_day = day
        self.best = max(self.best, self.streak)

    def record(self, question: Question, correct: bool, moment: datetime) -> None:
        self.deck.record(question.kind, question.level, rule_of(question), correct, moment)

    def reviewed_one(self, moment: datetime) -> bool:
        """Count an answer in review; True when it finishes today's session."""
        day = day_of(moment)
        self.reviewed = self.reviewed + 1 if self.review_day == day else 1
        self.review_day = day
        finished = self.reviewed >= REVIEW_SESSION or not self.deck.due(moment)
        if finished:
            self.count_day(day)
        return finished

    def dump(self) -> dict[str, Any]:
        return {"d": self.deck.dump(), "s": [self.streak_day, self.streak, self.best],
                "r": [self.review_day, self.reviewed]}

    @classmethod
    def load(cls, data: Any) -> Practice:
        try:
            day, count, best = (int(n) for n in data["s"])
            review_day, reviewed = (int(n) for n in data["r"])
            return cls(Deck.load(data["d"]), day, count, best, review_day, reviewed)
        except (KeyError, TypeError, ValueError):
            return cls()


def current() -> Practice:
    """This visitor's practice, read once a request from the cookie."""
    practice: Practice | None = g.get("practice")
    if practice is None:
        text = security.cookie(request, COOKIE) if has_request_context() else None
        read: Any = None
        try:
            read = signed.loads(current_app.config["SECRET_KEY"], COOKIE, text) if text else None
        except BadSignature:
            pass
        practice = Practice.load(read) if read is not None else Practice()
        g.practice, g.practice_read = practice, read if read is not None else FRESH
    return practice


FRESH: Final = Practice().dump()  # what a missing cookie stands for


def save(response: Response) -> Response:
    """Write the cookie with the response, unless it would say what the visitor's cookie
    says already (an answer that changed nothing to review, say)."""
    data = current().dump()
    if data == g.get("practice_read"):
        return response
    text = signed.dumps(current_app.config["SECRET_KEY"], COOKIE, data)
    security.set_cookie(response, request, COOKIE, text, MAX_AGE)
    return response


def schedule_miss(question: Question) -> None:
    """The learner missed ``question`` (in a lesson, say): review its rule on a later visit.
    The cookie goes out with this request's response."""
    current().record(question, False, now())
    if not g.get("practice_saved"):
        g.practice_saved = True
        after_this_request(save)


def streak() -> int:
    """The learner's days in a row with a finished daily challenge or review session."""
    return current().current_streak(day_of(now()))
