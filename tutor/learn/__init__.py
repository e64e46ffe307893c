"""The lessons of ``lessons/``: loading them, rendering their prose, building their checks
through the quiz's question kinds, and keeping track of their translations.

A lesson is a folder ``lessons/NN-slug/`` with ``lesson.toml`` (the steps, language-neutral)
and one ``<lang>.md`` per language (TOML front matter between ``+++`` lines, then one
``## <step id>`` section per step). ``lessons/README.md`` describes the format; this module
reads exactly that. It is pure Python and knows no web framework: the web layer passes in
what it needs (the URL prefix, a function that draws a card).

>>> text = "+++\\ntitle = 'T'\\nsummary = 'S'\\n+++\\n\\n## one\\nPlay {QC}.\\n"
>>> prose = parse_prose(text, "en")
>>> prose.title, list(prose.sections)
('T', ['one'])
>>> render(prose.sections["one"], "en", RuleSet.named("ddv"))
'<p>Play <span class="card" data-card="QC">QC</span>.</p>\\n'
"""
from __future__ import annotations

import hashlib
import json
import re
import sys
import tomllib
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from html import escape
from pathlib import Path
from typing import Any, Final
from urllib.parse import urljoin

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict
from mdit_py_plugins.container import container_plugin

from tutor.quiz import Question, ask
from tutor.rules.cards import IDS, in_deck, parse_card
from tutor.rules.errors import RulesError
from tutor.rules.games import GAMES, game_table
from tutor.rules.rulesets import OPTION_CHOICES, RULESETS, RuleSet

