"""A deal played with the tutor in real Chromium on a phone: one whole deal by tapping, with
htmx swapping the table in place and as plain pages without JavaScript; no accessibility
violations; screenshots of a trick, an announcement prompt and the end."""
from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE, SCREENSHOTS, phone_page
from tests.browser.test_axe import violations
from tutor.play import position
from tutor.rules.rulesets import RuleSet

DDV = RuleSet.named("ddv")


def shot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"play-{name}.png"), full_page=True)


def announcing_seed() -> int:
    """A deal whose first turn offers the learner an announcement."""
    return next(s for s in range(500) if (p := position(DDV, s, "", 0)).turn and p.turn.announce)


def tap(page: Page, locator) -> None:
    """Tap a button and wait for the next state (its URL) to arrive, swapped or loaded."""
    before = page.url
    locator.first.click()
    page.wait_for_url(lambda url: url != before)


def play_deal(page: Page, shots: bool = False) -> None:
    seed = announcing_seed()
    page.goto(f"/en/play/?s={seed}&l=0&r=ddv")
    if shots:
        expect(page.get_by_text("You may announce")).to_be_visible()
        shot(page, "announce")
    tap(page, page.locator("button[name='announce']"))
    expect(page.locator(".play__said")).to_contain_text("You:")
    shot_trick = shots
    for _step in range(60):
        if page.get_by_role("heading", name="The deal is over").count():
            break
        checks = page.locator("button[name='w']")
        if checks.count():
            tap(page, checks)
            expect(page.locator(".play-verdict")).to_be_visible()
            continue
        if shot_trick and page.locator(".play-facts").count():
            shot(page, "trick")
            shot_trick = False
        tap(page, page.locator("button[name='card']:not([disabled])"))
    expect(page.get_by_role("heading", name="The deal is over")).to_be_visible()
    tap(page, page.locator("button[name='g']"))
    page.locator("#play-value").fill("1")
    tap(page, page.get_by_role("button", name="Check"))
    expect(page.get_by_role("table")).to_contain_text("Total")
    expect(page.get_by_role("link", name="Play this deal again")).to_be_visible()
    if shots:
        shot(page, "end")


def test_a_whole_deal_by_tapping_with_htmx(page: Page, axe_source: str):
    seed = announcing_seed()
    page.goto(f"/en/play/?s={seed}&l=0&r=ddv")
    assert violations(page, axe_source) == []
    loads: list[str] = []
    page.on("load", lambda: loads.append(page.url))
    play_deal(page, shots=True)
    assert loads == [page.url] or len(loads) <= 1  # the table swapped in place, no page loads
    assert violations(page, axe_source) == []


def test_a_whole_deal_by_tapping_without_javascript(browser: Browser, server: str):
    context = browser.new_context(viewport=PHONE, base_url=server, java_script_enabled=False,
                                  service_workers="block")
    page = context.new_page()
    play_deal(page)
    context.close()


def test_the_hand_works_by_keyboard(page: Page):
    page.goto(f"/en/play/?s={announcing_seed()}&l=0&r=ddv")
    first = page.locator("button[name='card']:not([disabled])").first
    first.focus()
    before = page.url
    page.keyboard.press("Enter")
    page.wait_for_url(lambda url: url != before)
    expect(page.locator("#play")).to_be_visible()


def test_no_violations_in_the_dark_on_a_question(browser: Browser, server: str, axe_source: str):
    with phone_page(browser, server, service_workers="block") as page:
        page.emulate_media(color_scheme="dark")
        page.goto(f"/de/play/?s={announcing_seed()}&l=0&r=ddv")
        assert violations(page, axe_source) == []
        wedding = next(s for s in range(3000) if (p := position(DDV, s, "", 1)).turn and p.turn.kind == "reserve")
        page.goto(f"/fr/play/?s={wedding}&l=1&r=ddv")  # a reservation to choose
        assert violations(page, axe_source) == []
