"""Questions about a given position (what lessons ask): every kind's ask() builds the
engine's question from plain data, and refuses positions that cannot be."""
from __future__ import annotations

import pytest

from tutor.quiz import KINDS, LESSON_KINDS, ask, make
from tutor.rules.errors import RulesError
from tutor.rules.rulesets import RuleSet

DDV, PAGAT = RuleSet.named("ddv"), RuleSet.named("pagat")
HAND = ["QC", "QS", "JH", "AD", "10D", "AC", "10C", "KS", "AS", "9S", "AH", "KH"]


def codes(q):
    return [r.code for r in q.reasons]


def test_every_kind_answers_ask():
    assert set(KINDS) | set(LESSON_KINDS) == {
        "winner", "legal", "trumps", "points", "announce", "needs", "score", "game", "party", "best_card",
        "extras", "sheet_row", "dealer", "poverty", "recall"}
    with pytest.raises(RulesError):
        ask("riddle", {}, DDV)


@pytest.mark.parametrize("kind", KINDS)
def test_the_quiz_asks_the_same_way_a_lesson_does(kind):
    """A generated question goes through ask(): its rules and level are the quiz's own."""
    for seed in range(20):
        q = make(kind, seed, DDV, seed % 4)
        assert (q.kind, q.seed, q.level) == (kind, seed, seed % 4)


def test_winner_of_a_given_trick():
    q = ask("winner", {"trick": ["9D", "QC", "10H", "AD"], "leader": 2}, DDV)
    assert q.answer == ("2",) and codes(q) == ["highest_trump"] and q.prompt == "winner_complete"
    assert q.facts["plays"] == [(2, "9D"), (3, "QC"), (0, "10H"), (1, "AD")]
    second = ask("winner", {"trick": ["10H", "10H"]}, DDV.with_options(dullen="second_wins"))
    assert second.answer == ("1",) and second.rules_decide and second.prompt == "winner_so_far"
    last = ask("winner", {"trick": ["10H", "10H"], "last": True}, DDV.with_options(dullen="second_wins_except_last"))
    assert last.answer == ("0",) and codes(last) == ["first_dulle_in_last_trick"]
    solo = ask("winner", {"trick": ["AS", "QD"], "game": "solo_queens"}, DDV)
    assert solo.answer == ("1",) and codes(solo) == ["trump_on_plain"]


@pytest.mark.parametrize("position", [
    {"trick": ["QC", "QC", "QC"]},            # a card three times
    {"trick": ["QC"]},                         # one card is no question
    {"trick": ["QC", "ZZ"]},                   # not a card
    {"trick": ["9H", "AH"]},                   # no nines in a 40-card deck (rules below)
    {"trick": ["AH", "KH"], "leader": 4},
    {"trick": ["AH", "KH"], "lead": 1},        # a typo: unknown key
    {"trick": ["AH", "KH"], "game": "skat"},
])
def test_winner_refuses_impossible_tricks(position):
    with pytest.raises(RulesError):
        ask("winner", position, DDV.with_options(deck=40))


def test_legal_cards_of_a_given_hand():
    q = ask("legal", {"hand": ["10S", "KS", "QS", "9H"], "trick": ["AS"]}, DDV)
    assert q.answer == ("10S,KS",) and q.params["seat"] == 0 and q.facts["plays"] == [(3, "AS")]
    assert q.reasons[0].params["trumps_of_suit"] == ["QS"]
    void = ask("legal", {"hand": ["QS", "9H"], "trick": ["AC", "KC"]}, DDV)
    assert void.answer == ("9H,QS",) and codes(void) == ["void_any_card"]
    with pytest.raises(RulesError, match="too_many_copies"):
        ask("legal", {"hand": ["AS", "AS"], "trick": ["AS"]}, DDV)
    with pytest.raises(RulesError, match="hand_does_not_fit"):
        ask("legal", {"hand": ["QC", "QC", "AS"], "trick": ["KS"]}, DDV)


def test_trumps_and_points():
    assert ask("trumps", {"card": "10H"}, DDV).answer == ("yes",)
    assert ask("trumps", {"card": "10H", "game": "solo_queens"}, DDV).answer == ("no",)
    assert ask("trumps", {"cards": ["JC", "QD"]}, DDV).answer == ("1",)
    with pytest.raises(RulesError):
        ask("trumps", {"cards": ["JC", "JC"]}, DDV)
    with pytest.raises(RulesError):
        ask("trumps", {"card": "JC", "cards": ["JC", "QD"]}, DDV)
    q = ask("points", {"cards": ["AS", "10S", "KS", "9S", "QC", "JD"]}, DDV)
    assert q.answer == ("30",) and q.prompt == "points_pile" and q.facts["tricks"] == [["AS", "10S", "KS", "9S"], ["QC", "JD"]]
    assert ask("points", {"cards": ["AS"]}, DDV).prompt == "points_trick"


