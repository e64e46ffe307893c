"""The computer players follow the table tips, one position at a time, and no longer make the
mistakes of PLAY-REVIEW.md §3.2: each position is a real deal on the engine's Deal."""

from __future__ import annotations

from collections import Counter

from tutor.play import bots
from tutor.rules.announcements import NONE
from tutor.rules.cards import SUITS, card_id, deck, parse_card
from tutor.rules.deal import Deal
from tutor.rules.games import game_table
from tutor.rules.reservations import Reservation
from tutor.rules.rulesets import RuleSet

DDV = RuleSet.named("ddv")
NORMAL = game_table("normal", DDV)


def cards(ids: str) -> list[int]:
    return [parse_card(c) for c in ids.split()]


def deal_with(hands: dict[int, str], leader: int, plays: str = "", *, game: str = "normal", declarer=None,
              avoid: dict[int, str] | None = None, rules: RuleSet = DDV) -> Deal:
    """A deal whose seats hold the named cards, the rest of the deck dealt around (``avoid``:
    suit letters, T for trumps, a seat is dealt none of), with ``plays`` played from
    ``leader`` on."""
    avoid = avoid or {}
    table = game_table(game, rules)
    result = [sorted(cards(hands.get(s, ""))) for s in range(4)]
    rest = Counter(deck()) - Counter(c for h in result for c in h)
    for card in sorted(rest.elements(), key=lambda c: -sum(
            ("T" if table.suit_class[c] == 4 else SUITS[table.suit_class[c]]) in avoid.get(s, "") for s in range(4))):
        letter = "T" if table.suit_class[card] == 4 else SUITS[table.suit_class[card]]
        options = [s for s in range(4) if len(result[s]) < 12 and letter not in avoid.get(s, "")]
        result[min(options, key=lambda s: len(result[s]))].append(card)
    assert [len(h) for h in result] == [12] * 4
    deal = Deal(rules, [sorted(h) for h in result], game, leader, declarer=declarer)
    for card in cards(plays):
        deal.play(card)
    return deal


def played(deal: Deal) -> str:
    return card_id(bots.choose_card(deal, deal.turn))


# --- Leads ------------------------------------------------------------------------------------


def test_kontra_leads_a_fresh_ace():
    deal = deal_with({0: "QC", 1: "QC", 2: "AS 9S KS KH 9H 9H 10C KC 9C JH 9D KD"}, leader=2)
    assert played(deal) == "AS"


def test_no_ten_led_into_a_suit_that_has_been_round_or_that_an_opponent_is_void_in():
    # Seat 2's A♠ takes the first spade round, seat 3 showing it has no spade; then the 10♠
    # would be trumped: seat 2 leads a low card instead.
    deal = deal_with({0: "QC 9S", 1: "QC KS", 2: "AS 10S 9C KH 9H 9H KC JH 9D KD QD JD", 3: "KH"}, leader=2,
                     avoid={3: "S"}, plays="AS KH 9S KS")
    assert deal.winners == [2] and deal.voids[3] == 1 << 1
    assert played(deal) != "10S"
    # With only a ten left in a suit that has been round (and that seat 3 is void in), a low
    # trump goes first, Kontra or not: before, the 10♠ was led into the second round.
    high = deal_with({0: "QC 9S", 1: "QC KS", 2: "AS 10S JD 9D 10H 10H QH QH QD QS JS KD", 3: "KH"}, leader=2,
                     avoid={3: "S"}, plays="AS KH 9S KS")
    assert high.turn == 2 and played(high) == "9D"


def test_re_never_leads_the_fox_as_its_lowest_trump_with_plain_cards_in_hand():
    # Q♣, Dulle and fox: the fox is the only trump not kept back. Before the fix it was led.
    deal = deal_with({0: "QC 10H AD KS 9S 9C KC 10C AC 9H KH AH", 1: "QC"}, leader=0)
    assert played(deal) == "AC"  # a fresh ace instead
    low = deal_with({0: "QC JD 9D AS KS 9C KC 10C AC 9H KH AH", 1: "QC"}, leader=0)
    assert played(low) == "9D"  # the lowest trump that is neither kept back nor the fox


def test_re_with_a_long_trump_hand_pulls_from_the_top():
    deal = deal_with({0: "QC 10H QS QH QD JC JS JD 10D 9D AS KS", 1: "QC"}, leader=0)
    assert played(deal) == "10H"  # it led the 9♦ before


def test_the_groom_leads_a_low_plain_card_before_the_clarification():
    deal = deal_with({0: "QC QC 10H AS 9S AH KH 9D JD KD 10C 9C"}, leader=0, game="wedding", declarer=0)
    assert played(deal) in ("9S", "9C")  # it led the A♠ before, and won it


# --- Following --------------------------------------------------------------------------------


def test_schmieren_on_a_partners_safe_trick_and_not_on_one_that_can_be_beaten():
    # Seat 1 announced Re and leads the Dulle; the other Dulle is seat 0's own: safe.
    deal = deal_with({0: "QC 10H 10D JS KD AS 10S KS AH KH 9C 9C", 1: "QC 10H", 2: "JH", 3: "JH"}, leader=1)
    deal.announce(1, "re")
    for card in ("10H", "JH", "JH"):
        deal.play(parse_card(card))
    assert played(deal) == "10D"
    # Seat 3, Re, leads the Q♦ with two players behind who may beat it: no points on it.
    unsafe = deal_with({0: "QC 10D JS KD AS 10S KS AH KH 9C 9C 9H", 3: "QC QD"}, leader=3)
    unsafe.announce(3, "re")
    unsafe.play(parse_card("QD"))
    assert played(unsafe) == "JS"


