"""Asking a quiz question: built from its kind, seed, level and rules (kept for the ones asked
lately), signed into its form's token, the next one of each mode (a kind, mixed, review, the
daily challenge and its missed questions), and rendered as a fragment or a page, each kept
once for everyone it is the same for. The learner's progress is read here once a request and
written after an answer.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Final

from flask import current_app, g, make_response, render_template, request, url_for
from flask_babel import gettext as _
from markupsafe import Markup
from werkzeug.wrappers import Response

from tutor.quiz import MAX_LEVEL, Question, make
from tutor.quiz.review import Entry
from tutor.quiz.why import rule_of
from tutor.rules.rulesets import RuleSet
from tutor.web.base import htmx, practice, security, shared, signed
from tutor.web.base.rules import current_rules, to_cookie
from tutor.web.quiz import progress as quiz_progress
from tutor.web.quiz.progress import DAILY_LENGTH, Progress, daily_plan, today
from tutor.web.words import questions as quiz_text

# The part of the rules reference (tutor/web/base/reference.py) for the section a question names.
ANCHORS: Final = {"trumps": "trumps", "cards": "cards", "announcements": "announcements", "winning": "winning",
                  "scoring": "scoring", "parties": "parties", "reservations": "reservations",
                  # Kinds whose rule has a page of its own, before their section's.
                  "kind:legal": "following-suit", "kind:winner": "tricks"}


TOKEN_SALT: Final = "quiz-question"


def progress() -> Progress:
    """This learner's quiz progress, read once a request from its cookie."""
    stored: Progress | None = g.get("quiz_progress")
    if stored is None:
        cookie = security.cookie(request, quiz_progress.COOKIE)
        stored = g.quiz_progress = quiz_progress.read(current_app.config["SECRET_KEY"], cookie)
    return stored


def _save(response: Response) -> Response:
    """Write the progress and practice cookies after an answer (a POST). Asking a question
    changes neither, so a GET sends no cookie: nothing to write, and nothing to sign."""
    if request.method != "POST":
        return response
    value = quiz_progress.write(current_app.config["SECRET_KEY"], progress())
    security.set_cookie(response, request, quiz_progress.COOKIE, value, quiz_progress.MAX_AGE)
    return practice.save(response)


@dataclass
class Asked:
    """A question as the page asks it: the question, where its answer goes, and its token."""

    question: Question
    mode: str  # "kind", "mixed", "review" or "daily"
    token: str
    index: int | None = None  # position in the daily challenge


REVIEW_TRIES: Final = 40  # seeds tried for a question that the rule under review decides


QUESTIONS_KEPT: Final = 256


@lru_cache(maxsize=QUESTIONS_KEPT)
def made(kind: str, seed: int, rules: RuleSet, level: int) -> Question:
    """`make(...)`, kept for the questions built lately: the question asked is built again
    to check its answer, and many learners are asked the same ones (see `new_seed`). A
    Question is frozen, and nothing here changes its parts."""
    return make(kind, seed, rules, level)


def ask(kind: str, seed: int, level: int, rules: RuleSet, mode: str, index: int | None = None,
        code: str | None = None) -> Asked:
    question = made(kind, seed, rules, level)
    data: dict[str, Any] = {"k": kind, "s": seed, "l": question.level, "r": to_cookie(rules), "m": mode}
    if mode in ("daily", "missed"):
        data |= {"d": today(), "i": index}
    if code:
        data["c"] = code
    return Asked(question, mode, signed.dumps(current_app.config["SECRET_KEY"], TOKEN_SALT, data), index)


def review_question(code: str, entry: Entry, rules: RuleSet) -> Asked:
    """A question of the rule under review: the first of a few seeds that the rule decides (or
    the last one tried, of the same kind and level). The seeds follow from the rule and its
    scheduler state, so the question stays the same across reloads until it is answered (an
    answer moves the state on, and so the next question)."""
    rng = random.Random(f"review-{code}-{entry.dump()}-{to_cookie(rules)}")
    seed = 0
    for _try in range(REVIEW_TRIES):
        seed = rng.getrandbits(31)
        if rule_of(made(entry.kind, seed, rules, entry.level)) == code:
            break
    return ask(entry.kind, seed, entry.level, rules, "review", code=code)


def missed_question(number: int) -> Asked:
    """A fresh position in place of the ``number``-th question of today's challenge that the
    learner missed: of the same kind, level and rule (the first of a few seeds that the rule
    decides), seeded from the day and the question, never the question itself nor one already
    answered (the lessons ask again the same way, tutor/learn/variants/)."""
    day, p, rules = today(), progress(), current_rules()
    index = p.daily_missed(day)[number]
    kind, seed, _level = daily_plan(day)[index]
    level, _given = p.daily_answer(day, index)
    code = rule_of(made(kind, seed, rules, level))
    rng = random.Random(f"missed-{day}-{index}-{to_cookie(rules)}")
    fitting = None
    for _try in range(REVIEW_TRIES):
        fresh_seed = rng.getrandbits(31)
        if fresh_seed == seed or p.answered(f"{kind}:{fresh_seed}:{level}"):
            continue
        fitting = fitting if fitting is not None else fresh_seed
        if rule_of(made(kind, fresh_seed, rules, level)) == code:
            fitting = fresh_seed
            break
    return ask(kind, fitting if fitting is not None else seed ^ 1, level, rules, "missed", number, code=code)