def test_announce_one_player_and_every_player():
    q = ask("announce", {"party": "kontra", "cards": 10, "said": {"re": "re"}}, DDV)
    assert q.answer == ("kontra,no_30,no_60,no_90,schwarz",) and codes(q)[0] == "reply_in_time"
    late = ask("announce", {"party": "re", "cards": 10}, PAGAT)
    assert late.answer == ("",)
    wedding = ask("announce", {"party": "re", "cards": 11, "clarified": 0}, DDV)
    assert wedding.game == "wedding" and wedding.answer == ("",) and wedding.facts["unclarified"]
    after = ask("announce", {"party": "re", "cards": 9, "clarified": 3}, DDV)
    assert "re" in after.answer[0].split(",")
    who = ask("announce", {"ask": "who", "parties": ["re", "kontra", "re", "kontra"], "cards": [10, 10, 9, 9],
                           "said": {"re": "re"}}, DDV)
    assert who.prompt == "announce_who" and who.answer == ("0,1",)
    with pytest.raises(RulesError):
        ask("announce", {"party": "re", "cards": 11, "clarified": 2}, DDV)  # two tricks played: 10 cards at most
    with pytest.raises(RulesError):
        ask("announce", {"ask": "who", "parties": ["re", "re", "re", "kontra"], "cards": [10] * 4}, DDV)
    with pytest.raises(RulesError):
        ask("announce", {"party": "re", "cards": 10, "said": {"re": "no_20"}}, DDV)


def test_needs_and_score():
    q = ask("needs", {"party": "re", "said": {"kontra": "kontra"}}, DDV)
    assert q.answer == ("p120",) and len(q.fields[0].choices) == 4
    assert ask("needs", {"party": "re", "said": {"re": "re"}, "game": "solo_jacks"}, DDV).prompt == "needs_solo"
    score = ask("score", {"re_points": 156, "re_tricks": 8, "extras": {"re": {"fox": 1}, "kontra": {"doppelkopf": 1}}}, DDV)
    assert score.answer == ("re", "2")
    solo = ask("score", {"game": "solo_queens", "re_points": 190, "re_tricks": 10, "said": {"re": "re"}}, DDV)
    assert solo.answer == ("re", "15") and solo.prompt == "score_solo"
    assert ask("score", {"re_points": 121}, DDV).facts["re_tricks"] > 0  # tricks that fit the points
    with pytest.raises(RulesError):
        ask("score", {"re_points": 200, "re_tricks": 1}, DDV)  # one trick cannot hold 200 points
    with pytest.raises(RulesError):
        ask("score", {"re_points": 150, "extras": {"re": {"fox": 3}}}, DDV)


def test_game_from_given_reservations():
    q = ask("game", {"dealer": 0, "reservations": ["healthy", "wedding", "solo_queens", "healthy"]}, DDV)
    assert q.answer == ("solo_queens@2", "1")
    compulsory = ask("game", {"dealer": 0, "reservations": ["healthy", "solo_jacks", "solo_queens", "healthy"],
                              "compulsory": [2]}, DDV)
    assert compulsory.answer == ("solo_queens@2", "2")
    assert ask("game", {"dealer": 3, "reservations": ["healthy"] * 4}, DDV).answer == ("0",)
    with pytest.raises(RulesError, match="poverty_not_played"):
        ask("game", {"reservations": ["poverty", "healthy", "healthy", "healthy"]}, DDV)
    with pytest.raises(RulesError):
        ask("game", {"reservations": ["wedding", "wedding", "healthy", "healthy"]}, DDV)
    with pytest.raises(RulesError):
        ask("game", {"reservations": ["wedding", "healthy", "healthy", "healthy"], "compulsory": [0]}, DDV)


