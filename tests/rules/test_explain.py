"""The engine's reasons name the rule that made its answer, and never disagree with it."""
from __future__ import annotations

import random

import pytest

from tutor.rules.announcements import NONE, may_announce
from tutor.rules.cards import card_id
from tutor.rules.deals import random_deal
from tutor.rules.explain import (
    Need,
    announcement_reasons,
    compare_reason,
    legal_reason,
    needs,
    needs_reason,
    party_reason,
    poverty_parties,
    reservation_reasons,
    trick_reason,
    trump_reason,
)
from tutor.rules.games import legal_cards, trick_winner
from tutor.rules.reservations import HEALTHY, Reservation
from tutor.rules.rulesets import RuleSet

DDV, PAGAT = RuleSet.named("ddv"), RuleSet.named("pagat")


def test_first_of_two_equal_cards_wins_under_ddv():
    reason = trick_reason(["10H", "QC", "10H", "9D"], "normal", DDV)
    assert reason.code == "first_of_equal" and reason.params["winner"] == 0


def test_second_dulle_wins_with_the_house_option_and_says_so():
    rules = DDV.with_options(dullen="second_wins")
    reason = trick_reason(["10H", "QC", "10H", "9D"], "normal", rules)
    assert reason.code == "second_dulle" and reason.params["winner"] == 2


def test_second_dulle_loses_in_the_last_trick_under_seed_001s_variant():
    rules = PAGAT.with_options(dullen="second_wins_except_last")
    reason = trick_reason(["10H", "QC", "10H", "9D"], "normal", rules, last_trick=True)
    assert reason.code == "first_dulle_in_last_trick" and reason.params["winner"] == 0


def test_a_trump_on_a_plain_lead_wins_and_is_named():
    reason = trick_reason(["AS", "10S", "9D", "KS"], "normal", DDV)
    assert reason.code == "trump_on_plain" and reason.params == {"card": "9D", "winner": 2, "suit": "S", "trumps": 1}
    two = trick_reason(["AS", "JD", "9D", "KS"], "normal", DDV)
    assert two.code == "trump_on_plain" and two.params["trumps"] == 2 and two.params["card"] == "JD"


def test_a_trick_says_how_many_trumps_it_holds_and_whether_the_game_has_any():
    led = trick_reason(["9D", "AS", "KH", "9C"], "normal", DDV)
    assert led.code == "highest_trump" and led.params["trumps"] == 1
    assert trick_reason(["KC", "9C", "AC"], "normal", DDV).params["trumpless"] is False
    aces = trick_reason(["KC", "AH", "9C"], "solo_aces", DDV)
    assert aces.code == "off_suit_cannot_win" and aces.params["trumpless"] is True
    assert trick_reason(["KC", "AC"], "solo_aces", DDV).params == {
        "card": "AC", "winner": 1, "suit": "C", "trumpless": True}


def test_a_discard_cannot_win():
    reason = trick_reason(["KC", "AH", "9C"], "normal", DDV)
    assert reason.code == "off_suit_cannot_win" and reason.params["discards"] == ["AH"]


def test_declared_schweinchen_beat_the_dullen():
    rules = DDV.with_options(schweinchen=True)
    assert trick_reason(["10H", "AD"], "normal", rules).code == "schweinchen"


def test_the_queen_of_spades_does_not_follow_a_spade_lead():
    legal, reason = legal_reason(["QS", "9S", "KH"], ["AS"], "normal", DDV)
    assert legal == ["9S"] and reason.code == "must_follow_suit" and reason.params["trumps_of_suit"] == ["QS"]


def test_void_in_the_led_suit_may_play_anything():
    legal, reason = legal_reason(["QS", "KH"], ["AC"], "normal", DDV)
    assert legal == ["QS", "KH"] and reason.code == "void_any_card"


