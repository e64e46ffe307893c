"""RULES.md §6 and §10: deadlines, replies, skipping levels, wedding and 40-card shifts."""
import pytest

from tutor.rules.announcements import deadline, may_announce, reply_deadline
from tutor.rules.errors import RulesError
from tutor.rules.rulesets import RuleSet

DDV = RuleSet.named("ddv")
PAGAT = RuleSet.named("pagat")
ALL_RE = ["re", "no_90", "no_60", "no_30", "schwarz"]
LIMITS = ["no_90", "no_60", "no_30", "schwarz"]


def allowed(rules, cards, own=None, opponent=None, party="re", wedding=None, game="normal"):
    return may_announce(rules, game, party, cards, own, opponent, wedding)


@pytest.mark.parametrize("rules", [DDV, PAGAT])
def test_deadlines_by_cards_in_hand(rules):
    assert [deadline(level, rules) for level in range(5)] == [11, 10, 9, 8, 7]


@pytest.mark.parametrize("rules", [DDV, PAGAT])
@pytest.mark.parametrize("cards", [12, 11])
def test_with_eleven_cards_or_more_everything_is_open(rules, cards):
    assert allowed(rules, cards) == ALL_RE


def test_ddv_with_ten_cards_and_nothing_said_re_rides_along_with_no_90():
    assert allowed(DDV, 10) == LIMITS


def test_pagat_with_ten_cards_and_nothing_said_allows_nothing():
    assert allowed(PAGAT, 10) == []


@pytest.mark.parametrize("rules", [DDV, PAGAT])
def test_kontra_may_reply_with_ten_cards_after_re(rules):
    # API.md's example: "kontra" and every limit in time by its own deadline.
    assert allowed(rules, 10, opponent="re", party="kontra") == ["kontra", *LIMITS]


@pytest.mark.parametrize("rules", [DDV, PAGAT])
def test_no_60_with_nine_cards_after_re_is_too_late_since_no_90_was_due_at_ten(rules):
    assert "no_60" not in allowed(rules, 9, own="re")
    assert allowed(rules, 9, own="re") == []


@pytest.mark.parametrize("rules", [DDV, PAGAT])
def test_after_no_90_the_next_levels_keep_their_own_deadlines(rules):
    assert allowed(rules, 9, own="no_90") == ["no_60", "no_30", "schwarz"]
    assert allowed(rules, 8, own="no_60") == ["no_30", "schwarz"]
    assert allowed(rules, 7, own="no_30") == ["schwarz"]
    assert allowed(rules, 6, own="no_30") == []
    assert allowed(rules, 12, own="schwarz") == []


def test_ddv_reply_window_is_ten_cards_whatever_the_other_party_reached():
    for opponent in ["re", "no_90", "no_60", "no_30", "schwarz"]:
        assert reply_deadline({"re": 0, "no_90": 1, "no_60": 2, "no_30": 3, "schwarz": 4}[opponent], DDV) == 10
        assert allowed(DDV, 10, opponent=opponent, party="kontra")[0] == "kontra"
        assert allowed(DDV, 9, opponent=opponent, party="kontra") == []


@pytest.mark.parametrize(
    "opponent,cards", [("re", 10), ("no_90", 9), ("no_60", 8), ("no_30", 7), ("schwarz", 6)]
)
def test_pagat_reply_is_one_card_fewer_than_the_answered_announcement(opponent, cards):
    assert allowed(PAGAT, cards, opponent=opponent, party="kontra")[0] == "kontra"
    assert allowed(PAGAT, cards - 1, opponent=opponent, party="kontra") == []
    assert allowed(DDV, cards - 1, opponent=opponent, party="kontra") == []


def test_reply_window_opens_level_0_only():
    # Against "no 90" under pagat Kontra may say "Kontra" with 9 cards, but no 90 was due at 10.
    assert allowed(PAGAT, 9, opponent="no_90", party="kontra") == ["kontra"]


def test_a_wedding_before_its_clarification_trick_allows_nothing():
    for rules in (DDV, PAGAT):
        assert allowed(rules, 12, wedding=0, game="wedding") == []


@pytest.mark.parametrize("trick,shift_ddv,shift_pagat", [(1, 0, 1), (2, 1, 2), (3, 2, 3)])
def test_wedding_moves_deadlines_later(trick, shift_ddv, shift_pagat):
    assert [deadline(level, DDV, trick) for level in range(5)] == [11 - shift_ddv - level for level in range(5)]
    assert [deadline(level, PAGAT, trick) for level in range(5)] == [11 - shift_pagat - level for level in range(5)]


def test_ddv_wedding_clarified_in_trick_two_re_with_ten_schwarz_with_six():
    assert allowed(DDV, 10, wedding=2, game="wedding") == ALL_RE
    assert allowed(DDV, 6, own="no_30", wedding=2, game="wedding") == ["schwarz"]
    assert allowed(DDV, 5, own="no_30", wedding=2, game="wedding") == []


def test_pagat_wedding_clarified_in_trick_two_re_with_nine():
    assert allowed(PAGAT, 9, wedding=2, game="wedding") == ALL_RE
    assert allowed(PAGAT, 8, wedding=2, game="wedding") == []


def test_forty_card_deck_moves_every_deadline_two_cards():
    rules = DDV.with_options(deck=40)
    assert [deadline(level, rules) for level in range(5)] == [9, 8, 7, 6, 5]
    assert allowed(rules, 9) == ALL_RE
    assert allowed(rules, 8) == LIMITS
    assert allowed(rules, 5, own="no_30") == ["schwarz"]


def test_forty_card_deck_adds_to_the_wedding_shift():
    assert deadline(0, DDV.with_options(deck=40), 3) == 7
    assert deadline(0, PAGAT.with_options(deck=40), 3) == 6


def test_an_announcement_of_the_wrong_party_is_refused():
    with pytest.raises(RulesError):
        allowed(DDV, 10, own="kontra", party="re")
    with pytest.raises(RulesError):
        allowed(DDV, 10, opponent="re", party="re")


def test_a_wedding_solo_was_clarified_in_the_last_clarification_trick():
    from tutor.rules.announcements import DEADLINE_COLUMNS, wedding_clarification

    assert wedding_clarification("wedding_solo", None) == 3
    assert wedding_clarification("wedding_solo", 2) == 2
    assert wedding_clarification("wedding", 0) == 0
    assert wedding_clarification("normal", None) is None
    assert DEADLINE_COLUMNS == (None, 1, 2, 3)


@pytest.mark.parametrize(
    ("game", "given", "code"), [("wedding", None, "missing_field"), ("solo_queens", 1, "wedding_only")]
)
def test_only_a_wedding_has_a_clarification_trick(game, given, code):
    from tutor.rules.announcements import wedding_clarification

    with pytest.raises(RulesError) as error:
        wedding_clarification(game, given)
    assert error.value.code == code
