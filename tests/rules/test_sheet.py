"""The score sheet's bookkeeping (RULES.md §10): seats, compulsory solos, Bock, checks."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.rules.errors import RulesError
from tutor.rules.rulesets import RuleSet
from tutor.rules.sheet import Deal, check_deal, checks, evening, round_length, seating, settle_up

DDV = RuleSet.named("ddv")
PAGAT = RuleSet.named("pagat")


def normal(dealer: int, re_players=None, re_points: int = 130, **kwargs) -> Deal:
    """A normal game Re wins 1 point (no announcements, no extras), Re to the dealer's left."""
    if re_players is None:
        re_players = ((dealer + 1) % 4, (dealer + 2) % 4)
    return Deal("normal", re_points, 7, dealer, tuple(re_players), **kwargs)


def solo(dealer: int, soloist: int, game: str = "solo_queens", re_points: int = 130) -> Deal:
    return Deal(game, re_points, 7, dealer, (soloist,))


def test_four_players_all_play_and_the_dealer_moves_left():
    sheet = evening(DDV, 4, [normal(0), normal(1)])
    assert [r.sitting_out for r in sheet.rows] == [(), ()]
    assert sheet.next_dealer == 2


def test_at_five_the_dealer_sits_out_and_writes_nothing():
    assert seating(5, 2) == ((3, 4, 0, 1), (2,))
    deal = Deal("normal", 130, 7, 2, (3, 4))
    row = evening(DDV, 5, [deal], first_dealer=2).rows[0]
    assert row.entries == (-1, -1, None, 1, 1)


def test_at_six_and_seven_further_players_in_turn_sit_out():
    assert seating(6, 0) == ((1, 2, 3, 4), (0, 5))
    assert seating(7, 5) == ((6, 0, 1, 2), (3, 4, 5))


def test_worked_example_one_on_the_sheet():
    deal = Deal("normal", 156, 8, 0, (1, 3), extras={"re": {"fox": 1}, "kontra": {"doppelkopf": 1}})
    row = evening(DDV, 4, [deal]).rows[0]
    assert row.entries == (-2, 2, -2, 2)
    assert row.sums_to_zero and row.same_parity


def test_soloist_writes_three_times_the_value():
    row = evening(DDV, 4, [Deal("solo_queens", 190, 10, 3, (2,), re_announced="re")]).rows[0]
    assert row.entries == (-5, -5, 15, -5)


def test_lost_jacks_solo_from_rules_md():
    row = evening(DDV, 4, [Deal("solo_jacks", 110, 6, 0, (1,))]).rows[0]
    assert row.entries == (1, -3, 1, 1)


def test_checks_catch_a_wrong_sum_and_mixed_parity():
    assert checks((2, 2, -2, -2)) == (True, True)
    assert checks((3, -1, -1, -1)) == (True, True)
    assert checks((2, 1, -2, -1)) == (True, False)
    assert checks((2, 2, -2, -1)) == (False, False)
    assert checks((2, None, 2, -2, -2)) == (True, True)


def test_running_totals_add_up():
    sheet = evening(DDV, 4, [normal(0), normal(1), normal(2, re_points=100)])
    assert sheet.rows[0].totals == (-1, 1, 1, -1)
    assert sheet.totals == tuple(sum(r.entries[p] for r in sheet.rows) for p in range(4))
    assert sum(sheet.totals) == 0


def test_compulsory_solo_same_dealer_deals_again_under_ddv():
    sheet = evening(DDV, 4, [solo(0, 2)])
    assert sheet.rows[0].compulsory
    assert sheet.next_dealer == 0
    assert sheet.solos_owed == (0, 1, 3)


def test_voluntary_solo_after_the_compulsory_one_moves_the_dealer_on():
    sheet = evening(DDV, 4, [solo(0, 2), solo(0, 2)])
    assert [r.compulsory for r in sheet.rows] == [True, False]
    assert sheet.next_dealer == 1


def test_wedding_played_alone_and_silent_wedding_are_not_compulsory_solos():
    sheet = evening(DDV, 4, [solo(0, 1, "wedding_solo"), solo(1, 2, "silent_wedding")])
    assert not any(r.compulsory for r in sheet.rows)
    assert sheet.solos_owed == (0, 1, 2, 3)
    assert sheet.next_dealer == 2


