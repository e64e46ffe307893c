"""Every HTML form and query string of the app, fuzzed: no 5xx, no traceback in any response.

The routes come from `app.url_map`, the forms and links from the pages the app renders
(tests/fuzzing.py); the requests are seeded, so a failure names a request that reproduces.

KNOWN_500S are the 500s that issue 9 (finding 1) lists and that the web part of that issue
fixes by using tutor/parse.py in the views. Each has a reproduction below, marked as an
expected failure (strict: it fails the suite once the bug is gone, so the entry is removed
then). Any other 5xx, or any traceback shown, fails the fuzz test.
"""

from __future__ import annotations

from collections import Counter
from urllib.parse import quote

import pytest

from app import create_app
from tests.fuzzing import EXPENSIVE, Fuzzer, in_process, matcher, parse_page, problems, routes_of

SEED = 20261201
REQUESTS = 400

# (exception, where in the project it was raised) -> what goes wrong there. Fixed in the web part.
KNOWN_500S = {
    (
        "ValueError",
        "tutor.web.score.form:_number",
    ): "calculator and deal-form numbers: '--1' passes lstrip('-').isdigit(), then int() fails",
    (
        "ValueError",
        "tutor.web.score.sheet:_version",
    ): "the sheet forms' version: '²' passes isdigit(), then int() fails",
    ("ValueError", "tutor.web.score.sheet:read_deal"): "the deal form's dealer: '²' passes isdigit()",
    ("ValueError", "tutor.web.score.sheet:<genexpr>"): "the deal form's Re players: '²' passes isdigit()",
    ("ValueError", "tutor.web.score.sheet:create"): "the new sheet's first dealer: '²' passes isdigit()",
    ("ValueError", "tutor.web.quiz.views:_int_arg"): "the quiz's ?q= and ?l=: '²' passes isdigit()",
    ("ValueError", "tutor.quiz.base:canonical"): "quiz number answers: '--1' passes, then a bare ValueError",
}
FIXED_IN_THE_WEB_PART = "issue 9, finding 1: a 500 from a number field, fixed in the web part"


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


KNOWN_REPRODUCTIONS = [
    pytest.param("calculator", id="score ?re_points=--1"),
    pytest.param("version", id="deal version=²"),
    pytest.param("dealer", id="deal ?dealer=²"),
    pytest.param("re", id="deal ?re=²"),
    pytest.param("first_dealer", id="new sheet first_dealer=²"),
    pytest.param("quiz_q", id="quiz ?q=²"),
    pytest.param("quiz_l", id="quiz ?l=²"),
    pytest.param("quiz_answer", id="quiz points=--1"),
]


@pytest.mark.xfail(strict=True, reason=FIXED_IN_THE_WEB_PART)
@pytest.mark.parametrize("case", KNOWN_REPRODUCTIONS)
def test_known_500(fuzz_app, sheet_url, case):
    client = fuzz_app.test_client()
    same_site = {"Sec-Fetch-Site": "same-origin"}
    sup = quote("²")
    if case == "calculator":
        response = client.get("/en/score/?re_points=--1")
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
    assert response.status_code < 500
