"""Find the best card (tutor/quiz/best_card.py): the mined positions hold up against the
engine, every question asks exactly the answer stored, the levels, and the spaced review's
contract (a few seeds find a question of every tip code).

The full data check, every position analysed again at N = 300, takes minutes on one core:
``python scripts/mine_best_card.py --check``. Here a fixed sample of it runs."""
from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.analysis.judge import analyse, candidates
from tutor.analysis.review import replay_start
from tutor.analysis.tips import CODES, SIMULATIONS_PREFER
from tutor.analysis.view import SeatView
from tutor.play import play_bots
from tutor.quiz import MAX_LEVEL, make
from tutor.quiz.best_card import SIMPLE_TIPS, ask, level_for, level_of, positions
from tutor.quiz.best_card import given as given_position
from tutor.quiz.seat_view import read_view, view_data
from tutor.quiz.why import rule_of, why_not
from tutor.rules.cards import card_id
from tutor.rules.errors import RulesError
from tutor.rules.rulesets import RuleSet

RULESETS = ("ddv", "pagat")
HOUSE = (RuleSet.named("ddv").with_options(schweinchen=True, dullen="second_wins", deck=40),
         RuleSet.named("pagat").with_options(karlchen="win", solo_lead="soloist"))
REVIEW_TRIES = 40  # tutor/web/quiz/asking.py: the seeds the review tries for a rule
SAMPLED = 6  # positions of each rule set analysed again in the suite


def by_id():
    return {p["id"]: p for p in positions()}


def choice_cards(q):
    """Each choice's cards: the card and those that do the same here."""
    return {c.value: sorted([c.card, *c.params.get("same", [])]) for c in q.fields[0].choices}


# --- The data --------------------------------------------------------------------------------


def test_the_data_holds_positions_of_both_rule_sets_each_as_mined():
    found = Counter(p["rules"] for p in positions())
    assert set(found) == set(RULESETS) and min(found.values()) >= 100, found
    assert len({p["id"] for p in positions()}) == len(positions())
    for p in positions():
        assert p["tip"]["code"] in CODES and p["tip"]["code"] != SIMULATIONS_PREFER, p["id"]
        assert p["samples"] == 300 and p["best"], p["id"]
        others = p["candidates"]
        assert others and p["loss"] == min(c["loss"] for c in others), p["id"]
        for c in others:  # every other card at least a game point worse, out of the noise
            assert c["loss"] >= 1.0 and c["loss"] >= 3 * c["error"], (p["id"], c)


def test_every_position_asks_the_answer_stored():
    """The engine's candidates are the stored ones, the answer is the stored best card (its
    equivalents in the same choice), the reason is the stored tip and decides the review."""
    for p in positions():
        q = ask(given_position(p), RuleSet.named(p["rules"]))
        cards = choice_cards(q)
        assert cards[q.answer[0]] == sorted(p["best"]), p["id"]
        assert sorted(cards) == sorted([q.answer[0], *(c["card"] for c in p["candidates"])]), p["id"]
        assert rule_of(q) == p["tip"]["code"] and q.reasons[0].params == p["tip"]["params"], p["id"]


def _sample(ruleset):
    mined = [p for p in positions() if p["rules"] == ruleset]
    step = max(1, len(mined) // SAMPLED)
    return mined[::step][:SAMPLED]


@pytest.mark.parametrize("position", [p for r in RULESETS for p in _sample(r)], ids=lambda p: p["id"])
def test_a_position_analysed_again_gives_its_best_card_and_tip(position):
    """The data matches the engine: the same view, samples and seed give the same best card
    and, against the card that loses least, the same tip (the whole file: --check)."""
    view = read_view(position["view"], RuleSet.named(position["rules"]))
    analysis = analyse(view, position["samples"], position["seed"])
    best = next(c for c in analysis.cards if c.verdict == "best")
    assert sorted(card_id(c) for c in (best.card, *best.same_as)) == sorted(position["best"])
    closest = min((c for c in analysis.cards if c.verdict != "best"), key=lambda c: (c.loss, c.card))
    assert closest.reason is not None
    assert (closest.reason.code, closest.reason.params) == (position["tip"]["code"], position["tip"]["params"])


def test_a_seat_s_view_comes_back_from_its_plain_data():
    for seed in range(30):
        deal = play_bots(RuleSet.named(RULESETS[seed % 2]), 900 + seed, seed % 3).deal
        assert deal is not None
        again = replay_start(deal)
        announcements = list(deal.announcements)
        for k, card in enumerate(c for trick in deal.tricks for c in trick):
            while announcements and announcements[0].played <= k:
                said = announcements.pop(0)
                again.announce_level(said.seat, said.level)
            view = SeatView.of(again, again.turn)
            assert read_view(view_data(view), deal.rules) == view, (seed, k)
            again.play(card)


# --- The questions ---------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), level=st.integers(0, MAX_LEVEL),
       rules=st.sampled_from([RuleSet.named(r) for r in RULESETS] + list(HOUSE)))