def test_compare_and_trump_reasons_in_a_hearts_solo():
    win, reason = compare_reason("AS", "KD", "solo_hearts", DDV)
    assert win == 0 and reason.code == "led_suit_wins"
    assert compare_reason("KD", "AH", "solo_hearts", DDV)[1].code == "trump_beats_plain"
    assert trump_reason("KD", "solo_hearts", DDV) == (False, trump_reason("KD", "solo_hearts", DDV)[1])
    assert trump_reason("KD", "solo_hearts", DDV)[1].code == "plain_card"
    assert trump_reason("QS", "solo_aces", DDV)[1].code == "no_trumps"
    win, reason = compare_reason("JD", "QD", "normal", DDV)
    assert win == 1 and reason.code == "higher_trump" and reason.params["rank"] < reason.params["other_rank"]


def test_reasons_agree_with_the_engine_over_random_deals():
    rng = random.Random(4)
    for rules in (DDV, PAGAT, DDV.with_options(dullen="second_wins", deck=40)):
        for _ in range(150):
            deal = random_deal(rng, rules)
            game = "wedding" if deal.game == "wedding_solo" else deal.game
            for t, trick in enumerate(deal.tricks):
                cards = [card_id(c) for c in trick]
                last = t == len(deal.tricks) - 1
                reason = trick_reason(cards, game, rules, last)
                assert reason.params["winner"] == trick_winner(cards, game, rules, last)
                assert cards[reason.params["winner"]] == reason.params["card"]
                if reason.code == "first_of_equal":
                    assert cards.count(reason.params["card"]) == 2
                hand = [card_id(c) for c in deal.hands[deal.seat_of(t, 1)]]
                legal, _ = legal_reason(hand, cards[:1], game, rules)
                assert legal == legal_cards(hand, cards[:1], game, rules)


def test_ddv_lets_re_ride_along_with_no_90_at_ten_cards_and_pagat_does_not():
    rows = dict((aid, (ok, reason)) for aid, ok, reason in announcement_reasons(DDV, "re", 10, None, None))
    assert rows["re"][0] is False and rows["re"][1].code == "too_late"
    assert rows["no_90"][0] is True and rows["no_90"][1].code == "rides_along"
    rows = dict((aid, (ok, reason)) for aid, ok, reason in announcement_reasons(PAGAT, "re", 10, None, None))
    assert not any(ok for ok, _ in rows.values())


def test_kontra_may_still_reply_with_ten_cards():
    rows = dict((aid, (ok, reason)) for aid, ok, reason in announcement_reasons(DDV, "kontra", 10, None, "re"))
    assert rows["kontra"][0] and rows["kontra"][1].code == "reply_in_time" and rows["kontra"][1].params["needed"] == 10


def test_a_skipped_no_90_blocks_no_60_at_nine_cards():
    for rules in (DDV, PAGAT):
        rows = dict((aid, (ok, reason)) for aid, ok, reason in announcement_reasons(rules, "re", 9, "re", None))
        assert not rows["no_60"][0] and rows["no_60"][1].code == "skipped_level_too_late"
        assert rows["no_60"][1].params["missed"] == 1


def test_nobody_announces_before_the_wedding_is_clarified():
    rows = announcement_reasons(DDV, "re", 12, None, None, 0)
    assert all(not ok and reason.code == "wedding_unclarified" for _aid, ok, reason in rows)


@pytest.mark.parametrize("rules", [DDV, PAGAT, DDV.with_options(deck=40)])
@pytest.mark.parametrize("wedding", [None, 1, 2, 3])
def test_announcement_reasons_agree_with_may_announce(rules, wedding):
    ids = (None, "re", "no_90", "no_60", "no_30", "schwarz")
    for party in ("re", "kontra"):
        for cards in range(rules.tricks + 1):
            for own in ids:
                own = party if own == "re" else own
                for opponent in ids:
                    opponent = ("kontra" if party == "re" else "re") if opponent == "re" else opponent
                    rows = announcement_reasons(rules, party, cards, own, opponent, wedding)
                    allowed = [aid for aid, ok, _reason in rows if ok]
                    assert allowed == may_announce(rules, "normal", party, cards, own, opponent, wedding)
                    for _aid, ok, reason in rows:
                        assert ok == (reason.code in ("in_time", "reply_in_time", "rides_along"))


