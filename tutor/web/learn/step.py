"""A lesson's step as a page (or its check as the fragment htmx swaps in): its prose, cards and
check, the rules it is asked under, the way on; and what every lesson page reads of the
request: the learner's progress (read once, written after an answer), the language, cards in
prose.
"""

from __future__ import annotations

from typing import Any, Final

from flask import abort, current_app, g, get_template_attribute, make_response, render_template, request, url_for
from flask_babel import gettext as _
from markupsafe import Markup
from werkzeug.wrappers import Response

from tutor import learn
from tutor.quiz import Question
from tutor.rules.rulesets import RuleSet
from tutor.web.base import htmx, i18n, security
from tutor.web.base.rules import to_cookie
from tutor.web.learn import offline
from tutor.web.learn import progress as learn_progress
from tutor.web.words import questions as quiz_text

# The question kinds the quiz's own partials show the facts of; the others are the lessons'.
# ("game" is drawn by the lessons' own partial, which marks each solo compulsory or voluntary.)
QUIZ_FACTS: Final = frozenset({"winner", "legal", "trumps", "points", "announce", "needs", "score", "party"})


def progress() -> learn_progress.Progress:
    if "learn_progress" not in g:
        g.learn_progress = learn_progress.read(current_app.config["SECRET_KEY"],
                                               security.cookie(request, learn_progress.COOKIE))
    stored: learn_progress.Progress = g.learn_progress
    return stored


def save(response: Response) -> Response:
    value = learn_progress.write(current_app.config["SECRET_KEY"], progress())
    security.set_cookie(response, request, learn_progress.COOKIE, value, learn_progress.MAX_AGE)
    return response


def card_html(card_id: str) -> str:
    """A card in lesson prose, drawn by the card partial."""
    return str(get_template_attribute("partials/_card.html", "card")(card_id, small=True))


def page_lang() -> str:
    return str(g.get("lang") or i18n.DEFAULT_LANGUAGE)


def url_prefix() -> str:
    return request.script_root


def check_ids(item: learn.Lesson, rules: RuleSet) -> list[str]:
    """The steps with a check that a learner of these rules meets: all must be answered right."""
    return [s.id for s in item.steps_for(rules) if s.check is not None]


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
    lang = page_lang()
    question = learn.build_check(item, current, rules, seed, avoid)
    choices: list[Markup] = []
    source = learn.source_of(current)
    if source is not None:  # a checkpoint asks a check of an earlier lesson again
        prose = ""
    elif question is not None and question.kind == "recall":
        prose, items = learn.render_recall(item, current, lang, rules, card_html, url_prefix(),
                                           question.facts.get("section"))
        choices = [Markup(c) for c in items]
    else:
        prose = learn.render_step(item, current, lang, rules, card_html, url_prefix())
    if source is not None and question is not None and question.kind == "recall":
        _text, items = learn.render_recall(source[0], source[1], lang, rules, card_html, url_prefix(),
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
    return save(response) if request.method == "POST" else response


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
    return url_for("learn.lesson", slug=nxt.slug), nxt.text(page_lang()).title