ROOT: Final = Path(__file__).resolve().parent.parent.parent / "lessons"
LANGS: Final = ("en", "de", "it", "es", "fr", "pt")
SOURCE_LANG: Final = "en"
GLOSSARY: Final = "words"  # the glossary's folder, and its "slug" in translation reports
STEP_KEYS: Final = frozenset({"id", "teaches", "show", "check", "only", "rules", "options"})
LESSON_KEYS: Final = frozenset({"slug", "key", "step", "first_deal"})
CHECKPOINT_KEYS: Final = frozenset({"slug", "key", "after", "steps"})
CHECKPOINTS: Final = "checkpoints"  # the checkpoints' folder: lessons/checkpoints/<slug>/
MOVED: Final = "moved.toml"
SHOW_KEYS: Final = frozenset({"cards", "hand", "trick", "leader", "game", "score"})
STAMP_LENGTH: Final = 10
_FOLDER: Final = re.compile(r"^(\d{2})-([a-z0-9]+(?:-[a-z0-9]+)*)$")
_SECTION: Final = re.compile(r"^## +(\S.*?)\s*$")
_CARD: Final = re.compile(r"\{((?:10|[AKQJ9])[CSHD])\}")
_CARD_LIKE: Final = re.compile(r"\{([0-9A-Za-z]{1,4})\}")
_CONTAINER: Final = re.compile(r"^ {0,3}:{3,}\s*(.*?)\s*$")
_ABSOLUTE: Final = re.compile(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|/|#|\?)")

SEED_LIMIT: Final = 2**31 - 1  # seeds of fresh positions: 1 .. SEED_LIMIT

CardRenderer = Callable[[str], str]


class LessonError(ValueError):
    """A lesson (or glossary) file that breaks the format; the message names the file, the
    lesson and the step."""


# --- The data ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a lesson as ``lesson.toml`` gives it. ``show`` and ``check`` are plain
    data (card ids and seats); ``check`` holds a question kind and its position."""

    id: str
    teaches: tuple[str, ...] = ()
    show: Mapping[str, Any] | None = None
    check: Mapping[str, Any] | None = None
    only: str | None = None
    rules: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    borrow: str | None = None  # a checkpoint's step: "<slug>/<step id>" of the check it asks again

    def applies(self, rules: RuleSet) -> bool:
        """Whether the step exists under the learner's rule set (``only``)."""
        return self.only is None or self.only == rules.ruleset

    def rules_for(self, rules: RuleSet) -> RuleSet:
        """The rules the step's check and cards follow: the step's own rule set if it names
        one (whatever the learner picked), then its house options on top. Positions are
        written for the 48-card deck, so a learner's 40-card option applies only where the
        step itself sets ``deck``."""
        base = RuleSet.named(self.rules) if self.rules else rules
        if base.deck != 48 and "deck" not in self.options:
            base = base.with_options(deck=48)
        return base.with_options(**self.options) if self.options else base


@dataclass(frozen=True, slots=True)
class Prose:
    """One ``<lang>.md`` file: its front matter and its sections (step id or term id ->
    Markdown source, in file order). ``translates``: step id -> stamp of the English section
    this translation was made from (empty in the English source)."""

    lang: str
    title: str
    summary: str
    sections: dict[str, str]
    translates: dict[str, str] = field(default_factory=dict)
    preamble: str = ""  # anything between the front matter and the first section
    duplicates: tuple[str, ...] = ()  # section ids that appear more than once
    path: Path | None = None


@dataclass(frozen=True, slots=True)
class Lesson:
    """A lesson folder: its place on the path (``number``), ``slug`` (its URL), steps in
    order and the prose of every language present."""

    number: int
    slug: str
    folder: Path
    steps: tuple[Step, ...]
    prose: dict[str, Prose]
    declared_slug: str = ""
    key: int = 0  # stable across reorderings of the path: what the progress cookie stores
    after: str | None = None  # a checkpoint: the slug of the lesson it follows on the path
    first_deal: bool = False  # after this lesson the path offers a whole deal to play

    @property
    def is_checkpoint(self) -> bool:
        return self.after is not None

    def step(self, step_id: str) -> Step:
        return next(s for s in self.steps if s.id == step_id)

    def steps_for(self, rules: RuleSet) -> tuple[Step, ...]:
        """The steps a learner with these rules goes through (``only`` honoured)."""
        return tuple(s for s in self.steps if s.applies(rules))

    def text(self, lang: str) -> Prose:
        """The prose in ``lang``, or the English source where the language has no file."""
        return self.prose.get(lang) or self.prose[SOURCE_LANG]

    def section(self, lang: str, step_id: str) -> str:
        """A step's Markdown in ``lang``, falling back to the English section."""
        own = self.prose.get(lang)
        if own is not None and step_id in own.sections:
            return own.sections[step_id]
        return self.prose[SOURCE_LANG].sections.get(step_id, "")

    def checks(self) -> tuple[Step, ...]:
        return tuple(s for s in self.steps if s.check is not None)


# --- Reading files --------------------------------------------------------------------------


def parse_prose(text: str, lang: str, path: Path | None = None) -> Prose:
    """A ``<lang>.md`` file: front matter between ``+++`` lines, then ``## <id>`` sections.
    LessonError when the front matter is missing or not TOML."""
    where = str(path) if path else lang
    lines = text.replace("\r\n", "\n").split("\n")
    if not lines or lines[0].strip() != "+++":
        raise LessonError(f"{where}: the file must begin with a '+++' line (front matter)")
    try:
        end = next(i for i in range(1, len(lines)) if lines[i].strip() == "+++")
    except StopIteration:
        raise LessonError(f"{where}: the front matter has no closing '+++' line") from None
    try:
        front = tomllib.loads("\n".join(lines[1:end]))
    except tomllib.TOMLDecodeError as error:
        raise LessonError(f"{where}: front matter is not TOML: {error}") from None
    translates = front.get("translates", {})
    if not isinstance(translates, dict) or not all(isinstance(v, str) for v in translates.values()):
        raise LessonError(f"{where}: [translates] must map step ids to stamps (strings)")
    sections: dict[str, list[str]] = {}
    duplicates: list[str] = []
    preamble: list[str] = []
    current: list[str] = preamble
    fenced = False
    for line in lines[end + 1:]:
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        heading = None if fenced else _SECTION.match(line)
        if heading:
            name = heading.group(1)
            if name in sections:
                duplicates.append(name)
            current = sections.setdefault(name, [])
            continue
        current.append(line)
    return Prose(
        lang=lang,
        title=str(front.get("title", "")),
        summary=str(front.get("summary", "")),
        sections={k: "\n".join(v).strip("\n") for k, v in sections.items()},
        translates=dict(translates),
        preamble="\n".join(preamble).strip(),
        duplicates=tuple(duplicates),
        path=path,
    )


def _step(data: Any, where: str) -> Step:
    if not isinstance(data, dict):
        raise LessonError(f"{where}: a [[step]] must be a table")
    step_id = data.get("id")
    if not isinstance(step_id, str) or not re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", step_id):
        raise LessonError(f"{where}: step id {step_id!r} must be lowercase words joined by '-'")
    where = f"{where}, step {step_id!r}"
    unknown = set(data) - STEP_KEYS
    if unknown:
        raise LessonError(f"{where}: unknown keys {sorted(unknown)}")
    teaches = data.get("teaches", [])
    if not isinstance(teaches, list) or not all(isinstance(t, str) for t in teaches):
        raise LessonError(f"{where}: teaches must be a list of rule ids")
    for key in ("show", "check", "options"):
        if key in data and not isinstance(data[key], dict):
            raise LessonError(f"{where}: {key} must be a table")
    for key in ("only", "rules"):
        if key in data and data[key] not in RULESETS:
            raise LessonError(f"{where}: {key} must be one of {list(RULESETS)}")
    return Step(step_id, tuple(teaches), data.get("show"), data.get("check"), data.get("only"),
                data.get("rules"), dict(data.get("options", {})))


def load_lesson(folder: Path) -> Lesson:
    """One lesson folder; LessonError when its files cannot be read as the format says."""
    match = _FOLDER.match(folder.name)
    if not match:
        raise LessonError(f"{folder}: a lesson folder is named NN-slug (two digits, lowercase words)")
    toml_path = folder / "lesson.toml"
    try:
        data = tomllib.loads(toml_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise LessonError(f"{toml_path}: missing") from None
    except tomllib.TOMLDecodeError as error:
        raise LessonError(f"{toml_path}: not TOML: {error}") from None
    unknown = set(data) - LESSON_KEYS
    if unknown:
        raise LessonError(f"{toml_path}: unknown keys {sorted(unknown)}")
    key = data.get("key", 0)
    if not isinstance(key, int) or isinstance(key, bool) or not 0 < key < 100:
        raise LessonError(f"{toml_path}: key must be a whole number from 1 to 99 (the lesson's stable id)")
    raw_steps = data.get("step", [])
    if not isinstance(raw_steps, list) or not raw_steps:
        raise LessonError(f"{toml_path}: a lesson needs at least one [[step]]")
    steps = tuple(_step(s, f"{toml_path}") for s in raw_steps)
    ids = [s.id for s in steps]
    if len(set(ids)) != len(ids):
        raise LessonError(f"{toml_path}: step ids repeat: {sorted({i for i in ids if ids.count(i) > 1})}")
    first_deal = data.get("first_deal", False)
    if not isinstance(first_deal, bool):
        raise LessonError(f"{toml_path}: first_deal must be true or false")
    return Lesson(int(match.group(1)), match.group(2), folder, steps, _prose(folder), str(data.get("slug", "")), key,
                  first_deal=first_deal)


def _prose(folder: Path) -> dict[str, Prose]:
    prose = {}
    for lang in LANGS:
        path = folder / f"{lang}.md"
        if path.exists():
            prose[lang] = parse_prose(path.read_text(encoding="utf-8"), lang, path)
    if SOURCE_LANG not in prose:
        raise LessonError(f"{folder}: the English source {SOURCE_LANG}.md is missing")
    return prose


@lru_cache(maxsize=8)
def load_lessons(root: Path = ROOT) -> tuple[Lesson, ...]:
    """Every lesson under ``root``, in path order (cached: the files are part of a release).
    Lesson numbers count the lessons only; the checkpoints between them are load_checkpoints'."""
    folders = sorted(p for p in root.iterdir() if p.is_dir() and _FOLDER.match(p.name))
    return tuple(replace(load_lesson(f), number=n) for n, f in enumerate(folders, 1))


def load_checkpoint(folder: Path, items: Sequence[Lesson], number: int) -> Lesson:
    """A checkpoint: ``after`` (the lesson it follows) and ``steps`` (checks of earlier
    lessons, "<slug>/<step id>", each asked again about a fresh position)."""
    toml_path = folder / "lesson.toml"
    try:
        data = tomllib.loads(toml_path.read_text(encoding="utf-8"))
    except (FileNotFoundError, tomllib.TOMLDecodeError) as error:
        raise LessonError(f"{toml_path}: {error}") from None
    unknown = set(data) - CHECKPOINT_KEYS
    if unknown:
        raise LessonError(f"{toml_path}: unknown keys {sorted(unknown)}")
    by_slug = {item.slug: item for item in items}
    after = data.get("after")
    if after not in by_slug:
        raise LessonError(f"{toml_path}: after = {after!r} names no lesson")
    place = [item.slug for item in items].index(str(after))
    steps = []
    for source in data.get("steps", []):
        slug, _, step_id = str(source).partition("/")
        item = by_slug.get(slug)
        if item is None or step_id not in [s.id for s in item.steps]:
            raise LessonError(f"{toml_path}: step {source!r} names no step of a lesson")
        if [i.slug for i in items].index(slug) > place:
            raise LessonError(f"{toml_path}: step {source!r} comes later on the path than the checkpoint")
        own = item.step(step_id)
        if own.check is None:
            raise LessonError(f"{toml_path}: step {source!r} has no check to ask again")
        steps.append(replace(own, id=f"{slug}.{step_id}", teaches=(), show=None, borrow=str(source)))
    if len(steps) < 3:
        raise LessonError(f"{toml_path}: a checkpoint asks three checks at least")
    key = data.get("key", 0)
    if not isinstance(key, int) or isinstance(key, bool) or not 0 < key < 100:
        raise LessonError(f"{toml_path}: key must be a whole number from 1 to 99")
    return Lesson(number, folder.name, folder, tuple(steps), _prose(folder), str(data.get("slug", "")), key,
                  str(after))


@lru_cache(maxsize=8)
def load_checkpoints(root: Path = ROOT) -> tuple[Lesson, ...]:
    """The checkpoints of ``lessons/checkpoints/``, in path order."""
    base = root / CHECKPOINTS
    if not base.is_dir():
        return ()
    items = load_lessons(root)
    order = {item.slug: i for i, item in enumerate(items)}
    found = [load_checkpoint(f, items, 0) for f in sorted(p for p in base.iterdir() if p.is_dir())]
    found.sort(key=lambda c: order[str(c.after)])
    return tuple(replace(c, number=n) for n, c in enumerate(found, 1))


def path(root: Path = ROOT) -> tuple[Lesson, ...]:
    """The whole path: every lesson, each followed by the checkpoints that come after it."""
    after: dict[str, list[Lesson]] = {}
    for checkpoint in load_checkpoints(root):
        after.setdefault(str(checkpoint.after), []).append(checkpoint)
    return tuple(x for item in load_lessons(root) for x in (item, *after.get(item.slug, [])))


def lesson(slug: str, root: Path = ROOT) -> Lesson | None:
    """The lesson (or checkpoint) with this slug, or None."""
    return next((item for item in path(root) if item.slug == slug), None)


def source_of(step: Step, root: Path = ROOT) -> tuple[Lesson, Step] | None:
    """The lesson and step a checkpoint's step asks again; None for a lesson's own step."""
    if step.borrow is None:
        return None
    slug, _, step_id = step.borrow.partition("/")
    item = lesson(slug, root)
    return (item, item.step(step_id)) if item is not None else None


@lru_cache(maxsize=8)
def _taught(root: Path) -> dict[tuple[str, str], frozenset[str]]:
    """(slug, step id) -> every rule id taught on the path up to and including that step."""
    seen: set[str] = set()
    table: dict[tuple[str, str], frozenset[str]] = {}
    for item in path(root):
        for step in item.steps:
            seen.update(step.teaches)
            table[(item.slug, step.id)] = frozenset(seen)
    return table


def taught(item: Lesson, step: Step, root: Path = ROOT) -> frozenset[str]:
    """The rules a learner has met on the path by the time this step asks its check."""
    return _taught(root).get((item.slug, step.id), frozenset())


@lru_cache(maxsize=1)
def moved_steps(root: Path = ROOT) -> dict[tuple[str, int], tuple[str, str]]:
    """Steps that left their place: (old slug, old step number) -> (slug, step id) of where
    the step is now (``moved.toml``); an old step URL answers with a redirect there."""
    file = root / MOVED
    if not file.exists():
        return {}
    data = tomllib.loads(file.read_text(encoding="utf-8"))
    table: dict[tuple[str, int], tuple[str, str]] = {}
    for entry in data.get("moved", []):
        old_slug, _, number = str(entry["from"]).partition("/")
        new_slug, _, step_id = str(entry["to"]).partition("/")
        table[(old_slug, int(number))] = (new_slug, step_id)
    return table


@lru_cache(maxsize=16)
def load_glossary(lang: str, root: Path = ROOT) -> Prose | None:
    """``words/<lang>.md``: one ``## <term id>`` section per German game word; None if the
    language has no glossary file yet."""
    path = root / GLOSSARY / f"{lang}.md"
    if not path.exists():
        return None
    return parse_prose(path.read_text(encoding="utf-8"), lang, path)


@lru_cache(maxsize=1)
def rule_ids(root: Path = ROOT) -> dict[str, str]:
    """``rules.toml``: every rule of RULES.md by id, with its description for developers."""
    data = tomllib.loads((root / "rules.toml").read_text(encoding="utf-8"))
    return {str(k): str(v) for k, v in data.get("rule", {}).items()}


# --- Rendering ------------------------------------------------------------------------------


def placeholder_card(card: str) -> str:
    """The default card drawing: a placeholder element the web layer may replace."""
    return f'<span class="card" data-card="{card}">{card}</span>'


def _card_rule(state: StateInline, silent: bool) -> bool:
    if state.src[state.pos] != "{":
        return False
    match = _CARD.match(state.src, state.pos)
    if not match:
        return False
    if not silent:
        token = state.push("card", "", 0)
        token.meta = {"card": match.group(1)}
    state.pos = match.end()
    return True


def _render_card(self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
    draw: CardRenderer = env.get("card") or placeholder_card
    return str(draw(tokens[idx].meta["card"]))


def _render_link_open(self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
    token = tokens[idx]
    href = str(token.attrGet("href") or "")
    base = f"{env.get('prefix', '')}/{env.get('lang', SOURCE_LANG)}/learn/"
    if href == GLOSSARY or href.startswith(GLOSSARY + "#"):
        term = href.partition("#")[2]
        target = base + GLOSSARY
        token.attrSet("href", f"{target}#{term}" if term else target)
    elif href and not _ABSOLUTE.match(href):
        # A relative link (another lesson's slug, "../play/") is read from the path page,
        # so it leads to the same place from a step's URL too.
        token.attrSet("href", urljoin(base, href))
    return self.renderToken(tokens, idx, options, env)


def _container_open(self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
    words = tokens[idx].info.split()
    kind = words[0] if words else ""
    option = f' data-option="{escape(words[1])}"' if kind == "house" and len(words) > 1 else ""
    return f'<div class="rules-note" data-rules="{escape(kind)}"{option}>\n'


def _container_close(self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
    return "</div>\n"


@lru_cache(maxsize=1)
def markdown() -> MarkdownIt:
    """The one Markdown parser of the lessons: CommonMark, raw HTML off, no images, with
    card ids ``{QC}``, glossary links and the rule-set containers."""
    md = MarkdownIt("commonmark", {"html": False})
    md.disable(["image", "html_block", "html_inline"])
    md.inline.ruler.before("text", "card", _card_rule)
    md.add_render_rule("card", _render_card)
    md.add_render_rule("link_open", _render_link_open)
    for name in ("ddv", "pagat", "house"):
        container_plugin(md, name)
        md.add_render_rule(f"container_{name}_open", _container_open)
        md.add_render_rule(f"container_{name}_close", _container_close)
    return md


def container_applies(info: str, rules: RuleSet) -> bool:
    """Whether a ``::: ddv`` / ``::: pagat`` / ``::: house <option>[=<value>]`` block shows
    under these rules: the rule set's own, or a house option set away from the rule set's
    default (or, with ``=value``, set to that value)."""
    words = info.split()
    if not words:
        return False
    if words[0] in RULESETS:
        return rules.ruleset == words[0]
    if words[0] != "house" or len(words) < 2:
        return False
    name, _, wanted = words[1].partition("=")
    if name not in OPTION_CHOICES:
        return False
    value = getattr(rules, name)
    if wanted:
        return str(value).lower() == wanted.lower()
    return bool(value != getattr(RuleSet.named(rules.ruleset), name))


def _resolve(tokens: list[Token], rules: RuleSet) -> list[Token]:
    """The tokens with every container that does not apply left out, nested ones too."""
    kept: list[Token] = []
    skipping = 0
    for token in tokens:
        opening = token.type.startswith("container_") and token.type.endswith("_open")
        closing = token.type.startswith("container_") and token.type.endswith("_close")
        if skipping:
            skipping += 1 if opening else -1 if closing else 0
            continue
        if opening and not container_applies(token.info, rules):
            skipping = 1
            continue
        kept.append(token)
    return kept


def render(text: str, lang: str, rules: RuleSet, card: CardRenderer | None = None, prefix: str = "") -> str:
    """Lesson Markdown as HTML: raw HTML is escaped, ``{QC}`` is drawn by ``card`` (a function
    from a card id to HTML; by default a ``<span class="card" data-card="QC">`` placeholder),
    ``(words#term)`` links point at ``<prefix>/<lang>/learn/words#term``, and the rule-set
    containers are kept or dropped for ``rules``."""
    md = markdown()
    env: dict[str, Any] = {"card": card, "prefix": prefix, "lang": lang}
    tokens = _resolve(md.parse(text, env), rules)
    return str(md.renderer.render(tokens, md.options, env))


def render_step(item: Lesson, step: Step, lang: str, rules: RuleSet, card: CardRenderer | None = None,
                prefix: str = "") -> str:
    """A step's prose in ``lang`` (English where the translation lacks it), rendered for the
    learner's ``rules`` (containers follow the learner's rule set, not the step's)."""
    return render(item.section(lang, step.id), lang, rules, card, prefix)


def split_list(text: str) -> tuple[str, list[str]]:
    """A section's Markdown without the bulleted list that ends it, and that list's items
    (their Markdown, the bullet taken off): a recall check's prose and its choices."""
    tokens = markdown().parse(text, {})
    lists = [t for t in tokens if t.type == "bullet_list_open" and t.level == 0 and t.map]
    if not lists:
        return text, []
    start, end = lists[-1].map or (0, 0)
    lines = text.split("\n")
    items = [t for t in tokens if t.type == "list_item_open" and t.level == 1 and t.map
             and start <= t.map[0] < end]
    choices = []
    for token in items:
        first, last = token.map or (0, 0)
        body = "\n".join(lines[first:last]).strip()
        choices.append(re.sub(r"^[-*+]\s+", "", body))
    return "\n".join(lines[:start] + lines[end:]).strip(), choices


def render_recall(item: Lesson, step: Step, lang: str, rules: RuleSet, card: CardRenderer | None = None,
                  prefix: str = "") -> tuple[str, list[str]]:
    """A recall step's prose without its closing list, rendered, and the list's items, each
    rendered inline: choice 1, 2, ... of the check."""
    text, choices = split_list(item.section(lang, step.id))
    return render(text, lang, rules, card, prefix), [render_inline(c, lang, card, prefix) for c in choices]


def render_inline(text: str, lang: str, card: CardRenderer | None = None, prefix: str = "") -> str:
    """One line of lesson Markdown as inline HTML (no paragraph around it): a choice, a title."""
    md = markdown()
    env: dict[str, Any] = {"card": card, "prefix": prefix, "lang": lang}
    return str(md.renderer.render(md.parseInline(" ".join(text.split()), env), md.options, env))


def step_at(item: Lesson, number: int, rules: RuleSet) -> Step | None:
    """The step ``/<lang>/learn/<slug>/<number>`` shows this learner (1-based over the steps
    of the learner's rule set), or None."""
    steps = item.steps_for(rules)
    return steps[number - 1] if 1 <= number <= len(steps) else None


# --- Cards shown and checks asked ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Shown:
    """The cards a step draws under its prose: a row, a hand in the game's order, or a trick
    as (seat, card) in play order."""

    game: str
    cards: tuple[str, ...] = ()
    hand: tuple[str, ...] = ()
    trick: tuple[tuple[int, str], ...] = ()
    score: Question | None = None  # a deal scored line by line by the engine, shown before one is asked


def _card_list(value: Any, rules: RuleSet, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise LessonError(f"{where}: expected a list of card ids")
    for card in value:
        try:
            parsed = parse_card(card)
        except ValueError:
            raise LessonError(f"{where}: {card!r} is not a card") from None
        if not in_deck(parsed, rules.deck):
            raise LessonError(f"{where}: {card} is not in the {rules.deck}-card deck")
    for card in set(value):
        if value.count(card) > 2:
            raise LessonError(f"{where}: {card} appears {value.count(card)} times; the deck holds it twice")
    return list(value)


def shown(item: Lesson, step: Step, rules: RuleSet) -> Shown | None:
    """What the step's ``show`` draws under these (learner's) rules; LessonError naming the
    lesson and step when it names cards that cannot be."""
    if step.show is None:
        return None
    where = f"lesson {item.folder.name}, step {step.id!r}, show"
    show = step.show
    unknown = set(show) - SHOW_KEYS
    if unknown:
        raise LessonError(f"{where}: unknown keys {sorted(unknown)}")
    played = step.rules_for(rules)
    game = show.get("game", "normal")
    if game not in GAMES:
        raise LessonError(f"{where}: unknown game {game!r}")
    table = game_table("wedding" if game == "wedding_solo" else game, played)
    cards = _card_list(show.get("cards", []), played, where)
    hand = _card_list(show.get("hand", []), played, where)
    hand.sort(key=lambda c: (table.suit_class[parse_card(c)] != 4, table.suit_class[parse_card(c)],
                             -table.power[parse_card(c)]))
    trick = _card_list(show.get("trick", []), played, where)
    if len(trick) > 4:
        raise LessonError(f"{where}: a trick holds at most four cards")
    leader = show.get("leader", 0)
    if not isinstance(leader, int) or isinstance(leader, bool) or not 0 <= leader <= 3:
        raise LessonError(f"{where}: leader must be a seat 0-3")
    scored = None
    if "score" in show:
        try:
            scored = ask("score", {"game": game, **dict(show["score"])}, played)
        except (RulesError, ValueError, KeyError, TypeError) as error:
            raise LessonError(f"{where}: the engine refuses the deal to score: {error}") from None
    return Shown(game, tuple(cards), tuple(hand), tuple(((leader + i) % 4, c) for i, c in enumerate(trick)), scored)


def _position(item: Lesson, step: Step) -> tuple[str, dict[str, Any], str]:
    """A step's check as (kind, position, where): the kind popped off, a recall's count
    filled in from the step's list."""
    where = f"lesson {item.folder.name}, step {step.id!r}"
    assert step.check is not None
    position = dict(step.check)
    kind = position.pop("kind", None)
    if not isinstance(kind, str):
        raise LessonError(f"{where}: a check needs a kind")
    if kind == "recall":
        position.setdefault("count", list_items(item.section(SOURCE_LANG, step.id)))
    return kind, position, where


def _ask(kind: str, position: Mapping[str, Any], rules: RuleSet) -> Question:
    """A check's Question: the quiz's kinds, the lessons' own (kinds.py), and a recall whose
    choices a fresh position shows in another order."""
    if kind in kinds.OWN_KINDS:
        return kinds.ask(kind, {k: v for k, v in position.items() if k != "variants"}, rules)
    order = position.get("order")
    question = ask(kind, {k: v for k, v in position.items() if k not in ("order", "variants")}, rules)
    if kind == "recall" and order:
        by_value = {c.value: c for c in question.fields[0].choices}
        field_ = replace(question.fields[0], choices=tuple(by_value[str(i)] for i in order))
        question = replace(question, fields=(field_,), facts={**question.facts, "order": list(order)})
    return question


def default_seed(item: Lesson, step: Step) -> int:
    """The seed of the fresh position a checkpoint asks first: fixed, so its page is the same
    every time until the learner asks for another."""
    return zlib.crc32(f"{item.slug}/{step.id}".encode()) % SEED_LIMIT + 1


def next_seed(seed: int | None, item: Lesson, step: Step) -> int:
    """The seed of the next fresh position after ``seed`` (None: the step's own position)."""
    start = seed if seed is not None else default_seed(item, step)
    return (start * 48271 + 11) % SEED_LIMIT + 1


@lru_cache(maxsize=1024)
def _fresh(folder: str, step_id: str, rules: RuleSet, seed: int, avoid: int | None,
           root: Path) -> dict[str, Any]:
    item = next(i for i in path(root) if i.folder.name == folder)
    step = item.step(step_id)
    kind, position, where = _position(item, step)
    played = step.rules_for(rules)
    source = source_of(step, root)
    known = taught(*(source or (item, step)), root)
    try:
        found = variants.fresh(kind, position, played, seed, [], known)
        if avoid is not None:
            # The seed's own position, unless it is the one of ``avoid`` (what a learner who
            # follows "try again" saw just before): then another. So a seed shows the same
            # cards whatever came before it, and retry_seed can tell what each link shows.
            other = _fresh(folder, step_id, rules, avoid, None, root)
            if variants.same_as(kind, found) == variants.same_as(kind, other):
                found = variants.fresh(kind, position, played, seed, [other], known)
        return found
    except (variants.NoVariant, RulesError) as error:
        raise LessonError(f"{where}: no fresh position under {played.ruleset}: {error}") from None


RETRY_LOOKAHEAD: Final = 40  # seeds tried for a "try again" that shows none of the last positions


def asked_position(item: Lesson, step: Step, rules: RuleSet, seed: int | None = None, avoid: int | None = None,
                   root: Path = ROOT) -> str:
    """The position a step's check asks with ``seed`` and ``avoid`` (as build_check), as one
    comparable string (variants.same_as): the step's own without a seed."""
    kind, position, _where = _position(item, step)
    if seed is None and step.borrow is not None:
        seed = default_seed(item, step)
    if seed is not None:
        position = _fresh(item.folder.name, step.id, rules, seed, avoid, root)
    return variants.same_as(kind, position)


def position_id(item: Lesson, step: Step, rules: RuleSet, seed: int | None = None, avoid: int | None = None,
                root: Path = ROOT) -> int:
    """A short number for the position asked with ``seed`` and ``avoid`` (a hash of
    asked_position): what the progress cookie keeps of a position missed."""
    return zlib.crc32(f"{item.slug}/{step.id}/{asked_position(item, step, rules, seed, avoid, root)}".encode())


def retry_seed(item: Lesson, step: Step, rules: RuleSet, seed: int | None = None, avoid: int | None = None,
               root: Path = ROOT) -> tuple[int, int | None]:
    """The seed and avoid (``v`` and ``a``) "try again" asks after the position of ``seed``
    (asked after the one of ``avoid``): the first along next_seed whose position is neither
    the one just shown nor the one before it (nor the step's own); failing that, one that is
    not the one just shown. Its avoid is the seed just asked, or none where that shows the
    same cards again (a kind with so few positions that the step's own comes back)."""
    own = seed if seed is not None else (default_seed(item, step) if step.borrow is not None else None)
    shown = asked_position(item, step, rules, seed, avoid, root)
    earlier = {shown}
    if step.borrow is None:
        earlier.add(asked_position(item, step, rules, None, None, root))
    if avoid is not None:
        earlier.add(asked_position(item, step, rules, avoid, None, root))
    candidate = next_seed(own, item, step)
    fallback: tuple[int, int | None] | None = None
    for _ in range(RETRY_LOOKAHEAD):
        for after in dict.fromkeys((own, None)):
            try:
                asked = asked_position(item, step, rules, candidate, after, root)
            except LessonError:
                continue
            if asked not in earlier:
                return candidate, after
            if fallback is None and asked != shown:
                fallback = candidate, after
        candidate = next_seed(candidate, item, step)
    return fallback if fallback is not None else (next_seed(own, item, step), own)


def build_check(item: Lesson, step: Step, rules: RuleSet, seed: int | None = None, avoid: int | None = None,
                root: Path = ROOT) -> Question | None:
    """The Question of a step's check under the learner's ``rules`` (the step's ``rules``
    and ``options`` honoured), built by the quiz kind's ``ask`` (or the lessons' own kinds):
    every answer and reason is the engine's. With ``seed``: about a fresh position of the
    same kind (variants.py), never the step's own and never the one of the seed ``avoid``;
    a checkpoint's step is always asked so, by default with its fixed seed. None for a step
    without a check; LessonError naming the lesson and step when the engine refuses."""
    if step.check is None:
        return None
    kind, position, where = _position(item, step)
    try:
        played = step.rules_for(rules)
    except RulesError as error:
        raise LessonError(f"{where}: options: {error}") from None
    if seed is None and step.borrow is not None:
        seed = default_seed(item, step)
    if seed is not None:
        position = _fresh(item.folder.name, step.id, rules, seed, avoid, root)
    try:
        question = _ask(kind, position, played)
    except (RulesError, ValueError, KeyError, TypeError) as error:
        raise LessonError(f"{where}: the engine refuses the {kind} check under {played.ruleset}: {error}") from None
    return replace(question, seed=seed or 0)


def list_items(text: str) -> int:
    """How many items the bulleted list that ends a section has (the choices of a recall
    check); 0 without one."""
    return len(split_list(text)[1])


# --- Checking a lesson ---------------------------------------------------------------------


def problems(item: Lesson, rules: Mapping[str, str] | None = None, terms: Sequence[str] | None = None) -> list[str]:
    """Everything wrong with a lesson that the tests fail on (translations aside): slug,
    sections of every language, rule ids, glossary links, containers, card ids, at least
    three checks, and every check and ``show`` under both rule sets. Each names the lesson
    and step."""
    found: list[str] = []
    name = f"lesson {item.folder.name}"
    if item.declared_slug != item.slug:
        found.append(f"{name}: slug = {item.declared_slug!r} must be the folder name without 'NN-': {item.slug!r}")
    ids = [s.id for s in item.steps if s.borrow is None]  # a checkpoint's steps have no prose of their own
    for step in item.steps:
        if step.borrow is not None and step.check is not None and step.check.get("kind") == "recall":
            found.append(f"{name}, step {step.id!r}: a checkpoint cannot ask a recall (its choices are prose)")
    for lang, prose in item.prose.items():
        missing = [i for i in ids if i not in prose.sections]
        extra = [s for s in prose.sections if s not in ids]
        if lang == SOURCE_LANG and missing:
            found.append(f"{name}, {lang}.md: no section for steps {missing}")
        if extra:
            found.append(f"{name}, {lang}.md: sections {extra} are no step of lesson.toml")
        if prose.duplicates:
            found.append(f"{name}, {lang}.md: sections {list(prose.duplicates)} appear twice")
        if prose.preamble:
            found.append(f"{name}, {lang}.md: text before the first '## <step id>' section")
        if not prose.title or not prose.summary:
            found.append(f"{name}, {lang}.md: the front matter needs a title and a summary")
        for step_id, text in prose.sections.items():
            found += [f"{name}, {lang}.md, step {step_id!r}: {p}" for p in text_problems(text, terms)]
    for step in item.checks():
        if step.check is not None and step.check.get("kind") == "recall":
            counts = {lang: list_items(prose.sections.get(step.id, "")) for lang, prose in item.prose.items()
                      if step.id in prose.sections}
            if len(set(counts.values())) > 1:
                found.append(f"{name}, step {step.id!r}: the recall lists differ in length by language: {counts}")
    if len(item.checks()) < 3:
        found.append(f"{name}: {len(item.checks())} checks; a lesson needs at least three")
    for step in item.steps:
        if rules is not None:
            unknown = [t for t in step.teaches if t not in rules]
            if unknown:
                found.append(f"{name}, step {step.id!r}: teaches unknown rule ids {unknown}")
        for option, value in step.options.items():
            if option not in OPTION_CHOICES or value not in OPTION_CHOICES[option]:
                found.append(f"{name}, step {step.id!r}: unknown house option {option} = {value!r}")
        for ruleset in RULESETS:
            learner = RuleSet.named(ruleset)
            if not step.applies(learner):
                continue
            for part in (shown, build_check):
                try:
                    part(item, step, learner)
                except (LessonError, RulesError) as error:
                    found.append(str(error))
    if not any(any(s.applies(RuleSet.named(r)) for s in item.steps) for r in RULESETS):
        found.append(f"{name}: no step for any rule set")
    return found


def text_problems(text: str, terms: Sequence[str] | None = None) -> list[str]:
    """What is wrong with one section's Markdown: card ids that are no card, containers that
    are none of ours or left open, glossary links to terms that do not exist."""
    found = [f"{{{m}}} is no card id (rank+suit: QC, 10H, AD, 9S)"
             for m in _CARD_LIKE.findall(text) if m not in IDS]
    depth = 0
    for line in text.split("\n"):
        match = _CONTAINER.match(line)
        if not match:
            continue
        info = match.group(1)
        if not info:
            depth -= 1
            continue
        words = info.split()
        if words[0] in RULESETS and len(words) == 1:
            depth += 1
        elif words[0] == "house" and len(words) == 2 and words[1].partition("=")[0] in OPTION_CHOICES:
            depth += 1
        else:
            depth += 1  # counted as open all the same, so that its ':::' closes it
            found.append(f"'::: {info}' is not a container (ddv, pagat, house <option>)")
    if depth:
        found.append("a '::: ...' block is not closed" if depth > 0 else "a ':::' closes nothing")
    if terms is not None:
        for term in re.findall(r"\]\(" + GLOSSARY + r"#([^)\s]*)\)", text):
            if term not in terms:
                found.append(f"links to glossary term {term!r}, which words/{SOURCE_LANG}.md lacks")
    return found


def glossary_problems(root: Path = ROOT) -> list[str]:
    """What is wrong with the glossary files: a missing English source, terms a translation
    has that the English lacks, front matter without a title, and each term's Markdown."""
    source = load_glossary(SOURCE_LANG, root)
    if source is None:
        return [f"{root / GLOSSARY / (SOURCE_LANG + '.md')}: the glossary's English source is missing"]
    terms = list(source.sections)
    found: list[str] = []
    for lang in LANGS:
        prose = load_glossary(lang, root)
        if prose is None:
            continue
        where = f"{GLOSSARY}/{lang}.md"
        if not prose.title:
            found.append(f"{where}: the front matter needs a title")
        extra = [t for t in prose.sections if t not in terms]
        if extra:
            found.append(f"{where}: terms {extra} are not in {GLOSSARY}/{SOURCE_LANG}.md")
        if prose.duplicates or prose.preamble:
            found.append(f"{where}: repeated terms {list(prose.duplicates)} or text before the first term")
        for term, text in prose.sections.items():
            found += [f"{where}, term {term!r}: {p}" for p in text_problems(text, terms)]
    return found


def glossary(lang: str, rules: RuleSet, card: CardRenderer | None = None, prefix: str = "",
             root: Path = ROOT) -> list[tuple[str, str]]:
    """The glossary page: (term id, its HTML) in the English order, each in ``lang`` where
    the translation has it and in English otherwise."""
    source = load_glossary(SOURCE_LANG, root)
    if source is None:
        return []
    own = load_glossary(lang, root)
    return [(term, render((own.sections.get(term) if own else None) or text, lang, rules, card, prefix))
            for term, text in source.sections.items()]


def coverage(items: Sequence[Lesson]) -> dict[str, list[tuple[str, str]]]:
    """Rule id -> the (lesson slug, step id) that teach it: the rule-coverage table."""
    table: dict[str, list[tuple[str, str]]] = {}
    for item in items:
        for step in item.steps:
            for rule in step.teaches:
                table.setdefault(rule, []).append((item.slug, step.id))
    return table


# --- Translations --------------------------------------------------------------------------


def stamp_of(section: str) -> str:
    """The stamp of an English section: a short hash of its text, blind to trailing spaces
    and blank lines at either end."""
    normal = "\n".join(line.rstrip() for line in section.strip().split("\n"))
    return hashlib.sha256(normal.encode("utf-8")).hexdigest()[:STAMP_LENGTH]


@dataclass(frozen=True, slots=True)
class Staleness:
    """A translation's state against the English: steps with no section (``missing``) and
    steps whose stamp is absent or not the English section's (``stale``)."""

    missing: tuple[str, ...] = ()
    stale: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.missing or self.stale)


def _staleness(source: Prose, translation: Prose | None, ids: Sequence[str]) -> Staleness:
    if translation is None:
        return Staleness(tuple(ids))
    missing = tuple(i for i in ids if i not in translation.sections)
    stale = tuple(i for i in ids if i in translation.sections and i in source.sections
                  and translation.translates.get(i) != stamp_of(source.sections[i]))
    return Staleness(missing, stale)


def translation_report(lang: str, root: Path = ROOT) -> dict[str, Staleness]:
    """For one language: lesson slug (and ``words`` for the glossary) -> its missing and
    stale steps, listing only those with any."""
    report: dict[str, Staleness] = {}
    for item in path(root):
        ids = [s.id for s in item.steps if s.borrow is None]
        if item.is_checkpoint and lang not in item.prose:
            report[item.slug] = Staleness(("title",))
            continue
        state = _staleness(item.prose[SOURCE_LANG], item.prose.get(lang), ids)
        if state:
            report[item.slug] = state
    source = load_glossary(SOURCE_LANG, root)
    if source is not None:
        state = _staleness(source, load_glossary(lang, root), list(source.sections))
        if state:
            report[GLOSSARY] = state
    return report


def write_stamps(path: Path, source: Prose) -> list[str]:
    """Stamp every section of the translation at ``path`` with the English it now matches
    (``[translates]`` in its front matter is rewritten); returns the step ids stamped."""
    text = path.read_text(encoding="utf-8")
    translation = parse_prose(text, path.stem, path)
    stamps = {k: stamp_of(source.sections[k]) for k in translation.sections if k in source.sections}
    lines = text.replace("\r\n", "\n").split("\n")
    end = next(i for i in range(1, len(lines)) if lines[i].strip() == "+++")
    front: list[str] = []
    inside = False
    for line in lines[1:end]:
        header = re.match(r"^\s*\[+\s*([^\]]+?)\s*\]+", line)
        if header:
            inside = header.group(1) in ("translates", '"translates"')
        if not inside:
            front.append(line)
    while front and not front[-1].strip():
        front.pop()
    table = ["", "[translates]"] + [f"{json.dumps(k)} = {json.dumps(v)}" for k, v in stamps.items()]
    path.write_text("\n".join(["+++", *front, *table, *lines[end:]]), encoding="utf-8")
    return list(stamps)


def stamp(lang: str, slug: str | None = None, root: Path = ROOT) -> list[Path]:
    """Write the ``[translates]`` stamps of ``lang`` for one lesson (or ``words``), or for
    every lesson and the glossary; returns the files written."""
    if lang == SOURCE_LANG or lang not in LANGS:
        raise LessonError(f"stamp a translation: one of {list(LANGS[1:])}")
    written: list[Path] = []
    targets: list[tuple[Path, Prose]] = []
    for item in path(root):
        if slug in (None, item.slug):
            targets.append((item.folder / f"{lang}.md", item.prose[SOURCE_LANG]))
    glossary = load_glossary(SOURCE_LANG, root)
    if slug in (None, GLOSSARY) and glossary is not None:
        targets.append((root / GLOSSARY / f"{lang}.md", glossary))
    if slug is not None and not targets:
        raise LessonError(f"no lesson {slug!r}")
    for file, source in targets:
        if file.exists():
            write_stamps(file, source)
            written.append(file)
    clear_caches()
    return written


def clear_caches() -> None:
    """Forget every lesson file read (after files changed, in tests and the stamp command)."""
    for cached in (load_lessons, load_checkpoints, load_glossary, _taught, moved_steps, rule_ids, _fresh):
        cached.cache_clear()


def main(argv: Sequence[str]) -> int:
    """``python -m tutor.learn stamp <lang> [slug]`` and ``python -m tutor.learn status [lang]``."""
    if len(argv) >= 2 and argv[0] == "stamp" and len(argv) <= 3:
        try:
            paths = stamp(argv[1], argv[2] if len(argv) == 3 else None)
        except LessonError as error:
            print(error, file=sys.stderr)
            return 2
        for path in paths:
            print(f"stamped {path.relative_to(ROOT.parent) if path.is_relative_to(ROOT.parent) else path}")
        return 0
    if argv and argv[0] == "status" and len(argv) <= 2:
        stale = False
        for lang in argv[1:] or LANGS[1:]:
            for slug, state in translation_report(lang).items():
                stale = True
                print(f"{lang} {slug}: missing {list(state.missing)} stale {list(state.stale)}")
        return 1 if stale else 0
    print("usage: python -m tutor.learn stamp <lang> [slug] | status [lang]", file=sys.stderr)
    return 2


from tutor.learn import kinds, variants  # noqa: E402  (they import the quiz, which is loaded by now)
