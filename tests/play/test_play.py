"""The play engine: whole deals by the computer and by a random human, the move encoding,
hostile move strings, the facts after each trick, reservations and announcements."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.play.helpers import DDV, RULES, check_legal, random_human
from tutor.play.deal import HUMAN, SEED_MAX, parse_level, parse_seed, play_bots, position, wedding_allowed
from tutor.play.moves import ANNOUNCEMENTS, MAX_MOVES, POVERTY_ANSWERS, RESERVATIONS, Move, decode_moves, encode_moves
from tutor.rules.announcements import may_announce
from tutor.rules.cards import IDS, POINTS, parse_card
from tutor.rules.errors import RulesError
from tutor.rules.explain import trick_reason
from tutor.rules.games import game_table
from tutor.rules.reservations import may_declare_poverty

POVERTY_RULES = DDV.with_options(poverty=True)


def check_deal(p):
    """A finished deal: complete, scored, zero-sum, every card legal (checked by the replay
    of its deal form and independently)."""
    assert p.turn is None and p.over
    result = p.result
    assert result is not None
    assert len(result.winners) == p.rules.tricks
    scores = result.score.scores
    assert sum(scores[party] for party in p.parties) == 0
    assert result.reads_back()
    check_legal(p)
    return result


# --- Whole deals ----------------------------------------------------------------------------


def test_ten_thousand_bot_deals():
    """Plain loop (hypothesis would spend the time budget on its own bookkeeping)."""
    games = set()
    for i in range(10_000):
        rules = RULES[i % len(RULES)]
        level = (i // len(RULES)) % 3
        p = play_bots(rules, (i * 2_654_435_761) % (SEED_MAX + 1), level)
        result = p.result
        assert result is not None and p.turn is None
        assert sum(result.score.scores[party] for party in p.parties) == 0
        assert result.reads_back()  # the deal form names who declared Schweinchen
        games.add(p.game)
    # Every kind of game came up.
    assert {"normal", "wedding", "silent_wedding", "poverty", "wedding_solo", "solo_diamonds", "solo_aces"} <= games


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, SEED_MAX), rules=st.sampled_from(RULES), level=st.sampled_from([0, 1, 2]))
def test_bot_deals_hypothesis(seed, rules, level):
    p = play_bots(rules, seed, level)
    check_deal(p)
    assert level >= 1 or p.game == "normal"
    assert level >= 2 or p.game in ("normal", "wedding", "wedding_solo", "silent_wedding")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, SEED_MAX),
    rules=st.sampled_from(RULES),
    level=st.sampled_from([0, 1, 2]),
    choices=st.randoms(use_true_random=False),
)
def test_random_human_deals(seed, rules, level, choices):
    p = random_human(rules, seed, level, choices, announce=0.2)
    check_deal(p)
    again = position(rules, seed, p.moves, level)  # the URL reproduces the end exactly
    assert again.result.deal_form == p.result.deal_form and again.result.score == p.result.score


def test_determinism():
    for seed in (0, 1, 12345, SEED_MAX):
        for rules in RULES:
            a, b = play_bots(rules, seed, 2), play_bots(rules, seed, 2)
            assert a.result.deal_form == b.result.deal_form
            assert a.announcements == b.announcements
        p = random_human(DDV, seed, 2, random.Random(seed))
        q = position(DDV, seed, p.moves, 2)
        assert (q.tricks, q.announcements, q.result.score) == (p.tricks, p.announcements, p.result.score)


def test_dealer_rotates_with_the_seed():
    assert [position(DDV, s, "").dealer for s in range(8)] == [0, 1, 2, 3, 0, 1, 2, 3]
    for s in range(8):
        p = position(DDV, s, "", level=0)
        assert p.first_leader == (p.dealer + 1) % 4


@pytest.fixture(scope="module")
def api():
    from app import create_app

    return create_app({"TESTING": True}).test_client()


def test_deal_form_scores_the_same_through_the_api(api):
    rng = random.Random(5)
    checked = 0
    for i in range(240):
        rules, level = RULES[i % len(RULES)], i % 3
        p = (
            play_bots(rules, rng.randint(0, SEED_MAX), level)
            if i % 2
            else random_human(rules, rng.randint(0, SEED_MAX), level, rng)
        )
        result = p.result
        response = api.post("/api/v1/score", data=json.dumps(result.deal_form), content_type="application/json")
        assert response.status_code == 200, response.get_json()
        assert response.get_json() == result.as_json()["score"]  # every deal, Schweinchen or not
        assert json.loads(json.dumps(result.as_json()))["deal"] == result.deal_form
        checked += 1
    assert checked == 240


# --- The move encoding ---------------------------------------------------------------------

ALL_MOVES = (
    [Move("card", c) for c in IDS]
    + [Move("announce", a) for a in ANNOUNCEMENTS]
    + [Move("reserve", r) for r in RESERVATIONS]
    + [Move("poverty", a) for a in POVERTY_ANSWERS]
)


@given(st.lists(st.sampled_from(ALL_MOVES), max_size=MAX_MOVES))
def test_moves_round_trip(moves):
    text = encode_moves(moves)
    assert len(text) == len(moves)
    assert decode_moves(text) == moves
    assert all(c.isascii() and (c.isalnum() or c in "-_") for c in text)  # URL-safe as it is


def test_every_move_has_its_own_character():
    assert len({encode_moves([m]) for m in ALL_MOVES}) == len(ALL_MOVES)


@pytest.mark.parametrize(
    "kind, value", [("card", "QX"), ("card", "qc"), ("announce", "no_120"), ("play", "QC"), ("reserve", "solo")]
)
def test_unknown_moves(kind, value):
    with pytest.raises(RulesError):
        Move(kind, value)


# --- Hostile input -------------------------------------------------------------------------


def hostile(rules, seed, moves, level=1):
    """Either a position or a RulesError: nothing else may come out."""
    try:
        return position(rules, seed, moves, level)
    except RulesError:
        return None


@settings(max_examples=300, deadline=None)
@given(
    st.text(max_size=40) | st.binary(max_size=40).map(lambda b: b.decode("latin-1")),
    st.integers(0, SEED_MAX),
    st.sampled_from(RULES),
    st.sampled_from([0, 1, 2]),
)
def test_garbage_moves(text, seed, rules, level):
    hostile(rules, seed, text, level)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, SEED_MAX),
    rules=st.sampled_from(RULES),
    level=st.sampled_from([0, 1, 2]),
    edits=st.lists(
        st.tuples(st.integers(0, 40), st.sampled_from([encode_moves([m]) for m in ALL_MOVES] + [""])), max_size=4
    ),
)
def test_tampered_moves(seed, rules, level, edits):
    """A real deal's moves with characters replaced, dropped or added: each result is a
    position or a RulesError."""
    moves = list(random_human(rules, seed, level, random.Random(seed)).moves)
    for index, char in edits:
        if moves:
            moves[index % len(moves)] = char
        else:
            moves.append(char)
    p = hostile(rules, seed, "".join(moves), level)
    if p is not None and p.over:
        check_deal(p)


def test_moves_past_the_end():
    p = random_human(DDV, 3, 1, random.Random(3))
    for extra in "A", "0", "g", "y":
        with pytest.raises(RulesError) as error:
            position(DDV, 3, p.moves + extra)
        assert error.value.code == "moves_past_end"
        assert error.value.field == f"m.{len(p.moves)}"


def test_illegal_and_absent_cards():
    for seed in range(40):
        p = position(DDV, seed, "", level=0)
        turn = p.turn
        assert turn.kind == "play"
        for card in IDS:
            if card in turn.options:
                continue
            with pytest.raises(RulesError) as error:
                position(DDV, seed, p.then(Move("card", card)), level=0)
            assert error.value.code == ("illegal_card" if card in turn.hand else "card_not_in_hand")
            assert error.value.field == "m.0"


def test_announcement_past_its_deadline():
    checked = 0
    for seed in range(30):
        moves = ""
        p = position(DDV, seed, moves, level=0)
        while p.turn and p.turn.cards_in_hand > 8:
            moves = p.then(Move("card", p.turn.options[0]))
            p = position(DDV, seed, moves, level=0)
        party = p.known[HUMAN]
        if p.turn is None or p.levels[party] is not None:
            continue
        for announcement in (party, "no_90", "no_60"):
            with pytest.raises(RulesError) as error:
                position(DDV, seed, p.then(Move("announce", announcement)), level=0)
            assert error.value.code == "announcement_not_allowed"
        wrong = "kontra" if party == "re" else "re"
        with pytest.raises(RulesError):
            position(DDV, seed, p.then(Move("announce", wrong)), level=0)
        checked += 1
    assert checked > 10


@pytest.mark.parametrize("value", ["", "-1", "abc", "2147483648", "1e5", "٣", None, 1.5, True, -3])
def test_bad_seeds(value):
    with pytest.raises(RulesError):
        parse_seed(value)


def test_bad_levels():
    for value in ("3", "", "x", None, 3, True):
        with pytest.raises(RulesError):
            parse_level(value)
    with pytest.raises(RulesError):
        position(DDV, 1, "", level=5)
    assert parse_seed("0042") == 42 and parse_level("2") == 2


# --- Reservations ------------------------------------------------------------------------


def seeds_where(condition, rules=DDV, level=1, count=3, limit=4000):
    found = []
    for seed in range(limit):
        p = position(rules, seed, "", level)
        if condition(p):
            found.append(seed)
            if len(found) == count:
                break
    assert found
    return found


def test_human_wedding_declared_or_silent():
    seeds = seeds_where(lambda p: p.turn.kind == "reserve" and "wedding" in p.turn.options, count=6)
    weddings = 0
    for seed in seeds:
        p = position(DDV, seed, "")
        assert p.turn.options == ("healthy", "wedding")
        wedding = position(DDV, seed, p.then(Move("reserve", "wedding")))
        if wedding.game != "wedding":
            continue  # another player's reservation went first
        weddings += 1
        assert wedding.declarer == HUMAN and wedding.known[HUMAN] == "re"
        assert wedding.turn.kind != "play" or wedding.turn.announce == ()  # nobody announces before clarification
        silent = position(DDV, seed, p.then(Move("reserve", "healthy")))
        assert silent.game == "silent_wedding" and silent.parties == ("re", "kontra", "kontra", "kontra")
        done = random_human(DDV, seed, 1, random.Random(seed))
        check_deal(done)
    assert weddings


def test_level_zero_deals_no_wedding():
    for seed in range(300):
        p = position(DDV, seed, "", level=0)
        assert p.game == "normal" and p.turn.kind == "play"
        assert sorted(p.parties) == ["kontra", "kontra", "re", "re"]


def test_human_solo():
    p = position(DDV, 11, "", level=2)
    assert p.turn.kind == "reserve" and "solo_queens" in p.turn.options
    solo = position(DDV, 11, p.then(Move("reserve", "solo_queens")), level=2)
    assert solo.game == "solo_queens" and solo.said[HUMAN] == "solo_queens"
    assert solo.declarer == HUMAN and solo.parties == ("re", "kontra", "kontra", "kontra")
    assert solo.known == solo.parties
    assert solo.first_leader == (solo.dealer + 1) % 4  # ddv: a voluntary solo, the dealer's left leads
    assert all(game_table("solo_queens", DDV).is_trump(parse_card(c)) for c in solo.hand[:4] if c[0] == "Q")


def test_solo_reservation_needs_level_two():
    p = position(DDV, 11, "", level=1)
    with pytest.raises(RulesError):
        position(DDV, 11, encode_moves([Move("reserve", "solo_queens")]), level=1)
    assert p.turn.kind in ("play", "reserve")


def test_human_poverty():
    def poor(p):
        return p.turn.kind == "reserve" and "poverty" in p.turn.options

    for seed in seeds_where(poor, POVERTY_RULES, level=2, limit=3000):
        p = position(POVERTY_RULES, seed, "", 2)
        assert may_declare_poverty([parse_card(c) for c in p.hand])
        q = position(POVERTY_RULES, seed, p.then(Move("reserve", "poverty")), 2)
        if q.game != "poverty":
            continue
        assert q.turn.kind == "poverty_pass" and q.turn.count == 3
        trumps = list(q.turn.must)
        # Once every card left to pick is needed for the trumps, only trumps are offered,
        # and a plain card is refused.
        plain = [c for c in q.turn.hand if c not in trumps]
        if len(trumps) == 3:
            assert set(q.turn.options) == set(trumps)
            with pytest.raises(RulesError):
                position(POVERTY_RULES, seed, q.then(Move("card", plain[0])), 2)
        while q.turn and q.turn.kind == "poverty_pass":
            still = [c for c in q.turn.must if c in q.turn.options and q.turn.must.count(c) > q.turn.chosen.count(c)]
            pick = (still or list(q.turn.options))[0]
            q = position(POVERTY_RULES, seed, q.then(Move("card", pick)), 2)
        assert q.poverty.poor == HUMAN and q.poverty.trumps_passed == len(trumps)
        assert len(q.poverty.passed) == 3 and sorted(trumps) == sorted(c for c in q.poverty.passed if c in trumps)
        if q.poverty.acceptor is not None:
            assert q.parties[HUMAN] == "re" and q.parties[q.poverty.acceptor] == "re"
        else:
            assert q.redeals == 1  # nobody took it: the same dealer deals again
        check_deal(random_human(POVERTY_RULES, seed, 2, random.Random(seed)))
        return
    pytest.fail("no seed where the human declares poverty")


def test_poverty_offered_to_the_human():
    def offered(p):
        return p.turn.kind == "poverty_accept" or (
            p.turn.kind == "reserve"
            and position(POVERTY_RULES, p.seed, p.then(Move("reserve", "healthy")), 2).turn.kind == "poverty_accept"
        )

    seed = seeds_where(offered, POVERTY_RULES, level=2, count=1, limit=6000)[0]
    p = position(POVERTY_RULES, seed, "", 2)
    if p.turn.kind == "reserve":
        p = position(POVERTY_RULES, seed, p.then(Move("reserve", "healthy")), 2)
    assert p.game == "poverty" and p.poverty.poor != HUMAN
    accepted = position(POVERTY_RULES, seed, p.then(Move("poverty", "accept")), 2)
    assert accepted.turn.kind == "poverty_return" and len(accepted.turn.options) >= 1
    assert len(accepted.turn.hand) == p.rules.tricks + 3  # his hand and the three cards taken
    moves = accepted.moves
    for _ in range(3):
        q = position(POVERTY_RULES, seed, moves, 2)
        moves = q.then(Move("card", q.turn.options[0]))
    q = position(POVERTY_RULES, seed, moves, 2)
    assert q.poverty.acceptor == HUMAN and len(q.poverty.returned) == 3
    assert q.parties[HUMAN] == "re" and q.parties[q.poverty.poor] == "re" and q.known == q.parties
    declined = position(POVERTY_RULES, seed, p.then(Move("poverty", "decline")), 2)
    assert declined.poverty is None or declined.poverty.acceptor != HUMAN


def test_bots_reserve_only_what_the_level_allows():
    for seed in range(400):
        assert play_bots(POVERTY_RULES, seed, 1).game in ("normal", "wedding", "wedding_solo", "silent_wedding")
        assert play_bots(DDV, seed, 2).game != "poverty"  # ddv without the option knows no poverty


# --- Announcements and the facts of each trick ----------------------------------------------


def test_announcement_options_are_the_engines():
    rng = random.Random(2)
    for i in range(60):
        rules = RULES[i % len(RULES)]
        seed = rng.randint(0, SEED_MAX)
        moves = ""
        passed_seen: list[str] = []
        while True:
            p = position(rules, seed, moves, 0)
            if p.turn is None:
                break
            turn = p.turn
            party = p.known[HUMAN]
            own, opponent = p.levels[party], p.levels["kontra" if party == "re" else "re"]
            assert [a.id for a in turn.announce] == may_announce(
                rules, "normal", party, turn.cards_in_hand, own, opponent
            )
            for option in turn.announce:
                assert option.until <= turn.cards_in_hand
                assert option.id in may_announce(rules, "normal", party, option.until, own, opponent)
                assert option.id not in may_announce(rules, "normal", party, option.until - 1, own, opponent)
            for gone in turn.deadlines_passed:
                assert gone not in passed_seen  # said once
                assert gone not in [a.id for a in turn.announce]
                passed_seen.append(gone)
            moves = p.then(Move("card", turn.options[-1]))
        if not p.announcements:
            assert party in passed_seen  # nobody announced: the level-0 deadline passed and was said


def test_trick_facts():
    rng = random.Random(9)
    for i in range(120):
        rules = RULES[i % len(RULES)]
        p = random_human(rules, rng.randint(0, SEED_MAX), i % 3, rng, 0.1)
        assert sum(t.points for t in p.tricks) == 240
        taken = {"re": 0, "kontra": 0}
        for t in p.tricks:
            assert t.points == sum(POINTS[parse_card(c.card)] for c in t.cards)
            assert t.cards[0].seat == t.leader
            last = t.number == rules.tricks
            table_rules = (
                rules
                if not rules.schweinchen or any(h.count("AD") == 2 for h in p.dealt)
                else rules.with_options(schweinchen=False)
            )
            reason = trick_reason(
                [c.card for c in t.cards],
                t.game,
                table_rules if t.game in ("normal", "wedding", "poverty") else rules,
                last,
            )
            assert t.reason == reason
            assert t.cards[reason.params["winner"]].seat == t.winner
            taken[p.parties[t.winner]] += t.points
            if t.running is not None:
                assert t.running == taken
            for reveal in t.reveals:
                assert p.parties[reveal.seat] == reveal.party  # a reveal is never wrong
        assert p.tricks[-1].running == taken  # at the end every party is known
        assert p.known == p.parties


def test_old_one_reveals_a_partner():
    found = 0
    for seed in range(200):
        p = play_bots(DDV, seed, 0)
        for t in p.tricks:
            for r in t.reveals:
                if r.cause == "old_one":
                    assert any(c.card == "QC" and c.seat == r.seat for c in t.cards)
                    found += 1
    assert found > 50


def test_silent_wedding_is_revealed_by_the_second_queen():
    seen = 0
    for seed in range(20_000):  # the bots keep both Q♣ quiet only with a diamonds-solo hand: rare
        if seen == 8:
            break
        p = play_bots(DDV, seed, 1)
        if p.game != "silent_wedding" or p.declarer == HUMAN:
            continue
        seen += 1
        queens = [t.number for t in p.tricks for c in t.cards if c.card == "QC"]
        reveals = {(r.cause, r.seat): t.number for t in p.tricks for r in t.reveals}
        others = [s for s in range(1, 4) if s != p.declarer]
        # The human learns the others' parties by the second Q♣ at the latest.
        for s in others:
            cause = next(c for c, seat in reveals if seat == s)
            assert reveals[cause, s] <= queens[1]
            assert cause in ("silent_wedding", "deduced", "announcement")
        if not p.announcements:
            assert reveals.get(("old_one", p.declarer)) == queens[0]
            assert all(reveals[("silent_wedding", s)] == queens[1] for s in others)
    assert seen == 8


def test_hand_is_sorted_trumps_first():
    p = position(DDV, 4, "", 0)
    table = game_table("normal", DDV)
    kinds = [table.is_trump(parse_card(c)) for c in p.hand]
    assert kinds == sorted(kinds, reverse=True)
    trumps = [c for c in p.hand if table.is_trump(parse_card(c))]
    assert [table.power[parse_card(c)] for c in trumps] == sorted(
        (table.power[parse_card(c)] for c in trumps), reverse=True
    )


def test_groom_with_both_foxes_plays_silently_under_the_schweinchen():
    """No consistent reading exists for a declared wedding whose groom's Schweinchen could
    decide the clarification, so that groom plays the wedding silently."""
    hand = [parse_card(c) for c in "QC QC AD AD JD 9D AS 10S KS 9S AH KH".split()]
    assert wedding_allowed(DDV, hand)
    assert not wedding_allowed(DDV.with_options(schweinchen=True), hand)
    assert wedding_allowed(DDV.with_options(schweinchen=True), hand[:3] + hand[4:])
    rules = DDV.with_options(schweinchen=True)
    grooms = 0
    for seed in range(1500):
        p = play_bots(rules, seed, 1)
        if p.declarer is not None and p.dealt[p.declarer].count("AD") == 2 and p.dealt[p.declarer].count("QC") == 2:
            assert p.game == "silent_wedding"
            grooms += 1
    assert grooms


def test_a_weddings_clarification_is_told_under_the_trick_that_clarified():
    """PLAY-REVIEW.md §4.2.1: the reveal was filed under the next trick, so the page named
    that trick's winner as the partner."""
    weddings = solos = 0
    for seed in range(40_000):  # the groom leads low to find his partner: wedding solos are rare
        if weddings > 20 and solos:
            break
        p = play_bots(DDV, seed, 1)
        if p.game == "wedding" and weddings > 20:
            continue
        if p.game not in ("wedding", "wedding_solo"):
            continue
        groom = p.declarer
        told = [t for t in p.tricks for r in t.reveals if r.cause in ("clarification", "wedding_solo")]
        if p.game == "wedding":
            partner = next(s for s in range(4) if p.parties[s] == "re" and s != groom)
            clarified = next(t for t in p.tricks if t.winner != groom)
            assert clarified.number <= 3 and clarified.winner == partner
            assert {t.number for t in told} == {clarified.number}
            if groom != HUMAN:
                assert any(r.seat == partner and r.party == "re" for r in clarified.reveals)
            weddings += 1
        else:
            assert [t.winner for t in p.tricks[:3]] == [groom] * 3
            assert {t.number for t in told} == {3}  # the third trick made it a solo, not the fourth
            solos += 1
    assert weddings > 20 and solos