def test_pagat_knows_no_compulsory_solo():
    sheet = evening(PAGAT, 4, [solo(0, 2)])
    assert not sheet.rows[0].compulsory
    assert sheet.next_dealer == 1
    assert sheet.solos_owed == () and sheet.vorgefuehrt is None


def test_rounds_are_24_deals_at_four_and_30_at_five():
    assert round_length(4) == 24
    assert round_length(5) == 30


def test_vorgefuehrt_when_only_as_many_deals_remain_as_solos_are_owed():
    # 21 normal deals (dealer 0..3 in turn), 3 left, two players have played their solo.
    deals = [solo(0, 1), solo(0, 2)] + [normal(i % 4) for i in range(20)]
    sheet = evening(DDV, 4, deals)
    assert sheet.deals_left_in_round == 2
    assert sheet.solos_owed == (0, 3)
    # Dealer 0 deals next; first in turn from his left who owes: player 3.
    assert sheet.next_dealer == 0
    assert sheet.vorgefuehrt == 3


def test_no_warning_while_more_deals_remain_than_solos_owed():
    sheet = evening(DDV, 4, [normal(i % 4) for i in range(19)])
    assert sheet.deals_left_in_round == 5 and len(sheet.solos_owed) == 4
    assert sheet.vorgefuehrt is None
    assert evening(DDV, 4, [normal(i % 4) for i in range(20)]).vorgefuehrt == 1


def test_vorgefuehrt_solo_counts_but_the_dealer_moves_on():
    deals = [normal(i % 4) for i in range(20)]
    sheet = evening(DDV, 4, [*deals, solo(0, 1)])
    row = sheet.rows[-1]
    assert row.compulsory and row.vorgefuehrt
    assert sheet.next_dealer == 1


def test_a_new_round_owes_every_solo_again():
    deals = [solo(0, 1), solo(0, 2), solo(0, 3), solo(0, 0)] + [normal(i % 4) for i in range(20)]
    sheet = evening(DDV, 4, deals)
    assert sheet.round_number == 2 and sheet.deals_left_in_round == 24
    assert sheet.solos_owed == (0, 1, 2, 3)


def test_bock_round_after_a_tie_doubles_one_deal_per_player():
    deals = [normal(0, re_points=120)] + [normal(i % 4) for i in range(1, 6)]
    sheet = evening(DDV, 4, deals, bock=True)
    assert [r.multiplier for r in sheet.rows] == [1, 2, 2, 2, 2, 1]
    assert sheet.rows[0].bock_trigger
    assert sheet.rows[1].entries == (-2, -2, 2, 2)


def test_bock_is_off_unless_the_house_plays_it():
    sheet = evening(DDV, 4, [normal(0, re_points=120), normal(1)])
    assert [r.multiplier for r in sheet.rows] == [1, 1]


def test_lost_re_or_kontra_starts_a_bock_round_and_overlapping_rounds_multiply():
    lost_re = normal(1, re_points=100, re_announced="re")
    lost_kontra = normal(2, re_points=200, kontra_announced="kontra")
    sheet = evening(DDV, 5, [lost_re, lost_kontra, normal(3), normal(4), normal(0), normal(1), normal(2)], bock=True)
    assert [r.multiplier for r in sheet.rows] == [1, 2, 4, 4, 4, 4, 2]
    assert sheet.next_multiplier == 1


def test_won_announcement_starts_no_bock_round():
    sheet = evening(DDV, 4, [normal(0, re_points=130, re_announced="re")], bock=True)
    assert sheet.next_multiplier == 1


def test_deleting_the_trigger_recomputes_bock():
    deals = [normal(0, re_points=120), normal(1)]
    assert evening(DDV, 4, deals, bock=True).rows[1].multiplier == 2
    assert evening(DDV, 4, deals[1:], bock=True).rows[0].multiplier == 1


@pytest.mark.parametrize(
    ("deal", "code", "field"),
    [
        (Deal("normal", 130, 7, 0, (1,)), "wrong_re_count", "re_players"),
        (Deal("solo_queens", 130, 7, 0, (1, 2)), "wrong_re_count", "re_players"),
        (Deal("normal", 130, 7, 0, (1, 1)), "wrong_re_count", "re_players"),
        (Deal("normal", 250, 7, 0, (1, 2)), "out_of_range", "re_points"),
        (Deal("normal", 130, 7, 9, (1, 2)), "out_of_range", "dealer"),
        (Deal("poverty", 130, 7, 0, (1, 2)), "poverty_not_played", "game"),
        (Deal("chess", 130, 7, 0, (1, 2)), "unknown_game", "game"),
        (Deal("normal", 130, 7, 0, (1, 2), re_announced="kontra"), "unknown_announcement", "re_announced"),
        (Deal("normal", 130, 7, 0, (1, 2), extras={"re": {"fox": 2}, "kontra": {"fox": 1}}), "too_many_extras",
         "extras.kontra.fox"),
    ],
)
def test_impossible_deals_are_refused(deal, code, field):
    with pytest.raises(RulesError) as error:
        check_deal(DDV, 4, deal)
    assert (error.value.code, error.value.field) == (code, field)


