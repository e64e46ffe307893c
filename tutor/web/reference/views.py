"""The rules reference: a contents page, `/<lang>/rules/`, a page for each section,
`/<lang>/rules/<section>` (the slugs are the anchors of tutor.web.reference.sections, stable),
and every section on one printable page for the table, `/<lang>/rules/all`.

Every fact on it is asked of the engine for the visitor's rules: trump orders, card points,
deadlines, what each party needs, which scoring lines exist and the worked examples. This
module only arranges the answers into tables; it knows no rule of the game itself.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Final

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel.speaklater import LazyString

from tutor.rules import scoring
from tutor.rules.announcements import DEADLINE_COLUMNS, NONE, SCHWARZ, deadline, may_announce, reply_deadline
from tutor.rules.cards import (
    ACE_OF_DIAMONDS,
    JACK_OF_CLUBS,
    QUEEN_OF_CLUBS,
    RANKS,
    TEN_OF_HEARTS,
    card_id,
    card_points,
    deck,
    make_card,
    rank_of,
)
from tutor.rules.errors import RulesError
from tutor.rules.explain import Need, needs
from tutor.rules.games import is_solo, plain_suits, played_games, trump_order
from tutor.rules.reservations import POVERTY_CARDS, POVERTY_MAX_TRUMPS, reservation_order
from tutor.rules.rulesets import RuleSet
from tutor.rules.scoring import DealSummary, scored_lines
from tutor.rules.terms import GAME_IDS, AnnouncementId, Party, narrow
from tutor.web import words
from tutor.web.base import i18n
from tutor.web.base.rules import COOKIE as RULES_COOKIE
from tutor.web.base.rules import current_rules
from tutor.web.base.shared import shared
from tutor.web.reference import sections
from tutor.web.words.cards import SUIT_TITLES
from tutor.web.words.questions.names import short
from tutor.web.words.questions.reasons import card_rule_text

bp = Blueprint("reference", __name__, url_prefix=i18n.LANG_PREFIX)


@dataclass
class TrumpGroup:
    """Game kinds that share one trump order and the same plain suits."""

    games: list[str]
    trumps: list[str]
    plain: dict[str, list[str]]
    count: int  # trumps in the deck, every copy counted


def trump_groups(rules: RuleSet) -> list[TrumpGroup]:
    """Each game kind the rules play, grouped where the engine gives identical orders."""
    groups: list[TrumpGroup] = []
    for game in played_games(rules):
        trumps = trump_order(game, rules)
        plain = plain_suits(game, rules)
        for group in groups:
            if group.trumps == trumps and group.plain == plain:
                group.games.append(game)
                break
        else:
            count = sum(card_id(c) in trumps for c in deck(rules.deck))
            groups.append(TrumpGroup([game], trumps, plain, count))
    return groups


def card_point_rows(rules: RuleSet) -> list[tuple[str, int]]:
    """(rank, card points) for every rank in the deck, in the engine's rank order."""
    in_deck = {rank_of(c) for c in deck(rules.deck)}
    return [(rank, card_points(make_card(rank, "C"))) for rank in RANKS if rank in in_deck]


@dataclass
class Deadlines:
    """Fewest cards in hand for each announcement, without and with a wedding."""

    deck: int
    columns: tuple[int | None, ...]  # no wedding (None), then clarified in trick 1, 2, 3
    levels: list[list[int]]  # per level, one per column
    replies: list[tuple[int | None, list[int | None]]]  # (other party's level or None = any, row)
    silent_before_clarification: bool


def deadlines(rules: RuleSet) -> Deadlines:
    """The deadline table for these rules, as the engine counts it."""
    columns = DEADLINE_COLUMNS
    levels = [[deadline(level, rules, t) for t in columns] for level in range(SCHWARZ + 1)]
    replies: list[tuple[int | None, list[int | None]]] = [
        (opponent, [reply_deadline(opponent, rules, t) for t in columns]) for opponent in range(SCHWARZ + 1)
    ]
    if all(row == replies[0][1] for _, row in replies):
        replies = [(None, replies[0][1])]  # the reply window does not depend on what was said
    silent = not may_announce(rules, "wedding", "re", rules.tricks, None, None, 0)
    return Deadlines(rules.deck, columns, levels, replies, silent)


@dataclass
class WinRow:
    re_level: int
    kontra_level: int
    needs: dict[str, Need] = field(default_factory=dict)
    nobody_possible: bool = False


