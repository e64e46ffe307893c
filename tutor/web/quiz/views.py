"""The quiz: `/<lang>/quiz/` (progress and the kinds), `/<lang>/quiz/<kind>` (drill one kind),
`/<lang>/quiz/mixed` (interleaved practice), `/<lang>/quiz/review` (the rules missed before
and due again, mixed across kinds), `/<lang>/quiz/daily` (ten questions, the same kinds and
seeds for everyone that day, at each learner's levels; afterwards the missed ones again,
`?missed=<n>`) and `/<lang>/quiz/pack` (every kind to take offline, pack.py).

A question is rebuilt from its kind, seed, level and rules; the form carries them signed, so
the server checks every answer against the engine. A tampered, replayed or malformed answer
gets a message and a fresh question. Progress lives in a signed cookie (progress.py); the
rules due for review and the streak in the practice cookie the lessons share (base/practice.py).

This module is the blueprint, its pages and the answer checked; asking.py builds, signs and
renders a question.
"""

from __future__ import annotations

import random
import secrets
from types import MappingProxyType
from typing import Any, Final

from flask import Blueprint, abort, current_app, render_template, request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from itsdangerous import BadSignature
from werkzeug.wrappers import Response

from tutor.parse import NumberError, whole_number
from tutor.quiz import KINDS, MAX_LEVEL, BadAnswer, check, parse_answer
from tutor.quiz.why import rule_of
from tutor.web.base import i18n, practice
from tutor.web.base.rules import current_rules, from_cookie
from tutor.web.quiz.asking import (
    Asked,
    ask_page,
    daily_summary,
    fresh,
    made,
    missed_question,
    new_seed,
    progress,
    read_token,
    render,
    review_summary,
)
from tutor.web.quiz.progress import DAILY_LENGTH, today
from tutor.web.words import questions as quiz_text

bp = Blueprint("quiz", __name__, url_prefix=i18n.LANG_PREFIX + "/quiz")

KIND_PATH: Final = "/<any(" + ", ".join(KINDS) + "):kind>"


# What a damaged question link says, by the query field at fault.
LINK_MESSAGES: Final = {
    "q": _l("This question link is damaged: its question number is not valid."),
    "l": _l("This question link is damaged: its level must be a whole number from 0 to %(high)d.",
            high=MAX_LEVEL),
}


@bp.get("/")
def index() -> str:
    """Progress per kind, what is due for review (one count: the rules the spaced review
    asks next), mixed practice, the daily challenge."""
    p = progress()
    return render_template(
        "quiz/index.html", kinds=KINDS, progress=p, text=quiz_text,
        daily=daily_summary(), max_level=MAX_LEVEL, review=review_summary(), streak=practice.streak(),
    )


@bp.get(KIND_PATH)
def show(kind: str) -> Response:
    """A question of one kind; `?q=<seed>&l=<level>` asks that very question again."""
    seed, level = _int_arg("q", 0, 2**31 - 1), _int_arg("l", 0, MAX_LEVEL)
    if seed is None:
        level = progress().level(kind)
        return random_question(ask_page(kind, new_seed(kind, level), level, current_rules(), "kind", kind))
    return ask_page(kind, seed, progress().level(kind) if level is None else level, current_rules(), "kind", kind)


@bp.get("/mixed")
def mixed() -> Response:
    """Mixed practice: kinds due for review first, then the kinds met, interleaved."""
    kind = progress().next_mixed(random.Random(secrets.randbits(32)), today())
    level = progress().level(kind)
    return random_question(ask_page(kind, new_seed(kind, level), level, current_rules(), "mixed", None))


@bp.get("/daily")
def daily() -> Response:
    """Today's ten questions, then the result to share; once they are done, `?missed=<n>`
    asks again about the n-th missed question, on a fresh position of the same kind."""
    if request.args.get("missed") is not None:
        return _daily_missed(_int_arg("missed", 0, DAILY_LENGTH - 1) or 0)
    return render(fresh("daily"), "daily")


@bp.get("/review")
def review() -> Response:
    """The rules missed before and due again, mixed across kinds, one question each: the same
    question on every reload until it is answered."""
    return learners_question(render(fresh("review"), "review"))


def learners_question(response: Response) -> Response:
    """A question that follows from this learner's cookies (not drawn at random): no shared
    cache may keep it, and the browser asks again each time."""
    response.headers["Cache-Control"] = "private, no-cache"
    response.vary.add("Cookie")
    return response


