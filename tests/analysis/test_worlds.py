"""Worlds consistent with what one seat has seen: every sample fits every public fact, the
real deal is always one of them, and on small endgames the draws are uniform over the
deals that fit (an exact count against brute force, and a chi-square test that a biased
sampler fails)."""
from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.analysis.helpers import DDV, RULES, chi2_sf, finished, stopped
from tutor.analysis.view import Said, SeatView
from tutor.analysis.worlds import NoWorld, Worlds
from tutor.rules.cards import ACE_OF_DIAMONDS, QUEEN_OF_CLUBS, parse_card
from tutor.rules.deal import Deal
from tutor.rules.errors import RulesError
from tutor.rules.games import is_normal_type
from tutor.rules.terms import SEATS


def real_hands(deal: Deal) -> list[list[int]]:
    return [sorted(h) for h in deal.hands]


def holds_true(view: SeatView, worlds: Worlds, hands: list[list[int]], real: Deal) -> None:
    """A world as the seat would see it: its own hand, the right sizes, and a deal that
    replays every card and announcement so far, with the same public parties and the same
    knowledge for the seat."""
    seat = view.seat
    assert sorted(hands[seat]) == sorted(view.hand)
    assert [len(h) for h in hands] == [len(h) for h in real.hands]
    assert worlds.fits(hands)
    again = worlds.deal(hands)  # RulesError if a card or an announcement could not be made
    assert again.known(seat) == real.known(seat) and again.public == real.public
    assert again.legal() == real.legal()
    dealt = [Counter(again.dealt[s]) for s in range(SEATS)]
    if view.declared == "normal":
        assert all(d[QUEEN_OF_CLUBS] < 2 for d in dealt)  # nobody keeps a wedding to himself
        for said in view.announcements:
            party = view.announcer_party(said)
            if party is not None:
                assert (dealt[said.seat][QUEEN_OF_CLUBS] > 0) == (party == "re")
    if view.declared in ("wedding", "silent_wedding"):
        assert dealt[view.declarer][QUEEN_OF_CLUBS] == 2
    if view.rules.schweinchen and is_normal_type(view.declared):
        doubles = [s for s in range(SEATS) if dealt[s][ACE_OF_DIAMONDS] == 2]
        assert doubles == ([] if view.schweinchen is None else [view.schweinchen])
    for s in range(SEATS):
        assert not Counter(view.held[s]) - dealt[s]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**31 - 1), st.sampled_from(RULES), st.sampled_from([0, 1, 2]), st.data())
def test_every_world_fits_every_public_fact(seed, rules, level, data):
    deal = finished(rules, seed, level)
    cards = data.draw(st.integers(0, 4 * rules.tricks - 1))
    real = stopped(deal, cards)
    seat = real.turn
    view = SeatView.of(real, seat)
    # The real deal is one of the worlds, but for a silent wedding nobody has noticed yet: the
    # worlds take a "healthy" at its word (who holds both Q♣ declares the wedding), and may
    # then find none (a seat holding both A♦ undeclared under the Schweinchen, say).
    hidden = real.declared == "silent_wedding" and view.game == "normal"
    try:
        worlds = Worlds(view)
    except NoWorld:
        assert hidden
        return
    assert worlds.fits(real_hands(real)) != hidden
    rng = random.Random(seed)
    for _ in range(8):
        holds_true(view, worlds, worlds.sample(rng), real)


def test_the_same_seed_draws_the_same_worlds():
    real = stopped(finished(DDV, 7), 13)
    worlds = Worlds(SeatView.of(real, real.turn))
    first = [worlds.sample(random.Random(3)) for _ in range(3)]
    assert first == [worlds.sample(random.Random(3)) for _ in range(3)]
    rng = random.Random(3)
    assert len({repr(worlds.sample(rng)) for _ in range(20)}) > 15


# --- Uniform over the deals that fit, on small endgames ---------------------------------------


