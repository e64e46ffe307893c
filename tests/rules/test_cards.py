"""RULES.md §1: cards, ids, points and the two decks."""
import pytest

from tutor.rules.cards import ALL_CARDS, POINTS, card_id, card_points, deck, parse_card, rank_of, suit_of


def test_every_id_round_trips():
    assert [card_id(parse_card(card_id(c))) for c in ALL_CARDS] == [card_id(c) for c in ALL_CARDS]
    assert len({card_id(c) for c in ALL_CARDS}) == 24


@pytest.mark.parametrize("text", ["qc", "1H", "10", "", "QX", "11C", " QC", None, 12])
def test_parse_card_refuses_anything_but_uppercase_ids(text):
    with pytest.raises(ValueError):
        parse_card(text)


def test_card_points_ace_ten_king_queen_jack_nine():
    assert [card_points(r + "S") for r in ("A", "10", "K", "Q", "J", "9")] == [11, 10, 4, 3, 2, 0]


@pytest.mark.parametrize("size,nines", [(48, 8), (40, 0)])
def test_each_deck_holds_every_card_twice_and_240_points(size, nines):
    cards = deck(size)
    assert len(cards) == size
    assert sum(POINTS[c] for c in cards) == 240
    assert sum(rank_of(c) == "9" for c in cards) == nines
    assert all(cards.count(c) == 2 for c in set(cards))


def test_suits_rank_clubs_spades_hearts_diamonds():
    assert [suit_of(parse_card("A" + s)) for s in "CSHD"] == list("CSHD")
    assert parse_card("AC") < parse_card("AS") < parse_card("AH") < parse_card("AD")