def test_every_offer_and_every_passed_deadline_carries_its_rule():
    """PLAY-REVIEW.md §4.2.4: the page said "no 60: until you have 10 cards" with no word that
    the skipped no 90 is due then, and "too late for no 60" when only no 90 had passed."""
    rng = random.Random(12)
    skipped = rides = 0
    for i in range(60):
        rules = RULES[i % len(RULES)]
        seed = rng.randint(0, SEED_MAX)
        moves = ""
        while (p := position(rules, seed, moves, 0)).turn is not None:
            turn = p.turn
            for option in turn.announce:
                assert option.reason.code in ("in_time", "rides_along", "reply_in_time")
                closing = option.until_reason
                assert closing.code in ("too_late", "skipped_level_too_late", "reply_too_late")
                assert closing.params["needed"] == option.until  # closes exactly when it says
                skipped += closing.code == "skipped_level_too_late"
                rides += option.reason.code == "rides_along"
            assert len(turn.passed_reasons) == len(turn.deadlines_passed)
            for reason in turn.passed_reasons:
                assert reason.code in ("too_late", "skipped_level_too_late", "reply_too_late", "already_made")
                if reason.code == "skipped_level_too_late":
                    assert reason.params["missed"] < reason.params["level"]  # a lower level was missed
            moves = p.then(Move("card", turn.options[-1]))
    assert skipped and rides
