"""Every page in every language at 360 × 640: no sideways scrolling, big enough tap targets,
no layout shift; a screenshot of each for people to look at."""
from __future__ import annotations

import re

import pytest

from tests.browser.conftest import SCREENSHOTS
from tests.conftest import LANGUAGES, PAGES

TAP_TARGETS = (".tabs a, .top__settings, .button, .lang-menu summary, .choice, .toc a, .pills a, .tile, .brand, "
               ".ref-contents a, .ref-pager a, .ref-up a")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_fits_a_phone(page, lang):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for path in PAGES:
        page.goto(f"/{lang}/{path}")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, path
        small = page.evaluate(
            """(selector) => [...document.querySelectorAll(selector)]
                .filter((el) => el.offsetParent !== null)
                .map((el) => [el.textContent.trim().slice(0, 30), el.getBoundingClientRect()])
                .filter(([, box]) => box.height < 44 || box.width < 44)
                .map(([text, box]) => `${text}: ${box.width}x${box.height}`)""",
            TAP_TARGETS,
        )
        assert not small, (path, small)
        name = path.strip("/").replace("/", "-") or "home"
        page.screenshot(path=str(SCREENSHOTS / f"{lang}-{name}.png"))


def test_no_layout_shift_on_the_reference(page):
    page.goto("/de/rules/trumps")  # the section with the most cards drawn
    page.wait_for_timeout(300)
    shift = page.evaluate(
        """() => new Promise((resolve) => {
            let total = 0;
            new PerformanceObserver((list) => {
                for (const entry of list.getEntries()) if (!entry.hadRecentInput) total += entry.value;
            }).observe({type: "layout-shift", buffered: true});
            setTimeout(() => resolve(total), 200);
        })"""
    )
    assert shift < 0.01


def test_desktop_puts_the_navigation_on_top(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=server)
    page = context.new_page()
    page.goto("/en/rules/")
    nav = page.locator(".tabs").bounding_box()
    assert nav["y"] < 120
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    page.screenshot(path=str(SCREENSHOTS / "desktop-en-rules.png"))
    context.close()


def test_dark_scheme_is_dark(browser, server):
    context = browser.new_context(viewport={"width": 360, "height": 640}, base_url=server, color_scheme="dark")
    page = context.new_page()
    page.goto("/en/learn/")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(17, 24, 20)"
    page.screenshot(path=str(SCREENSHOTS / "dark-en-learn.png"), full_page=True)
    context.close()


def test_the_reference_prints_on_at_most_two_pages(page):
    page.goto("/en/rules/all")  # every section on one page, for printing
    page.emulate_media(media="print")
    pdf = page.pdf(format="A4")
    (SCREENSHOTS / "reference.pdf").write_bytes(pdf)
    pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
    assert 1 <= pages <= 2
