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
"""
from __future__ import annotations

import gzip
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

from flask import (
    Blueprint,
    Flask,
    abort,
    current_app,
    g,
    get_template_attribute,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from markupsafe import Markup
from werkzeug.wrappers import Response

from tutor import learn
from tutor.quiz import KINDS, BadAnswer, Question, check, parse_answer
from tutor.rules.rulesets import RuleSet
from tutor.web.base import htmx, i18n, practice, security
from tutor.web.base.rules import COOKIE as RULES_COOKIE
from tutor.web.base.rules import current_rules, from_cookie, to_cookie
from tutor.web.base.shared import address_key as shared_key
from tutor.web.base.shared import shared
from tutor.web.learn import offline
from tutor.web.learn import progress as learn_progress
from tutor.web.words import questions as quiz_text

bp = Blueprint("learn", __name__, url_prefix=i18n.LANG_PREFIX + "/learn")

# The question kinds the quiz's own partials show the facts of; the others are the lessons'.
# ("game" is drawn by the lessons' own partial, which marks each solo compulsory or voluntary.)
QUIZ_FACTS: Final = frozenset({"winner", "legal", "trumps", "points", "announce", "needs", "score", "party"})
SLUG: Final = "<string(minlength=1, maxlength=40):slug>"


def init_app(app: Flask) -> None:
    """The learn page's endpoint before it moved here, ``pages.learn``, still builds its URL."""
    app.add_url_rule(i18n.LANG_PREFIX + "/learn/", endpoint="pages.learn", view_func=path)


@bp.before_request
def _learner_seats() -> None:
    quiz_text.learner_view()


def progress() -> learn_progress.Progress:
    if "learn_progress" not in g:
        g.learn_progress = learn_progress.read(current_app.config["SECRET_KEY"],
                                               security.cookie(request, learn_progress.COOKIE))
    stored: learn_progress.Progress = g.learn_progress
    return stored


def _save(response: Response) -> Response:
    value = learn_progress.write(current_app.config["SECRET_KEY"], progress())
    security.set_cookie(response, request, learn_progress.COOKIE, value, learn_progress.MAX_AGE)
    return response


def _card(card_id: str) -> str:
    """A card in lesson prose, drawn by the card partial."""
    return str(get_template_attribute("partials/_card.html", "card")(card_id, small=True))


def _lang() -> str:
    return str(g.get("lang") or i18n.DEFAULT_LANGUAGE)


def _prefix() -> str:
    return request.script_root


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


def check_ids(item: learn.Lesson, rules: RuleSet) -> list[str]:
    """The steps with a check that a learner of these rules meets: all must be answered right."""
    return [s.id for s in item.steps_for(rules) if s.check is not None]


