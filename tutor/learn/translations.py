"""The translations of the lessons against their English source: each translated section
carries the stamp of the English it was made from (``[translates]`` in its front matter), so
a changed English section shows which translations are stale. ``python -m tutor.learn``:

    python -m tutor.learn stamp <lang> [slug]   # stamp a translation (or all of a language)
    python -m tutor.learn status [lang]         # list what is missing or stale; 1 if anything
"""
from __future__ import annotations

import hashlib
import json
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from tutor.learn.files import clear_caches, load_glossary, parse_prose, path
from tutor.learn.model import GLOSSARY, LANGS, ROOT, SOURCE_LANG, LessonError, Prose

STAMP_LENGTH: Final = 10


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
        ids = [i for s in item.steps for i in s.sections]
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