def test_a_player_who_sat_out_cannot_be_re():
    with pytest.raises(RulesError) as error:
        check_deal(DDV, 5, Deal("normal", 130, 7, 0, (0, 1)))
    assert error.value.code == "player_sat_out"
    check_deal(DDV, 5, Deal("normal", 130, 7, 0, (1, 4)))


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(4, 7),
    bock=st.booleans(),
    plays=st.lists(st.tuples(st.sampled_from(["normal", "solo_queens", "silent_wedding"]),
                             st.one_of(st.integers(40, 200), st.sampled_from([0, 240])),
                             st.sampled_from([None, "re"]), st.integers(0, 6)), max_size=40),
)
def test_every_row_passes_both_checks_and_totals_sum_to_zero(players, bock, plays):
    deals, sheet = [], evening(DDV, players, [])
    for game, points, re_said, pick in plays:
        playing = seating(players, sheet.next_dealer)[0]
        re = (playing[pick % 4],) if game != "normal" else (playing[pick % 4], playing[(pick + 1) % 4])
        tricks = 0 if points == 0 else 12 if points == 240 else 6
        deal = Deal(game, points, tricks, sheet.next_dealer, re, re_announced=re_said)
        check_deal(DDV, players, deal)
        deals.append(deal)
        sheet = evening(DDV, players, deals, bock=bock)
    assert sum(sheet.totals) == 0
    for row in sheet.rows:
        assert row.sums_to_zero and row.same_parity is not False
        assert len(row.sitting_out) == players - 4


def test_only_the_ddv_rules_count_rounds_and_compulsory_solos():
    assert DDV.has_rounds and DDV.has_compulsory_solos
    assert not PAGAT.has_rounds and not PAGAT.has_compulsory_solos
    assert evening(PAGAT, 4, []).solos_owed == ()


# --- after a correction: every later dealer follows the rotation again (issue 13) ----------

ANNA, BEN, CARA, DIRK = range(4)


def test_deleting_the_first_deal_moves_every_later_dealer_back():
    # Anna deals first: deals by Anna, Ben, Cara, as the sheet stored them.
    stored = [normal(ANNA), normal(BEN), normal(CARA)]
    assert [r.deal.dealer for r in evening(DDV, 4, stored).rows] == [ANNA, BEN, CARA]
    after = evening(DDV, 4, stored[1:])  # deal 1 deleted
    assert [r.deal.dealer for r in after.rows] == [ANNA, BEN]
    assert after.next_dealer == CARA


def test_editing_a_deal_into_a_compulsory_solo_makes_its_dealer_deal_again():
    stored = [normal(ANNA), normal(BEN), normal(CARA)]
    # Deal 1 becomes Ben's compulsory solo: Anna, who dealt it, deals deal 2 again.
    first = evening(DDV, 4, [solo(ANNA, BEN), *stored[1:]])
    assert [r.deal.dealer for r in first.rows] == [ANNA, ANNA, BEN]
    assert first.rows[0].compulsory and first.next_dealer == CARA
    # Deal 2 (dealt by Ben) becomes Cara's compulsory solo: deal 3 is Ben's again.
    second = evening(DDV, 4, [stored[0], solo(BEN, CARA), stored[2]])
    assert [r.deal.dealer for r in second.rows] == [ANNA, BEN, BEN]
    assert second.next_dealer == CARA


def test_a_dealer_typed_by_hand_is_kept_and_marked_and_the_rotation_goes_on_from_him():
    by_hand = Deal("normal", 130, 7, DIRK, (ANNA, BEN), dealer_by_hand=True)
    sheet = evening(DDV, 4, [normal(ANNA), by_hand, normal(CARA)])
    rows = sheet.rows
    assert [r.deal.dealer for r in rows] == [ANNA, DIRK, ANNA]
    assert [r.deal.dealer_by_hand for r in rows] == [False, True, False]
    assert rows[1].rotation_dealer == BEN
    # Deleting the first deal keeps Dirk's deal as typed.
    assert [r.deal.dealer for r in evening(DDV, 4, [by_hand, normal(CARA)]).rows] == [DIRK, ANNA]


