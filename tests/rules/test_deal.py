"""The stateful deal (tutor.rules.deal): cards, tricks, the wedding's clarification, what is
public and what each seat knows, announcements with their reasons, and the fast random-play
path held to it."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.rules.cards import ACE_OF_DIAMONDS, QUEEN_OF_CLUBS, card_id, parse_card
from tutor.rules.deal import Deal, Poverty, public_course
from tutor.rules.deals import deal_hands, play_randomly, random_deal
from tutor.rules.errors import RulesError
from tutor.rules.games import NO_CARD, SOLOS, game_table
from tutor.rules.reservations import HEALTHY, Reservation, decide, may_declare_wedding, poverty_asking_order
from tutor.rules.rulesets import OPTION_CHOICES, RuleSet

DDV, PAGAT = RuleSet.named("ddv"), RuleSet.named("pagat")
HANDS = (
    "QC 10H JS AD 10D KD AS 10S AH KH 9C 9C",
    "QC 10H QS JC JH AC AC 10C KC 9S 9S KS",
    "QS QH QH QD JC JS JD JD AD 9D 9D KS",
    "QD JH 10D KD AS 10S KC 10C AH KH 9H 9H",
)


WEDDING = (  # seat 0 holds both Q♣
    "QC QC JS AD 10D KD AS 10S AH KH 9C 9C",
    "10H 10H QS JC JH AC AC 10C KC 9S 9S KS",
    "QS QH QH QD JC JS JD JD AD 9D 9D KS",
    "QD JH 10D KD AS 10S KC 10C AH KH 9H 9H",
)


def cards(ids: str) -> list[int]:
    return [parse_card(c) for c in ids.split()]


def hands_of(*rows: str) -> list[list[int]]:
    return [cards(r) for r in rows]


@st.composite
def rule_sets(draw):
    rules = RuleSet.named(draw(st.sampled_from(["ddv", "pagat"])))
    return rules.with_options(**{name: draw(st.sampled_from(c)) for name, c in OPTION_CHOICES.items()})


def play_tricks(deal: Deal, tricks) -> None:
    for trick in tricks:
        for card in trick:
            assert card in deal.legal()
            deal.play(card)


# --- The fast random-play path agrees with the deal ------------------------------------------


def check_against_deal(deal: Deal, tricks, leaders, winners) -> None:
    """Play ``tricks`` on ``deal``: each card play_randomly chose was one of the deal's legal
    cards, and the legal cards are exactly what play_randomly chose from: the suit led when
    the player held it, else the whole hand; the winner so far is the trick's winner."""
    for t, trick in enumerate(tricks):
        assert deal.leader == leaders[t]
        for card in trick:
            seat = deal.turn
            legal = deal.legal()
            hand = deal.hands[seat]
            table = deal.table
            assert card in legal
            if deal.trick and table.suit_class[card] != table.suit_class[deal.trick[0]]:
                assert legal == list(dict.fromkeys(hand))  # he did not follow: he could not
            elif deal.trick:
                assert set(legal) == {c for c in hand if table.suit_class[c] == table.suit_class[deal.trick[0]]}
            deal.play(card)
            if deal.trick:  # the winner so far, kept card by card, is the trick's winner
                assert deal.trick_winner() == (deal.leader + deal.table.winner(deal.trick, deal.last_trick)) % 4
        assert deal.winners[t] == winners[t]
    assert deal.over


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 2**32), rule_sets(), st.sampled_from([None, "re", "no_90"]), st.sampled_from([None, "kontra"]))
def test_random_play_of_normal_games_and_weddings_is_the_deals(seed, rules, re_said, kontra_said):
    played = random_deal(random.Random(seed), rules)
    holders = [s for s, h in enumerate(played.hands) if QUEEN_OF_CLUBS in h]
    groom = holders[0] if len(set(holders)) == 1 else None
    deal = Deal(rules, played.hands, "wedding" if groom is not None else "normal", played.leaders[0], declarer=groom)
    check_against_deal(deal, played.tricks, played.leaders, played.winners)
    assert (deal.game, deal.parties) == (played.game, played.parties)
    assert deal.outcome() == played.score()
    outcome = deal.outcome()
    assert deal.figures() == (outcome.re_points, outcome.scores["re"], outcome.scores["kontra"])
    assert deal.played().score(re_said, kontra_said) == played.score(re_said, kontra_said)


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32), rule_sets(), st.sampled_from(SOLOS[2:]), st.integers(0, 3))
def test_random_play_of_solos_is_the_deals(seed, rules, game, soloist):
    rng = random.Random(seed)
    hands = deal_hands(rng, rules)
    leader = int(rng.random() * 4)
    tricks, leaders, winners = play_randomly(rng, game_table(game, rules), hands, leader)
    deal = Deal(rules, hands, game, leader, declarer=soloist)
    check_against_deal(deal, tricks, leaders, winners)
    assert deal.parties == tuple("re" if s == soloist else "kontra" for s in range(4))
    assert deal.known(soloist) == deal.parties == deal.public  # a solo is announced
    outcome = deal.outcome()
    assert deal.figures() == (outcome.re_points, outcome.scores["re"], outcome.scores["kontra"])