def _entries(rules: RuleSet) -> list[Entry]:
    p = progress()
    found = []
    for item in learn.path():
        ids = check_ids(item, rules)
        found.append(Entry(item, item.text(_lang()).title, item.text(_lang()).summary, p.state(item.key, ids),
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
    urls = _save_urls(_lang(), rules, request.script_root)
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
    terms = learn.glossary(_lang(), current_rules(), _card, _prefix())
    source = learn.load_glossary(_lang()) or learn.load_glossary(learn.SOURCE_LANG)
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
    return _save(make_response("", 204))


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


def rules_note(question: Question, rules: RuleSet) -> list[tuple[str, Any]] | None:
    """When a check follows other rules than the learner's: the house options it plays that
    are not its rule set's own, and those it sets otherwise than the learner does (a house
    rule this check leaves out); None when the rules are the learner's."""
    if to_cookie(question.rules) == to_cookie(rules):
        return None
    base = RuleSet.named(question.rules.ruleset).options()
    own = rules.options()
    return [(name, value) for name, value in question.rules.options().items()
            if (base[name] != value or own.get(name) != value) and name != "deck"]


def show(item: learn.Lesson, n: int, rules: RuleSet, feedback: dict[str, Any] | None = None,
         message: str | None = None, status: int = 200, seed: int | None = None,
         avoid: int | None = None) -> Response:
    """A step as a page, or (to an htmx answer) its check as the fragment swapped in."""
    steps = item.steps_for(rules)
    current = learn.step_at(item, n, rules)
    if current is None:
        abort(404)
    lang = _lang()
    question = learn.build_check(item, current, rules, seed, avoid)
    choices: list[Markup] = []
    source = learn.source_of(current)
    if source is not None:  # a checkpoint asks a check of an earlier lesson again
        prose = ""
    elif question is not None and question.kind == "recall":
        prose, items = learn.render_recall(item, current, lang, rules, _card, _prefix(), question.facts.get("section"))
        choices = [Markup(c) for c in items]
    else:
        prose = learn.render_step(item, current, lang, rules, _card, _prefix())
    if source is not None and question is not None and question.kind == "recall":
        _text, items = learn.render_recall(source[0], source[1], lang, rules, _card, _prefix(),
                                           question.facts.get("section"))
        choices = [Markup(c) for c in items]
    shown = learn.shown(item, current, rules) if seed is None else None
    if shown is not None and question is not None and _drawn_by_check(shown, question):
        shown = None  # the check draws these very cards: once is enough on a phone
    again = None
    if question is not None and feedback is not None and not feedback.get("counted", feedback["correct"]):
        retry, after = learn.retry_seed(item, current, rules, seed, avoid)
        args: dict[str, Any] = {"v": retry}
        if after is not None:
            args["a"] = after
        again = url_for("learn.step", slug=item.slug, n=n, **args)
    ids = check_ids(item, rules)
    context = {
        "lesson": item, "title": item.text(lang).title, "step": current, "n": n, "count": len(steps),
        "prose": Markup(prose), "shown": shown, "q": question, "choices": choices, "feedback": feedback,
        "message": message, "text": quiz_text, "quiz_facts": QUIZ_FACTS,
        "note": rules_note(question, rules) if question is not None else None,
        "action": url_for("learn.step", slug=item.slug, n=n), "seed": seed, "avoid": avoid, "again": again,
        "seen": url_for("learn.seen", slug=item.slug, n=n),
        # New cards: a recall asked again is a question of its own prose, no cards to tell apart.
        "fresh": seed is not None and source is None and not (question is not None and question.kind == "recall"),
        "source": source, "source_number": source[0].number if source else None,
        "source_title": source[0].text(lang).title if source else None,
        "previous": url_for("learn.step", slug=item.slug, n=n - 1) if n > 1 else None,
        "next": url_for("learn.step", slug=item.slug, n=n + 1) if n < len(steps) else None,
        "following": _following(item), "party_plays": party_plays, "known_plays": known_plays,
        "checks": len(ids), "right": progress().done_checks(item.key, ids),
        # A page for the lessons' pack is the same for every learner: it names no check still open.
        "open_checks": [] if offline.packing() else [i + 1 for i, s in enumerate(steps) if s.id in ids
                                                      and progress().done_checks(item.key, [s.id]) == 0],
    }
    partial = htmx.is_partial(request) and request.method == "POST"
    template = "learn/_check.html" if partial else "learn/step.html"
    response = make_response(render_template(template, **context), status)
    if partial:
        htmx.add_vary(response)
    # An answer (a POST) writes the progress; showing a step writes nothing (see `seen`).
    return _save(response) if request.method == "POST" else response


def _drawn_by_check(shown: learn.Shown, question: Question) -> bool:
    """Whether every card a step shows is drawn by its check too (the trick, the hand)."""
    drawn: list[str] = [c.card for f in question.fields for c in f.choices if c.card]
    facts = question.facts
    drawn += [card for _seat, card in facts.get("plays", [])]
    drawn += list(facts.get("hand", [])) + [c for trick in facts.get("tricks", []) for c in trick]
    wanted = list(shown.cards) + list(shown.hand) + [card for _seat, card in shown.trick]
    return all(wanted.count(card) <= drawn.count(card) for card in set(wanted))


def party_plays(facts: dict[str, Any]) -> list[tuple[str, str]]:
    """A trick's plays with each player's party, as the trick partial takes them."""
    return [(_("%(seat)s · %(party)s", seat=quiz_text.seat(s), party=quiz_text.party_name(facts["parties"][s])), c)
            for s, c in facts["plays"]]


def known_plays(plays: list[tuple[int, str]], known: tuple[str | None, ...]) -> list[tuple[str, str]]:
    """A trick's plays with the party of each player whose party the learner knows."""
    named = []
    for s, c in plays:
        party = known[s]
        label = _("%(seat)s · %(party)s", seat=quiz_text.seat(s), party=quiz_text.party_name(party)) \
            if s != 0 and party else quiz_text.seat(s)
        named.append((label, c))
    return named


def _following(item: learn.Lesson) -> tuple[str, str] | None:
    """The next lesson (or checkpoint) on the path: (its URL, its title)."""
    items = learn.path()
    index = items.index(item)
    if index + 1 >= len(items):
        return None
    nxt = items[index + 1]
    return url_for("learn.lesson", slug=nxt.slug), nxt.text(_lang()).title
