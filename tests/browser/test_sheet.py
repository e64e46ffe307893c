"""A whole evening on the score sheet in a real Chromium at phone size: eight deals entered
through the calculator's fields, one edited and one deleted, the totals checked against the
rules module, and the read-only link followed on a second phone."""
from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE, SCREENSHOTS, phone_page, serving
from tests.browser.test_axe import violations
from tutor.rules.rulesets import RuleSet
from tutor.rules.sheet import Deal, evening

PLAYERS = ["Anna", "Bert", "Carl", "Dora"]

# The evening: (Re players by index, fields of the calculator). Bock rounds are on.
EVENING = [
    ((1, 3), {"re_points": "156", "re_fox": "1", "kontra_doppelkopf": "1"}),
    ((2,), {"game": "solo_queens", "re_points": "190", "re_announced": "re"}),
    ((0, 2), {"re_points": "120"}),  # a tie: Bock for the next four deals
    ((1, 2), {"re_points": "125", "re_announced": "re", "kontra_announced": "kontra"}),
    ((0, 3), {"re_points": "145", "re_announced": "no_90"}),  # a lost "Re": another Bock round
    ((3,), {"game": "solo_jacks", "re_points": "110"}),
    ((0, 1), {"re_points": "200", "re_karlchen": "1"}),
    ((2, 3), {"schwarz": "re"}),
]


@pytest.fixture(scope="module")
def sheet_server(tmp_path_factory) -> Iterator[str]:
    """The app with its own SQLite file."""
    folder: Path = tmp_path_factory.mktemp("sheets")
    with serving({"DATABASE_URL": f"sqlite:///{folder}/sheets.sqlite3"}) as url:
        yield url


@pytest.fixture
def phone(browser: Browser, sheet_server: str) -> Iterator[Page]:
    with phone_page(browser, sheet_server, service_workers="block") as page:
        yield page


def start_sheet(page: Page) -> str:
    page.goto("/en/sheet/")
    for field, name in zip(page.locator("input[name=player]").all(), PLAYERS):
        field.fill(name)
    page.check("input[name=bock]")
    page.click("text=Start the sheet")
    expect(page.locator("h1")).to_have_text("Score sheet")
    return page.url


def enter(page: Page, re_players: tuple[int, ...], fields: dict[str, str]) -> None:
    """Fill the deal form the way a player would, wait for the preview, save."""
    expect(page.locator("h1")).to_contain_text(re.compile("[Dd]eal"))  # hx-boost swaps pages in: wait for it
    for box in page.locator("input[name=re]").all():
        box.set_checked(int(box.get_attribute("value")) in re_players)
    page.select_option("select[name=game]", fields.get("game", "normal"))
    for name, value in fields.items():
        if name == "game":
            continue
        field = page.locator(f"[name={name}]")
        if field.evaluate("el => el.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    expect(page.locator("#verdict")).to_contain_text("win")  # the preview answered
    page.click("text=Save deal")
    expect(page.locator("h1")).to_have_text("Score sheet")


def tap(page: Page, cell, touch: bool = False) -> None:
    """Tap a cell as a finger would: at its middle, once it stands in the middle of the screen
    (clear of the bar at the bottom; at six and seven players the table scrolls sideways under
    its sticky first column to bring the cell in). Playwright's own click refuses, rightly:
    the row's link covers the cell."""
    cell.evaluate("el => el.scrollIntoView({block: 'center', inline: 'center'})")
    box = cell.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    if touch:
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)


def totals(page: Page) -> list[int]:
    cells = page.locator("tfoot td.num").all_inner_texts()
    return [int(c.strip().replace("\u2212", "-")) for c in cells]