# --- Cards -----------------------------------------------------------------------------------


def test_a_card_against_the_rules_changes_nothing():
    deal = Deal(DDV, hands_of(*HANDS), "normal", leader=1)
    deal.play(parse_card("AC"))
    deal.play(parse_card("QS"))  # void in clubs: any card
    with pytest.raises(RulesError) as error:
        deal.play(parse_card("AH"))  # seat 3 holds clubs: he must follow
    assert error.value.code == "illegal_card"
    with pytest.raises(RulesError) as error:
        deal.play(parse_card("QC"))
    assert error.value.code == "card_not_in_hand"
    assert deal.turn == 3 and [card_id(c) for c in deal.trick] == ["AC", "QS"] and len(deal.hands[3]) == 12
    assert [card_id(c) for c in deal.legal()] == ["KC", "10C"]


def test_a_shown_void_and_the_suits_led_are_public_facts():
    deal = Deal(DDV, hands_of(*HANDS), "normal", leader=1)
    for card in ("AC", "QS", "KC", "9C"):
        deal.play(parse_card(card))
    assert deal.voids[2] == 1 << 0 and deal.voids[3] == 0  # seat 2 had no club
    assert deal.led == [1, 0, 0, 0]
    assert deal.winners == [2]  # the Q♠ trumps the clubs


def test_a_copy_plays_on_by_itself():
    deal = Deal(DDV, hands_of(*HANDS), "normal", leader=1)
    deal.play(parse_card("AC"))
    other = deal.copy()
    other.play(parse_card("QS"))
    assert len(deal.trick) == 1 and len(other.trick) == 2 and deal.turn == 2


def test_a_copy_has_everything_the_deal_has():
    deal = Deal(DDV, hands_of(*WEDDING), "wedding", leader=1, declarer=0)
    deal.play(deal.legal()[0])
    other = deal.copy()
    for name in Deal.__slots__:
        assert getattr(other, name) == getattr(deal, name), name  # every slot set, and equal


def test_which_ace_of_diamonds_is_a_fox():
    assert game_table("normal", DDV).fox == ACE_OF_DIAMONDS
    assert game_table("poverty", PAGAT).fox == ACE_OF_DIAMONDS
    assert game_table("normal", DDV.with_options(schweinchen=True)).fox == NO_CARD  # a declared Schweinchen
    for solo in SOLOS:
        assert game_table(solo, DDV).fox == NO_CARD  # no extra points in a solo


# --- Reservations decided ---------------------------------------------------------------------


def test_a_healthy_table_with_both_old_ones_in_one_hand_plays_a_silent_wedding():
    hands = hands_of(*WEDDING)
    groom = 0
    assert decide(DDV, 0, [HEALTHY] * 4, hands).game == "silent_wedding"
    assert decide(DDV, 0, [HEALTHY] * 4).game == "normal"  # without the hands nobody can tell
    deal = Deal.start(DDV, 0, [HEALTHY] * 4, hands)
    assert deal.game == "silent_wedding" and deal.declarer == groom
    assert deal.public == (None,) * 4 and deal.known(groom) == deal.parties  # he alone knows
    wedding = [Reservation("wedding") if s == groom else HEALTHY for s in range(4)]
    assert Deal.start(DDV, 0, wedding, hands).game == "wedding"


