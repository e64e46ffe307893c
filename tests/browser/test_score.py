"""The calculator in a real Chromium at phone size: the worked examples of RULES.md typed in
with htmx updating the answer, the same without JavaScript, errors next to the field."""
from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE, SCREENSHOTS
from tests.browser.test_axe import violations

# (fields to set, what the one-line answer says, the scoring lines as "name Re Kontra")
EXAMPLES = [
    ({"re_points": "156", "re_fox": "1", "kontra_doppelkopf": "1"}, "Re wins. Each Re player +2 Each Kontra player −2",
     ["won 1", "opponents below 90 1", "fox caught (Fuchs) 1", "Doppelkopf (a trick of 40 or more) 1"]),
    ({"re_points": "120"}, "Kontra wins. Each Re player −2 Each Kontra player +2",
     ["won 1", "against the old ones (die Alten) 1"]),
    ({"re_points": "125", "re_announced": "re", "kontra_announced": "kontra"},
     "Re wins. Each Re player +5 Each Kontra player −5",
     ["won 1", "“Re” announced 2", "“Kontra” announced 2"]),
    ({"re_points": "145", "re_announced": "no_90"}, "Kontra wins. Each Re player −5 Each Kontra player +5",
     ["won 1", "against the old ones (die Alten) 1", "“Re” announced 2", "“no 90” announced 1"]),
    ({"game": "solo_queens", "re_points": "190", "re_announced": "re"},
     "The soloist wins. The soloist +15 Each of the three opponents −5",
     ["won 1", "opponents below 90 1", "opponents below 60 1", "“Re” announced 2"]),
    ({"game": "solo_jacks", "re_points": "110"}, "The opponents win. The soloist −3 Each of the three opponents +1",
     ["won 1"]),
]


@pytest.fixture
def calc(browser: Browser, server: str) -> Iterator[Page]:
    """A phone page that fails on script errors; a 400 answer to impossible input is expected.
    No service worker: its background precaching is not what these tests look at."""
    context = browser.new_context(viewport=PHONE, base_url=server, locale="en-GB", service_workers="block")
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("console", lambda msg: problems.append(msg.text)
            if msg.type == "error" and "status of 400" not in msg.text else None)
    yield page
    context.close()
    assert not problems, problems


def fill(page: Page, fields: dict[str, str]) -> None:
    for name, value in fields.items():
        field = page.locator(f"[name={name}]")
        if field.evaluate("el => el.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)


def lines(page: Page) -> list[str]:
    return [re.sub(r"\s+", " ", row).strip() for row in page.locator("table.lines tbody tr").all_inner_texts()]


@pytest.mark.parametrize(("fields", "verdict", "expected_lines"), EXAMPLES)
def test_worked_examples_update_as_fields_change(calc, fields, verdict, expected_lines):
    calc.goto("/en/score/?rules=ddv")
    fill(calc, fields)
    expect(calc.locator("#verdict")).to_have_text(verdict)
    assert lines(calc) == expected_lines
    # The address bar now reproduces the result.
    assert "re_points=" + fields["re_points"] in calc.url
    calc.goto(calc.url)
    expect(calc.locator("#verdict")).to_have_text(verdict)


def test_without_javascript_the_form_still_scores(browser, server):
    context = browser.new_context(viewport={"width": 360, "height": 640}, base_url=server, java_script_enabled=False,
                                  service_workers="block")
    page = context.new_page()
    page.goto("/en/score/?rules=ddv")
    fill(page, {"game": "solo_queens", "re_points": "190", "re_announced": "re"})
    page.click("button[type=submit]")
    expect(page.locator("#verdict")).to_have_text("The soloist wins. The soloist +15 Each of the three opponents −5")
    assert "game=solo_queens" in page.url
    context.close()


def test_three_foxes_are_explained_next_to_the_field(calc, axe_source):
    calc.goto("/en/score/?rules=ddv")
    fill(calc, {"re_points": "130", "re_fox": "2", "kontra_fox": "1"})
    expect(calc.locator("#error-kontra_fox")).to_have_text("One deal cannot hold that many of these extra points.")
    expect(calc.locator("#verdict")).to_have_text("Correct the marked field to see the score.")
    fill(calc, {"kontra_fox": "0"})
    expect(calc.locator("#error-kontra_fox")).to_have_text("")
    expect(calc.locator("#verdict")).to_contain_text("Re wins.")


def test_250_points_are_explained_and_keyboard_only_works(calc):
    calc.goto("/en/score/?rules=ddv")
    calc.locator("select[name=game]").focus()
    calc.keyboard.press("Tab")
    calc.keyboard.type("250")
    expect(calc.locator("#error-re_points")).to_have_text("This must be a whole number from 0 to 240.")
    calc.keyboard.press("Backspace")
    calc.keyboard.press("Backspace")
    calc.keyboard.press("Backspace")
    calc.keyboard.type("200")
    expect(calc.locator("#kontra-points")).to_have_text("40")
    expect(calc.locator("#verdict")).to_contain_text("Re wins.")


def test_calculator_has_no_accessibility_violations(calc, axe_source, browser, server):
    calc.goto("/en/score/?rules=ddv&re_points=130&re_fox=2&kontra_fox=1")
    assert violations(calc, axe_source) == []
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    calc.goto("/de/score/?rules=ddv&re_points=156&re_fox=1&kontra_doppelkopf=1")
    assert violations(calc, axe_source) == []
    assert calc.evaluate("document.documentElement.scrollWidth") <= 360
    calc.screenshot(path=str(SCREENSHOTS / "score-de.png"))
    dark = browser.new_context(viewport={"width": 360, "height": 640}, base_url=server, color_scheme="dark",
                               service_workers="block")
    page = dark.new_page()
    page.goto("/en/score/?rules=ddv&re_points=130&re_fox=2&kontra_fox=1")
    assert violations(page, axe_source) == []
    dark.close()
