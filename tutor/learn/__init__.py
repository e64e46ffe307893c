"""The lessons of ``lessons/``, the engine side of the learn feature (its web side is
tutor/web/learn/). A lesson is a folder ``lessons/NN-slug/`` with ``lesson.toml`` (the steps,
language-neutral) and one ``<lang>.md`` per language; ``lessons/README.md`` describes the
format. Pure Python: it knows no web framework.

    model.py         what a lesson, a step and a language's prose are
    files.py         reading the folders, the checkpoints, the path, the glossary
    markdown.py      a step's prose as HTML (cards, glossary links, rule-set containers)
    checks.py        the cards a step shows and the check it asks (fresh positions too)
    kinds/           the question kinds only lessons ask, one module each; variants/: fresh positions
    lint.py          everything wrong with a lesson that the tests fail on
    translations.py  stamps and staleness of the translations; ``python -m tutor.learn``

What the web layer and the tests use is importable from here.
"""
from __future__ import annotations

from tutor.learn.checks import (
    RETRY_LOOKAHEAD,
    Shown,
    asked_position,
    build_check,
    default_seed,
    next_seed,
    position_id,
    retry_seed,
    shown,
)
from tutor.learn.files import (
    MOVED,
    clear_caches,
    lesson,
    load_checkpoint,
    load_checkpoints,
    load_glossary,
    load_lesson,
    load_lessons,
    moved_steps,
    parse_prose,
    path,
    rule_ids,
    source_of,
    taught,
)
from tutor.learn.lint import coverage, glossary_problems, problems, text_problems
from tutor.learn.markdown import (
    container_applies,
    glossary,
    list_items,
    placeholder_card,
    render,
    render_inline,
    render_recall,
    render_step,
    split_list,
)
from tutor.learn.model import (
    GLOSSARY,
    LANGS,
    ROOT,
    SEED_LIMIT,
    SOURCE_LANG,
    CardRenderer,
    Lesson,
    LessonError,
    Prose,
    Step,
    step_at,
)
from tutor.learn.translations import Staleness, main, stamp, stamp_of, translation_report, write_stamps

__all__ = [
    "GLOSSARY", "LANGS", "MOVED", "RETRY_LOOKAHEAD", "ROOT", "SEED_LIMIT", "SOURCE_LANG",
    "CardRenderer", "Lesson", "LessonError", "Prose", "Shown", "Staleness", "Step",
    "asked_position", "build_check", "clear_caches", "container_applies", "coverage", "default_seed",
    "glossary", "glossary_problems", "lesson", "list_items", "load_checkpoint", "load_checkpoints",
    "load_glossary", "load_lesson", "load_lessons", "main", "moved_steps", "next_seed", "parse_prose",
    "path", "placeholder_card", "position_id", "problems", "render", "render_inline", "render_recall",
    "render_step", "retry_seed", "rule_ids", "shown", "source_of", "split_list", "stamp", "stamp_of",
    "step_at", "taught", "text_problems", "translation_report", "write_stamps",
]