def test_who_may_declare_a_wedding():
    both = cards("QC QC AD AD JD 9D AS 10S KS 9S AH KH")
    assert may_declare_wedding(DDV, both)
    assert not may_declare_wedding(DDV.with_options(schweinchen=True), both)
    assert not may_declare_wedding(DDV, cards("QC QS AD AD JD 9D AS 10S KS 9S AH KH"))


def test_the_poverty_is_offered_from_the_poor_players_left():
    assert poverty_asking_order(0) == (1, 2, 3) and poverty_asking_order(3) == (0, 1, 2)


def test_a_poverty_makes_the_poor_player_and_the_acceptor_re_for_all_to_see():
    deal = Deal(PAGAT, hands_of(*HANDS), "poverty", 1, declarer=0, poverty=Poverty(0, 2, 3))
    assert deal.parties == ("re", "kontra", "re", "kontra") == deal.public == deal.known(3)


# --- The wedding ------------------------------------------------------------------------------

def test_the_wedding_partner_is_the_first_other_player_to_take_a_trick():
    deal = Deal(DDV, hands_of(*WEDDING), "wedding", leader=0, declarer=0)
    assert deal.known(1) == ("re", None, None, None) and deal.may_announce(0) == []  # nobody before it
    play_tricks(deal, [cards("AH 9S JD 9H")])  # the groom's A♥ is trumped by seat 2's J♦
    assert deal.winners == [2] and deal.clarification_trick == 1
    assert deal.parties == ("re", "kontra", "re", "kontra") == deal.public
    # The reveal belongs to the trick that clarified (index 0), and names the partner first.
    assert [(r.cause, r.seat, r.party, r.trick) for r in deal.reveals(1)] == [
        ("clarification", 2, "re", 0), ("clarification", 1, "kontra", 0), ("clarification", 3, "kontra", 0)]
    assert deal.known_after(1, 0) == deal.parties
    assert deal.may_announce(2) == ["re", "no_90", "no_60", "no_30", "schwarz"]  # clarified in trick 1


def test_a_groom_who_takes_the_first_three_tricks_plays_alone():
    rules = DDV.with_options(schweinchen=True)
    hands = hands_of(
        "QC QC 10H 10H QS QS JS 10D KD AS AH KH",
        "QH JC JH AC AC 10C KC 9S 9S KS 9C 9C",
        "QH QD JC JS JD JD 9D 9D KS AD AD 10S",
        "QD JH 10D KD AS 10S KC 10C AH KH 9H 9H",
    )
    deal = Deal(rules, hands, "wedding", leader=0, declarer=0)
    assert deal.table.trumps[0] == ACE_OF_DIAMONDS  # seat 2 declared Schweinchen
    play_tricks(deal, [cards("10H QH JC QD"), cards("10H JH JD JH"), cards("QC JC 9D 10D")])
    assert deal.winners == [0, 0, 0] and deal.game == "wedding_solo"
    assert deal.parties == ("re", "kontra", "kontra", "kontra") and deal.clarification_trick is None
    assert deal.table.trumps[0] != ACE_OF_DIAMONDS  # no Schweinchen in a solo
    assert {r.cause for r in deal.reveals(1)} == {"wedding_solo"} and {r.trick for r in deal.reveals(1)} == {2}
    assert deal.wedding_column() == 3 and deal.trick_games == ["wedding"] * 3


# --- What is public, what each seat knows --------------------------------------------------------


