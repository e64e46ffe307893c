"""RULES.md §7–§10: who wins and every scoring line, for ddv and pagat."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.rules.errors import RulesError
from tutor.rules.games import GAMES
from tutor.rules.rulesets import RuleSet
from tutor.rules.scoring import check_summary, score, sheet_scores, who_wins

DDV = RuleSet.named("ddv")
PAGAT = RuleSet.named("pagat")


def lines(result):
    return {(line.id, line.party): line.points for line in result.lines}


# RULES.md §8 worked examples, from seed 002: the data the rules reference shows, and each
# one written out again below with its lines.
@pytest.mark.parametrize("example", __import__("tutor.rules.scoring", fromlist=["x"]).WORKED_EXAMPLES)
def test_worked_examples_data(example):
    assert score(DDV, **example.kwargs()).scores == example.scores



def test_worked_example_fox_and_doppelkopf_cancel_out():
    s = score(DDV, "normal", 156, 8, extras={"re": {"fox": 1}, "kontra": {"doppelkopf": 1}})
    assert s.winner == "re"
    assert s.scores == {"re": 2, "kontra": -2}


def test_worked_example_kontra_wins_with_exactly_120():
    s = score(DDV, "normal", 120, 6)
    assert s.winner == "kontra"
    assert s.scores == {"re": -2, "kontra": 2}
    assert lines(s) == {("won", "kontra"): 1, ("against_the_old_ones", "kontra"): 1}


def test_worked_example_re_and_kontra_re_125():
    s = score(DDV, "normal", 125, 7, "re", "kontra")
    assert s.scores == {"re": 5, "kontra": -5}


def test_worked_example_failed_no_90_re_145():
    s = score(DDV, "normal", 145, 7, "no_90", None)
    assert s.winner == "kontra"
    assert s.scores == {"re": -5, "kontra": 5}
    assert lines(s) == {
        ("won", "kontra"): 1,
        ("against_the_old_ones", "kontra"): 1,
        ("re_announced", "kontra"): 2,
        ("no_90_announced", "kontra"): 1,
    }


def test_worked_example_queens_solo_with_re_190():
    s = score(DDV, "solo_queens", 190, 10, "re", None)
    assert s.scores == {"re": 15, "kontra": -5}


def test_worked_example_jacks_solo_lost_with_110():
    s = score(DDV, "solo_jacks", 110, 5)
    assert s.scores == {"re": -3, "kontra": 1}


# RULES.md §7: who wins.
@pytest.mark.parametrize(
    "re_points,re_said,kontra_said,winner",
    [
        (121, None, None, "re"),
        (120, None, None, "kontra"),
        (121, "re", None, "re"),
        (120, "re", "kontra", "kontra"),
        (121, "re", "kontra", "re"),
        (120, None, "kontra", "re"),
        (119, None, "kontra", "kontra"),
        (151, "no_90", None, "re"),
        (150, "no_90", None, "kontra"),
        (181, "no_60", None, "re"),
        (180, "no_60", None, "kontra"),
        (211, "no_30", None, "re"),
        (210, "no_30", "kontra", "kontra"),
        (89, None, "no_90", "kontra"),
        (90, None, "no_90", "re"),
    ],
)
def test_who_wins(re_points, re_said, kontra_said, winner):
    levels = {None: -1, "re": 0, "kontra": 0, "no_90": 1, "no_60": 2, "no_30": 3, "schwarz": 4}
    assert who_wins(re_points, 6, 12, levels[re_said], levels[kontra_said]) == winner


def test_schwarz_announced_needs_every_trick():
    assert who_wins(240, 12, 12, 4, -1) == "re"
    assert who_wins(240, 11, 12, 4, -1) == "kontra"


def test_nobody_wins_when_both_miss_their_limits():
    assert who_wins(125, 6, 12, 1, 1) is None


def test_ddv_nobody_wins_each_keeps_what_it_achieved():
    s = score(DDV, "normal", 125, 6, "no_90", "no_90")
    assert s.winner is None
    assert lines(s) == {("reached_120_against_no_90", "re"): 1}
    assert s.scores == {"re": 1, "kontra": -1}


def test_ddv_nobody_wins_below_lines_and_extras_are_kept():
    s = score(DDV, "normal", 170, 8, "no_60", "no_30", {"kontra": {"fox": 1}})
    assert s.winner is None
    assert lines(s) == {
        ("below_90", "re"): 1,
        ("reached_120_against_no_90", "re"): 1,
        ("reached_90_against_no_60", "re"): 1,
        ("reached_60_against_no_30", "re"): 1,
        ("fox", "kontra"): 1,
    }


def test_kontra_alone_lets_re_win_with_120():
    s = score(DDV, "normal", 120, 6, None, "kontra")
    assert s.winner == "re"
    assert lines(s) == {("won", "re"): 1, ("kontra_announced", "re"): 2}


def test_announcement_points_go_to_the_winner_whoever_announced():
    s = score(DDV, "normal", 100, 5, "re", None)
    assert lines(s)[("re_announced", "kontra")] == 2


def test_failed_schwarz_30_against_schwarz_needs_30_points_not_just_a_trick():
    s = score(DDV, "normal", 210, 11, "schwarz", None)
    assert lines(s)[("reached_30_against_schwarz", "kontra")] == 1
    s = score(DDV, "normal", 240, 11, "schwarz", None)
    assert ("reached_30_against_schwarz", "kontra") not in lines(s)
    assert s.scores == {"re": -8, "kontra": 8}


def test_schwarz_met_scores_every_line():
    s = score(DDV, "normal", 240, 12, "schwarz", None)
    assert s.winner == "re"
    assert s.value == 1 + 3 + 1 + 2 + 4


def test_both_parties_announcing_the_same_limit_count_it_twice():
    s = score(DDV, "normal", 95, 4, "no_90", "no_90")
    assert s.winner is None  # neither below 90


def test_losers_achievements_earn_nothing_when_there_is_a_winner():
    # Kontra announced schwarz and failed; Re below 90 earns Kontra nothing.
    s = score(DDV, "normal", 80, 2, None, "schwarz")
    assert s.winner == "re"
    assert ("below_90", "kontra") not in lines(s)


def test_extras_net_against_the_winner_can_leave_zero_or_less():
    s = score(DDV, "normal", 121, 6, extras={"kontra": {"fox": 2}})
    assert s.winner == "re"
    assert s.value == -1
    assert s.scores == {"re": -1, "kontra": 1}


def test_no_extra_points_and_no_old_ones_in_a_solo():
    s = score(DDV, "silent_wedding", 100, 5, extras={"kontra": {"fox": 2, "doppelkopf": 1}})
    assert lines(s) == {("won", "kontra"): 1}
    assert s.scores == {"re": -3, "kontra": 1}


def test_ddv_counts_karlchen_caught_only_with_the_option():
    extras = {"re": {"karlchen_caught": 1}}
    assert score(DDV, "normal", 130, 7, extras=extras).value == 1
    rules = DDV.with_options(karlchen="win_or_catch")
    assert score(rules, "normal", 130, 7, extras=extras).value == 2


# RULES.md §9: pagat.
def test_pagat_plain_win_with_fox_and_doppelkopf():
    s = score(PAGAT, "normal", 156, 8, extras={"re": {"fox": 1}, "kontra": {"doppelkopf": 1}})
    assert s.scores == {"re": 2, "kontra": -2}


def test_pagat_failed_announcement_counts_per_missed_level():
    s = score(PAGAT, "normal", 175, 8, "no_60", None)
    assert s.winner == "kontra"
    assert lines(s) == {
        ("won", "kontra"): 1,
        ("against_the_old_ones", "kontra"): 1,
        ("re_announced", "kontra"): 2,
        ("failed_announcement", "kontra"): 2,
    }


def test_pagat_winners_announced_levels_count_once_each_and_no_reached_lines():
    s = score(PAGAT, "normal", 190, 9, "no_60", "kontra")
    assert s.winner == "re"
    assert lines(s) == {
        ("won", "re"): 1,
        ("below_90", "re"): 1,
        ("below_60", "re"): 1,
        ("re_announced", "re"): 2,
        ("kontra_announced", "re"): 2,
        ("no_90_announced", "re"): 1,
        ("no_60_announced", "re"): 1,
    }


def test_pagat_schwarz():
    s = score(PAGAT, "normal", 240, 12, "re", None)
    assert s.value == 1 + 3 + 1 + 2


def test_pagat_nobody_wins_scores_extras_only():
    s = score(PAGAT, "normal", 125, 6, "no_90", "no_90", {"re": {"doppelkopf": 1}})
    assert s.winner is None
    assert lines(s) == {("doppelkopf", "re"): 1}


def test_pagat_karlchen_win_or_catch():
    s = score(PAGAT, "normal", 130, 7, extras={"re": {"karlchen": 1, "karlchen_caught": 1}})
    assert s.value == 3
    seed_variant = PAGAT.with_options(karlchen="win")
    assert score(seed_variant, "normal", 130, 7, extras={"re": {"karlchen": 1, "karlchen_caught": 1}}).value == 2


def test_pagat_solo_triples_for_the_soloist():
    s = score(PAGAT, "solo_clubs", 110, 5)
    assert s.scores == {"re": -3, "kontra": 1}


def test_against_the_old_ones_in_poverty_and_wedding_but_not_wedding_solo():
    for game in ("wedding", "poverty"):
        assert ("against_the_old_ones", "kontra") in lines(score(PAGAT, game, 100, 5))
    assert ("against_the_old_ones", "kontra") not in lines(score(PAGAT, "wedding_solo", 100, 5))


@pytest.mark.parametrize(
    "re_points,re_tricks,extras",
    [
        (0, 12, {}),
        (240, 0, {}),
        (10, 0, {}),
        (150, 12, {}),
        (130, 7, {"re": {"fox": 2}, "kontra": {"fox": 1}}),
        (130, 7, {"re": {"karlchen": 1}, "kontra": {"karlchen": 1}}),
        (240, 12, {"kontra": {"fox": 1}}),
        (60, 3, {"re": {"doppelkopf": 2}}),
        (130, 2, {"re": {"doppelkopf": 3}}),
    ],
)
def test_impossible_summaries_are_refused(re_points, re_tricks, extras):
    with pytest.raises(RulesError):
        check_summary(DDV, "normal", re_points, re_tricks, extras)


def test_possible_edge_summaries_pass():
    check_summary(DDV, "normal", 0, 2, {})  # two tricks of four nines
    check_summary(DDV, "normal", 240, 10, {})
    check_summary(DDV, "normal", 240, 12, {"re": {"fox": 2, "doppelkopf": 5, "karlchen": 1}})
    check_summary(DDV, "solo_aces", 130, 7, {"re": {"fox": 2}, "kontra": {"fox": 2}})  # ignored in a solo
    with pytest.raises(RulesError):
        check_summary(DDV.with_options(deck=40), "normal", 0, 1, {})  # no nines: no empty trick


@pytest.mark.parametrize("rules", [DDV, DDV.with_options(deck=40)])
def test_default_tricks_fit_every_point_count(rules):
    from tutor.rules.scoring import default_re_tricks

    impossible = 0
    for re_points in range(241):
        tricks = default_re_tricks(rules, re_points)
        try:
            check_summary(rules, "normal", re_points, tricks, {})
        except RulesError:
            impossible += 1  # with no nines, no trick is worth less than 8 (four jacks)
            assert rules.deck == 40 and (re_points < 8 or re_points > 232)
            continue
        assert (tricks == 0) == (re_points == 0)
        assert (tricks == rules.tricks) == (re_points == 240)


# --- What the rules can score, and the summary's schwarz and tricks ------------------------

import itertools  # noqa: E402

from tutor.rules import scoring as scoring_module  # noqa: E402
from tutor.rules.cards import DECK_POINTS  # noqa: E402

GRID_POINTS = (0, 29, 30, 59, 60, 89, 90, 119, 120, 121, 150, 151, 180, 181, 210, 211, 240)
GRID_SAID = (None, "re", "no_90", "no_60", "no_30", "schwarz")
ALL_EXTRAS = {party: dict.fromkeys(scoring_module.EXTRAS, 1) for party in ("re", "kontra")}


def lines_found_by_scoring(rules):
    """Every line that scoring a grid of deals produces (each pair of announcements, points
    on both sides of every threshold, no trick, some, all), with its smallest value and
    whether a solo produced it."""
    seen, in_solo = {}, set()
    tricks = rules.tricks
    for game, re_points, re_said, kontra_said in itertools.product(
        ("normal", "solo_queens"), GRID_POINTS, GRID_SAID, GRID_SAID
    ):
        kontra = "kontra" if kontra_said == "re" else kontra_said
        for re_tricks in {0 if re_points == 0 else 1, tricks // 2, tricks if re_points == DECK_POINTS else tricks - 1}:
            for line in score(rules, game, re_points, re_tricks, re_said, kontra, ALL_EXTRAS).lines:
                seen[line.id] = min(seen.get(line.id, line.points), line.points)
                if game == "solo_queens":
                    in_solo.add(line.id)
    return {(line_id, points, line_id in in_solo) for line_id, points in seen.items()}


@pytest.mark.parametrize("rules", [
    DDV, PAGAT, DDV.with_options(karlchen="win_or_catch"), PAGAT.with_options(karlchen="win", deck=40),
])
def test_scored_lines_are_the_lines_scoring_produces(rules):
    listed = scoring_module.scored_lines(rules)
    assert {(line.id, line.points, line.in_solo) for line in listed} == lines_found_by_scoring(rules)
    order = list(scoring_module.LINE_IDS)
    assert [order.index(line.id) for line in listed] == sorted(order.index(line.id) for line in listed)


def test_reached_lines_are_ddvs_and_failed_announcements_pagats():
    ddv = {line.id for line in scoring_module.scored_lines(DDV)}
    pagat = {line.id for line in scoring_module.scored_lines(PAGAT)}
    assert "reached_120_against_no_90" in ddv - pagat
    assert "failed_announcement" in pagat - ddv
    assert "karlchen_caught" in pagat - ddv  # pagat counts Karlchen caught by default


def test_schwarz_means_all_points_and_tricks_or_none():
    assert scoring_module.schwarz_summary(DDV, "re") == (DECK_POINTS, 12)
    assert scoring_module.schwarz_summary(DDV.with_options(deck=40), "re") == (DECK_POINTS, 10)
    assert scoring_module.schwarz_summary(DDV, "kontra") == (0, 0)
    assert [scoring_module.schwarz_party(DDV, t) for t in (0, 6, 12)] == ["kontra", None, "re"]


@pytest.mark.parametrize("re_points", [1, 30, 119, 120, 121, 200, 239])
def test_fitting_tricks_leave_both_parties_a_trick_and_fit_the_points(re_points):
    rules = DDV
    try:
        tricks = scoring_module.fitting_re_tricks(rules, "normal", re_points, {})
    except RulesError as error:
        assert error.code == "points_need_schwarz"
        return
    assert 1 <= tricks < rules.tricks
    check_summary(rules, "normal", re_points, tricks, {})


def test_points_no_trick_count_fits_are_said_to_need_schwarz():
    # 239 leaves Kontra 1 card point, which no trick of the 40-card deck holds (the fewest is 8).
    with pytest.raises(RulesError) as error:
        scoring_module.fitting_re_tricks(DDV.with_options(deck=40), "normal", 239, {})
    assert error.value.code == "points_need_schwarz"


def test_a_deal_summary_scores_as_score_does():
    summary = scoring_module.DealSummary("normal", 156, 8, extras={"re": {"fox": 1}})
    assert summary.score(DDV) == score(DDV, "normal", 156, 8, extras={"re": {"fox": 1}})


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["ddv", "pagat"]), st.sampled_from(["win", "win_or_catch"]), st.sampled_from([48, 40]),
       st.sampled_from(GAMES), st.integers(0, 240), st.integers(0, 12),
       st.sampled_from([None, "re", "no_90", "no_60", "no_30", "schwarz"]),
       st.sampled_from([None, "kontra", "no_90", "no_60", "no_30", "schwarz"]),
       st.dictionaries(st.sampled_from(["re", "kontra"]),
                       st.dictionaries(st.sampled_from(["fox", "doppelkopf", "karlchen", "karlchen_caught"]),
                                       st.integers(0, 2))))
def test_sheet_scores_are_the_scores_of_the_score(ruleset, karlchen, size, game, re_points, re_tricks, re_said,
                                                  kontra_said, extras):
    """The analysis's quick figures (the game's lines kept per summary) are the full
    score's, whatever the summary."""
    rules = RuleSet.named(ruleset).with_options(karlchen=karlchen, deck=size)
    re_tricks = min(re_tricks, rules.tricks)
    full = score(rules, game, re_points, re_tricks, re_said, kontra_said, extras)
    quick = sheet_scores(rules, game, re_points, re_tricks, re_said, kontra_said, extras)
    assert quick == (full.scores["re"], full.scores["kontra"])