def random_question(response: Response) -> Response:
    """A question drawn at random for this request: no cache may answer the next with it."""
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/review")
def answer_review() -> Response:
    """Check an answer given in review."""
    return answer("review")


def _daily_missed(number: int) -> Response:
    """A missed question of today's finished challenge, to answer again on a fresh position."""
    day = today()
    p = progress()
    if len(p.daily_today(day)) < DAILY_LENGTH or number >= len(p.daily_missed(day)):
        abort(404)
    return learners_question(render(missed_question(number), "missed"))


@bp.post("/daily")
def answer_daily() -> Response:
    """Check an answer to today's challenge, or (`?missed=<n>`) to a missed one asked again."""
    if request.args.get("missed") is not None:
        return answer("missed")
    return answer("daily")


@bp.post(KIND_PATH)
def answer_kind(kind: str) -> Response:
    """Check an answer to a question of one kind."""
    return answer("kind", kind)


@bp.post("/mixed")
def answer_mixed() -> Response:
    """Check an answer given in mixed practice."""
    return answer("mixed")


def answer(mode: str, kind: str | None = None) -> Response:
    """Rebuild the question from its signed token, check the answer against the engine,
    count it once, and show why. Anything wrong gets a message and a fresh question."""
    day = today()
    back = "daily" if mode == "missed" else mode  # where a refused answer goes on
    try:
        form = request.form
        data = read_token(current_app.config["SECRET_KEY"], form.get("token", ""))
        if not isinstance(data, (MappingProxyType, dict)) or data.get("m") != mode or (kind and data.get("k") != kind):
            raise BadSignature("mode")
        rules = from_cookie(str(data["r"]))
        question = made(str(data["k"]), int(data["s"]), rules, int(data["l"]))
    except (BadSignature, KeyError, ValueError, TypeError):
        return render(fresh(back, kind), back, kind, status=400, message=_(
            "That answer could not be checked: the question was changed on the way. Here is a new one."))
    p = progress()
    key = f"{question.kind}:{question.seed}:{question.level}"
    if mode == "missed" and (data.get("d") != day or not isinstance(data.get("i"), int)):
        return render(None, "daily", status=400, message=_(
            "That question belongs to another day’s challenge. Here is today’s."))
    if mode == "daily":
        if data.get("d") != day:
            return render(fresh(back), back, status=400, message=_(
                "That question belongs to another day’s challenge. Here is today’s."))
        if data.get("i") != len(p.daily_today(day)):
            return render(fresh(back), back, status=400, message=_(
                "You have answered that question already; it counts once. Here is the next one."))
    elif p.answered(key):
        return render(fresh(back, kind), back, kind, status=400, message=_(
            "You have answered that question already; it counts once. Here is a new one."))
    try:
        given = parse_answer(question, {name: form.getlist(name) for name in form})
    except BadAnswer:
        return render(fresh(back, kind), back, kind, status=400, message=_(
            "That answer does not fit the question. Here is a new one."))
    correct = check(question, given)
    moment = practice.now()
    learner = practice.current()
    learner.record(question, correct, moment)
    if mode == "review":
        code = str(data.get("c", ""))
        if code and code != rule_of(question) and code in learner.deck.entries:
            # The rule under review had no question of its own among the seeds tried.
            learner.deck.record(question.kind, question.level, code, correct, moment)
        learner.reviewed_one(moment)
    stats = p.of(question.kind)
    level_before = stats.level
    stats.record(correct, day)
    p.remember(key)
    p.last = question.kind
    if mode == "daily":
        p.record_daily(day, correct, question.level, given)
        if len(p.daily_today(day)) >= DAILY_LENGTH:
            learner.count_day(day)
    asked = Asked(question, mode, "", data.get("i"))
    feedback: dict[str, Any] = {"correct": correct, "given": given, "stats": stats,
                                "level_up": stats.level > level_before, "level_down": stats.level < level_before}
    if mode == "missed":
        number, missed = int(data["i"]), p.daily_missed(day)
        feedback |= {"missed": number, "next_missed": number + 1 if number + 1 < len(missed) else None}
    return render(asked, mode, kind, feedback=feedback)


def _int_arg(name: str, low: int, high: int) -> int | None:
    """A number of a question's link (`?q=` its seed, `?l=` its level); 400 when it is not one."""
    text = request.args.get(name)
    if text is None:
        return None
    try:
        return whole_number(text, name, low=low, high=high, max_digits=10)
    except NumberError:
        message = LINK_MESSAGES.get(name, LINK_MESSAGES["q"])
        abort(400, description=str(message))