def fresh(mode: str, kind: str | None = None) -> Asked | None:
    """The next question of a mode: a kind at the visitor's level, mixed practice, or the
    next question of today's challenge (None once it is done)."""
    rules = current_rules()
    if mode == "daily":
        done = len(progress().daily_today(today()))
        if done >= DAILY_LENGTH:
            return None
        kind, seed, level = daily_plan(today(), progress().levels())[done]
        return ask(kind, seed, level, rules, mode, done)
    if mode == "review":
        due = practice.current().deck.next_due(practice.now(), progress().last)
        return review_question(*due, rules) if due else None
    if mode == "mixed":
        kind = progress().next_mixed(random.Random(secrets.randbits(32)), today())
    assert kind is not None
    level = progress().level(kind)
    return ask(kind, new_seed(kind, level), level, rules, mode)


SEEDS_A_DAY: Final = 512  # questions of each kind and level a day that a new question is drawn from
SEED_TRIES: Final = 8


def new_seed(kind: str, level: int) -> int:
    """The seed of a new question of this kind and level: one of the day's SEEDS_A_DAY, at
    random, that the learner has not answered lately (the progress cookie's last 40). Learners
    asking at the same time so get questions that were asked before, and their question is
    rendered once (see `_respond`), while each learner still meets a new one every time; a fully
    random seed once in a blue moon (every try answered already)."""
    level = max(0, min(MAX_LEVEL, level))
    day, p = today(), progress()
    for _try in range(SEED_TRIES):
        seed = _day_seed(kind, level, day, secrets.randbelow(SEEDS_A_DAY))
        if not p.answered(f"{kind}:{seed}:{level}"):
            return seed
    return secrets.randbits(31)


@lru_cache(maxsize=4096)
def _day_seed(kind: str, level: int, day: int, slot: int) -> int:
    return random.Random(f"quiz-{day}-{kind}-{level}-{slot}").getrandbits(31)


def action_url(mode: str, kind: str, index: int | None = None) -> str:
    if mode == "kind":
        return url_for("quiz.show", kind=kind)
    if mode == "missed":
        return url_for("quiz.daily", missed=index or 0)
    return url_for({"mixed": "quiz.mixed", "review": "quiz.review"}.get(mode, "quiz.daily"))


def render(asked: Asked | None, mode: str, kind: str | None = None, feedback: dict[str, Any] | None = None,
           message: str | None = None, status: int = 200) -> Response:
    """The question (or its feedback) as a page, or as the fragment htmx swaps in."""
    daily = daily_summary() if mode in ("daily", "missed") else None
    review = review_summary() if mode == "review" else None
    key = None
    if asked is not None and message is None and not (feedback and "missed" in feedback):
        q = asked.question
        key = _fragment_key((q.kind, q.seed, q.level, to_cookie(q.rules), asked.token, asked.index,
                             _feedback_key(feedback)), mode, kind, daily, review)

    def question() -> str:
        return _question_html(asked, mode, kind, feedback, message, daily, review)
    return _respond(question, mode, kind or (asked.question.kind if asked else None), status, key)


def ask_page(kind: str, seed: int, level: int, rules: RuleSet, mode: str, page_kind: str | None) -> Response:
    """A question of mode "kind" or "mixed" as `render(ask(...), mode, page_kind)` gives it, the
    same bytes, without building the question when its fragment is kept already."""
    key = _fragment_key(("ask", kind, seed, max(0, min(MAX_LEVEL, level)), to_cookie(rules)), mode, page_kind,
                        None, None)

    def question() -> str:
        return _question_html(ask(kind, seed, level, rules, mode), mode, page_kind, None, None, None, None)
    return _respond(question, mode, page_kind or kind, 200, key)


def _question_html(asked: Asked | None, mode: str, kind: str | None, feedback: dict[str, Any] | None,
                   message: str | None, daily: dict[str, Any] | None, review: dict[str, Any] | None) -> str:
    context = {
        "asked": asked, "mode": mode, "kind": kind or (asked.question.kind if asked else None),
        "feedback": feedback, "message": message, "text": quiz_text, "anchors": ANCHORS,
        "progress": progress(), "daily": daily, "review": review,
        "action": action_url(mode, kind or (asked.question.kind if asked else ""), asked.index if asked else None)
        if (asked or kind) else None,
    }
    return render_template("quiz/_question.html", **context)


