"""Quick entry in a real Chromium at phone size: a deal entered by keyboard alone and one by
tap, the row previewed as it is filled in, a row that does not sum to zero refused on the
field, the totals checked against the rules module, and axe on the form."""
from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import SCREENSHOTS, phone_page
from tests.browser.test_axe import violations
from tests.browser.test_sheet import overflow_outside_scroll_regions, sheet_server, start_sheet, totals  # noqa: F401
from tutor.rules.rulesets import RuleSet
from tutor.rules.sheet import Deal, evening


@pytest.fixture
def phone(browser: Browser, sheet_server: str) -> Iterator[Page]:  # noqa: F811
    with phone_page(browser, sheet_server, service_workers="block") as page:
        yield page


def test_quick_deals_by_tap_and_by_keyboard(phone, axe_source):
    start_sheet(phone)  # four players, Bock rounds on
    phone.click("text=Quick entry")
    expect(phone.locator("h1")).to_have_text("Deal 1")
    expect(phone.locator("input[name=re]")).to_have_count(4)
    assert violations(phone, axe_source) == []

    # By tap: Bert and Dora were Re and won 3.
    phone.click(".re-players__list label:has-text('Bert')")
    phone.click("label:has-text('Re (in a solo')")
    phone.fill("input[name=value]", "3")
    expect(phone.locator("#quick-result")).to_contain_text("Tick the Re players")  # one Re player: no row yet
    phone.click(".re-players__list label:has-text('Dora')")
    expect(phone.locator("#quick-result")).to_contain_text("Re won, 3")  # the live preview
    expect(phone.locator("#quick-result li").nth(0)).to_have_text("Anna −3")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    phone.screenshot(path=str(SCREENSHOTS / "sheet-quick-form.png"), full_page=True)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    phone.click("text=Save deal")
    expect(phone.locator("h1")).to_have_text("Score sheet")
    assert totals(phone) == [-3, 3, -3, 3]

    # By keyboard alone: the main button now opens the quick form. Carl's queens solo, lost, 2.
    phone.locator("a.button", has_text="Enter deal 2").focus()
    phone.keyboard.press("Enter")
    expect(phone.locator("h1")).to_have_text("Deal 2")
    expect(phone.locator("#quick-form")).to_be_visible()
    phone.locator("select[name=game]").focus()
    phone.locator("select[name=game]").select_option("solo_queens")  # a select is chosen by keys as by tap
    phone.locator("input[name=re][value='2']").focus()
    phone.keyboard.press("Space")
    phone.locator("input[name=winner][value=re]").focus()
    phone.keyboard.press("ArrowDown")  # arrow keys move through the radio group: Kontra
    phone.keyboard.press("Tab")
    phone.keyboard.type("2")
    expect(phone.locator("input[name=winner][value=kontra]")).to_be_checked()
    expect(phone.locator("#quick-result")).to_contain_text("The opponents won, 2")
    phone.locator("input[name=value]").press("Enter")  # Enter in a field sends the form
    expect(phone.locator("h1")).to_have_text("Score sheet")
    deals = [Deal.quick_entry("normal", 0, (1, 3), "re", 3), Deal.quick_entry("solo_queens", 1, (2,), "kontra", 2)]
    assert totals(phone) == list(evening(RuleSet.named("ddv"), 4, deals, bock=True).totals)
    assert phone.locator("text=both checks pass").count() == 2
    assert "The opponents won, 2" in phone.locator("#deal-2").inner_text()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    assert overflow_outside_scroll_regions(phone) == []
    assert violations(phone, axe_source) == []
    phone.screenshot(path=str(SCREENSHOTS / "sheet-quick-sheet.png"), full_page=True)

    # The row opens the quick form again; the full calculator is one tap away.
    cell = phone.locator("#deal-1 > td").first  # any cell of the row: the row's one link covers it
    cell.evaluate("el => el.scrollIntoView({block: 'center'})")
    cell.click(force=True)  # the row link above it takes the click, as it should
    expect(phone.locator("input[name=value]")).to_have_value("3")
    phone.click("text=Count card points instead")
    expect(phone.locator("input[name=re_points]")).to_be_visible()


def test_a_row_that_does_not_sum_to_zero_is_refused_on_the_field(browser, sheet_server):  # noqa: F811
    # A context of its own: the refusal is a 400, which phone_page counts as a console error.
    context = browser.new_context(viewport={"width": 360, "height": 640}, base_url=sheet_server,
                                  service_workers="block")
    phone = context.new_page()
    start_sheet(phone)
    phone.click("text=Quick entry")
    phone.click(".re-players__list label:has-text('Bert')")
    phone.click("label:has-text('Re (in a solo')")
    phone.fill("input[name=value]", "3")
    phone.click("text=Save deal")
    expect(phone.locator("#error-re_players")).to_have_text(
        "The entries of this row sum to −6, not zero: tick exactly 2 Re players.")
    assert phone.locator("input[name=re]:checked").count() == 1  # what was typed is still there
    phone.screenshot(path=str(SCREENSHOTS / "sheet-quick-refused.png"), full_page=True)
    phone.click("text=Back to the sheet")
    assert phone.locator(".sheet-table tbody tr").count() == 0
    context.close()


def test_quick_entry_without_javascript(browser, sheet_server):  # noqa: F811
    context = browser.new_context(viewport={"width": 360, "height": 640}, base_url=sheet_server,
                                  java_script_enabled=False, service_workers="block")
    page = context.new_page()
    start_sheet(page)
    page.click("text=Quick entry")
    page.check("input[name=re][value='0']")
    page.check("input[name=re][value='1']")
    page.check("input[name=winner][value=kontra]")
    page.fill("input[name=value]", "4")
    page.check("input[name=bock]")
    page.click("text=Save deal")
    expect(page.locator("h1")).to_have_text("Score sheet")
    assert totals(page) == [-4, -4, 4, 4]
    assert "starts Bock" in page.locator("#deal-1").inner_text()
    context.close()


def test_the_quick_form_in_dark_mode_passes_axe(browser, sheet_server, axe_source):  # noqa: F811
    context = browser.new_context(viewport={"width": 360, "height": 640}, base_url=sheet_server,
                                  color_scheme="dark", service_workers="block")
    page = context.new_page()
    start_sheet(page)
    page.click("text=Quick entry")
    page.check("input[name=re][value='1']")
    page.check("input[name=re][value='2']")
    page.check("input[name=winner][value=re]")
    page.fill("input[name=value]", "1")
    expect(page.locator("#quick-result")).to_contain_text("Re won, 1")
    assert violations(page, axe_source) == []
    context.close()
