"""The computer players follow the table tips, one position at a time."""

from __future__ import annotations

from tutor.play import bots
from tutor.rules.announcements import NONE
from tutor.rules.cards import card_id, parse_card
from tutor.rules.games import game_table
from tutor.rules.reservations import Reservation
from tutor.rules.rulesets import RuleSet

DDV = RuleSet.named("ddv")
NORMAL = game_table("normal", DDV)


def cards(ids: str) -> list[int]:
    return [parse_card(c) for c in ids.split()]


def follow(hand: str, trick: str, holder: int, last_trick: bool = False) -> str:
    legal = NORMAL.legal(cards(hand), cards(trick))
    return card_id(bots.follow(NORMAL, legal, cards(trick), holder, last_trick))


def lead(hand: str, trumps_first: bool, soloist: bool = False, led=(0, 0, 0, 0)) -> str:
    return card_id(bots.lead(NORMAL, cards(hand), trumps_first, soloist, list(led)))


def test_kontra_leads_a_fresh_ace_and_re_leads_trumps():
    hand = "QS JD 9D AS 9S KH AC"
    assert lead(hand, trumps_first=False) in ("AS", "AC")
    assert lead(hand, trumps_first=False, led=(1, 1, 0, 0)) == "9S"  # no fresh ace: the cheapest plain card
    assert lead(hand, trumps_first=True) == "9D"  # the lowest trump, keeping the high ones
    assert lead("10H QC AD JD AS", trumps_first=True) == "JD"  # not the fox, not a Dulle or Q♣


def test_soloist_pulls_trumps_with_the_highest():
    assert lead("10H QC JD 9D AS", trumps_first=True, soloist=True) == "10H"


def test_schmieren_to_a_partner_who_holds_the_trick():
    # Last to play, the partner's Q♣ holds the trick: the most points, but not the Dulle.
    assert follow("10H AD 9D JD", "9D QC KD", bots.PARTNER) == "AD"
    assert follow("AS 10S 9S", "KS QC 9S", bots.PARTNER) == "AS"


def test_no_points_into_the_opponents_trick():
    assert follow("AS 10S 9S", "KS QC 9S", bots.OPPONENT) == "9S"
    assert follow("JH AD 9D JD", "9D QC KD", bots.OPPONENT) == "9D"  # cannot beat: the cheapest trump, not the fox
    assert follow("10H AD 9D JD", "9D QC KD", bots.OPPONENT) == "10H"  # last to play: the Dulle takes it


def test_the_dulle_waits_for_a_trick_it_wins():
    # Void in spades: no Dulle thrown away on a cheap trick an opponent cannot lose anyway.
    assert follow("10H JD AH", "9S 9S", bots.OPPONENT) != "10H"
    # A rich trick that the Dulle takes: it goes in.
    assert follow("10H JD KH", "AS 10S QD", bots.OPPONENT) == "10H"


def test_last_player_takes_the_trick_as_cheaply_as_possible():
    assert follow("AS 9S 10H", "KS 10S KS", bots.OPPONENT) == "AS"
    assert follow("10H QC JH 9D", "9D JD KD", bots.OPPONENT) == "JH"  # the lowest trump that wins
    assert follow("10H QC JH 9D", "9D JD JS", bots.OPPONENT) == "QC"  # only keepers win: the lower one


def test_announcements_need_a_strong_hand():
    strong = cards("10H 10H QC QS QH QD JC JS JD AD AS AC")
    weak = cards("QD JH 9D AS 10S KS 9S AH KH 9H AC 10C")
    assert bots.announcement_wish(NORMAL, strong, soloist=False)[0] >= 0
    assert bots.announcement_wish(NORMAL, weak, soloist=False) == (NONE, NONE)


def test_reservations():
    both_queens = cards("QC QC JD 9D AS 10S KS 9S AH KH 9H AC")
    assert bots.reservation(DDV, both_queens, 1, wedding=True, silent=False, poverty=False) == Reservation("wedding")
    assert bots.reservation(DDV, both_queens, 1, wedding=True, silent=True, poverty=False).kind == "healthy"
    assert bots.reservation(DDV, both_queens, 0, wedding=True, silent=False, poverty=False).kind == "healthy"
    poor = cards("QC JD 9D AS 10S KS 9S AH KH 9H AC 10C")
    assert bots.reservation(DDV, poor, 2, wedding=False, silent=False, poverty=True) == Reservation("poverty")
    assert bots.reservation(DDV, poor, 1, wedding=False, silent=False, poverty=True).kind == "healthy"
    queens = cards("QC QC QS QS QH QD AS AC AH 10S 10C KH")
    assert bots.reservation(DDV, queens, 2, wedding=True, silent=False, poverty=False) == Reservation(
        "solo", "solo_queens"
    )


def test_poverty_exchange_cards():
    poor = cards("QC JD AS 10S KS 9S AH KH 9H AC 10C 9C")
    passed = bots.poverty_pass(poor)
    assert len(passed) == 3 and {card_id(c) for c in passed} >= {"QC", "JD"}
    rich = cards("10H 10H QS QS QH QD JC JS JD AD AS 9C") + passed
    returned = bots.poverty_return(DDV, rich)
    assert len(returned) == 3 and not any(NORMAL.is_trump(c) for c in returned)
    assert bots.accepts_poverty(DDV, cards("10H 10H QS QS QH QD JC JS JD AD AS 9C"))
    assert not bots.accepts_poverty(DDV, cards("QD JH 9D AS 10S KS 9S AH KH 9H AC 10C"))


def test_the_fox_is_kept_only_where_its_loss_scores():
    """PLAY-REVIEW.md §5 row 13: the A♦ is a fox in normal-type games only, and never as a
    declared Schweinchen; the engine's table says which."""
    hand = cards("AD JD")
    assert card_id(bots.lead(NORMAL, hand, False, False, [0, 0, 0, 0])) == "JD"  # the fox is kept back
    solo = game_table("solo_diamonds", DDV)
    assert card_id(bots.lead(solo, hand, False, False, [0, 0, 0, 0])) == "AD"  # just a trump in a solo
    pigs = game_table("normal", DDV.with_options(schweinchen=True))
    assert card_id(bots.lead(pigs, cards("AD 9D"), False, False, [0, 0, 0, 0])) == "9D"
    assert pigs.fox != NORMAL.fox == parse_card("AD")
