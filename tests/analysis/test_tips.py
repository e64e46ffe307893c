"""The table tips (PLAY-REVIEW.md §7.3, items 1-12): each detector fires where its tip
explains the better card, and keeps quiet where it does not."""
from __future__ import annotations

from typing import Any

import pytest

from tests.analysis.helpers import DDV, finished, stopped
from tutor.analysis import tips
from tutor.analysis.tips import CODES, SIMULATIONS_PREFER, Situation, explain
from tutor.analysis.view import SeatView
from tutor.rules.cards import ALL_CARDS, parse_card
from tutor.rules.games import TRUMP, game_table

NORMAL = game_table("normal", DDV)


def c(card: str) -> int:
    return parse_card(card)


def situation(**given: Any) -> Situation:
    """Seat 0 deciding in a normal game, the parties as given, every card not named still out."""
    trick = tuple((seat, c(card)) for seat, card in given.pop("trick", ()))
    hand = tuple(c(x) for x in given.pop("hand", "").split())
    named = set(hand) | {card for _, card in trick}
    out = frozenset(x for x in ALL_CARDS if x not in named) - {c(x) for x in given.pop("gone", "").split()}
    seat = given.get("seat", 0)
    behind = tuple((seat + i) % 4 for i in range(1, 4 - len(trick)))
    fields: dict[str, Any] = {
        "game": "normal", "table": NORMAL, "seat": seat, "hand": hand, "trick": trick,
        "known": ("re", None, None, None), "led": (0, 0, 0, 0), "voids": (0, 0, 0, 0), "out": out,
        "tricks_left": 8, "trick_number": 5, "groom": None, "clarified": None, "order": (seat, *behind),
    }
    fields.update(given)
    return Situation(**fields)


def code(s: Situation, better: str, chosen: str) -> str:
    return explain(s, c(better), c(chosen)).code


def test_every_code_has_its_detector():
    assert set(CODES) == set(tips.DETECTORS)


def test_schmieren_on_a_partners_safe_trick():
    s = situation(trick=[(1, "10H"), (2, "9D"), (3, "JH")], hand="10D JS KD", known=("re", "re", None, None),
                  gone="10H")  # the other Dulle is gone: nothing out beats the partner's
    assert code(s, "10D", "JS") == "schmieren"
    unsafe = situation(trick=[(3, "JH"), (1, "QH")], hand="10D JS KD", known=("re", "re", None, None))
    assert code(unsafe, "10D", "JS") != "schmieren"  # seat 2 may still overtrump the Q♥
    stranger = situation(trick=[(1, "10H"), (2, "9D"), (3, "JH")], hand="10D JS KD", gone="10H")
    assert code(stranger, "10D", "JS") != "schmieren"  # he cannot know the Dulle is his partner's


def test_no_points_into_the_opponents_trick():
    s = situation(trick=[(3, "AH")], hand="AH KH", known=("re", None, None, "kontra"))
    assert code(s, "KH", "AH") == "points_to_opponents"
    partner = situation(trick=[(3, "AH")], hand="AH KH", known=("re", None, None, "re"))
    assert code(partner, "KH", "AH") != "points_to_opponents"


def test_a_high_card_into_a_shown_void():
    voids = (0, 1 << 0, 0, 0)  # seat 1 has shown it holds no club
    s = situation(hand="AC 9C QD", voids=voids, void_shown_in=((1, 0, 2),), led=(1, 0, 0, 0),
                  known=("re", "kontra", None, None))
    assert explain(s, c("9C"), c("AC")) == tips.Tip("shown_void", {"better": "9C", "card": "AC", "seat": 1,
                                                                    "suit": "C", "trick": 2})
    no_trumps_either = situation(hand="AC 9C QD", voids=(0, 1 << 0 | 1 << TRUMP, 0, 0), void_shown_in=((1, 0, 2),),
                                 led=(1, 0, 0, 0), known=("re", "kontra", None, None))
    assert code(no_trumps_either, "9C", "AC") != "shown_void"  # he cannot trump it


def test_a_ten_led_into_a_suit_that_has_been_round():
    s = situation(hand="10S 9S QD", led=(0, 1, 0, 0))
    assert code(s, "9S", "10S") == "second_round"
    assert code(situation(hand="10S 9S QD"), "9S", "10S") != "second_round"  # its first round


def test_kontra_cashes_a_fresh_ace():
    s = situation(hand="AS 9S QD", known=("kontra", None, None, None))
    assert code(s, "AS", "9S") == "kontra_aces"
    assert code(situation(hand="AS 9S QD", known=("kontra", None, None, None), led=(0, 1, 0, 0)), "AS", "9S") != (
        "kontra_aces")


def test_re_leads_trumps_and_from_the_top_with_many():
    assert code(situation(hand="QD 9S"), "QD", "9S") == "re_trumps"
    many = situation(hand="10H QC QS QH JC JS JD 9D")
    assert code(many, "10H", "9D") == "trumps_from_top"
    assert code(situation(hand="10H QC 9D"), "10H", "9D") != "trumps_from_top"  # three trumps only


