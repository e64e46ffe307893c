"""Every HTML form and query string of the app, fuzzed: no 5xx, no traceback in any response.

The routes come from `app.url_map`, the forms and links from the pages the app renders
(tests/fuzzing.py); the requests are seeded, so a failure names a request that reproduces.

The number fields that once gave a 500 (issue 9, finding 1: "²" passing `isdigit()`, "--1"
passing `lstrip("-").isdigit()`) each have a reproduction below that asks for the field's
own message and a 400. Any 5xx, or any traceback shown, fails the fuzz test.
"""

from __future__ import annotations

import re
from collections import Counter
from urllib.parse import quote

import pytest

from app import create_app
from tests.fuzzing import EXPENSIVE, Fuzzer, in_process, matcher, parse_page, problems, routes_of

SEED = 20261201
REQUESTS = 400

# (exception, where in the project it was raised) -> what goes wrong there. Empty: a 500 found
# by the fuzzer is a bug to fix, and its reproduction belongs with the tests below.
KNOWN_500S: dict[tuple[str, str], str] = {}


@pytest.fixture
def fuzz_app(tmp_path):
    # Not TESTING: an exception becomes the 500 page a visitor would see (the transport keeps it).
    return create_app({"DATABASE_URL": f"sqlite:///{tmp_path}/fuzz.sqlite3"})


def test_every_form_and_query_string(fuzz_app):
    fetch = in_process(fuzz_app)
    routes = routes_of(fuzz_app)
    fuzzer = Fuzzer(fetch, routes, matcher(fuzz_app), seed=SEED)
    fuzzer.discover(per_endpoint=2)

    form_targets = {fuzzer.endpoint_of(f.method, f.action) for f in fuzzer.forms}
    for endpoint in (
        "score.calculator",
        "settings.save",
        "sheet.create",
        "sheet.add_deal",
        "sheet.new_deal",
        "sheet.update_deal",
        "sheet.edit_deal",
        "sheet.delete_deal",
        "quiz.answer_kind",
        "quiz.answer_mixed",
        "quiz.answer_daily",
    ):
        assert endpoint in form_targets, f"the crawl found no form for {endpoint}"

    unexpected: list[str] = []
    known: Counter[tuple[str, str]] = Counter()
    reached: set[str] = set()
    statuses: Counter[int] = Counter()
    # The quiz pack takes seconds to make and reads no query string; bench/fuzz.py asks for it.
    for request in fuzzer.requests(REQUESTS, expensive_at_most=0):
        response = fetch(request)
        statuses[response.status] += 1
        reached.add(request.target.split(" ")[0])
        found = problems(request, response)
        if not found:
            continue
        if response.status >= 500 and response.error in KNOWN_500S and found == ["500"]:
            known[response.error] += 1
            continue
        unexpected.append(f"{', '.join(found)} {response.error or ''} [{request.target}] {request.describe()}")

    missed = {r.endpoint for r in routes} - reached - EXPENSIVE
    assert not missed, f"never fuzzed: {sorted(missed)}"
    assert statuses[200] > REQUESTS // 10, f"too few requests got through: {statuses}"
    report = "\n".join(f"  known ({n}×): {where} - {KNOWN_500S[where]}" for where, n in known.most_common())
    assert not unexpected, "\n".join(unexpected[:30]) + ("\n" + report if report else "")


@pytest.fixture
def sheet_url(fuzz_app):
    """A sheet's edit link (its key) in English."""
    client = fuzz_app.test_client()
    response = client.post(
        "/en/sheet/",
        data={"player": ["Anna", "Ben", "Cleo", "Dirk"], "ruleset": "ddv", "first_dealer": "0"},
        headers={"Sec-Fetch-Site": "same-origin"},
    )
    assert response.status_code == 303, response.status_code
    return response.headers["Location"].split("?")[0]


def _quiz_token(client, kind):
    forms, _ = parse_page(f"/en/quiz/{kind}", client.get(f"/en/quiz/{kind}").get_data(as_text=True))
    return next(f.value for form in forms for f in form.fields if f.name == "token")