def test_every_question_is_a_mined_position_with_its_stored_answer(seed, level, rules):
    q = make("best_card", seed, rules, level)
    p = by_id()[q.facts["position"]]
    assert p["rules"] == rules.ruleset and level_of(p) <= level
    assert q.rules == RuleSet.named(rules.ruleset) and q.rules_decide == (not rules.is_default())
    assert (q.kind, q.seed, q.level) == ("best_card", seed, level)
    assert choice_cards(q)[q.answer[0]] == sorted(p["best"])
    assert rule_of(q) == p["tip"]["code"] and q.reasons[0].params["better"] == q.answer[0]
    assert q == make("best_card", seed, rules, level)
    assert why_not(q, q.answer) == ()
    for c in q.fields[0].choices:
        if c.value != q.answer[0]:
            (miss,) = why_not(q, (c.value,))
            stored = next(x for x in p["candidates"] if x["card"] == c.value)
            assert miss.reason.params["card"] == c.value and miss.reason.params["loss"] == round(stored["loss"], 1)


def test_level_0_asks_the_simple_tips_in_normal_games_and_later_levels_the_rest():
    for ruleset in RULESETS:
        rules = RuleSet.named(ruleset)
        low = [make("best_card", seed, rules, 0) for seed in range(200)]
        assert {rule_of(q) for q in low} <= set(SIMPLE_TIPS) and {q.game for q in low} == {"normal"}
        top = {rule_of(make("best_card", seed, rules, MAX_LEVEL)) for seed in range(400)}
        assert top - set(SIMPLE_TIPS), top  # the other tips come in
        mined = {p["tip"]["code"] for p in positions() if p["rules"] == ruleset}
        assert top == mined  # and every code is asked at the top level


def test_the_review_finds_a_question_of_every_tip_code_within_its_tries():
    """tutor/web/quiz/asking.py's review_question asks make("best_card", seed, rules, level) for
    up to 40 seeds until rule_of is the code under review: at the first level that asks a
    code, seeds drawn as it draws them find the code; at the top level, where every code
    comes in, each code is drawn often enough that 40 tries find it nine times in ten."""
    for ruleset in RULESETS:
        rules = RuleSet.named(ruleset)
        codes = sorted({p["tip"]["code"] for p in positions() if p["rules"] == ruleset})
        for code in codes:
            level = level_for(code, ruleset)
            assert level is not None
            rng = random.Random(f"review-{ruleset}-{code}")
            seeds = [rng.getrandbits(31) for _ in range(REVIEW_TRIES)]
            assert any(rule_of(make("best_card", s, rules, level)) == code for s in seeds), (ruleset, code, level)
        drawn = Counter(rule_of(make("best_card", seed, rules, MAX_LEVEL)) for seed in range(600))
        for code in codes:
            share = drawn[code] / 600
            assert 1 - (1 - share) ** REVIEW_TRIES >= 0.9, (ruleset, code, share)


# --- Asking about a given position -----------------------------------------------------------


def test_a_given_position_is_asked_at_the_first_level_of_its_tip_and_game():
    for p in positions():
        q = ask(given_position(p), RuleSet.named(p["rules"]))
        assert q.level == level_of(p) >= level_for(p["tip"]["code"], p["rules"]), p["id"]


def test_the_card_a_learner_played_decides_the_question_s_tip():
    """A mistake from a real deal: its own tip is the rule the review comes back to."""
    p = next(p for p in positions() if len(p["candidates"]) >= 2)
    rules = RuleSet.named(p["rules"])
    played = p["candidates"][-1]
    position = {k: v for k, v in given_position(p).items() if k != "tip"}
    q = ask({**position, "played": played["card"]}, rules)
    assert (q.reasons[0].code, q.reasons[0].params) == (played["tip"]["code"], played["tip"]["params"])
    assert rule_of(q) == played["tip"]["code"]
    with pytest.raises(RulesError):
        ask({**given_position(p), "played": played["card"]}, rules)  # the stored tip is the closest card's
    with pytest.raises(RulesError):
        ask({**position, "played": p["best"][0]}, rules)  # the best card is no mistake


def test_a_given_position_without_its_answer_is_judged_by_the_analysis():
    p = _sample("ddv")[0]
    view_only = {**p["view"], "samples": p["samples"], "seed": p["seed"]}
    q = ask(view_only, RuleSet.named("ddv"))
    assert choice_cards(q)[q.answer[0]] == sorted(p["best"])
    assert rule_of(q) == p["tip"]["code"]


def test_a_given_position_that_does_not_fit_is_refused():
    p = positions()[0]
    rules = RuleSet.named(p["rules"])
    position = given_position(p)
    wrong_best = next(c["card"] for c in p["candidates"])
    other_code = next(c for c in CODES if c != p["tip"]["code"])
    for broken in (
        {**position, "best": [wrong_best]},  # another card is best: the tip no longer fits
        {**position, "tip": {"code": other_code, "params": p["tip"]["params"]}},
        {**position, "candidates": position["candidates"][1:]},  # a candidate left out
        {**position, "best": ["9Z"]},
        {**position, "riddle": 1},
        {**position, "hand": position["hand"][1:]},  # a card short
        {**position, "first_leader": 5},
    ):
        with pytest.raises(RulesError):
            ask(broken, rules)


def test_a_position_with_a_single_card_to_play_is_refused():
    deal = play_bots(RuleSet.named("ddv"), 7, 0).deal
    assert deal is not None
    again = replay_start(deal)
    for card in [c for trick in deal.tricks for c in trick][:-1]:
        again.play(card)
    view = SeatView.of(again, again.turn)
    assert len(candidates(view, again)) == 1
    with pytest.raises(RulesError):
        ask({**view_data(view), "best": [card_id(again.legal()[0])]}, RuleSet.named("ddv"))
