"""The calculator in airplane mode: the worker keeps the page and its table of the engine's
answers, and the page's script scores a deal on the phone."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_offline import ready

pytestmark = pytest.mark.service_worker


def test_a_deal_is_scored_offline_as_the_server_scores_it(page, context):
    page.goto("/de/")
    ready(page)
    page.wait_for_function("""caches.keys().then((keys) => Promise.all(keys.map((k) => caches.open(k)
        .then((c) => c.keys())))).then((lists) => lists.flat().some((r) => r.url.includes('/score/table/')))""")
    # The page's icon link has no version, so the worker keeps it only once fetched online.
    page.evaluate("fetch('/static/icons/icon-192.png').then((r) => r.blob())")
    context.set_offline(True)
    page.goto("/de/score/")
    expect(page.locator("h1")).to_have_text("Was zählt dieses Spiel?")
    page.fill("input[name=re_points]", "151")
    page.select_option("select[name=re_announced]", "re")
    expect(page.locator("#verdict")).to_contain_text("Re gewinnt.")
    expect(page.locator("#result")).to_contain_text("offline")
    offline_text = page.locator("#verdict").inner_text()
    # The same address online: the server's own answer reads the same.
    page.goto("/de/score/?re_points=151&re_announced=re")  # offline: the saved page reads the address
    expect(page.locator("#verdict")).to_have_text(offline_text)
    context.set_offline(False)
    page.goto("/de/score/?re_points=151&re_announced=re")
    expect(page.locator("#verdict")).to_have_text(offline_text)


def test_the_table_is_fetched_once_not_again_after_every_page(page, context):
    """The table's address is versioned: once the worker keeps it, later pages (each of which
    makes the worker check the languages it keeps) never fetch it again."""
    tables: list[str] = []
    context.on("request", lambda request: tables.append(request.url) if "/score/table/" in request.url else None)
    page.goto("/en/")
    ready(page)
    page.wait_for_function("""caches.keys().then((keys) => Promise.all(keys.map((k) => caches.open(k)
        .then((c) => c.keys())))).then((lists) => lists.flat().some((r) => r.url.includes('/score/table/')))""")
    fetched = len(tables)
    assert fetched >= 1
    for path in ("/en/learn/", "/en/rules/", "/en/quiz/", "/en/"):
        page.goto(path)
        page.wait_for_load_state("networkidle")
    assert len(tables) == fetched, tables