def brute_force(worlds: Worlds, real: Deal) -> Counter[tuple]:
    """Every deal of the unseen cards (each copy its own card) that replays the view and
    keeps every public fact, by trying them all; as world -> number of such deals."""
    view = worlds.view
    others = [s for s in range(SEATS) if s != view.seat]
    unseen = sorted((Counter(c for s in others for c in real.hands[s])).elements())
    sizes = [len(real.hands[s]) for s in others]
    found: Counter[tuple] = Counter()
    labels = range(len(unseen))
    for first in itertools.combinations(labels, sizes[0]):
        rest = [i for i in labels if i not in first]
        for second in itertools.combinations(rest, sizes[1]):
            third = [i for i in rest if i not in second]
            hands = [[] for _ in range(SEATS)]
            hands[view.seat] = sorted(view.hand)
            for s, picked in zip(others, (first, second, third)):
                hands[s] = sorted(unseen[i] for i in picked)
            try:
                again = worlds.deal(hands)
            except RulesError:
                continue
            dealt = [Counter(again.dealt[s]) for s in range(SEATS)]
            if view.declared == "normal" and any(d[QUEEN_OF_CLUBS] == 2 for d in dealt):
                continue
            if view.rules.schweinchen and is_normal_type(view.declared) and view.schweinchen is None:
                if any(d[ACE_OF_DIAMONDS] == 2 for d in dealt):
                    continue
            if any(Counter(view.held[s]) - dealt[s] for s in range(SEATS)):
                continue
            found[tuple(tuple(h) for h in hands)] += 1
    return found


def endgames(count: int):
    """Deals stopped late (10 or fewer unseen cards) whose worlds differ in weight."""
    found = 0
    for seed in range(4000):
        rules = RULES[seed % 2]
        deal = finished(rules, seed, 1)
        real = stopped(deal, 4 * rules.tricks - 11 + seed % 3)
        view = SeatView.of(real, real.turn)
        yield view, real
        found += 1
        if found == count:
            return


def chi_square(counts: Counter[tuple], expected: dict[tuple, float]) -> float:
    """The p-value of the draws against the expected probabilities (worlds expected fewer
    than 5 times pooled into one cell)."""
    n = sum(counts.values())
    stat, df, pooled_o, pooled_e = 0.0, -1, 0, 0.0
    for world, p in expected.items():
        e = n * p
        if e < 5:
            pooled_o += counts[world]
            pooled_e += e
            continue
        stat += (counts[world] - e) ** 2 / e
        df += 1
    if pooled_e:
        stat += (pooled_o - pooled_e) ** 2 / pooled_e
        df += 1
    return chi2_sf(stat, max(df, 1))


@pytest.mark.parametrize("case", range(3))
def test_draws_are_uniform_over_every_deal_that_fits(case):
    view, real = list(endgames(3))[case]
    worlds = Worlds(view)
    weights = brute_force(worlds, real)
    total = sum(weights.values())
    assert worlds.count == total  # the sampler counts exactly what brute force finds
    assert tuple(tuple(h) for h in real_hands(real)) in weights
    rng = random.Random(100 + case)
    draws = Counter(tuple(tuple(h) for h in worlds.sample(rng)) for _ in range(4000))
    assert set(draws) <= set(weights)
    assert chi_square(draws, {w: k / total for w, k in weights.items()}) > 0.001


def test_the_uniformity_check_catches_a_sampler_that_ignores_the_copies():
    """The same check fails a sampler that draws each distinct world equally often, where
    a world with both copies of a card in one hand is in truth half as likely."""
    for view, real in endgames(12):
        worlds = Worlds(view)
        weights = brute_force(worlds, real)
        if len(set(weights.values())) > 1 and len(weights) >= 6:
            break
    else:
        pytest.fail("no endgame with worlds of different weight")
    total = sum(weights.values())
    rng = random.Random(5)
    listed = sorted(weights)
    biased = Counter(listed[int(rng.random() * len(listed))] for _ in range(4000))
    assert chi_square(biased, {w: k / total for w, k in weights.items()}) < 0.001


# --- The constraints, one by one --------------------------------------------------------------


def hands_of(*rows: str) -> list[list[int]]:
    return [sorted(parse_card(c) for c in r.split()) for r in rows]


NORMAL = hands_of(
    "QC 10H JS AD 10D KD AS 10S AH KH 9C 9C",
    "QC 10H QS JC JH AC AC 10C KC 9S 9S KS",
    "QS QH QH QD JC JS JD JD AD 9D 9D KS",
    "QD JH 10D KD AS 10S KC 10C AH KH 9H 9H",
)


def draws(view: SeatView, n: int = 200, seed: int = 0) -> list[list[list[int]]]:
    worlds = Worlds(view)
    rng = random.Random(seed)
    return [worlds.sample(rng) for _ in range(n)]


def test_re_announced_means_a_queen_of_clubs_and_kontra_none():
    kontra = SeatView(DDV, "normal", 2, tuple(NORMAL[2]), 2, ((),), (Said(3, "kontra", 0),))
    for world in draws(kontra):
        assert QUEEN_OF_CLUBS not in world[3]
        assert world[0].count(QUEEN_OF_CLUBS) == world[1].count(QUEEN_OF_CLUBS) == 1
    re = SeatView(DDV, "normal", 1, tuple(NORMAL[1]), 1, ((),), (Said(0, "re", 0),))
    for world in draws(re):
        assert QUEEN_OF_CLUBS in world[0]  # the announcer holds the other Q♣
    limit = SeatView(DDV, "normal", 1, tuple(NORMAL[1]), 1, ((),), (Said(3, "no_90", 0, "re"),))
    for world in draws(limit):
        assert QUEEN_OF_CLUBS in world[3]  # "Re, no 90"


