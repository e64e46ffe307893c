"""The rules reference in Chromium: an old address of the one-page reference (/<lang>/rules/#<anchor>)
lands on the section's own page; without JavaScript on the section's entry of the contents; the
pages lead from one to the next; a phone shows the contents and a section without sideways
scrolling (screenshots of both)."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, SCREENSHOTS
from tutor.web.base.reference import PAGES, PARTS


@pytest.mark.parametrize(("anchor", "lands"), [
    ("cards", "/en/rules/cards"), ("house-options", "/en/rules/house-options"),
    ("equal-cards", "/en/rules/tricks#equal-cards"), ("reservations", "/en/rules/parties#reservations"),
])
def test_an_old_anchor_of_the_one_page_reference_lands_on_its_section(page, anchor, lands):
    page.goto(f"/en/rules/#{anchor}")
    expect(page).to_have_url(re.compile(re.escape(lands) + "$"))
    expect(page.locator(f"#{anchor}")).to_be_visible()
    page.go_back()  # the contents were replaced, not stacked: back leaves the reference
    expect(page).not_to_have_url(re.compile(r"/en/rules/#"))


def test_a_hash_that_names_no_section_stays_on_the_contents(page):
    page.goto("/de/rules/#main")
    page.wait_for_timeout(300)
    expect(page).to_have_url(re.compile(r"/de/rules/#main$"))
    page.goto("/de/rules/#%E0%A4%A")  # not even a well-formed escape
    page.wait_for_timeout(300)
    expect(page.locator("h1")).to_have_text("Regelübersicht")


def test_a_new_hash_on_the_contents_goes_to_its_section_too(page):
    page.goto("/fr/rules/")
    page.evaluate("window.location.hash = 'winning'")
    expect(page).to_have_url(re.compile(r"/fr/rules/winning$"))


def test_without_javascript_an_old_anchor_shows_the_sections_entry(browser, server):
    context = browser.new_context(viewport=PHONE, base_url=server, java_script_enabled=False,
                                  service_workers="block")
    page = context.new_page()
    try:
        page.goto("/en/rules/#scoring")
        expect(page).to_have_url(re.compile(r"/en/rules/#scoring$"))
        entry = page.locator("#scoring")
        expect(entry).to_be_in_viewport()
        entry.locator("a").click()
        expect(page).to_have_url(re.compile(r"/en/rules/scoring$"))
        expect(page.locator("h1")).to_have_text("Scoring")
    finally:
        context.close()


def test_the_sections_lead_from_one_to_the_next_and_back_to_the_contents(page):
    page.goto("/en/rules/")
    page.click(f"#{PAGES[0]} a")
    for slug in PAGES[1:]:
        page.click(".ref-pager a[rel=next]")  # boosted by htmx
        expect(page).to_have_url(re.compile(rf"/en/rules/{slug}$"))
        expect(page.locator(f"section#{slug}")).to_be_attached()
    expect(page.locator(".ref-pager a[rel=next]")).to_have_count(0)
    page.click(".ref-pager__all a")
    expect(page).to_have_url(re.compile(r"/en/rules/$"))
    assert page.locator(".ref-contents > li").count() == len(PAGES)
    assert page.locator(".ref-contents__parts li").count() == len(PARTS)


@pytest.mark.parametrize("path", ["/en/rules/", "/en/rules/trumps", "/de/rules/announcements"])
def test_a_phone_shows_the_reference_without_sideways_scrolling(page, path):
    page.goto(path)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    name = path.strip("/").replace("/", "-")
    page.screenshot(path=str(SCREENSHOTS / f"reference-{name}.png"), full_page=True)