def test_no_points_into_the_opponents_trick():
    deal = deal_with({0: "QC AH KH 9S", 1: "QC", 3: "AH"}, leader=3)
    deal.announce(3, "kontra")
    deal.play(parse_card("AH"))
    assert deal.turn == 0 and played(deal) == "KH"


def test_last_to_play_keeps_the_dulle_for_a_trick_worth_it():
    # Only the Dulle beats the Q♠ in a 7-point trick, whose holder may be a partner: seat 3
    # throws its 9♦ and keeps the Dulle. Before, last to play took every trick it could.
    deal = deal_with({0: "QC 9D", 1: "QC QS", 2: "KD", 3: "10H 9D AS 10S KS 9S AH KH 9H AC 10C KC"},
                     leader=0, plays="9D QS KD", avoid={3: "T"})
    assert deal.turn == 3 and played(deal) == "9D"
    # A cheap card that wins takes it: the J♦ over a 4-point trick.
    cheap = deal_with({0: "QC 9D", 1: "QC 9D", 2: "KD", 3: "10H JD AS 10S KS 9S AH KH 9H AC 10C KC"},
                      leader=0, plays="9D 9D KD", avoid={3: "T"})
    assert played(cheap) == "JD"


def test_the_fox_is_not_given_away_when_a_trump_can_take_the_trick():
    # Seat 2 holds no trump but the fox and a Dulle: before, it threw the fox under the J♦.
    deal = deal_with({0: "QC 9D", 1: "QC JD", 2: "AD 10H AS 10S KS 9S AH KH 9H AC 10C KC"}, leader=0,
                     plays="9D JD", avoid={2: "T"})
    assert set(card_id(c) for c in deal.legal()) == {"AD", "10H"}
    assert played(deal) == "10H"


def test_a_ruff_with_a_jack_when_an_opponent_sits_behind():
    deal = deal_with({0: "QC JD 9D AH KH 9H AC 10C KC 9C 9C KD", 1: "QC", 2: "AS", 3: "9S"}, leader=2,
                     plays="AS 9S", avoid={0: "S"})
    assert played(deal) == "JD"


# --- Reservations, the poverty's exchange, announcements ------------------------------------------


def test_announcements_need_a_strong_hand():
    strong = cards("10H 10H QC QS QH QD JC JS JD AD AS AC")
    weak = cards("QD JH 9D AS 10S KS 9S AH KH 9H AC 10C")
    assert bots.announcement_wish(NORMAL, strong, soloist=False)[0] >= 0
    assert bots.announcement_wish(NORMAL, weak, soloist=False) == (NONE, NONE)


def test_no_90_is_not_announced_from_the_dealt_hand_alone():
    deal = deal_with({0: "QC 10H 10H QS QS QH QH QD JC JS AS AC", 1: "QC"}, leader=0)
    assert bots.announcement(deal, 0, (1, 0)) == 0  # Re, not yet no 90: it said no 90 on its first card before
    deal.announce(0, "re")
    for _ in range(2):  # seat 0 takes two tricks with its Dullen: now the game is decided
        deal.play(parse_card("10H"))
        for _ in range(3):
            deal.play(bots.choose_card(deal, deal.turn))
    assert deal.winners == [0, 0]
    assert bots.announcement(deal, 0, (1, 0)) == 1


def test_reservations():
    both_queens = cards("QC QC JD 9D AS 10S KS 9S AH KH 9H AC")
    assert bots.reservation(DDV, both_queens, 1, wedding=True, poverty=False) == Reservation("wedding")
    assert bots.reservation(DDV, both_queens, 0, wedding=True, poverty=False).kind == "healthy"
    # A hand for a diamonds solo keeps its two Q♣ quiet: a silent wedding.
    solo_hand = cards("QC QC 10H 10H QS QS QH JC JD AD 10D AS")
    assert bots.reservation(DDV, solo_hand, 1, wedding=True, poverty=False).kind == "healthy"
    poor = cards("QC JD 9D AS 10S KS 9S AH KH 9H AC 10C")
    assert bots.reservation(DDV, poor, 2, wedding=False, poverty=True) == Reservation("poverty")
    assert bots.reservation(DDV, poor, 1, wedding=False, poverty=True).kind == "healthy"
    queens = cards("QC QC QS QS QH QD AS AC AH 10S 10C KH")
    assert bots.reservation(DDV, queens, 2, wedding=True, poverty=False) == Reservation("solo", "solo_queens")


def test_poverty_exchange_cards():
    poor = cards("QC JD AS 10S KS 9S AH KH 9H AC 10C 9C")
    passed = bots.poverty_pass(poor)
    assert len(passed) == 3 and {card_id(c) for c in passed} >= {"QC", "JD"}
    rich = cards("10H 10H QS QS QH QD JC JS JD AD AS 9C") + passed
    returned = bots.poverty_return(DDV, rich)
    assert len(returned) == 3 and not any(NORMAL.is_trump(c) for c in returned)
    assert bots.accepts_poverty(DDV, cards("10H 10H QS QS QH QD JC JS JD AD AS 9C"))
    assert not bots.accepts_poverty(DDV, cards("QD JH 9D AS 10S KS 9S AH KH 9H AC 10C"))
