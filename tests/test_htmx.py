"""htmx: fragments only for plain htmx requests, whole pages otherwise, Vary on HX-Request."""
from __future__ import annotations

import pytest
from flask import Flask

from tutor.web.base.htmx import is_partial

HX = {"HX-Request": "true"}


@pytest.mark.parametrize(
    ("headers", "partial"),
    [
        ({}, False),
        (HX, True),
        ({**HX, "HX-Boosted": "true"}, False),
        ({**HX, "HX-History-Restore-Request": "true"}, False),
        ({"HX-History-Restore-Request": "true"}, False),
        ({"HX-Request": "false"}, False),
    ],
)
def test_is_partial(app: Flask, headers, partial):
    with app.test_request_context("/en/settings", headers=headers):
        from flask import request

        assert is_partial(request) is partial


def test_settings_fragment_for_plain_htmx_request(client):
    html = client.get("/en/settings", headers=HX).get_data(as_text=True)
    assert html.lstrip().startswith('<div id="settings"')
    assert "<html" not in html


@pytest.mark.parametrize("extra", [{"HX-Boosted": "true"}, {"HX-History-Restore-Request": "true"}])
def test_boosted_and_history_restore_get_the_whole_page(client, extra):
    html = client.get("/en/settings", headers={**HX, **extra}).get_data(as_text=True)
    assert html.startswith("<!doctype html>")


@pytest.mark.parametrize("url", ["/en/", "/en/rules/", "/en/settings", "/manifest.webmanifest", "/sw.js"])
def test_vary_on_hx_request(client, url):
    assert "HX-Request" in client.get(url).headers["Vary"]


def test_htmx_is_vendored_pinned_and_configured_for_a_strict_csp(client, app):
    assert app.config["HTMX_FILE"].startswith("htmx-2.0.")
    html = client.get("/en/").get_data(as_text=True)
    assert f"/static/vendor/{app.config['HTMX_FILE']}" in html
    with client.get(f"/static/vendor/{app.config['HTMX_FILE']}") as response:
        assert response.status_code == 200
    config = html.split('<meta name="htmx-config" content=\'')[1].split("'")[0]
    import json

    config = json.loads(config)
    assert config["includeIndicatorStyles"] is False
    assert config["allowEval"] is False
    assert config["historyRestoreAsHxRequest"] is False
    assert config["historyCacheSize"] == 0
    assert '<body hx-boost="true">' in html


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (None, "HX-Request, HX-Boosted, HX-History-Restore-Request"),
        ("Accept-Encoding", "Accept-Encoding, HX-Request, HX-Boosted, HX-History-Restore-Request"),
        ("Cookie, hx-request", "Cookie, hx-request, HX-Boosted, HX-History-Restore-Request"),  # named already
        ("Accept-Encoding,HX-Request,hx-boosted,HX-HISTORY-RESTORE-REQUEST",
         "Accept-Encoding,HX-Request,hx-boosted,HX-HISTORY-RESTORE-REQUEST"),
    ],
)
def test_vary_names_each_htmx_header_once_and_keeps_what_was_there(before, after):
    from flask import Response

    from tutor.web.base.htmx import add_vary

    response = Response("x")
    if before is not None:
        response.headers["Vary"] = before
    assert add_vary(response).headers["Vary"] == after
