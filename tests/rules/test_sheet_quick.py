"""Quick deals on the sheet: the winners and the value, as on paper ("Re won, 3"). The sheet
treats them like any counted deal: entries, checks, Bock, compulsory solos, statistics."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.rules.errors import RulesError
from tutor.rules.rulesets import RuleSet
from tutor.rules.scoring import quick_score
from tutor.rules.sheet import QUICK_MAX, Deal, check_deal, check_row, evening, player_stats, seating

DDV = RuleSet.named("ddv")
PAGAT = RuleSet.named("pagat")


def quick(dealer: int, re_players: tuple[int, ...], winner: str = "re", value: int = 1, game: str = "normal",
          bock: bool = False) -> Deal:
    return Deal.quick_entry(game, dealer, re_players, winner, value, bock)  # type: ignore[arg-type]


def test_the_winners_write_the_value_and_the_others_minus_the_value():
    row = evening(DDV, 4, [quick(0, (1, 3), "re", 3)]).rows[0]
    assert row.entries == (-3, 3, -3, 3)
    row = evening(DDV, 4, [quick(0, (1, 3), "kontra", 2)]).rows[0]
    assert row.entries == (2, -2, 2, -2)
    assert row.sums_to_zero and row.same_parity


def test_a_soloist_writes_three_times_the_value():
    assert evening(DDV, 4, [quick(0, (2,), "re", 4, "solo_queens")]).rows[0].entries == (-4, -4, 12, -4)
    assert evening(DDV, 4, [quick(0, (2,), "kontra", 3, "solo_jacks")]).rows[0].entries == (3, 3, -9, 3)


def test_a_quick_deal_scores_as_a_counted_deal_of_the_same_value():
    counted = Deal("normal", 156, 8, 0, (1, 3), extras={"re": {"fox": 1}, "kontra": {"doppelkopf": 1}})
    assert evening(DDV, 4, [counted]).rows[0].entries == evening(DDV, 4, [quick(0, (1, 3), "re", 2)]).rows[0].entries
    score = quick_score("normal", "re", 2)
    assert (score.winner, score.value, score.lines) == ("re", 2, ())


def test_at_five_the_player_sitting_out_writes_nothing():
    row = evening(DDV, 5, [quick(2, (3, 4), "re", 2)], first_dealer=2).rows[0]
    assert row.entries == (-2, -2, None, 2, 2)


@pytest.mark.parametrize(("re_players", "total"), [((1,), -4), ((1, 2, 3), 4), ((), -8), ((0, 1, 2, 3), 8)])
def test_a_normal_game_without_two_re_players_does_not_sum_to_zero(re_players, total):
    with pytest.raises(RulesError) as error:
        check_deal(DDV, 4, quick(0, re_players, "re", 2))
    assert (error.value.code, error.value.field) == ("row_not_zero_sum", "re_players")
    assert error.value.params == {"total": total, "expected": 2}


def test_a_solo_with_two_re_players_does_not_sum_to_zero():
    with pytest.raises(RulesError) as error:
        check_deal(DDV, 4, quick(0, (1, 2), "re", 1, "solo_queens"))
    assert error.value.code == "row_not_zero_sum" and error.value.params["expected"] == 1


def test_the_row_checks_name_the_check_that_fails():
    check_row("normal", (1, 3), (-2, 2, -2, 2))
    check_row("solo_queens", (2,), (-1, -1, 3, -1))
    for game, re_players, entries, code in [
        ("normal", (1, 3), (-2, 2, -2, 1), "row_not_zero_sum"),
        ("normal", (1, 3), (-2, 1, -1, 2), "row_mixed_parity"),
        ("solo_queens", (2,), (-1, -3, 5, -1), "solo_not_triple"),
        ("solo_queens", (2,), (-2, 0, 2, 0), "solo_not_triple"),
    ]:
        with pytest.raises(RulesError) as error:
            check_row(game, re_players, entries)
        assert error.value.code == code, entries


@pytest.mark.parametrize(
    ("deal", "code", "field"),
    [
        (quick(0, (1, 2), "re", 0), "out_of_range", "value"),
        (quick(0, (1, 2), "re", QUICK_MAX + 1), "out_of_range", "value"),
        (quick(0, (1, 2), "re", -3), "out_of_range", "value"),
        (quick(0, (1, 2), "nobody", 3), "unknown_party", "winner"),
        (quick(0, (1, 1), "re", 3), "wrong_re_count", "re_players"),
        (quick(0, (1, 2), "re", 3, "chess"), "unknown_game", "game"),
        (quick(0, (1, 2), "re", 3, "poverty"), "poverty_not_played", "game"),
        (quick(9, (1, 2), "re", 3), "out_of_range", "dealer"),
        (Deal("normal", 130, 7, 0, (1, 2), quick=quick(0, (1, 2)).quick), "quick_with_summary", "quick"),
    ],
)
def test_impossible_quick_deals_are_refused(deal, code, field):
    with pytest.raises(RulesError) as error:
        check_deal(DDV, 4, deal)
    assert (error.value.code, error.value.field) == (code, field)


def test_a_player_who_sits_out_cannot_be_re_in_a_quick_deal_either():
    with pytest.raises(RulesError) as error:
        check_deal(DDV, 5, quick(0, (0, 1)))
    assert error.value.code == "player_sat_out"
    check_deal(DDV, 5, quick(0, (1, 4)))


def test_a_quick_deal_starts_a_bock_round_when_the_table_says_so():
    deals = [quick(0, (1, 2), "re", 2, bock=True), quick(1, (2, 3), "kontra", 3)]
    sheet = evening(DDV, 4, deals, bock=True)
    assert [r.bock_trigger for r in sheet.rows] == [True, False]
    assert sheet.rows[1].multiplier == 2 and sheet.rows[1].entries == (6, 6, -6, -6)
    assert not evening(DDV, 4, deals).rows[0].bock_trigger  # the sheet plays no Bock rounds
    # A quick deal knows no tie or announcement: only the table's word starts a round.
    assert not evening(DDV, 4, [quick(0, (1, 2), "kontra", 2)], bock=True).rows[0].bock_trigger


def test_a_quick_solo_is_a_compulsory_solo_and_the_same_dealer_deals_again():
    sheet = evening(DDV, 4, [quick(0, (2,), "re", 2, "solo_queens")])
    assert sheet.rows[0].compulsory and sheet.next_dealer == 0 and sheet.solos_owed == (0, 1, 3)
    assert not evening(PAGAT, 4, [quick(0, (2,), "re", 2, "solo_queens")]).rows[0].compulsory


def test_a_quick_deal_can_be_vorgefuehrt():
    deals = [quick(i % 4, ((i + 1) % 4, (i + 2) % 4)) for i in range(20)]
    sheet = evening(DDV, 4, deals)
    assert sheet.vorgefuehrt == 1
    row = evening(DDV, 4, [*deals, quick(sheet.next_dealer, (1,), "re", 2, "solo_hearts")]).rows[-1]
    assert row.compulsory and row.vorgefuehrt


def test_player_stats_count_quick_deals_like_any_other():
    sheet = evening(DDV, 4, [quick(0, (1, 2), "re", 2), quick(1, (3,), "kontra", 1, "solo_jacks")])
    anna, bert, carl, dora = player_stats(sheet)
    assert (dora.solos, dora.solos_won, dora.re_games, dora.best) == (1, 0, 1, -2)  # -2, then -3
    assert (bert.won, bert.played, bert.best) == (2, 2, 2)


def test_quick_and_counted_deals_mix_on_one_sheet():
    deals = [Deal("normal", 130, 7, 0, (1, 2)), quick(1, (2, 3), "kontra", 3), Deal("normal", 100, 5, 2, (3, 0))]
    sheet = evening(DDV, 4, deals)
    # +1 for Re (1, 2); Kontra (0, 1) won 3; Kontra (1, 2) won 2 against the old ones.
    assert [r.entries for r in sheet.rows] == [(-1, 1, 1, -1), (3, 3, -3, -3), (-2, 2, 2, -2)]
    assert sheet.totals == (0, 6, 0, -6)
    assert sum(sheet.totals) == 0 and [r.deal.dealer for r in sheet.rows] == [0, 1, 2]


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(4, 7),
    bock=st.booleans(),
    plays=st.lists(st.tuples(st.sampled_from(["normal", "solo_queens", "wedding"]), st.sampled_from(["re", "kontra"]),
                             st.integers(1, QUICK_MAX), st.booleans(), st.integers(0, 6)), max_size=40),
)
def test_every_quick_row_passes_the_checks_and_totals_sum_to_zero(players, bock, plays):
    deals, sheet = [], evening(DDV, players, [])
    for game, winner, value, starts_bock, pick in plays:
        playing = seating(players, sheet.next_dealer)[0]
        re = (playing[pick % 4],) if game.startswith("solo") else (playing[pick % 4], playing[(pick + 1) % 4])
        deal = quick(sheet.next_dealer, re, winner, value, game, starts_bock)
        check_deal(DDV, players, deal)
        deals.append(deal)
        sheet = evening(DDV, players, deals, bock=bock)
    assert sum(sheet.totals) == 0
    for row in sheet.rows:
        assert row.sums_to_zero and row.same_parity is not False
        winners = [e for p, e in enumerate(row.entries) if e is not None and (p in row.deal.re_players) ==
                   (row.deal.quick.winner == "re")]
        assert all(e > 0 for e in winners)
