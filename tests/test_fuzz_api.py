"""schemathesis over every operation of /api/v1/openapi.json, in process and seeded: no 5xx,
and every response as the document describes it (status, content type, body, headers)."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import allow_header_conformance, positive_data_acceptance, unsupported_method

from app import create_app

app = create_app({"TESTING": True})
schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)

# The schema cannot say everything the rules say (a card at most twice, four cards to a
# trick, points that add up): requests it allows may still get the documented 400.
NOT_OURS = [positive_data_acceptance]
# Issue 9, finding 4: a 405 has no Allow header, and OPTIONS advertises every method.
# Fixed in the web part; test_known_api_failures below fails once they are, then remove this.
KNOWN = [unsupported_method, allow_header_conformance]
FIXED_IN_THE_WEB_PART = (
    "issue 9, finding 4: 405 without Allow, OPTIONS lists undocumented methods; fixed in the web part"
)


@schema.parametrize()
@settings(
    max_examples=40,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)
def test_api_conforms_to_its_schema(case):
    # In process there is no HTTP client to undo the compression the app applies for clients that
    # accept it (the default headers of requests do): ask for the body as it is.
    response = case.call_and_validate(headers={"Accept-Encoding": "identity"}, excluded_checks=[*NOT_OURS, *KNOWN])
    assert response.status_code < 500


@pytest.mark.xfail(strict=True, reason=FIXED_IN_THE_WEB_PART)
@pytest.mark.parametrize("name", ["trick", "legal", "announcements", "score"])
def test_known_api_failures(name):
    client = app.test_client()
    wrong = client.open(f"/api/v1/{name}", method="PUT")
    options = client.open(f"/api/v1/{name}", method="OPTIONS")
    assert wrong.status_code == 405 and "POST" in wrong.headers.get("Allow", "")
    assert set(options.headers.get("Allow", "").replace(" ", "").split(",")) <= {"POST", "OPTIONS"}