def win_rows(rules: RuleSet) -> list[WinRow]:
    """What each party needs in the usual situations: no announcement, Re and/or Kontra,
    one party's higher announcements, and both parties announcing "no 90"."""
    situations = [(NONE, NONE), (0, NONE), (NONE, 0), (0, 0)]
    situations += [(level, NONE) for level in range(1, SCHWARZ + 1)]
    situations += [(NONE, level) for level in range(1, SCHWARZ + 1)]
    situations.append((1, 1))
    rows = []
    for re_level, kontra_level in situations:
        row = WinRow(re_level, kontra_level)
        for party in ("re", "kontra"):
            row.needs[party] = needs(party, re_level, kontra_level, rules.tricks)
        row.nobody_possible = row.needs["re"].nobody_possible
        rows.append(row)
    return rows


def situation(row: WinRow) -> str:
    """What was announced, in words: "nothing", "Re", "Re: no 90", "both: no 90"."""
    levels: tuple[tuple[Party, int], ...] = (("re", row.re_level), ("kontra", row.kontra_level))
    said = {party: level for party, level in levels if level != NONE}
    if not said:
        return _("nothing")
    if len(said) == 2 and row.re_level == row.kontra_level and row.re_level > 0:
        return _("both parties: %(announcement)s", announcement=words.LEVELS[row.re_level])
    parts = []
    for party, level in said.items():
        if level == 0:
            parts.append(str(words.PARTIES[party]))
        else:
            parts.append(_("%(party)s: %(announcement)s", party=words.PARTIES[party], announcement=words.LEVELS[level]))
    return _(" and ").join(parts)


@dataclass
class Example:
    """A worked example: the deal as the engine was asked, and its answer."""

    summary: DealSummary
    announced: list[AnnouncementId]
    extras: dict[str, dict[str, int]]  # only the extra points the deal has
    result: scoring.Score


def worked_examples(rules: RuleSet) -> list[Example]:
    """RULES.md's worked examples, each scored by the engine under the visitor's rules."""
    examples = []
    for example in scoring.WORKED_EXAMPLES:
        try:
            result = example.score(rules)
        except RulesError:
            continue  # a deal these rules cannot have (say, with 40 cards)
        announced = [a for a in (example.re_announced, example.kontra_announced) if a]
        extras = {party: {k: n for k, n in example.extras.get(party, {}).items() if n} for party in ("re", "kontra")}
        examples.append(Example(example, announced, extras, result))
    return examples


@dataclass
class ReservationRow:
    """One reservation in priority order, and what follows when it wins."""

    label: LazyString  # lazy: the page caches these rows, and each visitor reads his language
    soloist_leads: bool
    same_dealer_again: bool
    solo: bool = False


SOLO_LABELS: Final = {
    "compulsory": _l("Compulsory solo (Pflichtsolo)"),
    "voluntary": _l("Voluntary solo (Lustsolo)"),
    "solo": _l("Solo"),
}


def reservation_rows(rules: RuleSet) -> list[ReservationRow]:
    """The reservations of these rules, highest first, as the engine ranks and plays them."""
    rows = []
    for reservation, decision in reservation_order(rules):
        if reservation.kind == "solo":
            solo = "compulsory" if reservation.compulsory else "voluntary" if rules.has_compulsory_solos else "solo"
            label = SOLO_LABELS[solo]
        else:
            label = words.GAMES[narrow(reservation.kind, GAME_IDS)]
        rows.append(ReservationRow(
            label, decision.leader == decision.declarer, decision.same_dealer_again, is_solo(decision.game)))
    return rows


@lru_cache(maxsize=64)
def reference_for(rules: RuleSet) -> dict[str, Any]:
    """Everything the page shows for these rules (the same rules give the same page)."""
    other_deck = rules.with_options(deck=40 if rules.deck == 48 else 48)
    reservations = reservation_rows(rules)
    return {
        "trump_groups": trump_groups(rules),
        "card_points": card_point_rows(rules),
        "deck_size": len(deck(rules.deck)),
        "deck_points": sum(card_points(c) for c in deck(rules.deck)),
        "deadlines": [deadlines(rules), deadlines(other_deck)],
        "win_rows": win_rows(rules),
        "lines": scored_lines(rules),
        "examples": worked_examples(rules),
        "reservations": reservations,
        "party_facts": sections.party_facts(),
        "follow_examples": sections.follow_examples(rules),
        "trick_examples": [sections.trick_example(cards, rules) for cards in sections.TRICK_POSITIONS],
        "equal_examples": sections.equal_examples(rules),
        "house_options": sections.house_options(rules, [row for row in reservations if row.solo]),
        "lessons": sections.section_lessons(rules),
        "poverty": {"trumps": POVERTY_MAX_TRUMPS, "cards": POVERTY_CARDS} if rules.poverty else None,
        "old_ones": card_id(QUEEN_OF_CLUBS),
        "special_cards": [
            (card_id(TEN_OF_HEARTS), "dulle"),
            (card_id(QUEEN_OF_CLUBS), "alten"),
            (card_id(ACE_OF_DIAMONDS), "fuchs"),
            (card_id(JACK_OF_CLUBS), "karlchen"),
        ],
    }


