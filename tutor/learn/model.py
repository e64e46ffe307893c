"""What a lesson is: its steps as ``lesson.toml`` gives them, its prose in each language, and
where a learner stands on it. Plain data; reading the files is files.py's, drawing them
markdown.py's and asking their checks checks.py's."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from tutor.rules.rulesets import RuleSet

ROOT: Final = Path(__file__).resolve().parent.parent.parent / "lessons"
LANGS: Final = ("en", "de", "it", "es", "fr", "pt")
SOURCE_LANG: Final = "en"
GLOSSARY: Final = "words"  # the glossary's folder, and its "slug" in translation reports
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

    @property
    def sections(self) -> tuple[str, ...]:
        """The prose sections the step owns: its own (``## <id>``) and, for a recall check,
        each variant's question (``section`` of a variant: another fact of the same step,
        asked by "try again")."""
        if self.borrow is not None:
            return ()
        own = [self.id]
        if self.check is not None and self.check.get("kind") == "recall":
            own += [v["section"] for v in self.check.get("variants", ()) if isinstance(v, Mapping) and "section" in v]
        return tuple(own)

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



def step_at(item: Lesson, number: int, rules: RuleSet) -> Step | None:
    """The step ``/<lang>/learn/<slug>/<number>`` shows this learner (1-based over the steps
    of the learner's rule set), or None."""
    steps = item.steps_for(rules)
    return steps[number - 1] if 1 <= number <= len(steps) else None