def test_the_dulle_is_kept_for_a_trick_worth_it():
    cheap = situation(trick=[(2, "9D"), (3, "KD")], hand="10H QD", known=("re", None, "kontra", "kontra"))
    assert explain(cheap, c("QD"), c("10H")).params["points"] == 4
    assert code(cheap, "QD", "10H") == "dulle_cheap"
    rich = situation(trick=[(1, "AS"), (2, "10S"), (3, "AD")], hand="10H 9D", known=("re", None, "kontra", "kontra"))
    assert code(rich, "10H", "9D") == "dulle_worth_it"  # 32 points going to Kontra
    assert code(rich, "9D", "10H") != "dulle_cheap"


def test_the_fox_is_played_when_nobody_can_take_it():
    caught = situation(trick=[(3, "JD")], hand="AD QC", known=("re", None, None, "kontra"))
    assert explain(caught, c("QC"), c("AD")) == tips.Tip("fox", {"better": "QC", "card": "AD", "seat": 3})
    threatened = situation(trick=[(2, "9D"), (3, "KD")], hand="AD JD", known=("re", None, "kontra", "kontra"))
    assert explain(threatened, c("JD"), c("AD")).params["seat"] == 1  # seat 1, unknown, sits behind
    safe = situation(trick=[(1, "10H"), (2, "9D"), (3, "KD")], hand="AD JD", known=("re", "re", "kontra", "kontra"),
                     gone="10H")
    assert code(safe, "JD", "AD") != "fox"  # the partner's trick is safe: a good moment for the fox


def test_ruff_with_a_trump_that_holds():
    s = situation(trick=[(2, "AS")], hand="9D JD", known=("re", None, "kontra", None), voids=(1 << 1, 0, 0, 0))
    assert code(s, "JD", "9D") == "trump_that_holds"
    last = situation(trick=[(1, "AS"), (2, "KS"), (3, "9S")], hand="9D JD", voids=(1 << 1, 0, 0, 0))
    assert code(last, "JD", "9D") != "trump_that_holds"  # nobody behind


def test_do_not_trump_the_partners_first_ace():
    s = situation(trick=[(1, "AH")], hand="QD 9S", known=("re", "re", None, None), led=(0, 0, 1, 0),
                  voids=(1 << 2, 0, 0, 0))
    assert code(s, "9S", "QD") == "partner_ace"
    second = situation(trick=[(1, "AH")], hand="QD 9S", known=("re", "re", None, None), led=(0, 0, 2, 0))
    assert code(second, "9S", "QD") != "partner_ace"  # not the first round


def test_keep_karlchen_for_the_last_trick():
    assert code(situation(trick=[(3, "QD")], hand="JC JH"), "JH", "JC") == "keep_karlchen"
    assert code(situation(trick=[(3, "QD")], hand="JC", tricks_left=1), "JH", "JC") != "keep_karlchen"
    solo = situation(trick=[(3, "QD")], hand="JC JH", game="solo_queens", table=game_table("solo_queens", DDV))
    assert code(solo, "JH", "JC") != "keep_karlchen"  # no Karlchen in a solo


def test_the_groom_leads_low_before_the_clarification():
    s = situation(hand="AS 9S QC", groom=0, clarified=0, known=("re", None, None, None))
    assert code(s, "9S", "AS") == "groom_lead"
    assert code(situation(hand="AS 9S QC", groom=0, clarified=1), "9S", "AS") != "groom_lead"


def test_without_a_tip_the_simulations_only_prefer():
    s = situation(trick=[(3, "9S")], hand="KS 9S")
    assert explain(s, c("9S"), c("KS")) == tips.Tip(SIMULATIONS_PREFER, {"better": "9S", "card": "KS"})


@pytest.mark.parametrize("seed", [1000, 1001, 1002])
def test_a_situation_reads_what_the_seat_knows(seed):
    deal = finished(DDV, seed, 0)
    real = stopped(deal, 21)
    seat = real.turn
    s = Situation.of(SeatView.of(real, seat), real)
    assert s.known == real.known(seat) and s.hand == tuple(real.hands[seat])
    assert len(s.trick) == len(real.trick) and s.order[0] == seat and len(s.order) == 4 - len(real.trick)
    seen = set(real.hands[seat]) | {x for t in real.tricks for x in t} | set(real.trick)
    assert not s.out & {x for x in seen if [x for t in real.tricks for x in t].count(x)
                        + list(real.hands[seat]).count(x) + real.trick.count(x) == 2}
    assert s.tricks_left == 12 - len(real.tricks) and s.voids == tuple(real.voids)


def test_take_a_trick_with_the_lowest_card_that_holds_it():
    s = situation(trick=[(1, "KH"), (2, "AH"), (3, "10S")], hand="10H QH QD", known=("kontra", None, None, None))
    assert code(s, "QH", "10H") == "lowest_winner"  # last to play: the Q♥ takes it as well as the Dulle
    second = situation(trick=[(3, "KH")], hand="10H QH QD")
    assert code(second, "QH", "10H") != "lowest_winner"  # the Q♥ could still be beaten behind