def test_what_each_party_needs_follows_rules_md_section_7():
    assert needs("re", NONE, NONE, 12) == Need(121, None, False)
    assert needs("kontra", NONE, NONE, 12) == Need(120, None, False)
    assert needs("re", NONE, 0, 12).points == 120 and needs("kontra", NONE, 0, 12).points == 121
    assert needs("re", 1, NONE, 12).points == 151 and needs("kontra", 1, NONE, 12).points == 90
    assert needs("re", 3, NONE, 12).points == 211 and needs("kontra", 3, NONE, 12).points == 30
    assert needs("re", 4, NONE, 12).tricks == "all" and needs("kontra", 4, NONE, 12).tricks == "one"
    assert needs("re", 1, 1, 12).nobody_possible
    assert needs_reason("re", NONE, 0).code == "kontra_alone_moves_line"
    assert needs_reason("kontra", 2, NONE).code == "opponent_misses"


def test_reservation_reasons_name_priority_and_leader():
    said = [HEALTHY, Reservation("wedding"), Reservation("solo", "solo_queens"), HEALTHY]
    decision, reasons = reservation_reasons(DDV, 0, said)
    assert (decision.game, decision.declarer, decision.leader) == ("solo_queens", 2, 1)
    assert [r.code for r in reasons] == ["priority_ddv", "solo_lead_left_by_solo_kind"]
    decision, reasons = reservation_reasons(
        DDV, 3, [Reservation("solo", "solo_jacks"), Reservation("solo", "solo_aces", True), HEALTHY, HEALTHY])
    assert decision.declarer == 1 and decision.leader == 1
    assert [r.code for r in reasons] == ["priority_ddv", "compulsory_soloist_leads"]
    said = [HEALTHY, Reservation("solo", "solo_jacks"), Reservation("solo", "solo_aces"), HEALTHY]
    decision, reasons = reservation_reasons(PAGAT, 0, said)
    assert decision.declarer == 1 and reasons[0].code == "earlier_in_turn"
    assert reservation_reasons(DDV, 0, [HEALTHY] * 4)[1][0].code == "all_healthy"


def test_poverty_parties_ignore_the_queens():
    assert poverty_parties(0, 2) == ("re", "kontra", "re", "kontra")
    reason = party_reason("poverty", poverty_parties(0, 2), 1, 1, poor=0, acceptor=2)
    assert reason.code == "poverty_other" and reason.params["party"] == "kontra"
    assert party_reason("normal", ("re", "kontra", "re", "kontra"), 2, 1).code == "holds_old_one"


def test_the_leader_reason_names_the_rule_even_when_the_soloist_sits_left_of_the_dealer():
    said = [Reservation("solo", "solo_queens", True), HEALTHY, HEALTHY, HEALTHY]
    decision, reasons = reservation_reasons(DDV, 3, said)
    assert decision.leader == 0 and reasons[-1].code == "compulsory_soloist_leads"
    decision, reasons = reservation_reasons(DDV, 3, [Reservation("solo", "solo_queens"), HEALTHY, HEALTHY, HEALTHY])
    assert decision.leader == 0 and reasons[-1].code == "solo_lead_left_by_solo_kind"


def test_leader_reasons_agree_with_decide_over_random_reservations():
    rng = random.Random(9)
    kinds = [HEALTHY, Reservation("wedding"), Reservation("poverty")]
    solos = ("solo_queens", "solo_aces")
    kinds += [Reservation("solo", solo, compulsory) for solo in solos for compulsory in (False, True)]
    every_rules = (
        DDV.with_options(poverty=True),
        PAGAT,
        PAGAT.with_options(solo_lead="soloist"),
        DDV.with_options(solo_lead="left_of_dealer", poverty=True),
    )
    for rules in every_rules:
        for _ in range(300):
            dealer = rng.randrange(4)
            decision, reasons = reservation_reasons(rules, dealer, [rng.choice(kinds) for _ in range(4)])
            code = reasons[-1].code
            if code in ("soloist_leads", "compulsory_soloist_leads"):
                assert decision.leader == decision.declarer
            else:
                assert decision.leader == (dealer + 1) % 4
            assert reasons[-1].params["seat"] == decision.leader
