"""RULES.md §5: reservations, their priority and who leads; §4 and §10: poverty."""
import pytest

from tutor.rules.cards import parse_card
from tutor.rules.errors import RulesError
from tutor.rules.reservations import HEALTHY, Reservation, check_poverty_pass, decide, may_declare_poverty
from tutor.rules.rulesets import RuleSet

DDV = RuleSet.named("ddv")
PAGAT = RuleSet.named("pagat")
WEDDING = Reservation("wedding")
POVERTY = Reservation("poverty")
SOLO = Reservation("solo", "solo_jacks")
COMPULSORY = Reservation("solo", "solo_queens", compulsory=True)


def cards(ids):
    return [parse_card(i) for i in ids.split()]


def test_everyone_healthy_is_a_normal_game_led_by_the_dealers_left():
    d = decide(DDV, 3, [HEALTHY] * 4)
    assert (d.game, d.declarer, d.leader, d.same_dealer_again) == ("normal", None, 0, False)


def test_ddv_compulsory_solo_beats_an_earlier_voluntary_solo_and_the_soloist_leads():
    d = decide(DDV, 0, [HEALTHY, SOLO, HEALTHY, COMPULSORY])
    assert (d.game, d.declarer, d.leader, d.same_dealer_again) == ("solo_queens", 3, 3, True)


def test_ddv_voluntary_solo_is_led_by_the_dealers_left():
    d = decide(DDV, 0, [HEALTHY, WEDDING, SOLO.__class__("solo", "solo_aces"), HEALTHY])
    assert (d.game, d.declarer, d.leader, d.same_dealer_again) == ("solo_aces", 2, 1, False)


def test_equal_reservations_go_to_the_earlier_in_turn():
    # Dealer 1: asked in turn 2, 3, 0, 1; seat 3 comes before seat 0.
    d = decide(DDV, 1, [Reservation("solo", "solo_clubs"), HEALTHY, HEALTHY, SOLO])
    assert d.declarer == 3


def test_pagat_solo_beats_poverty_beats_wedding():
    assert decide(PAGAT, 0, [WEDDING, POVERTY, HEALTHY, HEALTHY]).game == "poverty"
    assert decide(PAGAT, 0, [SOLO, POVERTY, WEDDING, HEALTHY]).game == "solo_jacks"


def test_pagat_has_no_compulsory_solo_and_the_dealers_left_always_leads():
    d = decide(PAGAT, 0, [HEALTHY, SOLO, HEALTHY, COMPULSORY])
    assert (d.declarer, d.leader, d.same_dealer_again) == (1, 1, False)


def test_pagat_house_option_the_soloist_leads():
    d = decide(PAGAT.with_options(solo_lead="soloist"), 0, [HEALTHY, HEALTHY, SOLO, HEALTHY])
    assert d.leader == 2


def test_poverty_needs_its_option_under_ddv():
    with pytest.raises(RulesError):
        decide(DDV, 0, [POVERTY, HEALTHY, HEALTHY, HEALTHY])
    assert decide(DDV.with_options(poverty=True), 0, [POVERTY, WEDDING, HEALTHY, HEALTHY]).game == "poverty"


def test_poverty_counts_every_normal_trump_including_the_fox():
    assert may_declare_poverty(cards("AD 10D QC AC AC 10C KC AS AS 10S KS AH"))
    assert not may_declare_poverty(cards("AD 10D QC JD AC 10C KC AS AS 10S KS AH"))


def test_the_poor_player_passes_three_cards_with_all_his_trumps():
    hand = cards("AD 10D AC AC 10C KC AS AS 10S KS AH KH")
    check_poverty_pass(hand, cards("AD 10D KH"))
    with pytest.raises(RulesError):
        check_poverty_pass(hand, cards("AD AC KH"))  # keeps the 10♦
    with pytest.raises(RulesError):
        check_poverty_pass(hand, cards("AD 10D"))


def test_poverty_partner_is_the_first_to_the_left_who_accepts():
    from tutor.rules.reservations import poverty_acceptor

    assert poverty_acceptor(2, [True, False, True, True]) == 3
    assert poverty_acceptor(2, [True, False, True, False]) == 0
    assert poverty_acceptor(1, [False, True, False, False]) is None  # the same dealer deals again


def test_poverty_exchange_keeps_twelve_cards_each():
    from tutor.rules.reservations import exchange_poverty, poverty_trumps

    poor = cards("AD 10D AC AC 10C KC AS AS 10S KS AH KH")
    rich = cards("QC QC QS QH JC JS JD 10H KD 9D 9C 9S")
    new_poor, new_rich = exchange_poverty(poor, rich, cards("AD 10D KH"), cards("9C 9S KH"))
    assert len(new_poor) == len(new_rich) == 12
    assert poverty_trumps(new_poor) == []
    assert sorted(new_poor + new_rich) == sorted(poor + rich)
    with pytest.raises(RulesError):
        exchange_poverty(poor, rich, cards("AD 10D KH"), cards("AH AH AH"))


def test_reservation_order_per_rule_set():
    from tutor.rules.reservations import reservation_order

    def summary(rules):
        return [(r.kind, r.compulsory, d.leader == 2, d.same_dealer_again) for r, d in reservation_order(rules)]

    assert summary(DDV) == [("solo", True, True, True), ("solo", False, False, False), ("wedding", False, False, False)]
    assert summary(DDV.with_options(poverty=True))[2][0] == "poverty"
    assert summary(PAGAT) == [
        ("solo", False, False, False), ("poverty", False, False, False), ("wedding", False, False, False)
    ]
    assert summary(PAGAT.with_options(solo_lead="soloist"))[0] == ("solo", False, True, False)
