"""The calculator in airplane mode: the worker keeps the page and its table of the engine's
answers, and the page's script scores a deal on the phone."""
from __future__ import annotations

import re
from html import unescape

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import SCREENSHOTS
from tests.browser.test_offline import ready

pytestmark = pytest.mark.service_worker


def table_kept(page) -> None:
    """Wait until the worker keeps the calculator's table of the engine's answers."""
    page.wait_for_function("""caches.keys().then((keys) => Promise.all(keys.map((k) => caches.open(k)
        .then((c) => c.keys())))).then((lists) => lists.flat().some((r) => r.url.includes('/score/table/')))""")


def offline_calculator(page, context) -> None:
    """The German calculator opened in airplane mode, after one online visit of the home page."""
    page.goto("/de/")
    ready(page)
    table_kept(page)
    # The page's icon link has no version, so the worker keeps it only once fetched online.
    page.evaluate("fetch('/static/icons/icon-192.png').then((r) => r.blob())")
    context.set_offline(True)
    page.goto("/de/score/")


def test_a_deal_is_scored_offline_as_the_server_scores_it(page, context):
    offline_calculator(page, context)
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
    table_kept(page)
    fetched = len(tables)
    assert fetched >= 1
    for path in ("/en/learn/", "/en/rules/", "/en/quiz/", "/en/"):
        page.goto(path)
        page.wait_for_load_state("networkidle")
    assert len(tables) == fetched, tables


def test_an_impossible_deal_offline_names_the_field_as_the_server_does(page, context):
    offline_calculator(page, context)
    # 151 card points cannot be had in two tricks: the message stands at Re's card points.
    page.fill("input[name=re_points]", "151")
    page.click(".calc__more summary")
    page.fill("input[name=re_tricks]", "2")
    expect(page.locator("#error-re_points")).to_contain_text("2 Stichen")
    expect(page.locator("input[name=re_points]")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#verdict")).to_have_text("Korrigiere das markierte Feld, um die Abrechnung zu sehen.")
    offline_points = page.locator("#error-re_points").inner_text()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("input[name=re_points]").evaluate("el => el.scrollIntoView({block: 'center'})")
    page.screenshot(path=str(SCREENSHOTS / "calculator-offline-field-message.png"))
    # Schwarz for Re, but a fox for Kontra, who took no trick: the message is the fox's.
    page.fill("input[name=re_tricks]", "")
    page.select_option("select[name=schwarz]", "re")
    page.select_option("select[name=kontra_fox]", "1")
    expect(page.locator("#error-kontra_fox")).not_to_be_empty()
    expect(page.locator("#error-re_points")).to_be_empty()
    expect(page.locator("input[name=re_points]")).not_to_have_attribute("aria-invalid", "true")
    offline_fox = page.locator("#error-kontra_fox").inner_text()
    # Online, the server says the same at the same fields (a 400, read without the page, whose
    # console would count the status as an error).
    context.set_offline(False)
    for query, field, said in (("re_points=151&re_tricks=2", "re_points", offline_points),
                               ("schwarz=re&kontra_fox=1", "kontra_fox", offline_fox)):
        response = page.request.get(f"/de/score/?{query}")
        assert response.status == 400
        online = re.search(rf'<p class="field-error" id="error-{field}">(.*?)</p>', response.text()).group(1)
        assert unescape(online) == said
