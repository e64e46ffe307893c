"""Issue 9 in a real browser: the settings keep both halves of a choice with and without
JavaScript, and the service worker keeps no copy of a score sheet."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, SCREENSHOTS


def _pagat_then_an_option_then_save(page, shot: str) -> None:
    page.goto("/en/settings")
    page.check("input[type=radio][name=ruleset][value=pagat]")
    page.check("input[name=deck][value='40']")
    page.click("text=Save house options")
    expect(page.locator(".notice")).to_be_visible()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / shot), full_page=True)
    page.reload()
    expect(page.locator("input[type=radio][name=ruleset][value=pagat]")).to_be_checked()
    expect(page.locator("input[name=deck][value='40']")).to_be_checked()
    expect(page.locator("input[name=poverty][value=true]")).to_be_checked()  # pagat's own choice
    page.goto("/en/rules/")
    expect(page.locator(".rules-note")).to_contain_text("Classic rules (pagat)")
    expect(page.locator(".rules-note")).to_contain_text("40 cards (without nines)")


def test_pagat_then_a_house_option_then_save_keeps_both_with_javascript(page):
    page.evaluate("1")  # JavaScript runs here: htmx posts the form and swaps the block
    _pagat_then_an_option_then_save(page, "settings-js.png")


def test_pagat_then_a_house_option_then_save_keeps_both_without_javascript(browser, server):
    context = browser.new_context(viewport=PHONE, base_url=server, java_script_enabled=False,
                                  service_workers="block")
    try:
        _pagat_then_an_option_then_save(context.new_page(), "settings-nojs.png")
    finally:
        context.close()


@pytest.mark.service_worker
def test_the_service_worker_keeps_no_copy_of_a_sheet(page):
    page.goto("/en/")
    page.evaluate("navigator.serviceWorker.ready")
    if not page.evaluate("!!navigator.serviceWorker.controller"):
        page.reload()
        page.wait_for_function("!!navigator.serviceWorker.controller")
    page.goto("/en/sheet/")
    for index, name in enumerate(["Anna", "Bert", "Carl", "Dora"]):
        page.locator("input[name=player]").nth(index).fill(name)
    page.locator("form[action$='/sheet/'] button[type=submit]").last.click()
    expect(page).to_have_url(re.compile(r"/en/sheet/[\w-]{22}$"))
    page.goto("/en/rules/")  # a page that is kept, so the cache has been written to by now
    page.wait_for_timeout(300)
    kept = page.evaluate("""caches.keys().then((names) => Promise.all(names.map((name) =>
        caches.open(name).then((cache) => cache.keys()).then((requests) => requests.map((r) => r.url)))))
        .then((lists) => lists.flat())""")
    assert any(url.endswith("/en/rules/") for url in kept)
    assert not [url for url in kept if "/sheet/" in url], kept
