"""The lessons: `/<lang>/learn/` (the path), `/<lang>/learn/<slug>` (the step to resume, or
the first), `/<lang>/learn/<slug>/<n>` (one step; `?v=<seed>` asks its check about a fresh
position of the same kind, `&a=<seed>` never the one of that seed), `/<lang>/learn/words`
(the glossary). Checkpoints between the lessons have the same addresses.

A step's prose, cards and check come from tutor/learn/; its check is a quiz question
built by the engine about the step's position, asked and worded as the quiz asks it. An
answer is a plain form post (htmx swaps the check in place); the server rebuilds the check
from the lesson, the seed and the visitor's rules, so nothing the browser sends is trusted
but the answer itself. After a miss the learner tries again on new cards; a lesson is done
once each of its checks was answered right. Seats are named from the learner's view
(South is you).

This module is the blueprint, the path, the glossary and the answers; step.py shows a step.
"""

from __future__ import annotations

import gzip
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

from flask import Blueprint, Flask, abort, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _
from markupsafe import Markup
from werkzeug.wrappers import Response

from tutor import learn
from tutor.quiz import KINDS, BadAnswer, check, parse_answer
from tutor.rules.rulesets import RuleSet
from tutor.web.base import i18n, practice
from tutor.web.base.rules import COOKIE as RULES_COOKIE
from tutor.web.base.rules import current_rules, from_cookie, to_cookie
from tutor.web.base.shared import address_key as shared_key
from tutor.web.base.shared import shared
from tutor.web.learn import offline
from tutor.web.learn import progress as learn_progress
from tutor.web.learn.step import card_html, check_ids, page_lang, progress, save, show, url_prefix
from tutor.web.words import questions as quiz_text

bp = Blueprint("learn", __name__, url_prefix=i18n.LANG_PREFIX + "/learn")


SLUG: Final = "<string(minlength=1, maxlength=40):slug>"


def init_app(app: Flask) -> None:
    """The learn page's endpoint before it moved here, ``pages.learn``, still builds its URL."""
    app.add_url_rule(i18n.LANG_PREFIX + "/learn/", endpoint="pages.learn", view_func=path)


@bp.before_request
def _learner_seats() -> None:
    quiz_text.learner_view()


def _lesson_or_404(slug: str) -> learn.Lesson:
    item = learn.lesson(slug)
    if item is None:
        abort(404)
    return item


@dataclass
class Entry:
    """One lesson (or checkpoint) on the path."""

    lesson: learn.Lesson
    title: str
    summary: str
    state: str  # "new", "started" or "done"
    steps: int
    checks: int  # checks of the lesson under the learner's rules
    right: int  # of them answered right


def _entries(rules: RuleSet) -> list[Entry]:
    p = progress()
    found = []
    for item in learn.path():
        ids = check_ids(item, rules)
        found.append(Entry(item, item.text(page_lang()).title, item.text(page_lang()).summary, p.state(item.key, ids),
                           len(item.steps_for(rules)), len(ids), p.done_checks(item.key, ids)))
    return found


def _continue(entries: list[Entry], rules: RuleSet) -> tuple[Entry, int] | None:
    """Where the learner left off: the last step opened (the next lesson's start once that
    lesson is done and its last step reached), or nothing before the first step."""
    last = progress().last
    if last is None:
        return None
    index = next((i for i, e in enumerate(entries) if e.lesson.key == last[0]), None)
    if index is None:
        return None
    entry = entries[index]
    if entry.state == "done" and last[1] >= entry.steps:
        later = [e for e in entries[index + 1:] if e.state != "done"]
        return (later[0], 1) if later else None
    return entry, min(last[1], entry.steps)


def save_urls(lang: str, rules: RuleSet) -> list[str]:
    """Every page of the lessons in one language: what the lessons' pack keeps offline."""
    urls = [url_for("learn.path", lang=lang), url_for("learn.words", lang=lang)]
    for item in learn.path():
        urls.append(url_for("learn.lesson", lang=lang, slug=item.slug))
        urls += [url_for("learn.step", lang=lang, slug=item.slug, n=n)
                 for n in range(1, len(item.steps_for(rules)) + 1)]
    return urls


@bp.get("/")
@shared(RULES_COOKIE, learn_progress.COOKIE)
def path() -> Response:
    """The path: every lesson in order, what is done, and where to continue."""
    rules = current_rules()
    entries = _entries(rules)
    resume = _continue(entries, rules)
    return make_response(render_template("learn/path.html", entries=entries, resume=resume))


@lru_cache(maxsize=64)
def _save_urls(lang: str, rules_key: str, script_root: str) -> list[str]:
    return save_urls(lang, from_cookie(rules_key))


@bp.get("/pack")
def pack() -> Response:
    """Every page of the lessons in this language, as `save_urls` lists them, in one answer
    for the service worker to keep (learn/offline.py): rendered for this visitor's rules, as
    a learner who has not started sees them, compressed once and kept. Pages that show
    progress the learner opened online are kept by the worker as they were shown."""
    rules = to_cookie(current_rules())
    urls = _save_urls(page_lang(), rules, request.script_root)
    body = offline.body((shared_key(), rules), urls, {RULES_COOKIE: rules})
    encoding = request.accept_encodings.best_match(["br", "gzip"])
    data = body.br if encoding == "br" else body.gzip if encoding == "gzip" else gzip.decompress(body.gzip)
    response = make_response(data)
    response.mimetype = "application/json"
    if encoding:
        response.headers["Content-Encoding"] = encoding  # Flask-Compress leaves it as it is
    response.vary.add("Accept-Encoding")
    response.headers["Cache-Control"] = "no-store"  # for the worker alone, once per version
    return response


