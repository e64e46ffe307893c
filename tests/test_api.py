"""The JSON API v1 against API.md: every example, every endpoint, good and bad input."""
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app import create_app
from tutor.rules.cards import card_id
from tutor.rules.deals import random_deal
from tutor.rules.rulesets import RuleSet


@pytest.fixture(scope="module")
def api():
    return create_app({"TESTING": True}).test_client()


def post(api, endpoint, body, **headers):
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return api.post(f"/api/v1/{endpoint}", data=data, content_type="application/json", headers=headers)


def ok(api, endpoint, body):
    response = post(api, endpoint, body)
    assert response.status_code == 200, response.get_json()
    assert response.content_type == "application/json; charset=utf-8"
    return response.get_json()


def bad(api, endpoint, body, code=None, field=None, **headers):
    response = post(api, endpoint, body, **headers)
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert set(error) == {"code", "message", "field"}
    assert error["message"]
    if code:
        assert error["code"] == code
    if field is not None:
        assert error["field"] == field
    return error


# --- API.md's examples, answered exactly as shown ------------------------------------------


def test_trick_example(api):
    body = {"rules": "ddv", "game": "normal", "cards": ["9D", "QC", "10H", "AD"], "last_trick": False}
    assert ok(api, "trick", body) == {"winner": 2, "points": 24, "trumps": [True, True, True, True]}


def test_legal_example(api):
    body = {"rules": "ddv", "game": "normal", "hand": ["AS", "9S", "QS", "KH"], "trick": ["10S"]}
    assert ok(api, "legal", body) == {"legal": ["AS", "9S"]}


def test_announcements_example(api):
    body = {"rules": "ddv", "game": "normal", "party": "kontra", "cards_in_hand": 10,
            "own": None, "opponent": "re", "wedding_clarified_in_trick": None}
    assert ok(api, "announcements", body) == {"allowed": ["kontra", "no_90", "no_60", "no_30", "schwarz"]}


def test_score_summary_example(api):
    body = {"rules": "ddv", "game": "normal", "re_points": 156, "re_tricks": 8,
            "announcements": {"re": None, "kontra": None},
            "extras": {"re": {"fox": 1}, "kontra": {"doppelkopf": 1}}}
    assert ok(api, "score", body) == {
        "winner": "re", "re_points": 156, "re_tricks": 8,
        "lines": [{"id": "won", "party": "re", "points": 1},
                  {"id": "below_90", "party": "re", "points": 1},
                  {"id": "fox", "party": "re", "points": 1},
                  {"id": "doppelkopf", "party": "kontra", "points": 1}],
        "value": 2, "scores": {"re": 2, "kontra": -2},
    }


# RULES.md §8 worked examples through the API.
@pytest.mark.parametrize(
    "game,re_points,re_tricks,announcements,scores",
    [
        ("normal", 120, 6, {}, {"re": -2, "kontra": 2}),
        ("normal", 125, 7, {"re": "re", "kontra": "kontra"}, {"re": 5, "kontra": -5}),
        ("normal", 145, 7, {"re": "no_90"}, {"re": -5, "kontra": 5}),
        ("solo_queens", 190, 10, {"re": "re"}, {"re": 15, "kontra": -5}),
        ("solo_jacks", 110, 5, {}, {"re": -3, "kontra": 1}),
    ],
)
def test_worked_examples(api, game, re_points, re_tricks, announcements, scores):
    body = {"rules": "ddv", "game": game, "re_points": re_points, "re_tricks": re_tricks,
            "announcements": announcements}
    assert ok(api, "score", body)["scores"] == scores


# --- more good input -------------------------------------------------------------------------


def test_rules_object_with_options(api):
    rules = {"ruleset": "ddv", "options": {"dullen": "second_wins"}}
    assert ok(api, "trick", {"rules": rules, "game": "normal", "cards": ["10H", "10H"]})["winner"] == 1
    last = {"rules": rules, "game": "normal", "cards": ["10H", "10H"], "last_trick": True}
    assert ok(api, "trick", last)["winner"] == 1
    rules["options"]["dullen"] = "second_wins_except_last"
    last = {"rules": rules, "game": "normal", "cards": ["10H", "10H"], "last_trick": True}
    assert ok(api, "trick", last)["winner"] == 0


