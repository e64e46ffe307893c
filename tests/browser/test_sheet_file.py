"""A sheet carried to another phone in a real Chromium at 360 px: downloaded as JSON on one,
imported on the other (with and without JavaScript) with the same totals, and a damaged
file refused with its reason on the start page."""
from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE, SCREENSHOTS, phone_page, serving
from tests.browser.test_axe import violations
from tests.browser.test_sheet import enter, start_sheet, totals

PLAYS = [((1, 3), {"re_points": "156", "re_fox": "1"}), ((2,), {"game": "solo_queens", "re_points": "190"}),
         ((0, 2), {"re_points": "120"})]


@pytest.fixture(scope="module")
def file_server(tmp_path_factory) -> Iterator[str]:
    folder: Path = tmp_path_factory.mktemp("sheet-files")
    with serving({"DATABASE_URL": f"sqlite:///{folder}/sheets.sqlite3"}) as url:
        yield url


@pytest.fixture
def phone(browser: Browser, file_server: str) -> Iterator[Page]:
    with phone_page(browser, file_server, service_workers="block") as page:
        yield page


@pytest.fixture(scope="module")
def sheet_file(browser: Browser, file_server: str, tmp_path_factory) -> tuple[Path, list[int]]:
    """A sheet of three deals downloaded as JSON on the first phone, with its totals."""
    with phone_page(browser, file_server, service_workers="block") as page:
        start_sheet(page)
        for re_players, fields in PLAYS:
            page.click("text=Enter deal")
            enter(page, re_players, fields)
        with page.expect_download() as download:
            page.click("text=Download as JSON")
        path = tmp_path_factory.mktemp("download") / download.value.suggested_filename
        download.value.save_as(path)
        return path, totals(page)


def test_a_sheet_downloaded_on_one_phone_is_imported_on_another(phone, sheet_file, axe_source):
    path, expected = sheet_file
    assert path.name.startswith("doko-sheet-") and path.name.endswith("-anna-bert-carl-dora.json")
    assert json.loads(path.read_text())["format"] == "doko-tutor-sheet"
    phone.goto("/en/sheet/")
    assert violations(phone, axe_source) == []
    phone.locator("input[name=sheet]").set_input_files(path)
    phone.locator(".sheet-import").scroll_into_view_if_needed()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    phone.screenshot(path=str(SCREENSHOTS / "sheet-import-form.png"), full_page=True)
    phone.get_by_role("button", name="Import the sheet").click()
    expect(phone.locator("h1")).to_have_text("Score sheet")
    expect(phone.locator("text=Enter deal 4")).to_be_visible()
    assert totals(phone) == expected
    phone.screenshot(path=str(SCREENSHOTS / "sheet-imported.png"), full_page=True)
    phone.locator(".sheet-links").screenshot(path=str(SCREENSHOTS / "sheet-imported-links.png"))
    phone.goto("/en/sheet/")
    expect(phone.locator(".my-sheets")).to_contain_text("Anna, Bert, Carl, Dora")


def test_the_import_works_without_javascript(browser, file_server, sheet_file):
    path, expected = sheet_file
    context = browser.new_context(viewport=PHONE, base_url=file_server, java_script_enabled=False,
                                  service_workers="block")
    page = context.new_page()
    page.goto("/de/sheet/")
    page.locator("input[name=sheet]").set_input_files(path)
    page.get_by_role("button", name="Zettel importieren").click()
    expect(page.locator("h1")).to_have_text("Spielzettel")
    assert totals(page) == expected
    context.close()


def test_a_damaged_file_is_refused_on_the_start_page(browser, file_server, sheet_file, axe_source, tmp_path):
    doc = json.loads(sheet_file[0].read_text())
    doc["deals"][1]["re_players"] = [0, 2]  # a solo with two soloists
    damaged = tmp_path / "damaged.json"
    damaged.write_text(json.dumps(doc))
    # A context of its own: the 400 is logged by the browser, which phone_page counts as a failure.
    context = browser.new_context(viewport=PHONE, base_url=file_server, service_workers="block")
    phone = context.new_page()
    script_errors: list[str] = []
    phone.on("pageerror", lambda error: script_errors.append(str(error)))
    phone.goto("/en/sheet/")
    phone.locator("input[name=sheet]").set_input_files(damaged)
    phone.get_by_role("button", name="Import the sheet").click()
    error = phone.locator("#error-import")
    expect(error).to_contain_text("Deal 2 cannot be on this sheet:")
    expect(error).to_contain_text("Nothing was imported.")
    expect(phone.locator("input[name=sheet]")).to_be_focused()
    assert violations(phone, axe_source) == []
    error.scroll_into_view_if_needed()
    phone.screenshot(path=str(SCREENSHOTS / "sheet-import-refused.png"))
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert script_errors == []
    context.close()


def test_a_file_over_a_megabyte_gets_the_form_again_with_the_reason(browser, file_server, tmp_path):
    big = tmp_path / "big.json"
    big.write_text(" " * (3 * 1024 * 1024))
    context = browser.new_context(viewport=PHONE, base_url=file_server, service_workers="block")
    phone = context.new_page()
    phone.goto("/en/sheet/")
    phone.locator("input[name=sheet]").set_input_files(big)
    phone.get_by_role("button", name="Import the sheet").click()
    expect(phone.locator("#error-import")).to_have_text(
        "The file is too large for a sheet file (at most 1 MB). Nothing was imported.")
    context.close()