def lesson_url(lang: str, slug: str) -> str:
    """A lesson's page (its URL is stable: /<lang>/learn/<slug>)."""
    return f"{request.script_root}/{lang}/learn/{slug}"


@dataclass(frozen=True)
class Entry:
    """One page of the reference: its slug (its URL, and its anchor on the contents page),
    its short title (contents, links between pages), its heading and a line on what it says;
    parts: the anchors inside it that the contents page names too."""

    slug: str
    title: LazyString
    heading: LazyString
    summary: LazyString
    parts: tuple[tuple[str, LazyString], ...] = ()


ENTRIES: Final = (
    Entry("cards", _l("Cards"), _l("Cards and card points"),
          _l("The deck, what each card counts, and the cards with names.")),
    Entry("trumps", _l("Trumps"), _l("Trumps, highest first"),
          _l("The trumps of each game, and the order of the plain suits.")),
    Entry("following-suit", _l("Following suit"), _l("Following suit"),
          _l("Which cards of your hand you may play to a lead.")),
    Entry("tricks", _l("Tricks"), _l("Who takes the trick"),
          _l("Who takes a trick, and what happens with equal cards."),
          (("equal-cards", _l("Equal cards")),)),
    Entry("parties", _l("Parties"), _l("Parties and reservations"),
          _l("Re and Kontra, weddings and solos, and which reservation comes first."),
          (("reservations", _l("Reservations, highest first")),)),
    Entry("announcements", _l("Announcements"), _l("Announcement deadlines"),
          _l("How many cards you may still hold to announce or reply.")),
    Entry("winning", _l("Winning"), _l("What each party needs to win"),
          _l("The card points or tricks each party needs, after what was announced.")),
    Entry("scoring", _l("Scoring"), _l("Scoring"),
          _l("What a deal is worth, line by line, with worked examples.")),
    Entry("house-options", _l("House options"), _l("House options"),
          _l("The house options that are on, and what they change.")),
)
INDEX: Final = {entry.slug: number for number, entry in enumerate(ENTRIES)}
assert tuple(INDEX) == sections.PAGES


def page_context(rules: RuleSet) -> dict[str, Any]:
    """What every section's template reads: the engine's answers for these rules and the
    helpers that word them. The same rules give the same context."""
    return {
        "rules": rules,
        "lesson_url": lesson_url,
        "rule_text": card_rule_text,
        "short": short,
        "tricks": rules.tricks,
        "suit_titles": SUIT_TITLES,
        "situation": situation,
        "is_solo": is_solo,
        "signed": words.signed,
        **reference_for(rules),
    }


@bp.get("/rules/")
@shared(RULES_COOKIE)
def show() -> str:
    """The contents: each section's title, what it says, and its link. It keeps an element
    with each old anchor (/<lang>/rules/#<anchor>), and static/js/reference.js sends such an
    address on to the section's own page."""
    pages = {entry.slug: url_for(".section", slug=entry.slug) for entry in ENTRIES}
    return render_template("reference/contents.html", entries=ENTRIES, pages=pages)


@bp.get("/rules/all")
@shared(RULES_COOKIE)
def everything() -> str:
    """Every section on one page, to print (two sheets of A4)."""
    return render_template("reference/all.html", entries=ENTRIES, h=3, **page_context(current_rules()))


@bp.get("/rules/<slug>")
@shared(RULES_COOKIE)
def section(slug: str) -> ResponseReturnValue:
    """One section for the visitor's rules, with the sections before and after it. A part of
    a section (`equal-cards`) sends on to its place in the section."""
    if slug in sections.PARTS:
        return redirect(url_for(".section", slug=sections.page_of(slug), _anchor=slug), code=301)
    number = INDEX.get(slug)
    if number is None:
        abort(404)
    entry = ENTRIES[number]
    return render_template(
        "reference/section.html",
        entry=entry,
        previous=ENTRIES[number - 1] if number else None,
        following=ENTRIES[number + 1] if number + 1 < len(ENTRIES) else None,
        h=2,
        **page_context(current_rules()),
    )