def expected_totals(plays: list[tuple[tuple[int, ...], dict[str, str]]]) -> list[int]:
    deals = []
    for re_players, fields in plays:
        points = 240 if fields.get("schwarz") == "re" else int(fields["re_points"])
        tricks = 12 if points == 240 else 6
        extras: dict[str, dict[str, int]] = {}
        for name, value in fields.items():
            party, _, extra = name.partition("_")
            if party in ("re", "kontra") and extra in ("fox", "doppelkopf", "karlchen"):
                extras.setdefault(party, {})[extra] = int(value)
        deals.append(Deal(fields.get("game", "normal"), points, tricks, 0, re_players,
                          fields.get("re_announced"), fields.get("kontra_announced"), extras))
    return list(evening(RuleSet.named("ddv"), 4, deals, bock=True).totals)


def test_an_evening_with_an_edit_and_a_delete(phone, browser, sheet_server, axe_source):
    start_sheet(phone)
    assert violations(phone, axe_source) == []
    for number, (re_players, fields) in enumerate(EVENING, start=1):
        phone.click(f"text=Enter deal {number}")
        if number == 1:
            assert violations(phone, axe_source) == []
        enter(phone, re_players, fields)
    assert totals(phone) == expected_totals(EVENING)
    assert phone.locator("text=both checks pass").count() == 8
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    phone.screenshot(path=str(SCREENSHOTS / "sheet-evening.png"), full_page=True)

    # Deal 3 was 121, not 120: no tie, so no Bock round from it.
    tap(phone, phone.locator("#deal-3 td").first)  # a tap anywhere on the row opens the deal
    expect(phone.locator("input[name=re_points]")).to_have_value("120")
    enter(phone, (0, 2), {"re_points": "121"})
    plays = list(EVENING)
    plays[2] = ((0, 2), {"re_points": "121"})
    assert totals(phone) == expected_totals(plays)

    # Deal 6 was entered by mistake: delete it.
    tap(phone, phone.locator("#deal-6 .deal-cell"))
    phone.click("text=Delete this deal")
    phone.click("text=Delete deal 6")
    expect(phone.locator("h1")).to_have_text("Score sheet")
    del plays[5]
    assert totals(phone) == expected_totals(plays)
    assert phone.locator(".sheet-table tbody tr").count() == 7
    assert violations(phone, axe_source) == []

    # A second phone follows the read-only link and sees the same sheet.
    view_url = phone.locator("input[readonly]").first.input_value()
    other = browser.new_context(viewport=PHONE, service_workers="block")
    follower = other.new_page()
    follower.goto(view_url)
    assert totals(follower) == totals(phone)
    assert follower.locator("text=Enter deal").count() == 0
    other.close()


def test_a_bad_deal_is_explained_and_not_saved(browser, sheet_server):
    context = browser.new_context(viewport=PHONE, base_url=sheet_server, service_workers="block")
    phone = context.new_page()
    start_sheet(phone)
    phone.click("text=Enter deal 1")
    phone.check("input[name=re][value='1']")
    phone.fill("input[name=re_points]", "130")
    phone.click("text=Save deal")
    expect(phone.locator("#error-re_players")).to_have_text("This game has exactly 2 Re players.")
    phone.click("text=Back to the sheet")
    expect(phone.locator("h1")).to_have_text("Score sheet")
    assert phone.locator(".sheet-table tbody tr").count() == 0
    context.close()


def test_seven_players_fit_a_phone(phone, axe_source, browser, sheet_server):
    phone.goto("/en/sheet/")
    names = ["Anna", "Bert", "Carl", "Dora", "Emil", "Fritz", "Gerda"]
    for field, name in zip(phone.locator("input[name=player]").all(), names):
        field.fill(name)
    phone.click("text=Start the sheet")
    phone.click("text=Enter deal 1")
    enter(phone, (1, 2), {"re_points": "130"})
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    assert "Sits out: Anna, Bert, Gerda" in phone.locator(".sheet-next").inner_text()
    assert violations(phone, axe_source) == []
    dark = browser.new_context(viewport=PHONE, base_url=sheet_server, color_scheme="dark", service_workers="block")
    page = dark.new_page()
    for url in (phone.url, phone.url.split("#")[0] + "/deal"):
        page.goto(url)
        assert violations(page, axe_source) == [], url
    dark.close()


