"""Reading ``lessons/``: a lesson folder (``lesson.toml`` and one ``<lang>.md`` per
language), the checkpoints, the path they make, the glossary, ``moved.toml`` and
``rules.toml``. Every file is read once (cached: the files are part of a release) until
clear_caches().

A ``<lang>.md`` file is TOML front matter between ``+++`` lines, then one ``## <step id>``
section per step (lessons/README.md).
"""
from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Final

from tutor.learn.model import GLOSSARY, LANGS, ROOT, SOURCE_LANG, Lesson, LessonError, Prose, Step
from tutor.rules.rulesets import RULESETS

STEP_KEYS: Final = frozenset({"id", "teaches", "show", "check", "only", "rules", "options"})
LESSON_KEYS: Final = frozenset({"slug", "key", "step", "first_deal"})
CHECKPOINT_KEYS: Final = frozenset({"slug", "key", "after", "steps"})
CHECKPOINTS: Final = "checkpoints"  # the checkpoints' folder: lessons/checkpoints/<slug>/
MOVED: Final = "moved.toml"
FOLDER: Final = re.compile(r"^(\d{2})-([a-z0-9]+(?:-[a-z0-9]+)*)$")
_SECTION: Final = re.compile(r"^## +(\S.*?)\s*$")


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
    match = FOLDER.match(folder.name)
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
    folders = sorted(p for p in root.iterdir() if p.is_dir() and FOLDER.match(p.name))
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


# Caches built on the files elsewhere (checks.py's fresh positions): cleared with them.
_ALSO_CLEARED: list[Callable[[], None]] = []


def clear_also(clear: Callable[[], None]) -> None:
    """Have clear_caches() call ``clear`` too."""
    _ALSO_CLEARED.append(clear)


def clear_caches() -> None:
    """Forget every lesson file read (after files changed, in tests and the stamp command)."""
    for cached in (load_lessons, load_checkpoints, load_glossary, _taught, moved_steps, rule_ids):
        cached.cache_clear()
    for clear in _ALSO_CLEARED:
        clear()
