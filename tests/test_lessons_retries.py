""""Try again" after a miss: every check of every lesson, followed through many retries under
both rule sets, never asks the position just shown (a decision with clubs and spades traded
is the same decision; a recall in the same order is the same recall), and a fresh position
uses nothing its step's own position leaves out (no announcement before they are taught, no
other game, the same house options)."""
from __future__ import annotations

from typing import Any

import pytest

from tutor import learn as L
from tutor.learn import checks, variants
from tutor.rules.rulesets import RULESETS, RuleSet

RETRIES = 6


def checks_of(rules: RuleSet):
    for item in L.path():
        for step in item.steps_for(rules):
            if step.check is not None:
                yield item, step


@pytest.mark.parametrize("ruleset", RULESETS)
def test_try_again_never_asks_the_position_just_shown(ruleset):
    rules = RuleSet.named(ruleset)
    for item, step in checks_of(rules):
        where = (item.slug, step.id)
        seed, avoid = None, None
        shown = L.asked_position(item, step, rules)
        question = L.build_check(item, step, rules)
        for retry in range(RETRIES):
            seed, avoid = L.retry_seed(item, step, rules, seed, avoid)
            now = L.asked_position(item, step, rules, seed, avoid)
            assert now != shown, (*where, retry)
            fresh = L.build_check(item, step, rules, seed, avoid)
            assert fresh is not None and question is not None
            if fresh.kind != "decide":  # a decision's facts are its position, compared above
                assert (fresh.facts, fresh.params, [f.choices for f in fresh.fields]) != \
                    (question.facts, question.params, [f.choices for f in question.fields]), (*where, retry)
            shown, question = now, fresh


def test_a_decision_with_clubs_and_spades_traded_counts_as_the_same():
    position = {"hand": ["AC", "10S", "QC"], "best": "AC"}
    assert variants.same_as("decide", position) == variants.same_as("decide", variants.mirror(position))
    assert variants.same_as("recall", {"count": 3}) == variants.same_as("recall", {"count": 3, "order": [1, 2, 3]})


def uses(position: Any) -> tuple[frozenset[str], frozenset[str]]:
    """The kinds of announcement (variants.said_kinds) and the kinds of game a position names."""
    said: set[str] = set()
    games: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                if k == "said" and isinstance(v, dict):
                    said.update(variants.said_kinds(v))
                elif k == "game" and isinstance(v, str):
                    games.add("solo" if v.startswith("solo_") else v)  # a solo lesson's retry may be another solo
                else:
                    walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk(position)
    return frozenset(said), frozenset(games)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_fresh_positions_use_only_what_the_step_itself_uses(ruleset):
    rules = RuleSet.named(ruleset)
    for item, step in checks_of(rules):
        source = L.source_of(step)
        origin = source[1] if source else step
        own_said, own_games = uses(dict(origin.check or {}))
        own = L.build_check(item, step, rules)
        assert own is not None
        for seed in (3, 101, 4242):
            position = checks._fresh(item.folder.name, step.id, rules, seed, None, L.ROOT)
            said, games = uses(position)
            where = (item.slug, step.id, seed)
            assert said <= own_said, (*where, position.get("said"))
            assert games <= own_games | {"normal"} if own_games else games <= {"normal"}, where
            fresh = L.build_check(item, step, rules, seed)
            assert fresh is not None
            assert fresh.rules == own.rules, where  # the same house options


def test_lesson_one_asks_its_goal_again_without_announcements():
    item = L.lesson("tricks")
    step = item.step("goal")
    rules = RuleSet.named("ddv")
    for seed in range(1, 30):
        assert not checks._fresh(item.folder.name, step.id, rules, seed, None, L.ROOT).get("said")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_recall_tried_again_asks_another_fact_of_the_step_in_every_language(ruleset):
    # A recall's "try again" used to show the same question with its list reordered: now
    # each recall step has a second question (a variant's own section), asked after a miss
    # of the first, and the first again (its list in another order) after a miss of the second.
    rules = RuleSet.named(ruleset)
    found = 0
    for item in L.path():
        for step in item.steps_for(rules):
            if step.borrow is not None or (step.check or {}).get("kind") != "recall":
                continue
            found += 1
            (variant,) = [v["section"] for v in step.check["variants"]]
            own = L.build_check(item, step, rules)
            seed, avoid = L.retry_seed(item, step, rules)
            again = L.build_check(item, step, rules, seed, avoid)
            assert "section" not in own.facts and again.facts["section"] == variant
            for lang in L.LANGS:
                first, first_items = L.render_recall(item, step, lang, rules)
                second, second_items = L.render_recall(item, step, lang, rules, section=variant)
                assert first != second and first_items != second_items and len(second_items) >= 2
            seed2, avoid2 = L.retry_seed(item, step, rules, seed, avoid)
            third = L.build_check(item, step, rules, seed2, avoid2)
            assert "section" not in third.facts and third.facts.get("order")  # the first fact, reordered
    assert found == (5 if ruleset == "pagat" else 4)