def test_the_sheet_works_without_javascript(browser, sheet_server):
    context = browser.new_context(viewport=PHONE, base_url=sheet_server, java_script_enabled=False,
                                  service_workers="block")
    page = context.new_page()
    start_sheet(page)
    page.click("text=Enter deal 1")
    page.check("input[name=re][value='1']")
    page.check("input[name=re][value='3']")
    page.fill("input[name=re_points]", "156")
    page.select_option("select[name=re_fox]", "1")
    page.select_option("select[name=kontra_doppelkopf]", "1")
    page.click("text=Save deal")
    expect(page.locator("h1")).to_have_text("Score sheet")
    assert totals(page) == [-2, 2, -2, 2]
    context.close()


def overflow_outside_scroll_regions(page: Page) -> list[str]:
    """Elements wider than the screen that are not inside a scroll region saying it scrolls."""
    return page.evaluate("""() => [...document.querySelectorAll('body *')].filter((el) => {
        const box = el.getBoundingClientRect();
        if (box.width === 0 || !el.checkVisibility() || (box.right <= innerWidth + 1 && box.left >= -1)) return false;
        const region = el.closest('[role=region][aria-describedby]');
        return !(region && getComputedStyle(region).overflowX === 'auto' &&
                 document.getElementById(region.getAttribute('aria-describedby')));
    }).map((el) => el.tagName + '.' + el.className)""")


@pytest.mark.parametrize("names", [["Anna", "Bert", "Carl", "Dora", "Emil"],
                                   ["Anna", "Bert", "Carl", "Dora", "Emil", "Fritz", "Gerda"]])
def test_an_evening_of_five_and_of_seven_fits_360_px(phone, axe_source, names):
    phone.goto("/en/sheet/")
    for field, name in zip(phone.locator("input[name=player]").all(), names):
        field.fill(name)
    phone.click("text=Start the sheet")
    plays = [{"re_points": "130"}, {"re_points": "100", "re_announced": "re"}, {"re_points": "121"},
             {"re_points": "90", "kontra_announced": "kontra"}, {"re_points": "151", "re_fox": "1"},
             {"game": "solo_queens", "re_points": "200"}]
    for number, fields in enumerate(plays, start=1):
        phone.click(f"text=Enter deal {number}")
        expect(phone.locator("h1")).to_contain_text("Deal")
        expect(phone.locator("input[name=re]")).to_have_count(4)
        offered = [int(v) for v in phone.locator("input[name=re]").evaluate_all("els => els.map((e) => e.value)")]
        assert len(offered) == 4  # only this deal's players
        enter(phone, tuple(offered[:1] if "game" in fields else offered[:2]), fields)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    assert overflow_outside_scroll_regions(phone) == []
    standings = phone.locator(".standings").inner_text()
    assert all(name in standings for name in names)  # every total in view without scrolling
    assert phone.locator(".sat-out__mark").first.is_visible()
    assert violations(phone, axe_source) == []
    phone.screenshot(path=f"/tmp/sheet-{len(names)}.png", full_page=True)
    phone.locator(".standings-box").screenshot(path=f"/tmp/chart-{len(names)}.png")