def test_schweinchen_in_a_single_trick_means_declared(api):
    rules = {"ruleset": "pagat", "options": {"schweinchen": True}}
    assert ok(api, "trick", {"rules": rules, "game": "normal", "cards": ["10H", "AD"]})["winner"] == 1
    assert ok(api, "trick", {"rules": rules, "game": "solo_diamonds", "cards": ["10H", "AD"]})["winner"] == 0


def test_trick_of_one_card_and_plain_cards_in_an_aces_solo(api):
    assert ok(api, "trick", {"rules": "pagat", "game": "solo_aces", "cards": ["QC"]}) == {
        "winner": 0, "points": 3, "trumps": [False]}


def test_legal_when_leading_keeps_each_card_once(api):
    body = {"rules": "ddv", "game": "normal", "hand": ["AS", "AS", "QS"], "trick": []}
    assert ok(api, "legal", body) == {"legal": ["AS", "QS"]}
    del body["trick"]
    assert ok(api, "legal", body) == {"legal": ["AS", "QS"]}


def test_announcements_wedding_and_pagat(api):
    body = {"rules": "pagat", "game": "wedding", "party": "re", "cards_in_hand": 9,
            "own": None, "opponent": None, "wedding_clarified_in_trick": 2}
    assert ok(api, "announcements", body)["allowed"] == ["re", "no_90", "no_60", "no_30", "schwarz"]
    body["wedding_clarified_in_trick"] = 0
    assert ok(api, "announcements", body)["allowed"] == []
    body.update(rules="ddv", game="normal", wedding_clarified_in_trick=None, cards_in_hand=10)
    assert ok(api, "announcements", body)["allowed"] == ["no_90", "no_60", "no_30", "schwarz"]


def test_extras_are_ignored_in_a_solo(api):
    body = {"rules": "ddv", "game": "solo_aces", "re_points": 130, "re_tricks": 7,
            "extras": {"re": {"fox": 2}, "kontra": {"fox": 2, "doppelkopf": 1}}}
    assert ok(api, "score", body)["lines"] == [{"id": "won", "party": "re", "points": 1}]


def deal_body(deal, rules="ddv", announcements=None):
    return {"rules": rules, "game": deal.game, "parties": list(deal.parties), "first_leader": deal.leaders[0],
            "tricks": [[card_id(c) for c in t] for t in deal.tricks],
            "announcements": announcements or {"re": None, "kontra": None}}


def test_rules_default_to_ddv_and_tricks_follow_from_the_points(api):
    assert ok(api, "score", {"game": "normal", "re_points": 120})["scores"] == {"re": -2, "kontra": 2}
    schwarz = ok(api, "score", {"rules": "pagat", "game": "normal", "re_points": 240})
    assert schwarz["re_tricks"] == 12
    assert {"id": "schwarz", "party": "re", "points": 1} in schwarz["lines"]
    assert ok(api, "score", {"game": "normal", "re_points": 0})["re_tricks"] == 0
    assert 0 < ok(api, "score", {"game": "normal", "re_points": 5})["re_tricks"] < 12


def test_deal_form_returns_trick_winners(api):
    deal = random_deal(random.Random(1), RuleSet.named("ddv"))
    result = ok(api, "score", deal_body(deal))
    assert result["trick_winners"] == list(deal.winners)
    assert result["re_points"] == deal.re_points()


ANNOUNCED_RE = st.sampled_from([None, "re", "no_90", "no_60", "no_30", "schwarz"])
ANNOUNCED_KONTRA = st.sampled_from([None, "kontra", "no_90", "no_60", "no_30", "schwarz"])


