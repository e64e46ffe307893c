"""RULES.md §2 and §3: trumps of every game kind, trick winners, following suit."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.rules.errors import RulesError
from tutor.rules.games import (
    GAMES,
    check_game,
    game_table,
    is_trump,
    legal_cards,
    plain_suits,
    trick_winner,
    trump_order,
)
from tutor.rules.rulesets import RuleSet

DDV = RuleSet.named("ddv")
PAGAT = RuleSet.named("pagat")
NORMAL_TRUMPS = "10H QC QS QH QD JC JS JH JD AD 10D KD 9D".split()


@pytest.mark.parametrize("game", ["normal", "wedding", "poverty", "silent_wedding", "wedding_solo", "solo_diamonds"])
def test_normal_trump_order_has_26_cards(game):
    assert trump_order(game, PAGAT) == NORMAL_TRUMPS


def test_normal_plain_suits():
    assert plain_suits("normal", DDV) == {
        "C": ["AC", "10C", "KC", "9C"],
        "S": ["AS", "10S", "KS", "9S"],
        "H": ["AH", "KH", "9H"],
    }


@pytest.mark.parametrize(
    "game,tail",
    [("solo_clubs", "AC 10C KC 9C"), ("solo_spades", "AS 10S KS 9S"), ("solo_hearts", "AH KH 9H")],
)
def test_suit_solo_trumps_are_dullen_queens_jacks_then_the_suit(game, tail):
    assert trump_order(game, DDV) == "10H QC QS QH QD JC JS JH JD".split() + tail.split()


def test_hearts_solo_has_24_trumps_and_diamonds_become_plain():
    trumps = trump_order("solo_hearts", DDV)
    assert len(trumps) * 2 == 24
    assert plain_suits("solo_hearts", DDV)["D"] == ["AD", "10D", "KD", "9D"]


def test_queens_solo_makes_the_dulle_a_plain_heart():
    assert trump_order("solo_queens", DDV) == ["QC", "QS", "QH", "QD"]
    assert plain_suits("solo_queens", DDV)["H"] == ["AH", "10H", "KH", "JH", "9H"]


def test_jacks_solo_queens_rank_between_king_and_nine():
    assert trump_order("solo_jacks", DDV) == ["JC", "JS", "JH", "JD"]
    assert plain_suits("solo_jacks", DDV)["C"] == ["AC", "10C", "KC", "QC", "9C"]


def test_aces_solo_has_no_trumps():
    assert trump_order("solo_aces", DDV) == []
    assert plain_suits("solo_aces", DDV)["D"] == ["AD", "10D", "KD", "QD", "JD", "9D"]


def test_api_example_trick():
    assert trick_winner(["9D", "QC", "10H", "AD"], "normal", DDV) == 2


def test_first_of_two_equal_cards_wins():
    assert trick_winner(["QC", "QC", "9D", "9D"], "normal", DDV) == 0
    assert trick_winner(["AS", "AS", "9S", "KS"], "normal", DDV) == 0


def test_second_dulle_loses_to_first_under_ddv_and_pagat():
    for rules in (DDV, PAGAT):
        assert trick_winner(["10H", "10H"], "normal", rules) == 0


def test_second_dulle_wins_with_house_option():
    rules = DDV.with_options(dullen="second_wins")
    assert trick_winner(["10H", "QC", "10H", "9D"], "normal", rules) == 2
    assert trick_winner(["10H", "QC", "10H", "9D"], "normal", rules, last_trick=True) == 2


def test_second_dulle_wins_except_in_the_last_trick():
    rules = DDV.with_options(dullen="second_wins_except_last")
    assert trick_winner(["10H", "10H"], "normal", rules) == 1
    assert trick_winner(["10H", "10H"], "normal", rules, last_trick=True) == 0


def test_dullen_option_does_not_matter_where_the_ten_of_hearts_is_plain():
    rules = DDV.with_options(dullen="second_wins")
    assert trick_winner(["10H", "10H"], "solo_queens", rules) == 0


def test_second_dulle_wins_in_a_suit_solo_with_the_option():
    rules = PAGAT.with_options(dullen="second_wins")
    assert trick_winner(["10H", "10H", "QC", "AC"], "solo_clubs", rules) == 1


def test_schweinchen_rank_above_the_dullen():
    rules = DDV.with_options(schweinchen=True)
    assert trump_order("normal", rules)[:2] == ["AD", "10H"]
    assert trick_winner(["10H", "AD", "QC", "10H"], "normal", rules) == 1
    assert trick_winner(["AD", "AD"], "normal", rules) == 0


@pytest.mark.parametrize("game", ["solo_diamonds", "silent_wedding", "wedding_solo", "solo_clubs"])
def test_schweinchen_only_in_normal_type_games(game):
    rules = DDV.with_options(schweinchen=True)
    assert trick_winner(["10H", "AD"], game, rules) == 0


def test_without_trump_the_highest_card_of_the_led_suit_wins():
    assert trick_winner(["KS", "AC", "10S", "9S"], "normal", DDV) == 2


def test_any_trump_beats_the_led_plain_suit():
    assert trick_winner(["AS", "10S", "9D", "KS"], "normal", DDV) == 2


def test_lowest_trump_loses_to_higher_trump():
    assert trick_winner(["9D", "JD", "KD", "10D"], "normal", DDV) == 1


def test_legal_cards_api_example():
    assert legal_cards(["AS", "9S", "QS", "KH"], ["10S"], "normal", DDV) == ["AS", "9S"]


def test_a_trump_belongs_to_no_suit():
    # Leading spades does not oblige the Q♠: it is a trump.
    assert legal_cards(["QS", "KH"], ["AS"], "normal", DDV) == ["QS", "KH"]
    assert is_trump("QS", "normal", DDV)


def test_must_play_trump_on_a_trump_lead():
    assert legal_cards(["AH", "KH", "9D", "JS"], ["QC"], "normal", DDV) == ["9D", "JS"]


def test_hearts_ace_follows_the_led_heart_but_the_dulle_is_trump():
    assert legal_cards(["10H", "AH", "AS"], ["KH"], "normal", DDV) == ["AH"]


def test_no_obligation_to_trump_or_overtrump():
    assert legal_cards(["QC", "AC", "9D"], ["AS"], "normal", DDV) == ["QC", "AC", "9D"]


def test_leader_may_play_anything_and_duplicates_are_listed_once():
    assert legal_cards(["AC", "AC", "9D"], [], "normal", DDV) == ["AC", "9D"]


def test_diamonds_are_a_plain_suit_in_a_clubs_solo():
    assert legal_cards(["AD", "AC", "KD"], ["10D"], "solo_clubs", DDV) == ["AD", "KD"]


def test_jack_follows_clubs_in_a_queens_solo():
    assert legal_cards(["JC", "QC", "AH"], ["AC"], "solo_queens", DDV) == ["JC"]


def test_every_game_is_known_and_poverty_needs_its_option():
    for game in GAMES:
        if game != "poverty":
            assert check_game(game, DDV) == game
    assert check_game("poverty", PAGAT) == "poverty"
    assert check_game("poverty", DDV.with_options(poverty=True)) == "poverty"
    with pytest.raises(RulesError):
        check_game("poverty", DDV)
    with pytest.raises(RulesError):
        check_game("skat", DDV)


def test_forty_card_deck_has_no_nines_in_the_orders():
    rules = DDV.with_options(deck=40)
    assert trump_order("normal", rules)[-1] == "KD"
    assert plain_suits("normal", rules)["H"] == ["AH", "KH"]


def test_poverty_is_played_only_with_its_option():
    from tutor.rules.games import played_games

    assert "poverty" not in played_games(DDV)
    assert played_games(PAGAT) == list(GAMES)
    assert played_games(DDV.with_options(poverty=True)) == list(GAMES)


@settings(max_examples=200)
@given(st.sampled_from(GAMES), st.sampled_from(["first_wins", "second_wins", "second_wins_except_last"]),
       st.booleans(), st.lists(st.integers(0, 23), min_size=2, max_size=4), st.booleans())
def test_beats_is_what_the_winner_says(game, dullen, schweinchen, cards, last):
    """The quick comparison the computer players use agrees with the trick winner."""
    table = game_table(game, RuleSet.named("ddv").with_options(dullen=dullen, schweinchen=schweinchen))
    trick, card = cards[:-1], cards[-1]
    best = trick[table.winner(trick, last)]
    assert table.beats(card, best, last) == (table.winner([*trick, card], last) == len(trick))