def png_gray(data: bytes) -> memoryview:
    """A PNG screenshot (8-bit RGB or RGBA, as Chromium writes them) as rows of grey bytes."""
    import struct
    import zlib

    pos, chunks = 8, {}
    width = height = channels = 0
    raw = b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, _depth, colour = struct.unpack(">IIBB", body[:10])
            channels = {2: 3, 6: 4}[colour]
        elif kind == b"IDAT":
            raw += body
        chunks[kind] = True
        pos += 12 + length
    pixels = zlib.decompress(raw)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind, line = pixels[y * (stride + 1)], bytearray(pixels[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up, corner = previous[i], previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                best = min((abs(p - left), 0, left), (abs(p - up), 1, up), (abs(p - corner), 2, corner))[2]
                line[i] = (line[i] + best) & 255
        rows.append(bytes(line[i] for i in range(0, stride, channels)))
        previous = line
    return memoryview(b"".join(rows)).cast("B", (height, width))


def test_the_read_only_link_is_a_qr_code_that_decodes_to_it(phone):
    import zxingcpp

    start_sheet(phone)
    view_url = phone.locator(".sheet-links input").first.input_value()
    image = png_gray(phone.locator(".sheet-qr svg").screenshot())
    assert [code.text for code in zxingcpp.read_barcodes(image)] == [view_url]
    # The editor's link only after a deliberate tap.
    assert not phone.locator(".sheet-editor-link input").is_visible()
    phone.click("text=Show the editor’s link")
    assert phone.locator(".sheet-editor-link input").input_value() == phone.url.split("#")[0]


NAMES = ["Anna", "Bert", "Carl", "Dora", "Emil", "Fritz", "Gerda"]


def sheet_with_deals(page: Page, players: int, deals: int) -> str:
    """A sheet of ``players`` with ``deals`` normal games, entered over HTTP (quicker than the
    form; the form itself is the other tests' business). The editor's URL."""
    form = "&".join([f"player={name}" for name in NAMES[:players]] + ["ruleset=ddv"])
    plain = {"Content-Type": "application/x-www-form-urlencoded"}
    made = page.request.post("/en/sheet/", data=form, headers=plain, max_redirects=0)
    url = made.headers["location"]
    for _ in range(deals):
        html = page.request.get(url + "/deal").text()
        fields = {name: value for name, value in re.findall(r'name="(version|once)" value="([^"]*)"', html)}
        playing = re.findall(r'name="re" value="(\d+)"', html)
        body = "&".join([f"{k}={v}" for k, v in fields.items()] + [f"re={p}" for p in playing[:2]] + ["re_points=130"])
        assert page.request.post(url + "/deal", data=body, headers=plain, max_redirects=0).status == 303
    return url


@pytest.mark.parametrize("players", [4, 5, 6, 7])
@pytest.mark.parametrize("touch", [False, True], ids=["mouse", "tap"])
def test_every_cell_of_a_row_opens_its_deal_at_360_px(browser, sheet_server, players, touch):
    context = browser.new_context(viewport=PHONE, base_url=sheet_server, has_touch=touch, is_mobile=touch,
                                  service_workers="block")
    page = context.new_page()
    url = sheet_with_deals(page, players, 3)
    page.goto(url)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    row = page.locator("#deal-2")
    # One link per row, with a text name; the cells themselves are no links.
    assert row.get_by_role("link").count() == 1
    expect(row.get_by_role("link", name="Change deal 2")).to_have_count(1)
    cells = row.locator("> th, > td")
    count = cells.count()
    assert count == players + 2
    for index in (0, count // 2, count - 1):  # the deal number, a player's cell, the checks
        page.goto(url)
        tap(page, cells.nth(index), touch)
        expect(page.locator("h1")).to_have_text("Change deal 2", timeout=5000)
        assert "/deal/" in page.url, (players, index)
    # The keyboard reaches the row's link; Enter opens the deal.
    page.goto(url)
    link = page.get_by_role("link", name="Change deal 1")
    link.focus()
    assert page.evaluate("document.activeElement.classList.contains('row-link')")
    page.keyboard.press("Enter")
    expect(page.locator("h1")).to_have_text("Change deal 1")
    context.close()


def test_nothing_on_the_read_only_sheet_looks_tappable(browser, sheet_server):
    context = browser.new_context(viewport=PHONE, base_url=sheet_server, service_workers="block")
    page = context.new_page()
    url = sheet_with_deals(page, 6, 2)
    page.goto(url)
    view_url = page.locator(".sheet-links input").first.input_value()
    page.goto(view_url)
    row = page.locator("#deal-1")
    assert row.get_by_role("link").count() == 0
    assert row.evaluate("el => getComputedStyle(el).cursor") != "pointer"
    for cell in row.locator("> th, > td").all():
        assert cell.evaluate("el => getComputedStyle(el).cursor") != "pointer"
    number = row.locator(".deal-cell__number")
    assert number.evaluate("el => getComputedStyle(el).textDecorationLine") == "none"
    context.close()


@pytest.mark.parametrize("javascript", [True, False], ids=["htmx", "no-js"])
def test_settle_up_at_seven_players_fits_360_px(browser, sheet_server, axe_source, javascript):
    context = browser.new_context(viewport=PHONE, base_url=sheet_server, java_script_enabled=javascript,
                                  service_workers="block")
    page = context.new_page()
    url = sheet_with_deals(page, 7, 5)
    page.goto(url)
    page.fill("input[name=cents]", "abc")
    page.click("text=Who pays whom?")
    expect(page.locator("#error-cents")).to_have_text("Enter the cents per point as a whole number from 1 to 100.")
    page.fill("input[name=cents]", "10")
    page.click("text=Who pays whom?")
    expect(page.locator("#settle-up caption")).to_have_text("Balance at 10 cents per point")
    assert "cents=10" in page.url  # the address gives the same box again
    assert page.locator("#error-cents").inner_text() == ""
    assert page.locator(".settle-balances tbody tr").count() == 7
    payments = page.locator(".payments li").all_inner_texts()
    assert 1 <= len(payments) <= 6 and all(" pays " in p and "€" in p for p in payments)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert overflow_outside_scroll_regions(page) == []
    if javascript:
        assert violations(page, axe_source) == []
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "sheet-7-settle-up.png"), full_page=True)
        page.locator("#settle-up").screenshot(path=str(SCREENSHOTS / "sheet-7-settle-up-box.png"))
    context.close()


LONG_NAMES = ["Maximilian", "Alexandra", "Friederike", "Jo", "Emil", "Konstantin", "Bartholomäus"]
LANGUAGES = ["de", "en", "it", "es", "fr", "pt"]


def said(lang: str, text: str) -> str:
    """``text`` as the app's catalog says it in ``lang``."""
    from babel.support import Translations

    return Translations.load(str(Path(__file__).resolve().parents[2] / "translations"), [lang]).gettext(text)


def long_name_sheet(page: Page, lang: str, players: int) -> str:
    """A sheet in ``lang`` of ``players`` with real, long names: a normal deal (the first
    dealer sits out), then a lost compulsory hearts solo entered quickly (the row's words are
    long, and the dealer deals again: the next deal's dealer sits out and owes a solo)."""
    from urllib.parse import quote

    plain = {"Content-Type": "application/x-www-form-urlencoded"}
    form = "&".join([f"player={quote(name)}" for name in LONG_NAMES[:players]] + ["ruleset=ddv"])
    url = page.request.post(f"/{lang}/sheet/", data=form, headers=plain, max_redirects=0).headers["location"]
    for path, fields in (("/deal", ["re_points=130"]), ("/quick", ["game=solo_hearts", "winner=kontra", "value=3"])):
        html = page.request.get(url + path).text()
        hidden = re.findall(r'name="(version|once)" value="([^"]*)"', html)
        playing = re.findall(r'name="re" value="(\d+)"', html)
        re_players = playing[:1] if path == "/quick" else playing[:2]
        body = "&".join([f"{k}={v}" for k, v in hidden] + [f"re={p}" for p in re_players] + fields)
        assert page.request.post(url + path, data=body, headers=plain, max_redirects=0).status == 303
    return url


def words_broken_inside(page: Page, selector: str) -> list[str]:
    """Texts under ``selector`` that a line break cuts inside a word (a break after a space,
    a hyphen or a middle dot is fine)."""
    return page.evaluate("""(selector) => {
        const broken = [];
        for (const el of document.querySelectorAll(selector)) {
            const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
            while (walker.nextNode()) {
                const node = walker.currentNode;
                let top = null, before = ' ';
                for (let i = 0; i < node.length; i++) {
                    const ch = node.data[i];
                    if (/\\s/.test(ch)) { before = ' '; continue; }
                    const range = document.createRange();
                    range.setStart(node, i);
                    range.setEnd(node, i + 1);
                    const rect = range.getBoundingClientRect();
                    const cut = top !== null && rect.top > top + 2 && !/[\\s\\-\\u00ad·]/.test(before);
                    if (cut) broken.push(node.data.trim());
                    top = rect.top;
                    before = ch;
                }
            }
        }
        return broken;
    }""", selector)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_five_players_with_long_names_fit_360_px_in_every_language(browser, sheet_server, axe_source, lang):
    """At five players every name, every current total and the checks stand on the phone's
    screen without scrolling the table; the sat-out cell is a short mark with its text name;
    the next deal's box wraps its tags inside itself, one player a line."""
    context = browser.new_context(viewport=PHONE, base_url=sheet_server, service_workers="block")
    page = context.new_page()
    page.goto(long_name_sheet(page, lang, 5))
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert overflow_outside_scroll_regions(page) == []

    wrap = page.locator(".sheet-wrap")
    assert wrap.evaluate("el => el.scrollWidth <= el.clientWidth")  # the table does not scroll at all
    edge = wrap.bounding_box()
    left, right = max(edge["x"], 0), min(edge["x"] + edge["width"], 360)

    def inside(cell) -> bool:
        box = cell.bounding_box()
        return box is not None and box["width"] > 0 and left - 1 <= box["x"] and box["x"] + box["width"] <= right + 1

    heads = page.locator(".sheet-table thead th.player-col")
    assert heads.all_inner_texts() == LONG_NAMES[:5]
    for head in heads.all():
        assert inside(head), head.inner_text()
        assert head.evaluate("el => el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1"), \
            head.inner_text()  # the whole name, not cut short
    current = page.locator(".sheet-table tfoot td.num")
    assert current.count() == 5
    assert all(inside(cell) for cell in current.all())
    checks = page.locator(".sheet-table .check-col")
    assert checks.count() == 3  # the header and both deals
    for cell in checks.all():
        assert inside(cell)
    assert page.locator(".sheet-table tbody .check-col [aria-hidden=true]").first.is_visible()

    # Sat out: a short visible mark, the whole word for screen readers.
    sat_out = page.locator("#deal-1 td.sat-out")
    assert sat_out.count() == 1
    mark = sat_out.locator(".sat-out__mark [aria-hidden=true]")
    assert mark.is_visible() and mark.bounding_box()["width"] < 24
    assert said(lang, "sat out") in sat_out.text_content()
    assert words_broken_inside(page, ".sheet-table .deal-cell") == []

    # The next deal's box: the dealer deals again, sits out and owes a solo; every tag inside.
    box = page.locator(".sheet-next").bounding_box()
    entries = page.locator(".sheet-next .standings > li")
    assert entries.count() == 5
    dealer = entries.nth(1)
    assert dealer.locator(".tag").all_inner_texts() == [said(lang, "deals"), said(lang, "sits out"),
                                                        said(lang, "solo owed")]
    for tag in page.locator(".sheet-next .tag").all():
        tag_box = tag.bounding_box()
        assert box["x"] <= tag_box["x"] and tag_box["x"] + tag_box["width"] <= box["x"] + box["width"], tag.inner_text()
    # Each player's entry on lines of its own: no two entries share a line.
    boxes = [entry.bounding_box() for entry in entries.all()]
    for upper, lower in zip(boxes, boxes[1:]):
        assert upper["y"] + upper["height"] <= lower["y"] + 1

    assert violations(page, axe_source) == []
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"sheet-5-long-names-{lang}.png"), full_page=True)
    context.close()