@given(st.integers(0, 2**32), st.sampled_from(["ddv", "pagat"]), st.sampled_from([48, 40]),
       ANNOUNCED_RE, ANNOUNCED_KONTRA)
@settings(max_examples=60, deadline=None)
def test_a_random_legal_deal_through_the_deal_form_scores_as_the_engine(api, seed, name, deck, re_said, kontra_said):
    rules = RuleSet.named(name).with_options(deck=deck)
    deal = random_deal(random.Random(seed), rules)
    body = deal_body(deal, {"ruleset": name, "options": {"deck": deck}}, {"re": re_said, "kontra": kontra_said})
    result = ok(api, "score", body)
    expected = deal.score(re_said, kontra_said).as_dict()
    expected["trick_winners"] = list(deal.winners)
    assert result == expected
    # The summary form, fed the deal's own facts, gives the same lines.
    summary = {"rules": body["rules"], "game": deal.game, "re_points": deal.re_points(),
               "re_tricks": deal.re_tricks(), "announcements": body["announcements"], "extras": deal.extras()}
    del expected["trick_winners"]
    assert ok(api, "score", summary) == expected


def test_openapi_document(api):
    response = api.get("/api/v1/openapi.json")
    assert response.status_code == 200
    doc = response.get_json()
    assert doc["openapi"].startswith("3.1")
    assert set(doc["paths"]) >= {"/api/v1/trick", "/api/v1/legal", "/api/v1/announcements", "/api/v1/score"}
    # Every $ref resolves.
    refs = [m for m in json.dumps(doc).split('"$ref": "')[1:]]
    for ref in refs:
        name = ref.split('"')[0].rsplit("/", 1)[1]
        assert name in doc["components"]["schemas"]


# --- bad input: always a 400 with the error object, never a 500 ------------------------------

TRICK = {"rules": "ddv", "game": "normal", "cards": ["9D", "QC"]}


@pytest.mark.parametrize(
    "body,code,field",
    [
        ("{not json", "bad_json", None),
        ("", "bad_json", None),
        ("[1, 2]", "not_object", None),
        ('{"rules": NaN}', "bad_json", None),
        ({**TRICK, "cards": ["qc"]}, "unknown_card", "cards.0"),
        ({**TRICK, "cards": ["QC", "QC", "QC"]}, "too_many_copies", "cards.2"),
        ({**TRICK, "cards": []}, "out_of_range", "cards"),
        ({**TRICK, "cards": ["9D"] * 2 + ["9C"] * 3}, "out_of_range", "cards"),
        ({**TRICK, "cards": "QC"}, "bad_type", "cards"),
        ({**TRICK, "cards": [10]}, "unknown_card", "cards.0"),
        ({**TRICK, "game": "skat"}, "unknown_game", "game"),
        ({**TRICK, "game": "poverty"}, "poverty_not_played", "game"),
        ({**TRICK, "rules": "skat"}, "unknown_ruleset", "rules"),
        ({**TRICK, "rules": {"ruleset": "ddv", "options": {"bock": True}}}, "unknown_option", "rules.options.bock"),
        ({**TRICK, "rules": {"ruleset": "ddv", "options": {"deck": 32}}}, "bad_option_value", "rules.options.deck"),
        ({**TRICK, "rules": {"ruleset": "ddv", "options": {"schweinchen": 1}}}, "bad_option_value", None),
        ({**TRICK, "rules": {"ruleset": "ddv", "options": {"deck": 40}}, "cards": ["9D"]},
         "card_not_in_deck", "cards.0"),
        ({**TRICK, "last_trick": "yes"}, "bad_type", "last_trick"),
        ({**TRICK, "extra": 1}, "unknown_field", "extra"),
        ({"rules": "ddv", "cards": ["QC"]}, "missing_field", "game"),
    ],
)
def test_bad_trick_requests(api, body, code, field):
    bad(api, "trick", body, code, field)


