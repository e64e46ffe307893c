"""What a step draws under its prose and the check it asks: the cards of ``show``, and the
Question of ``check`` built by the quiz's kinds (or the lessons' own, kinds/), about the
step's own position or a fresh one of the same kind (variants/) for "try again" and the
checkpoints. Every answer and reason is the engine's."""
from __future__ import annotations

import zlib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Final

from tutor.learn import kinds, variants
from tutor.learn.files import clear_also, path, source_of, taught
from tutor.learn.markdown import list_items
from tutor.learn.model import ROOT, SEED_LIMIT, SOURCE_LANG, Lesson, LessonError, Step
from tutor.quiz import Question, ask
from tutor.rules.cards import card_id, in_deck, parse_card
from tutor.rules.errors import RulesError
from tutor.rules.games import GAMES, game_table, hand_order
from tutor.rules.rulesets import RuleSet
from tutor.rules.terms import SEATS

SHOW_KEYS: Final = frozenset({"cards", "hand", "trick", "leader", "game", "score"})


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
    hand = [card_id(c) for c in hand_order([parse_card(c) for c in hand], table)]
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
    return Shown(game, tuple(cards), tuple(hand), tuple(((leader + i) % SEATS, c) for i, c in enumerate(trick)), scored)


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
        position["variants"] = [{**v, "count": list_items(item.section(SOURCE_LANG, v["section"]))}
                                for v in position.get("variants", ())]
    return kind, position, where


def _ask(kind: str, position: Mapping[str, Any], rules: RuleSet) -> Question:
    """A check's Question: the quiz's kinds, the lessons' own (kinds/), and a recall whose
    choices a fresh position shows in another order."""
    if kind in kinds.OWN_KINDS:
        return kinds.ask(kind, {k: v for k, v in position.items() if k != "variants"}, rules)
    order = position.get("order")
    question = ask(kind, {k: v for k, v in position.items() if k not in ("order", "variants", "section")}, rules)
    if kind == "recall" and "section" in position:  # another fact of the step: its own prose and list
        question = replace(question, facts={**question.facts, "section": position["section"]})
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
    same kind (variants/), never the step's own and never the one of the seed ``avoid``;
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



clear_also(_fresh.cache_clear)
