"""Lesson Markdown as HTML: CommonMark with raw HTML off, card ids ``{QC}``, glossary links
and the rule-set containers (``::: ddv``, ``::: pagat``, ``::: house <option>``), kept or
dropped for the learner's rules. It knows no web framework: the web layer passes in what it
needs (the URL prefix, a function that draws a card).

>>> from tutor.learn.files import parse_prose
>>> text = "+++\\ntitle = 'T'\\nsummary = 'S'\\n+++\\n\\n## one\\nPlay {QC}.\\n"
>>> prose = parse_prose(text, "en")
>>> prose.title, list(prose.sections)
('T', ['one'])
>>> render(prose.sections["one"], "en", RuleSet.named("ddv"))
'<p>Play <span class="card" data-card="QC">QC</span>.</p>\\n'
"""
from __future__ import annotations

import re
from collections.abc import Sequence
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

from tutor.learn.files import load_glossary
from tutor.learn.model import GLOSSARY, ROOT, SOURCE_LANG, CardRenderer, Lesson, Step
from tutor.rules.rulesets import OPTION_CHOICES, RULESETS, RuleSet

_CARD: Final = re.compile(r"\{((?:10|[AKQJ9])[CSHD])\}")
_ABSOLUTE: Final = re.compile(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|/|#|\?)")


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
                  prefix: str = "", section: str | None = None) -> tuple[str, list[str]]:
    """A recall step's prose without its closing list, rendered, and the list's items, each
    rendered inline: choice 1, 2, ... of the check. ``section``: a variant's question (the
    ``section`` fact of its Question) instead of the step's own."""
    text, choices = split_list(item.section(lang, section or step.id))
    return render(text, lang, rules, card, prefix), [render_inline(c, lang, card, prefix) for c in choices]


def render_inline(text: str, lang: str, card: CardRenderer | None = None, prefix: str = "") -> str:
    """One line of lesson Markdown as inline HTML (no paragraph around it): a choice, a title."""
    md = markdown()
    env: dict[str, Any] = {"card": card, "prefix": prefix, "lang": lang}
    return str(md.renderer.render(md.parseInline(" ".join(text.split()), env), md.options, env))


def list_items(text: str) -> int:
    """How many items the bulleted list that ends a section has (the choices of a recall
    check); 0 without one."""
    return len(split_list(text)[1])


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
