"""POST /api/v1/analyse against API.md: a seat's view in, every distinct legal card judged out,
the same answer as the engine's analysis, reproducible; every bad field a 400 naming it; and
the deal form's schweinchen field."""
from __future__ import annotations

import copy
import json
import random

import pytest

from app import create_app
from tests.analysis.helpers import DDV, finished, stopped
from tutor.analysis.judge import analyse
from tutor.analysis.view import SeatView
from tutor.rules.cards import ACE_OF_DIAMONDS, card_id
from tutor.rules.deals import random_deal
from tutor.rules.rulesets import RuleSet


@pytest.fixture(scope="module")
def api():
    return create_app({"TESTING": True}).test_client()


def request_of(view: SeatView, samples: int = 20, seed: int = 3) -> dict:
    reservations = None
    if view.declared in ("wedding", "silent_wedding"):
        reservations = {view.declared: view.declarer}
    elif view.declared == "poverty":
        reservations = {"poverty": view.declarer, "returned": view.acceptor}
    elif view.declared != "normal":
        reservations = {"solo": view.declarer}
    if view.schweinchen is not None:
        reservations = {**(reservations or {}), "schweinchen": view.schweinchen}
    rules = view.rules
    return {
        "rules": {"ruleset": rules.ruleset, "options": rules.options()},
        "game": view.game, "seat": view.seat, "first_leader": view.first_leader,
        "hand": [card_id(c) for c in view.hand], "tricks": [[card_id(c) for c in t] for t in view.tricks],
        "announced": [{"seat": a.seat, "id": a.id, "party": a.party, "played": a.played} for a in view.announcements],
        "reservations": reservations, "samples": samples, "seed": seed,
    }


def post(api, body, **headers):
    return api.post("/api/v1/analyse", data=json.dumps(body), content_type="application/json", headers=headers)


def view_at(seed: int, cards: int, rules: RuleSet = DDV, level: int = 0) -> SeatView:
    real = stopped(finished(rules, seed, level), cards)
    return SeatView.of(real, real.turn)


@pytest.mark.parametrize("seed, cards", [(1003, 6), (1004, 0), (1005, 17), (1006, 30)])
def test_the_answer_is_the_engines_analysis(api, seed, cards):
    view = view_at(seed, cards)
    response = post(api, request_of(view))
    assert response.status_code == 200, response.get_json()
    answer = response.get_json()
    expected = analyse(view, 20, 3)
    assert answer["seat"] == view.seat and answer["samples"] == 20 and answer["party_known"] == view.party_known
    assert [c["card"] for c in answer["cards"]] == [card_id(c.card) for c in expected.cards]
    assert [c["verdict"] for c in answer["cards"]] == [c.verdict for c in expected.cards]
    assert [c["value"] for c in answer["cards"]] == [round(c.value, 4) for c in expected.cards]
    assert answer["best"] == [card_id(c) for c in expected.best]
    for entry in answer["cards"]:
        assert ("reason" in entry) == (entry["verdict"] in ("inaccuracy", "mistake", "blunder"))
    assert post(api, request_of(view)).get_json() == answer  # seeded: the same answer again


def test_the_api_md_shape_and_the_languages(api):
    view = view_at(1003, 6)
    body = request_of(view, samples=30)
    english = post(api, body).get_json()
    german = post(api, body, **{"Accept-Language": "de"}).get_json()
    assert set(english) >= {"seat", "samples", "party_known", "cards", "best"}
    assert [c["card"] for c in english["cards"]] == [c["card"] for c in german["cards"]]
    for en, de in zip(english["cards"], german["cards"]):
        assert set(en) >= {"card", "value", "error", "card_points", "loss", "verdict"}
        if "reason" in en:
            assert en["reason"]["code"] == de["reason"]["code"] and en["reason"]["message"] != de["reason"]["message"]


def test_equivalent_cards_come_once_with_same_as(api):
    for seed in range(1003, 1040):
        view = view_at(seed, 4)
        answer = post(api, request_of(view, samples=10)).get_json()
        listed = [c["card"] for c in answer["cards"]] + [x for c in answer["cards"] for x in c.get("same_as", [])]
        legal = {card_id(c) for c in view.hand}
        assert len(listed) == len(set(listed)) and set(listed) <= legal
        if any("same_as" in c for c in answer["cards"]):
            return
    pytest.fail("no decision with equivalent cards")


def test_a_wedding_a_solo_and_a_poverty_are_read_from_their_reservations(api):
    seen = set()
    rules = DDV.with_options(poverty=True)
    for seed in range(3000):
        deal = finished(rules, seed, 2)
        if deal.declared in seen or deal.declared == "normal":
            continue
        real = stopped(deal, 13)
        view = SeatView.of(real, real.turn)
        body = request_of(view, samples=10)
        response = post(api, body)
        assert response.status_code == 200, (deal.declared, response.get_json())
        seen.add(deal.declared)
        if {"wedding", "poverty"} <= seen and any(g.startswith("solo_") for g in seen):
            return
    pytest.fail(f"only {seen}")