def test_party_in_each_game():
    assert ask("party", {"seat": 1, "hand": HAND}, DDV).answer == ("re",)
    assert ask("party", {"seat": 1, "hand": [c if c != "QC" else "KC" for c in HAND]}, DDV).answer == ("kontra",)
    tricks = [["AS", "KS", "10S", "9S"], ["AC", "KC", "10C", "9C"], ["AH", "KH", "QC", "9H"]]
    # The groom (seat 0) wins the first two tricks, leads the third, and seat 2 plays a Q♣.
    with pytest.raises(RulesError, match="hand_does_not_fit"):
        ask("party", {"game": "wedding", "seat": 1, "groom": 0, "leader": 0, "tricks": tricks}, DDV)
    tricks = [["AS", "KS", "10S", "9S"], ["AC", "KC", "10C", "9C"], ["AH", "KH", "10D", "9H"]]
    partner = ask("party", {"game": "wedding", "seat": 2, "groom": 0, "leader": 0, "tricks": tricks}, DDV)
    assert partner.answer == ("re",) and partner.facts["partner"] == 2 and partner.facts["clarification"] == 3
    assert codes(partner) == ["wedding_partner"]
    alone = [["AS", "KS", "10S", "9S"], ["AC", "KC", "10C", "9C"], ["AH", "KH", "9H", "9H"]]
    solo = ask("party", {"game": "wedding", "seat": 1, "groom": 0, "leader": 0, "tricks": alone}, DDV)
    assert solo.game == "wedding_solo" and solo.answer == ("kontra",)
    early = [["AS", "QS", "10S", "9S"]]
    assert ask("party", {"game": "wedding", "seat": 1, "groom": 0, "tricks": early}, DDV).answer == ("re",)
    with pytest.raises(RulesError):
        ask("party", {"game": "wedding", "seat": 1, "groom": 0, "tricks": early * 2}, DDV)  # clarified in trick 1
    assert ask("party", {"game": "poverty", "seat": 3, "poor": 1, "acceptor": 3}, PAGAT).answer == ("re",)
    assert ask("party", {"game": "solo_aces", "seat": 3, "soloist": 1}, DDV).answer == ("kontra",)
    silent = ask("party", {"game": "silent_wedding", "seat": 0, "soloist": 0}, DDV)
    assert silent.answer == ("re",) and silent.facts["groom"] == 0
    with pytest.raises(RulesError, match="hand_does_not_fit"):
        ask("party", {"game": "silent_wedding", "seat": 1, "groom": 0, "hand": HAND}, DDV)
    with pytest.raises(RulesError):
        ask("party", {"seat": 1, "hand": HAND[:11]}, DDV)


def test_extras_of_a_trick():
    parties = ["re", "kontra", "re", "kontra"]
    q = ask("extras", {"trick": ["JC", "AD", "9D", "KD"], "leader": 0, "parties": parties, "last": True}, DDV)
    assert q.answer == ("fox,karlchen",) and q.params["seat"] == 0
    assert [c.value for c in q.fields[0].choices] == ["fox", "doppelkopf", "karlchen"]
    assert "fox_caught" in codes(q) and "karlchen_wins_last" in codes(q) and "no_doppelkopf" in codes(q)
    not_last = ask("extras", {"trick": ["JC", "AD", "9D", "KD"], "parties": parties}, DDV)
    assert not_last.answer == ("fox",) and "karlchen_not_last" in codes(not_last)
    rich = ask("extras", {"trick": ["AS", "10S", "AS", "10S"], "parties": parties}, DDV)
    assert rich.answer == ("doppelkopf",) and "doppelkopf_trick" in codes(rich)
    own_fox = ask("extras", {"trick": ["QC", "KD", "AD", "9D"], "parties": parties}, DDV)
    assert own_fox.answer == ("",) and "fox_own" in codes(own_fox)
    caught = {"trick": ["9D", "JC", "QC", "KD"], "parties": parties, "last": True}
    assert ask("extras", caught, DDV).answer == ("",) and "karlchen_caught_not_counted" in codes(ask("extras", caught, DDV))
    assert ask("extras", caught, PAGAT).answer == ("karlchen_caught",)
    solo = ask("extras", {"trick": ["JC", "AD", "9D", "KD"], "parties": ["re", "kontra", "kontra", "kontra"],
                          "last": True, "game": "solo_jacks"}, DDV)
    assert solo.answer == ("",) and codes(solo)[-1] == "no_extras_in_solo"
    with pytest.raises(RulesError):
        ask("extras", {"trick": ["JC", "AD", "9D"], "parties": parties}, DDV)


