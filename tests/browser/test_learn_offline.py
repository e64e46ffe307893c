"""Lessons offline: an opened lesson is kept, "save all lessons" keeps every lesson of the
page's language and only that one, and the offline page lists what is saved."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_offline import ready
from tutor import lessons as L

pytestmark = pytest.mark.service_worker


def test_opened_lessons_are_kept_and_save_all_keeps_one_language(page, context):
    page.goto("/de/learn/")
    ready(page)
    page.goto("/de/learn/cards/2")
    title = L.lesson("cards").text("de").title
    expect(page.locator("h1")).to_have_text(title)
    context.set_offline(True)
    page.goto("/de/learn/cards/2")  # opened before: from the cache
    expect(page.locator("h1")).to_have_text(title)
    page.goto("/de/learn/tournament/2")  # never opened: the offline page, which lists what is kept
    expect(page.locator("h1")).to_have_text("Du bist offline")
    expect(page.locator("[data-saved-lessons]")).to_be_visible()
    expect(page.locator("[data-saved-none]")).to_be_hidden()
    context.set_offline(False)

    page.goto("/de/learn/")
    button = page.locator("[data-save-urls]")
    expect(button).to_be_visible()
    button.click()
    expect(page.locator("[data-save-status]")).to_have_text("Alle Lektionen sind auf diesem Gerät gespeichert.",
                                                            timeout=60_000)
    context.set_offline(True)
    for item in L.load_lessons():
        page.goto(f"/de/learn/{item.slug}/1")
        expect(page.locator("h1")).to_have_text(item.text("de").title)
    page.goto("/de/learn/words")
    expect(page.locator("#dulle")).to_be_visible()
    page.goto("/en/learn/cards/1")  # another language, never visited: the offline page kept
    expect(page.locator("h1")).to_have_text("Du bist offline")
    assert not page.evaluate("caches.match('/en/learn/cards/1', {ignoreVary: true}).then((r) => !!r)")
    page.goto("/de/offline")
    expect(page.locator("[data-lesson-url]:visible")).to_have_count(len(L.load_lessons()))
    context.set_offline(False)