BASE = None


def base() -> dict:
    global BASE
    if BASE is None:
        BASE = request_of(view_at(1003, 6), samples=10)
    return copy.deepcopy(BASE)


def changed(**change) -> dict:
    body = base()
    for key, value in change.items():
        if value is KeyError:
            del body[key]
        else:
            body[key] = value
    return body


@pytest.mark.parametrize("body, code, field", [
    (changed(seat=KeyError), "missing_field", "seat"),
    (changed(seat=4), "out_of_range", "seat"),
    (changed(seat=1), "not_to_play", "seat"),
    (changed(first_leader="1"), "bad_type", "first_leader"),
    (changed(samples=9), "out_of_range", "samples"),
    (changed(samples=1001), "out_of_range", "samples"),
    (changed(seed=-1), "out_of_range", "seed"),
    (changed(hand=[]), "out_of_range", "hand"),
    (changed(hand=["QX"]), "unknown_card", "hand.0"),
    (changed(tricks="9S"), "bad_type", "tricks"),
    (changed(tricks=[["9S", "KS", "AS"], ["9D"]]), "out_of_range", "tricks.0"),
    (changed(announced=[{"seat": 1, "id": "no_120"}]), "unknown_announcement", "announced.0.id"),
    (changed(announced=[{"seat": 1}]), "missing_field", "announced.0.id"),
    (changed(announced=[{"seat": 1, "id": "re", "party": "kontra"}]), "unknown_announcement", "announced.0.id"),
    (changed(announced=[{"seat": 1, "id": "re", "when": 3}]), "unknown_field", "announced.0.when"),
    (changed(reservations={"wedding": 2}), "reservation_does_not_fit", "reservations.wedding"),
    (changed(game="wedding"), "missing_field", "reservations.wedding"),
    (changed(game="solo_queens", reservations={"solo": 2, "returned": 1}), "reservation_does_not_fit",
     "reservations.returned"),
    (changed(reservations={"colour": 1}), "unknown_field", "reservations.colour"),
    (changed(verdict="best"), "unknown_field", "verdict"),
])
def test_a_bad_request_names_its_field(api, body, code, field):
    response = post(api, body)
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert (error["code"], error["field"]) == (code, field), error
    assert error["message"]


def test_a_view_no_deal_can_produce_is_a_400(api):
    body = base()
    body["hand"] = body["hand"][:-1]  # one card short
    assert post(api, body).get_json()["error"]["field"] == "hand"
    body = base()
    body["hand"] = ["QC", "QC"] + body["hand"][2:]  # both Q♣ in a normal game: he would know it is his wedding
    error = post(api, body).get_json()["error"]
    assert (error["code"], error["field"]) == ("no_world", "hand")
    body = base()
    body["tricks"][0][3], body["tricks"][0][2] = body["tricks"][0][2], body["tricks"][0][3]
    assert post(api, body).status_code in (200, 400)  # another course of the trick: a 400 or an answer, no 500
    body = base()
    body["hand"] = ["AS"] * 3 + body["hand"][3:]
    assert post(api, body).get_json()["error"]["code"] == "too_many_copies"


# --- The deal form's schweinchen -----------------------------------------------------------------


def deal_form(deal, rules: dict) -> dict:
    return {"rules": rules, "game": deal.game, "parties": list(deal.parties), "first_leader": deal.leaders[0],
            "tricks": [[card_id(c) for c in t] for t in deal.tricks]}


def schweinchen_deal():
    rules = RuleSet.named("ddv").with_options(schweinchen=True)
    for seed in range(4000):
        deal = random_deal(random.Random(seed), rules)
        doubles = [s for s, h in enumerate(deal.hands) if h.count(ACE_OF_DIAMONDS) == 2]
        if deal.game == "normal" and doubles:
            return deal, doubles[0]
    raise AssertionError("no Schweinchen")


def test_the_deal_forms_schweinchen_is_taken_as_given(api):
    deal, seat = schweinchen_deal()
    rules = {"ruleset": "ddv", "options": {"schweinchen": True}}
    body = deal_form(deal, rules)
    scored = api.post("/api/v1/score", json={**body, "schweinchen": seat})
    assert scored.status_code == 200 and scored.get_json()["trick_winners"] == list(deal.winners)
    wrong = api.post("/api/v1/score", json={**body, "schweinchen": (seat + 1) % 4}).get_json()["error"]
    assert (wrong["code"], wrong["field"]) in (("schweinchen_contradicted", "schweinchen"),
                                               ("illegal_card", wrong["field"]))
    nobody = api.post("/api/v1/score", json={**body, "schweinchen": None})
    assert nobody.status_code == 400
    off = api.post("/api/v1/score", json={**deal_form(deal, "ddv"), "schweinchen": seat}).get_json()["error"]
    assert (off["code"], off["field"]) == ("schweinchen_not_played", "schweinchen")
    plain = random_deal(random.Random(1), RuleSet.named("ddv"))
    assert api.post("/api/v1/score", json={**deal_form(plain, "ddv"), "schweinchen": None}).status_code == 200