def _respond(question: Callable[[], str], mode: str, page_kind: str | None, status: int,
             key: Hashable | None = None) -> Response:
    """The response around a question fragment. A fragment that is the same for everyone who
    gets it (`key`) is rendered once and kept, and its body, fragment or page, is compressed
    once (base/shared.py: `send_compressed`)."""
    partial = htmx.is_partial(request)
    if key is None:
        html = question()
    else:
        fragments = shared.store("quiz_fragments", FRAGMENTS_KEPT)
        html = shared.look(fragments, key) or shared.keep(fragments, key, question())
        status = 200
    body = html if partial else _page_around(html, mode, page_kind)
    response = make_response(body, 200 if partial else status)
    if key is not None:
        shared.send_compressed(response, (key, partial))
    return _save(response)


# Rendered question fragments, kept per everything the fragment shows (see `_fragment_key`): the
# same question in the same language and rules, or the same answer to it with the same
# figures, is rendered once. Bounded in size: least recently used goes first.
FRAGMENTS_KEPT: Final = 4 * 1024 * 1024  # characters: 2-6 kB a fragment
SHELLS_KEPT: Final = 1024 * 1024  # characters: the page around a question, 8 kB


def _fragment_key(question: Hashable, mode: str, kind: str | None, daily: dict[str, Any] | None,
                  review: dict[str, Any] | None) -> Hashable:
    """Everything `quiz/_question.html` reads besides the question and its feedback: the
    address and language it is served in (links), the visitor's rules (the reference's
    link), the mode and kind, and the daily or review summary shown."""
    return (shared.address_key(), to_cookie(current_rules()), mode, kind,
            tuple(sorted(daily.items())) if daily else None, tuple(sorted(review.items())) if review else None,
            question)


def _feedback_key(feedback: dict[str, Any] | None) -> Hashable:
    """What the feedback shows of an answer: right or not, the answer given, the kind's
    streak, accuracy and level, and whether the level just changed."""
    if feedback is None:
        return None
    stats, given = feedback["stats"], feedback["given"]
    return (bool(feedback["correct"]), tuple(given) if given is not None else None, stats.streak, stats.accuracy,
            stats.level, bool(feedback["level_up"]), bool(feedback["level_down"]))


QUESTION_MARK: Final = "<!-- the question -->"


def _page_around(question: str, mode: str, kind: str | None) -> str:
    """The whole page around a question: the page without it (navigation, language links,
    title, rules note: the same for every question of this address, language and rules) is
    rendered once and kept; only the question is put in."""
    shells = shared.store("quiz_shells", SHELLS_KEPT, parts_size)
    key = (shared.address_key(), to_cookie(current_rules()), mode, kind)
    parts: tuple[str, str] | None = shared.look(shells, key)
    if parts is None:
        shell = render_template("quiz/show.html", mode=mode, kind=kind, text=quiz_text,
                                question_html=Markup(QUESTION_MARK))
        before, after = shell.split(QUESTION_MARK, 1)
        parts = shared.keep(shells, key, (before, after))
    return parts[0] + question + parts[1]


def parts_size(parts: tuple[str, ...]) -> int:
    return sum(len(part) for part in parts)


def read_token(secret: str, text: str) -> Any:
    """What a question's token holds (read only: signed.loads shares what it read lately, the
    same token posted by many learners), or BadSignature."""
    data = signed.loads(secret, TOKEN_SALT, text)
    return MappingProxyType(data) if isinstance(data, dict) else data


def daily_summary() -> dict[str, Any]:
    """Today's challenge so far, and the text a player shares when it is done."""
    day = today()
    results = progress().daily_today(day)
    right = results.count("1")
    grid = "".join("🟩" if r == "1" else "🟥" for r in results)
    share = _("Doko Tutor daily challenge %(date)s: %(right)d of %(total)d", date=quiz_progress.day_text(day),
              right=right, total=DAILY_LENGTH)
    url = security.external_url("quiz.daily")
    text = f"{share}\n{grid}\n{url}"
    # The share box shows its whole text: a line for each line, and one more for each long one.
    rows = sum(1 + len(line) // SHARE_LINE for line in text.split("\n"))
    return {"date": quiz_progress.day_text(day), "done": len(results), "right": right, "total": DAILY_LENGTH,
            "results": results, "finished": len(results) >= DAILY_LENGTH, "share": text, "share_rows": rows,
            "missed": len(progress().daily_missed(day))}


SHARE_LINE: Final = 32  # characters of the share text that fit one line of its box on a 360 px phone


def review_summary() -> dict[str, Any]:
    """How many rules are due for review now, and today's session so far."""
    learner = practice.current()
    moment = practice.now()
    day = practice.day_of(moment)
    return {"due": len(learner.deck.due(moment)), "rules": len(learner.deck.entries),
            "done": learner.reviewed if learner.review_day == day else 0, "session": practice.REVIEW_SESSION}