def test_a_correction_that_seats_a_re_player_out_is_flagged():
    # Five players: Re were 2 and 3 when 1 dealt; if the rotation now has 2 deal it, player 2
    # sits out and the row says its seats no longer fit.
    sheet = evening(DDV, 5, [normal(0, (1, 2)), Deal("normal", 130, 7, 1, (2, 3))])
    assert all(r.seats_fit for r in sheet.rows)
    moved = evening(DDV, 5, [Deal("normal", 130, 7, 1, (2, 3))], first_dealer=2)
    assert not moved.rows[0].seats_fit
    assert not moved.rows[0].sums_to_zero


def test_at_five_an_owing_player_is_vorgefuehrt_in_his_last_deal_not_after_it():
    # Players 1-4 play their compulsory solos in deals 1-4 (player 0 deals them), then normal
    # games; player 0 sits out deal 30 (he deals it), so his last chance is deal 29.
    deals = [solo(0, p) for p in (1, 2, 3, 4)]
    sheet = evening(DDV, 5, deals)
    while sheet.vorgefuehrt is None and len(deals) < 30:
        dealer = sheet.next_dealer
        playing, _ = seating(5, dealer)
        deals.append(Deal("normal", 130, 7, dealer, playing[:2]))
        sheet = evening(DDV, 5, deals)
    number = len(deals) + 1
    assert sheet.vorgefuehrt == 0 and number == 29
    done = evening(DDV, 5, [*deals, solo(sheet.next_dealer, 0)])
    assert done.rows[-1].vorgefuehrt and done.solos_owed == ()
    assert 0 in done.next_sitting_out  # deal 30, which he would have been forced in before


def test_at_four_players_the_vorgefuehrt_rule_is_unchanged():
    sheet = evening(DDV, 4, [normal(i % 4) for i in range(20)])
    assert sheet.deals_left_in_round == 4 and sheet.vorgefuehrt == 1


def test_player_stats_count_deals_solos_parties_and_the_best_entry():
    from tutor.rules.sheet import player_stats

    sheet = evening(DDV, 5, [Deal("normal", 130, 7, 0, (1, 2)), solo(1, 3)])
    anna, bert, carl, dora, emil = player_stats(sheet)
    assert (anna.played, bert.played) == (1, 1)  # Anna dealt deal 1, Bert deal 2: each sat out once
    assert (dora.solos, dora.solos_won, dora.best) == (1, 1, 3)  # a won solo worth 1: +3
    assert (carl.re_games, carl.kontra_games, carl.won) == (1, 1, 1)
    assert emil.played == 2 and emil.won == 0


# --- settle-up -----------------------------------------------------------------------------


@st.composite
def zero_sum_totals(draw: st.DrawFn) -> list[int]:
    """The totals of an evening of 4 to 7 players: any whole numbers that sum to 0."""
    players = draw(st.integers(4, 7))
    totals = draw(st.lists(st.integers(-5000, 5000), min_size=players - 1, max_size=players - 1))
    return [*totals, -sum(totals)]


@given(zero_sum_totals(), st.integers(1, 100))
@settings(max_examples=400)
def test_the_payments_settle_every_balance_exactly(totals, cents):
    settlement = settle_up(totals, cents)
    assert settlement.balances == tuple(t * cents for t in totals)
    left = list(settlement.balances)
    for payment in settlement.payments:
        assert payment.cents > 0 and payment.payer != payment.payee
        assert left[payment.payer] < 0 < left[payment.payee]  # only who owes pays, only to who is owed
        left[payment.payer] += payment.cents
        left[payment.payee] -= payment.cents
    assert left == [0] * len(totals)
    assert len(settlement.payments) <= len(totals) - 1


def test_settle_up_refuses_what_no_sheet_has():
    with pytest.raises(RulesError) as caught:
        settle_up((1, 0, 0, 0), 5)
    assert caught.value.code == "not_zero_sum"
    for cents in (0, 101, -3):
        with pytest.raises(RulesError) as caught:
            settle_up((0, 0, 0, 0), cents)
        assert (caught.value.code, caught.value.field) == ("out_of_range", "cents")