def test_a_played_old_one_shows_its_player_as_re_and_two_re_make_the_rest_kontra():
    deal = Deal(DDV, hands_of(*HANDS), "normal", leader=0)
    assert deal.known(0) == ("re", None, None, None)
    deal.play(parse_card("QC"))
    assert deal.public == ("re", None, None, None)
    assert deal.known(2) == ("re", None, "kontra", None)  # no Q♣ of his own: he cannot tell more
    assert deal.known(1) == ("re", "re", "kontra", "kontra")  # the other Q♣ is his
    assert [(r.cause, r.seat) for r in deal.reveals(1)] == [("old_one", 0), ("deduced", 2), ("deduced", 3)]
    assert [(r.cause, r.seat) for r in deal.reveals(3)] == [("old_one", 0)]


def test_a_second_old_one_from_one_hand_reveals_the_silent_wedding():
    hands = hands_of(*WEDDING)
    deal = Deal(DDV, hands, "silent_wedding", leader=0, declarer=0)
    play_tricks(deal, [cards("QC 10H QS QD")])  # seat 1's Dulle takes it
    assert deal.known(2)[0] == "re" and deal.known(2)[1] is None
    play_tricks(deal, [cards("10H QH JH QC")])  # seat 1 leads the other Dulle, seat 0 follows with the Q♣
    assert deal.public == deal.parties
    assert [(r.cause, r.seat, r.trick) for r in deal.reveals(3)] == [
        ("old_one", 0, 0), ("silent_wedding", 1, 1), ("silent_wedding", 2, 1)]


def test_with_a_queen_of_ones_own_two_kontra_make_the_rest_re():
    deal = Deal(DDV, hands_of(*HANDS), "normal", leader=2)
    deal.announce(2, "kontra")
    assert deal.known(0) == ("re", None, "kontra", None)
    deal.announce(3, "no_90")
    assert deal.known(0) == ("re", "re", "kontra", "kontra")
    assert deal.known(1) == ("re", "re", "kontra", "kontra")


# --- Announcements ------------------------------------------------------------------------------


def options(deal: Deal, seat: int) -> dict[str, tuple]:
    return {o.id: (o.allowed, o.reason.code, o.until, o.until_reason and o.until_reason.code)
            for o in deal.announcement_options(seat)}


def test_a_skipped_level_sets_the_until_of_the_levels_above_it():
    deal = Deal(DDV, hands_of(*HANDS), "normal", leader=1)
    shown = options(deal, 0)
    assert shown["re"] == (True, "in_time", 11, "too_late")
    assert shown["no_90"] == (True, "in_time", 10, "too_late")
    assert shown["no_60"] == (True, "in_time", 10, "skipped_level_too_late")  # no 90 must come with it


TWO_TRICKS = [cards("QC QS QH QD"), cards("JS JC JD JH")]  # seat 0 takes the first, seat 1 the second


def test_ddv_lets_re_ride_along_with_no_90_and_says_so():
    deal = Deal(DDV, hands_of(*HANDS), "normal", leader=0)
    play_tricks(deal, TWO_TRICKS)
    assert deal.turn == 1 and len(deal.hands[0]) == 10
    shown = options(deal, 0)
    assert shown["re"][:2] == (False, "too_late")
    assert shown["no_90"] == (True, "rides_along", 10, "too_late")
    pagat = Deal(PAGAT, hands_of(*HANDS), "normal", leader=0)
    play_tricks(pagat, TWO_TRICKS)
    assert options(pagat, 0)["no_90"][:2] == (False, "too_late")  # pagat: each only after the preceding one


def test_a_reply_is_in_time_with_one_card_fewer():
    deal = Deal(DDV, hands_of(*HANDS), "normal", leader=0)
    deal.announce(0, "re")
    play_tricks(deal, TWO_TRICKS)
    shown = options(deal, 2)
    assert shown["kontra"] == (True, "reply_in_time", 10, "reply_too_late")
    with pytest.raises(RulesError) as error:
        deal.announce(2, "re")  # not his party's name
    assert error.value.code == "announcement_not_allowed"
    made = deal.announce(2, "kontra")
    assert (made.seat, made.party, made.id, made.cards_in_hand, made.trick) == (2, "kontra", "kontra", 10, 3)
    assert deal.public[2] == "kontra"