@pytest.mark.parametrize(
    "body,code",
    [
        ({"rules": "ddv", "game": "normal", "hand": [], "trick": []}, "out_of_range"),
        ({"rules": "ddv", "game": "normal", "hand": ["AS"] * 13}, "out_of_range"),
        ({"rules": "ddv", "game": "normal", "hand": ["AS", "AS"], "trick": ["AS"]}, "too_many_copies"),
        ({"rules": "ddv", "game": "normal", "hand": ["AS"], "trick": ["KS", "KS", "9S", "9S"]}, "out_of_range"),
        ({"rules": "ddv", "game": "normal", "hand": ["XS"]}, "unknown_card"),
    ],
)
def test_bad_legal_requests(api, body, code):
    bad(api, "legal", body, code)


ANNOUNCE = {"rules": "ddv", "game": "normal", "party": "re", "cards_in_hand": 10, "own": None, "opponent": None}


@pytest.mark.parametrize(
    "change,code",
    [
        ({"cards_in_hand": 13}, "out_of_range"),
        ({"cards_in_hand": -1}, "out_of_range"),
        ({"cards_in_hand": 10.5}, "bad_type"),
        ({"cards_in_hand": "10"}, "bad_type"),
        ({"cards_in_hand": True}, "bad_type"),
        ({"rules": {"ruleset": "ddv", "options": {"deck": 40}}, "cards_in_hand": 11}, "out_of_range"),
        ({"party": "both"}, "unknown_party"),
        ({"own": "kontra"}, "unknown_announcement"),
        ({"opponent": "re"}, "unknown_announcement"),
        ({"own": "no_100"}, "unknown_announcement"),
        ({"wedding_clarified_in_trick": 2}, "wedding_only"),
        ({"game": "wedding", "wedding_clarified_in_trick": 4}, "out_of_range"),
        ({"game": "wedding"}, "missing_field"),
    ],
)
def test_bad_announcement_requests(api, change, code):
    bad(api, "announcements", {**ANNOUNCE, **change}, code)


SUMMARY = {"rules": "ddv", "game": "normal", "re_points": 130, "re_tricks": 7}


@pytest.mark.parametrize(
    "change,code",
    [
        ({"re_points": 250}, "out_of_range"),
        ({"re_points": -1}, "out_of_range"),
        ({"re_points": "130"}, "bad_type"),
        ({"re_tricks": 13}, "out_of_range"),
        ({"re_points": 0, "re_tricks": 12}, "points_do_not_fit_tricks"),
        ({"extras": {"re": {"fox": 3}}}, "out_of_range"),
        ({"extras": {"re": {"fox": 2}, "kontra": {"fox": 1}}}, "too_many_extras"),
        ({"extras": {"re": {"fuchs": 1}}}, "unknown_field"),
        ({"extras": {"both": {}}}, "unknown_field"),
        ({"extras": {"re": {"karlchen": 1}, "kontra": {"karlchen": 1}}}, "too_many_extras"),
        ({"extras": {"re": {"doppelkopf": 8}}}, "too_many_extras" if False else "extras_need_tricks"),
        ({"announcements": {"re": "kontra"}}, "unknown_announcement"),
        ({"announcements": {"third": None}}, "unknown_field"),
        ({"announcements": []}, "bad_type"),
        ({"tricks": []}, "illegal_combination"),
    ],
)
def test_bad_score_summaries(api, change, code):
    bad(api, "score", {**SUMMARY, **change}, code)


def test_bad_deals_name_the_card_at_fault(api):
    deal = random_deal(random.Random(2), RuleSet.named("ddv"))
    body = deal_body(deal)
    body["tricks"][3][1] = "QX"
    bad(api, "score", body, "unknown_card", "tricks.3.1")
    body = deal_body(deal)
    body["tricks"][0][0] = body["tricks"][0][1]
    bad(api, "score", body)  # a third copy, or a card played against suit: either is named
    body = deal_body(deal)
    body["tricks"] = body["tricks"][:-1]
    bad(api, "score", body, "wrong_count", "tricks")
    body = deal_body(deal)
    body["parties"] = ["re", "re", "re", "kontra"]
    bad(api, "score", body, "wrong_re_count", "parties")
    body = deal_body(deal)
    body["first_leader"] = 4
    bad(api, "score", body, "out_of_range", "first_leader")