def test_nobody_holds_both_old_ones_in_a_normal_game():
    view = SeatView(DDV, "normal", 3, tuple(NORMAL[3]), 3, ((),))
    seen = Counter()
    for world in draws(view, 400):
        assert all(h.count(QUEEN_OF_CLUBS) < 2 for h in world)
        seen[tuple(s for s in range(3) if QUEEN_OF_CLUBS in world[s])] += 1
    assert set(seen) == {(0, 1), (0, 2), (1, 2)}


def test_the_groom_holds_both_old_ones_and_the_schweinchen_its_declarer():
    rules = DDV.with_options(schweinchen=True)
    hands = hands_of(
        "QC QC 10H 10H QS QS JS 10D KD AS AH KH",
        "QH JC JH AC AC 10C KC 9S 9S KS 9C 9C",
        "QH QD JC JS JD JD 9D 9D KS AD AD 10S",
        "QD JH 10D KD AS 10S KC 10C AH KH 9H 9H",
    )
    deal = Deal(rules, hands, "wedding", leader=0, declarer=0)
    assert deal.schweinchen_seat() == 2
    for world in draws(SeatView.of(deal, 0)):
        assert world[2].count(ACE_OF_DIAMONDS) == 2
    for world in draws(SeatView(rules, "wedding", 1, tuple(hands[1]), 1, ((),), (), 0, schweinchen=2)):
        assert world[0].count(QUEEN_OF_CLUBS) == 2 and world[2].count(ACE_OF_DIAMONDS) == 2
    plain = DDV.with_options(schweinchen=True)
    for world in draws(SeatView(plain, "normal", 3, tuple(NORMAL[3]), 3, ((),))):
        assert all(h.count(ACE_OF_DIAMONDS) < 2 for h in world)  # undeclared: nobody holds both


def test_a_poverty_shows_the_acceptor_what_he_gave_back_and_counts_the_trumps_said():
    for seed in range(3000):
        deal = finished(DDV.with_options(poverty=True), seed)
        if deal.declared == "poverty":
            break
    else:
        pytest.fail("no poverty")
    pv = deal.poverty
    real = stopped(deal, 0)
    view = SeatView.of(real, pv.acceptor)
    assert Counter(view.held[pv.poor]) == Counter(pv.returned)
    if real.turn == pv.acceptor:
        for world in draws(view, 50):
            assert not Counter(pv.returned) - Counter(world[pv.poor])
    said = SeatView(view.rules, "poverty", real.turn, tuple(real.hands[real.turn]), view.first_leader, ((),),
                    declarer=pv.poor, acceptor=pv.acceptor, trumps_returned=pv.trumps_returned)
    if real.turn != pv.poor:
        for world in draws(said, 50):
            assert sum(real.table.is_trump(c) for c in world[pv.poor]) == pv.trumps_returned


def cards(ids: str) -> tuple[int, ...]:
    return tuple(parse_card(c) for c in ids.split())


@pytest.mark.parametrize("field, change", [
    ("seat", {"seat": 0}),  # seat 1 leads
    ("hand", {"hand": tuple(NORMAL[1][:11])}),
    ("tricks.0.2", {"seat": 0, "first_leader": 2, "hand": cards("QC 10H JS AD 10D KD AS 10S AH KH 9C"),
                    "tricks": (cards("AC KC 9S 10C"), cards("QS JH"))}),  # a spade on clubs, holding a club
    ("tricks.0.0", {"tricks": (cards("AC AC AC"),), "seat": 0}),  # a third A♣ (two in the hand)
])
def test_a_view_no_deal_can_produce_names_the_field(field, change):
    base = {"rules": DDV, "game": "normal", "seat": 1, "hand": tuple(NORMAL[1]), "first_leader": 1, "tricks": ((),)}
    with pytest.raises(RulesError) as error:
        Worlds(SeatView(**{**base, **change}))
    assert error.value.field == field


def test_a_kontra_who_played_a_queen_of_clubs_is_no_world():
    view = SeatView(DDV, "normal", 2, tuple(NORMAL[2]), 1, (cards("QC"),), (Said(1, "kontra", 0),))
    with pytest.raises(NoWorld):
        Worlds(view)