def test_sheet_rows():
    assert ask("sheet_row", {"entries": [2, -2, 2, -2]}, DDV).answer == ("yes",)
    assert ask("sheet_row", {"entries": [3, -1, -1, -1]}, DDV).answer == ("yes",)
    odd = ask("sheet_row", {"entries": [2, -1, -1, 0]}, DDV)
    assert odd.answer == ("no",) and codes(odd) == ["row_sums_to_zero", "row_mixed_parity"]
    assert codes(ask("sheet_row", {"entries": [1, 1, 1, 1]}, DDV))[0] == "row_sum_not_zero"
    with pytest.raises(RulesError):
        ask("sheet_row", {"entries": [1, -1]}, DDV)


def test_poverty_hands():
    three = ["JD", "AD", "9D", "AC", "AC", "10C", "KS", "AS", "9S", "AH", "KH", "9H"]
    q = ask("poverty", {"hand": three}, PAGAT)
    assert q.answer == ("yes",) and q.reasons[0].params["trumps"] == ["JD", "AD", "9D"]
    four = ["QC", *three[:-1]]
    assert ask("poverty", {"hand": four}, PAGAT).answer == ("no",)
    assert ask("poverty", {"hand": three}, DDV.with_options(poverty=True)).answer == ("yes",)
    with pytest.raises(RulesError, match="poverty_not_played"):
        ask("poverty", {"hand": three}, DDV)
    with pytest.raises(RulesError):
        ask("poverty", {"hand": three[:11]}, PAGAT)


def test_who_deals_next():
    assert ask("dealer", {"deals": [{"dealer": 0}]}, DDV).answer == ("1",)
    again = ask("dealer", {"deals": [{"dealer": 0, "game": "solo_queens", "compulsory": True, "soloist": 2}]}, DDV)
    assert again.answer == ("0",) and codes(again) == ["same_dealer_after_compulsory"]
    free = ask("dealer", {"deals": [{"dealer": 0, "game": "solo_queens", "compulsory": True, "soloist": 2},
                                    {"dealer": 0, "game": "solo_jacks", "soloist": 2}]}, DDV)
    assert free.answer == ("1",)  # his second solo is a voluntary one: the deal moves on
    assert ask("dealer", {"deals": [{"dealer": 0, "game": "solo_queens"}]}, PAGAT).answer == ("1",)
    five = ask("dealer", {"players": 5, "deals": [{"dealer": 4}]}, DDV)
    assert five.answer == ("0",) and codes(five) == ["dealer_moves_left", "sitting_out"]
    assert five.reasons[1].params["seats"] == [0]
    with pytest.raises(RulesError, match="wrong_dealer"):
        ask("dealer", {"deals": [{"dealer": 0}, {"dealer": 2}]}, DDV)
    with pytest.raises(RulesError, match="compulsory_mismatch"):
        ask("dealer", {"deals": [{"dealer": 0, "game": "solo_queens", "compulsory": True}]}, PAGAT)
    with pytest.raises(RulesError, match="compulsory_mismatch"):
        ask("dealer", {"deals": [{"dealer": 0, "game": "solo_queens", "soloist": 1}]}, DDV)  # he owed it
    with pytest.raises(RulesError):
        ask("dealer", {"deals": [{"dealer": 0, "compulsory": True}]}, DDV)


def test_who_must_play_a_solo():
    q = ask("dealer", {"ask": "solo", "dealer": 0, "owed": [2, 3], "deals_left": 2}, DDV)
    assert q.answer == ("2",) and codes(q) == ["vorgefuehrt"]
    assert ask("dealer", {"ask": "solo", "dealer": 0, "owed": [2, 3], "deals_left": 3}, DDV).answer == ("nobody",)
    # Without a dealer, the next deal's is the engine's: after dealer 1 comes 2, and from his
    # left 3 is the first who still owes a solo.
    after = ask("dealer", {"ask": "solo", "deals": [{"dealer": 1}], "owed": [1, 3], "deals_left": 2}, DDV)
    assert after.answer == ("3",) and after.facts["dealer"] == 2
    with pytest.raises(RulesError, match="compulsory_mismatch"):
        ask("dealer", {"ask": "solo", "deals": [{"dealer": 1, "game": "solo_queens", "compulsory": True}],
                       "owed": [2, 3], "deals_left": 2}, DDV)
    with pytest.raises(RulesError):
        ask("dealer", {"ask": "solo", "dealer": 0, "owed": [2], "deals_left": 1}, PAGAT)


def test_recall():
    q = ask("recall", {"answer": 2, "count": 3}, DDV)
    assert q.answer == ("2",) and [c.value for c in q.fields[0].choices] == ["1", "2", "3"]
    with pytest.raises(RulesError):
        ask("recall", {"answer": 4, "count": 3}, DDV)