NUMBER_FIELDS = [
    pytest.param("calculator", "Please enter a whole number.", id="score ?re_points=--1"),
    pytest.param("calculator_sign", "Please enter a whole number.", id="score ?re_points=+-1"),
    pytest.param("version", "This form is damaged", id="deal version=²"),
    pytest.param("dealer", "Please choose one of the values offered.", id="deal ?dealer=²"),
    pytest.param("re", "Please choose one of the values offered.", id="deal ?re=²"),
    pytest.param("first_dealer", "Please choose one of the values offered.", id="new sheet first_dealer=²"),
    pytest.param("quiz_q", "its question number is not valid", id="quiz ?q=²"),
    pytest.param("quiz_l", "its level must be a whole number", id="quiz ?l=²"),
    pytest.param("quiz_answer", "That answer does not fit the question.", id="quiz points=--1"),
]


@pytest.mark.parametrize(("case", "message"), NUMBER_FIELDS)
def test_a_bad_number_is_the_fields_message_and_a_400(fuzz_app, sheet_url, case, message):
    client = fuzz_app.test_client()
    same_site = {"Sec-Fetch-Site": "same-origin"}
    sup = quote("²")
    if case == "calculator":
        response = client.get("/en/score/?re_points=--1")
    elif case == "calculator_sign":
        response = client.get("/en/score/?re_points=%2B-1")
    elif case == "version":
        response = client.post(f"{sheet_url}/deal", data={"version": "²", "dealer": "0"}, headers=same_site)
    elif case == "dealer":
        response = client.get(f"{sheet_url}/deal?dealer={sup}")
    elif case == "re":
        response = client.get(f"{sheet_url}/deal?dealer=0&re={sup}")
    elif case == "first_dealer":
        response = client.post(
            "/en/sheet/",
            data={"player": ["A", "B", "C", "D"], "ruleset": "ddv", "first_dealer": "²"},
            headers=same_site,
        )
    elif case == "quiz_q":
        response = client.get(f"/en/quiz/winner?q={sup}")
    elif case == "quiz_l":
        response = client.get(f"/en/quiz/winner?q=1&l={sup}")
    else:
        response = client.post("/en/quiz/points", data={"token": _quiz_token(client, "points"), "points": "--1"})
    html = response.get_data(as_text=True)
    assert response.status_code == 400, response.status_code
    assert message in html
    assert "Traceback" not in html


def test_a_bad_number_saves_nothing(fuzz_app, sheet_url):
    client = fuzz_app.test_client()
    same_site = {"Sec-Fetch-Site": "same-origin"}
    before = client.get(sheet_url).get_data(as_text=True)
    version = re.search(r'name="version" value="(\d+)"', client.get(f"{sheet_url}/deal").get_data(as_text=True))
    assert version
    for bad in ({"dealer": "²"}, {"re": ["0", "²"]}, {"re_fox": "--1"}, {"re_points": "①"}):
        data = {"version": version.group(1), "dealer": "0", "re": ["0", "1"], "re_points": "121", **bad}
        response = client.post(f"{sheet_url}/deal", data=data, headers=same_site)
        assert response.status_code == 400, (bad, response.status_code)
    assert client.get(sheet_url).get_data(as_text=True) == before


def test_a_500_is_logged_with_its_traceback(fuzz_app, caplog):
    @fuzz_app.get("/en/boom")
    def boom():
        raise RuntimeError("a bug on purpose")

    with caplog.at_level("ERROR"):
        response = fuzz_app.test_client().get("/en/boom")
    assert response.status_code == 500
    assert "Traceback" not in response.get_data(as_text=True)
    logged = [r for r in caplog.records if r.exc_info and r.exc_info[1] is not None]
    assert logged and "a bug on purpose" in str(logged[0].exc_info[1])
    assert "RuntimeError: a bug on purpose" in caplog.text