def test_outcome_scores_the_announcements_made():
    rng = random.Random(4)
    hands = deal_hands(rng, DDV)
    while len({s for s, h in enumerate(hands) for c in h if c == QUEEN_OF_CLUBS}) != 2:
        hands = deal_hands(rng, DDV)
    deal = Deal(DDV, hands, "normal", leader=1)
    re_seat = deal.parties.index("re")
    deal.announce(re_seat, "re")
    while not deal.over:
        deal.play(deal.legal()[0])
    assert deal.outcome() == deal.played().score("re", None)
    with pytest.raises(RulesError):
        Deal(DDV, hands, "normal", 1).outcome()


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), rule_sets(), st.integers(0, 47))
def test_the_public_course_is_the_deals(seed, rules, cut):
    """What the table can follow without seeing a hand (leaders, winners, the wedding's
    clarification and its solo) is what the deal decides."""
    played = random_deal(random.Random(seed), rules)
    holders = [s for s, h in enumerate(played.hands) if QUEEN_OF_CLUBS in h]
    groom = holders[0] if len(set(holders)) == 1 else None
    game = "wedding" if groom is not None else "normal"
    deal = Deal(rules, played.hands, game, played.leaders[0], declarer=groom)
    cards = [c for t in played.tricks for c in t][: cut % (4 * rules.tricks)]
    for card in cards:
        deal.play(card)
    tricks = [tuple(cards[i: i + 4]) for i in range(0, len(cards), 4)]
    course = public_course(rules, game, played.leaders[0], tricks, groom, deal.schweinchen_seat() is not None)
    assert course.winners == tuple(deal.winners)
    assert course.leaders[: len(deal.leaders)] == tuple(deal.leaders) and course.leaders[-1] == deal.leader
    assert (course.game, course.clarified) == (deal.game, deal.clarified)
    assert course.tables[-1].same_play(deal.table)


# --- The analysis's way of playing holds to the checked one ------------------------------------


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32), rule_sets(), st.sampled_from(["normal", "silent_wedding", "wedding", *SOLOS[2:]]))
def test_unchecked_play_on_copies_is_the_checked_play_of_a_fresh_deal(seed, rules, game):
    """``play_legal`` on copies of one deal (which share what each seat knows, worked out by
    the futures played before) leaves every copy as ``play`` leaves a deal of its own: the
    same legal cards, tricks, parties, knowledge, reveals and score, card by card."""
    rng = random.Random(seed)
    hands = deal_hands(rng, rules)
    holders = [s for s, h in enumerate(hands) if QUEEN_OF_CLUBS in h]
    if game in ("wedding", "silent_wedding") and len(set(holders)) != 1:
        game = "normal"
    elif game == "normal" and len(set(holders)) == 1:
        game = "silent_wedding"
    declarer = holders[0] if game in ("wedding", "silent_wedding") else int(rng.random() * 4)
    leader = int(rng.random() * 4)

    def fresh() -> Deal:
        return Deal(rules, hands, game, leader, declarer=None if game == "normal" else declarer)

    root = fresh()
    for _ in range(3):  # several futures of one deal, each against a deal of its own
        copied, own = root.copy(), fresh()
        while not own.over:
            legal = own.legal()
            assert copied.legal() == legal
            card = legal[int(rng.random() * len(legal))]
            copied.play_legal(card)
            own.play(card)
            assert copied.knowledge == own.knowledge
            assert (copied.hands, copied.holding, copied.trick, copied.best) == (own.hands, own.holding, own.trick,
                                                                               own.best)
            assert (copied.voids, copied.seen, copied.led) == (own.voids, own.seen, own.led)
        assert (copied.tricks, copied.winners, copied.game, copied.parties) == (own.tricks, own.winners, own.game,
                                                                              own.parties)
        for viewer in range(4):
            assert copied.reveals(viewer) == own.reveals(viewer)
            assert [copied.known_after(viewer, t) for t in range(own.count)] == [
                own.known_after(viewer, t) for t in range(own.count)]
        assert copied.outcome() == own.outcome() and copied.figures() == own.figures()
