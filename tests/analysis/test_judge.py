"""The analysis of one decision and the review of a whole deal: candidates grouped, values
and losses measured on the same worlds (the loss on worlds not used to choose the best),
verdicts that call noise "unclear" and never a mistake, the silences, reproducible."""
from __future__ import annotations

import random

import pytest

from tests.analysis.helpers import DDV, RULES, finished, stopped
from tutor.analysis.judge import analyse, candidates, play_out, seat_result
from tutor.analysis.review import review
from tutor.analysis.verdicts import VERDICTS
from tutor.analysis.view import SeatView
from tutor.analysis.worlds import Worlds
from tutor.rules.cards import card_id, parse_card
from tutor.rules.deal import Deal


def ids(cards) -> list[str]:
    return [card_id(c) for c in cards]


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


HANDS = [sorted(cards(h)) for h in (
    "QC 10H JS AD 10D KD AS 10S AH KH 9C 9C",
    "QC 10H QS JC JH AC AC 10C KC 9S 9S KS",
    "QS QH QH QD JC JS JD JD AD 9D 9D KS",
    "QD JH 10D KD AS 10S KC 10C AH KH 9H 9H",
)]


def test_equivalent_cards_are_one_candidate():
    deal = Deal(DDV, HANDS, "normal", leader=2)
    groups = {card_id(c): ids(same) for c, same in candidates(SeatView.of(deal, 2), deal)}
    # Q♥ twice and the Q♦: nothing out between them or equal to the Q♥. The Q♠ stands apart
    # (the other Q♠ is out), so do J♠ (the other J♠ and the J♥ are out) and J♣ (Karlchen);
    # A♦ and 9♦ differ from their neighbours in card points.
    assert groups == {"QS": [], "QH": ["QD"], "JC": [], "JS": [], "JD": [], "AD": [], "9D": [], "KS": []}


def test_once_the_other_copy_is_played_neighbours_join():
    deal = Deal(DDV, HANDS, "normal", leader=1)
    deal.play(parse_card("QS"))  # the other Q♠: seat 2's Q♠, Q♥ and Q♦ now do the same
    groups = {card_id(c): ids(same) for c, same in candidates(SeatView.of(deal, 2), deal)}
    assert groups["QS"] == ["QH", "QD"] and "QH" not in groups
    for card, same in candidates(SeatView.of(deal, 2), deal):
        assert all(deal.table.power[o] < deal.table.power[card] for o in same)


def test_the_same_seed_gives_the_same_analysis_and_another_differs():
    real = stopped(finished(DDV, 1000, 0), 0)
    view = SeatView.of(real, real.turn)
    first = analyse(view, 20, seed=3)
    assert first == analyse(view, 20, seed=3)
    assert first != analyse(view, 20, seed=4)
    assert all(c.verdict in VERDICTS for c in first.cards)
    assert first.best and all(c.verdict == "best" for c in first.cards if c.card in first.best)


def test_values_are_the_seats_sheet_score_per_player_in_the_same_worlds():
    real = stopped(finished(DDV, 1001, 0), 5)
    view = SeatView.of(real, real.turn)
    result = analyse(view, 10, seed=1, halving=False)
    worlds = Worlds(view)
    rng = random.Random(1)
    bases = [worlds.deal(worlds.sample(rng)) for _ in range(10)]
    for candidate in result.cards:
        scores = []
        for base in bases:
            deal = base.copy()
            deal.play(candidate.card)
            play_out(deal)
            scores.append(seat_result(deal, view.seat)[0])
        assert candidate.value == pytest.approx(sum(scores) / 10)
        assert candidate.worlds == 10


def test_the_loss_is_measured_on_worlds_not_used_to_choose_the_best():
    """With every card equal in truth (the computer players replaced by coin flips), the
    best of the means on the same worlds looks better than it is; the held-out loss does
    not: its mean stays near zero, and nothing is called a mistake."""
    def coin(deal: Deal, seat: int) -> int:
        legal = deal.legal()
        return legal[hash((seat, len(deal.tricks), len(deal.trick), deal.leader)) % len(legal)]

    losses, naive = [], []
    flagged = 0
    for seed in range(12):
        real = stopped(finished(RULES[seed % 2], 2000 + seed, 0), 0)
        view = SeatView.of(real, real.turn)
        result = analyse(view, 40, seed=seed, player=coin, halving=False)
        best = max(c.value for c in result.cards)
        for c in result.cards:
            if c.verdict != "best":
                losses.append(c.loss)
                naive.append(best - c.value)
                flagged += c.verdict in ("mistake", "blunder")
    assert sum(naive) / len(naive) > sum(losses) / len(losses)
    assert flagged <= len(losses) * 0.05


def test_one_candidate_is_silent():
    real = stopped(finished(DDV, 1000, 0), 44)  # the last trick: one card each
    view = SeatView.of(real, real.turn)
    result = analyse(view, 10)
    assert result.silent == "single_candidate" and len(result.cards) == 1


def test_a_wedding_before_its_clarification_is_not_judged():
    for seed in range(400):
        deal = finished(DDV, seed, 1)
        if deal.declared == "wedding" and deal.clarification_trick and deal.clarification_trick > 1:
            break
    else:
        pytest.fail("no wedding clarified late")
    real = stopped(deal, 2)
    result = analyse(SeatView.of(real, real.turn), 10)
    assert result.silent in ("unmodelled", "single_candidate")
    assert all(c.verdict in ("best", "unclear") for c in result.cards)


def test_a_review_judges_every_card_of_the_seat_the_same_way_each_time():
    deal = finished(DDV, 1000, 0)
    first = review(deal, 0, 10, seed=2)
    assert len(first) == 12 and [j.card for j in first] == [c for t in deal.tricks for i, c in enumerate(t)
                                                           if deal.seat_of(deal.tricks.index(t), i) == 0]
    assert first == review(deal, 0, 10, seed=2)
    for j in first:
        if j.verdict is None:
            assert j.analysis.silent == "single_candidate"
        else:
            assert (j.better is None) == (j.verdict == "best")
            if j.verdict in ("inaccuracy", "mistake", "blunder"):
                assert j.reason is not None


def test_a_decision_no_world_can_make_is_left_unjudged_in_a_review(monkeypatch):
    import tutor.analysis.review as reviewing
    from tutor.analysis.worlds import NoWorld

    calls = []

    def refuse(view, samples, seed, player):
        calls.append(view.seat)
        raise NoWorld("no_world", "hand")

    monkeypatch.setattr(reviewing, "analyse", refuse)
    judged = review(finished(DDV, 1000, 0), 2, 10, seed=1)
    assert len(judged) == 12 and len(calls) == 12
    assert all(j.verdict is None and j.analysis.silent == "no_world" for j in judged)