# Narrower than any phone we aim at (320 px): where even the upright columns of six and seven
# players scroll, as they do on a phone with large text.
NARROW = {"width": 280, "height": 640}


def test_the_scroll_hint_shows_only_while_the_table_is_wider_than_the_screen(browser, sheet_server):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=sheet_server,
                                  service_workers="block")
    page = context.new_page()
    page.goto(long_name_sheet(page, "de", 6))
    hint, wrap = page.locator("#sheet-scrolls"), page.locator(".sheet-wrap")
    assert wrap.evaluate("el => el.scrollWidth <= el.clientWidth + 1")  # the whole table fits
    assert hint.is_hidden() and wrap.get_attribute("aria-describedby") is None
    page.set_viewport_size(NARROW)
    expect(hint).to_be_visible()
    assert wrap.evaluate("el => el.scrollWidth > el.clientWidth + 1")
    assert wrap.get_attribute("aria-describedby") == "sheet-scrolls"
    page.set_viewport_size({"width": 1280, "height": 800})
    expect(hint).to_be_hidden()
    context.close()


def test_seven_players_with_long_names_say_where_the_table_starts_that_it_scrolls(browser, sheet_server):
    context = browser.new_context(viewport=PHONE, base_url=sheet_server, service_workers="block")
    page = context.new_page()
    page.goto(long_name_sheet(page, "en", 7))
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert overflow_outside_scroll_regions(page) == []
    hint = page.locator("#sheet-scrolls")
    wrap = page.locator(".sheet-wrap")
    # At 360 px the seven upright columns fit: nothing to say. On a narrower screen they scroll.
    assert wrap.evaluate("el => el.scrollWidth <= el.clientWidth + 1") and hint.is_hidden()
    page.set_viewport_size(NARROW)
    expect(hint).to_be_visible()
    assert wrap.get_attribute("aria-describedby") == "sheet-scrolls"
    hint.scroll_into_view_if_needed()
    hint_box, wrap_box = hint.bounding_box(), wrap.bounding_box()
    assert hint_box["y"] + hint_box["height"] <= wrap_box["y"] + 1  # above the table, not after it
    heads = page.locator(".sheet-table thead th.player-col")
    assert heads.all_inner_texts() == LONG_NAMES
    for head in heads.all():
        assert head.evaluate("el => el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    hint.evaluate("el => window.scrollTo(0, el.getBoundingClientRect().top + scrollY - 60)")
    page.screenshot(path=str(SCREENSHOTS / "sheet-7-long-names-en.png"))
    context.close()


def test_undo_lands_on_the_sheet_and_neither_a_reload_nor_back_finds_a_404(phone, axe_source):
    url = sheet_with_deals(phone, 4, 2)
    phone.goto(url)
    phone.click("text=Undo deal 2")
    expect(phone.locator("h1")).to_have_text("Change deal 2")
    assert phone.url.endswith("/undo")
    assert violations(phone, axe_source) == []
    phone.click("text=Delete deal 2")
    expect(phone.locator("h1")).to_have_text("Score sheet")
    assert phone.url.endswith(url)  # the sheet's own address, not the undo page's
    assert phone.locator(".sheet-table tbody tr").count() == 1
    phone.reload()
    expect(phone.locator("h1")).to_have_text("Score sheet")
    phone.go_back()  # the undo page of a deal that is gone: the sheet again, at its own address
    expect(phone).to_have_url(re.compile(re.escape(url) + "$"))
    expect(phone.locator("h1")).to_have_text("Score sheet")
    expect(phone.locator(".sheet-actions")).to_contain_text("Undo deal 1")
    phone.reload()
    expect(phone.locator("h1")).to_have_text("Score sheet")


def test_deals_first_names_the_players_as_they_are_typed(phone):
    phone.goto("/en/sheet/")
    fields = phone.locator("input[name=player]")
    fields.nth(0).fill("Anna")
    fields.nth(2).fill("Carl")
    options = phone.locator("select[name=first_dealer] option")
    expect(options.nth(0)).to_have_text("Anna")
    expect(options.nth(1)).to_have_text("Player 2")
    expect(options.nth(2)).to_have_text("Carl")
    fields.nth(0).fill("")
    expect(options.nth(0)).to_have_text("Player 1")


def test_a_missing_sheet_offers_my_sheets(browser, sheet_server, axe_source):
    with phone_page(browser, sheet_server, "block", allow=("status of 404",)) as page:  # the 404, on purpose
        page.goto("/en/sheet/" + "A" * 22)
        expect(page.locator("main .button").first).to_have_text("My sheets")
        assert violations(page, axe_source) == []
        page.click("main >> text=My sheets")
        expect(page.locator("h1")).to_have_text("Score sheet for an evening")