def test_cards_played_against_suit_are_found(api):
    # Move a card from one seat to another: the seat that now holds it could often have
    # followed suit earlier, and the engine must say so.
    found = 0
    for seed in range(40):
        deal = random_deal(random.Random(seed), RuleSet.named("ddv"))
        body = deal_body(deal)
        trick = body["tricks"][-1]
        trick[1], trick[2] = trick[2], trick[1]
        response = post(api, "score", body)
        if response.status_code == 400:
            error = response.get_json()["error"]
            assert error["code"] == "illegal_card"
            assert error["field"].startswith("tricks.")
            found += 1
        else:
            assert response.status_code == 200
    assert found >= 10


def test_body_over_64_kib(api):
    bad(api, "trick", json.dumps({**TRICK, "pad": "x" * 70000}), "too_large")


def test_error_message_follows_accept_language(api):
    english = bad(api, "trick", "{", "bad_json")["message"]
    german = bad(api, "trick", "{", "bad_json", **{"Accept-Language": "de-DE,de;q=0.9"})["message"]
    assert english != german


def test_a_whole_float_is_an_integer_as_json_schema_says(api):
    allowed = ok(api, "announcements", {**ANNOUNCE, "cards_in_hand": 10.0})["allowed"]
    assert allowed == ["no_90", "no_60", "no_30", "schwarz"]


def test_wrong_method_and_unknown_path_answer_in_json(api):
    response = api.get("/api/v1/trick")
    assert response.status_code == 405
    assert response.get_json()["error"]["code"] == "method_not_allowed"
    assert response.headers["Allow"] == "OPTIONS, POST"
    assert api.open("/api/v1/score", method="TRACE").status_code == 405
    response = api.post("/api/v1/nothing", json={})
    assert response.status_code == 404
    assert response.get_json()["error"]["code"] == "not_found"


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
                    lambda children: st.lists(children, max_size=4)
                    | st.dictionaries(st.text(max_size=8), children, max_size=4),
                    max_leaves=12),
       st.sampled_from(["trick", "legal", "announcements", "score", "analyse"]))
@settings(max_examples=200, deadline=None)
def test_fuzzed_bodies_never_crash(api, body, endpoint):
    response = post(api, endpoint, body)
    assert response.status_code in (200, 400)


@given(st.fixed_dictionaries({}, optional={
    "rules": st.sampled_from(["ddv", "pagat", {"ruleset": "pagat"}, 1, None]),
    "game": st.sampled_from(["normal", "wedding", "solo_aces", 3]),
    "cards": st.lists(st.sampled_from(["QC", "10H", "9D", "AD", "x", 1]), max_size=5),
    "hand": st.lists(st.sampled_from(["QC", "10H", "9D", "AS", "KS"]), max_size=13),
    "trick": st.lists(st.sampled_from(["AS", "QC", "9C"]), max_size=4),
    "party": st.sampled_from(["re", "kontra", None]),
    "cards_in_hand": st.integers(-2, 14),
    "own": st.sampled_from([None, "re", "kontra", "no_90", "schwarz", 5]),
    "opponent": st.sampled_from([None, "re", "kontra", "no_60"]),
    "wedding_clarified_in_trick": st.sampled_from([None, 0, 1, 3, 5]),
    "re_points": st.integers(-5, 245),
    "re_tricks": st.integers(-1, 13),
    "extras": st.sampled_from([{}, {"re": {"fox": 1}}, {"kontra": {"karlchen": 1, "karlchen_caught": 1}}, None]),
}), st.sampled_from(["trick", "legal", "announcements", "score"]))
@settings(max_examples=300, deadline=None)
def test_near_valid_bodies_never_crash(api, body, endpoint):
    response = post(api, endpoint, body)
    assert response.status_code in (200, 400)
