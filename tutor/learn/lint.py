"""Everything wrong with a lesson or the glossary that the tests fail on (translations
aside, translations.py), each problem naming the lesson and step; and which step teaches
which rule (the rule-coverage table)."""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final

from tutor.learn.checks import build_check, shown
from tutor.learn.files import load_glossary
from tutor.learn.markdown import list_items
from tutor.learn.model import GLOSSARY, LANGS, ROOT, SOURCE_LANG, Lesson, LessonError
from tutor.rules.cards import IDS
from tutor.rules.errors import RulesError
from tutor.rules.rulesets import OPTION_CHOICES, RULESETS, RuleSet

_CARD_LIKE: Final = re.compile(r"\{([0-9A-Za-z]{1,4})\}")
_CONTAINER: Final = re.compile(r"^ {0,3}:{3,}\s*(.*?)\s*$")


def problems(item: Lesson, rules: Mapping[str, str] | None = None, terms: Sequence[str] | None = None) -> list[str]:
    """Everything wrong with a lesson that the tests fail on (translations aside): slug,
    sections of every language, rule ids, glossary links, containers, card ids, at least
    three checks, and every check and ``show`` under both rule sets. Each names the lesson
    and step."""
    found: list[str] = []
    name = f"lesson {item.folder.name}"
    if item.declared_slug != item.slug:
        found.append(f"{name}: slug = {item.declared_slug!r} must be the folder name without 'NN-': {item.slug!r}")
    ids = [i for s in item.steps for i in s.sections]  # a checkpoint's steps have no prose of their own
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
            for section in step.sections:
                counts = {lang: list_items(prose.sections.get(section, "")) for lang, prose in item.prose.items()
                          if section in prose.sections}
                if len(set(counts.values())) > 1:
                    found.append(f"{name}, step {step.id!r}: the recall lists of {section!r} differ in length by "
                                 f"language: {counts}")
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



def coverage(items: Sequence[Lesson]) -> dict[str, list[tuple[str, str]]]:
    """Rule id -> the (lesson slug, step id) that teach it: the rule-coverage table."""
    table: dict[str, list[tuple[str, str]]] = {}
    for item in items:
        for step in item.steps:
            for rule in step.teaches:
                table.setdefault(rule, []).append((item.slug, step.id))
    return table
