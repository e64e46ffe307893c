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
def test_the_service_worker_keeps_a_sheet_only_in_its_own_cache_and_never_an_edit_form(page):
    """A sheet's pages are private (no shared cache keeps them) but the phone's own worker
    keeps those to read the sheet and enter deals offline, in the cache of sheets; never a
    form that changes a deal, a file, or a write's answer."""
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
    sheet = page.url
    page.click("text=Enter deal 1")
    expect(page.locator("h1")).to_have_text("Deal 1")
    page.locator("input[name=re]").nth(0).check()
    page.locator("input[name=re]").nth(1).check()
    page.fill("input[name=re_points]", "130")
    expect(page.locator("#verdict")).to_contain_text("wins")
    page.click("text=Save deal")
    expect(page.locator("h1")).to_have_text("Score sheet")
    page.click("text=Undo deal 1")  # an edit form, opened: never kept
    expect(page.locator("h1")).to_have_text("Change deal 1")
    page.goto("/en/rules/")  # a page that is kept, so the cache has been written to by now
    page.wait_for_timeout(500)
    kept = page.evaluate("""caches.keys().then((names) => Promise.all(names.map((name) =>
        caches.open(name).then((cache) => cache.keys()).then((requests) => requests.map((r) => [name, r.url])))))
        .then((lists) => lists.flat())""")
    assert any(url.endswith("/en/rules/") for _name, url in kept)
    sheets = [(name, url) for name, url in kept if "/sheet/" in url]
    assert (("doko-sheets", sheet) in sheets) and all(name == "doko-sheets" for name, _url in sheets), sheets
    assert not [url for _name, url in sheets if re.search(r"/(deal|quick)/[0-9a-f]{12}|\.csv|\.json", url)], sheets