@bp.get("/words")
def words() -> str:
    """The glossary: each German word of the game, once, with an anchor per term."""
    terms = learn.glossary(page_lang(), current_rules(), card_html, url_prefix())
    source = learn.load_glossary(page_lang()) or learn.load_glossary(learn.SOURCE_LANG)
    return render_template("learn/words.html", terms=[(t, Markup(html)) for t, html in terms],
                           title=source.title if source else "", summary=source.summary if source else "")


def _moved(slug: str, n: int, rules: RuleSet) -> Response | None:
    """A step that left its place (lessons/moved.toml): a permanent redirect to where it is."""
    target = learn.moved_steps().get((slug, n))
    item = learn.lesson(target[0]) if target else None
    if target is None or item is None:
        return None
    ids = [s.id for s in item.steps_for(rules)]
    where = url_for("learn.step", slug=item.slug, n=ids.index(target[1]) + 1) if target[1] in ids else \
        url_for("learn.lesson", slug=item.slug)
    response = redirect(where, code=301)
    response.vary.add("Cookie")  # the step's number follows the learner's rule set
    return response


def _seed(value: str | None) -> int | None:
    """A fresh position's seed from the address or the form; None when absent; -1 when it is
    no seed at all (a 400)."""
    if value is None or value == "":
        return None
    if not value.isdigit() or len(value) > 10 or not 1 <= int(value) <= learn.SEED_LIMIT:
        return -1
    return int(value)


def _seeds(source: Any) -> tuple[int | None, int | None, bool]:
    seed, avoid = _seed(source.get("v")), _seed(source.get("a"))
    bad = seed == -1 or avoid == -1 or (avoid is not None and seed is None)
    return (None, None, True) if bad else (seed, avoid, False)


@bp.get("/" + SLUG)
@shared(RULES_COOKIE, learn_progress.COOKIE)
def lesson(slug: str) -> Response:
    """A lesson: the step to resume where the learner left it, else the first."""
    item = _lesson_or_404(slug)
    rules = current_rules()
    last = progress().last
    count = len(item.steps_for(rules))
    n = last[1] if last and last[0] == item.key and last[1] <= count else 1
    return show(item, n, rules)


@bp.get("/" + SLUG + "/<int:n>")
@shared(RULES_COOKIE, learn_progress.COOKIE)
def step(slug: str, n: int) -> Response:
    """One step: its prose, its cards and its check (about a fresh position with ``v``)."""
    rules = current_rules()
    item = learn.lesson(slug)
    if item is None or learn.step_at(item, n, rules) is None:
        moved = _moved(slug, n, rules)
        if moved is not None:
            return moved
        abort(404)
    seed, avoid, bad = _seeds(request.args)
    if bad:
        return show(item, n, rules, status=400, message=_(
            "That address asks for cards that do not exist. Here is the step as it begins."))
    return show(item, n, rules, seed=seed, avoid=avoid)


@bp.post("/" + SLUG + "/<int:n>/seen")
def seen(slug: str, n: int) -> Response:
    """The learner opened this step (learn.js says so once the page is shown): the lesson is
    started, and the path offers to continue here. Showing a step writes nothing, so every
    visitor with the same progress gets the same page (and the response cache keeps it)."""
    item = learn.lesson(slug)
    if item is None or learn.step_at(item, n, current_rules()) is None:
        abort(404)
    progress().visit(item.key, n)
    return save(make_response("", 204))


@bp.post("/" + SLUG + "/<int:n>")
def answer(slug: str, n: int) -> Response:
    """Check an answer to a step's check against the engine and say why."""
    item = learn.lesson(slug)
    if item is None:
        abort(404)
    rules = current_rules()
    current = learn.step_at(item, n, rules)
    if current is None or current.check is None:
        abort(404)
    if request.form.get("step") != current.id:
        return show(item, n, rules, status=400, message=_(
            "That answer belongs to another step (did the rules change?). Here is the step again."))
    seed, avoid, bad = _seeds(request.form)
    if bad:
        return show(item, n, rules, status=400, message=_("That answer does not fit the question. Try again."))
    question = learn.build_check(item, current, rules, seed, avoid)
    assert question is not None
    try:
        given = parse_answer(question, {name: request.form.getlist(name) for name in request.form})
    except BadAnswer:
        return show(item, n, rules, status=400, seed=seed, avoid=avoid,
                    message=_("That answer does not fit the question. Try again."))
    correct = check(question, given)
    position = learn.position_id(item, current, rules, seed, avoid)
    # A position missed showed its answer: answered right again (a reload, the back button),
    # it does not count; new cards do.
    counted = correct and progress().counts(item.key, current.id, position)
    if counted:
        progress().answered(item.key, current.id)
    elif not correct:
        progress().miss(item.key, current.id, position)
        if question.kind in KINDS:
            # The rule the learner missed comes back in the quiz's review (the kinds only lessons
            # ask have no questions of their own there); the practice cookie goes with this response.
            practice.schedule_miss(question)
    return show(item, n, rules, feedback={"correct": correct, "counted": counted, "given": given},
                seed=seed, avoid=avoid)
