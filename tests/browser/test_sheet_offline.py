"""A score sheet with the network cut after one online visit, in Chromium at phone size: the
sheet is read from the phone, three deals are entered (with card points and quickly) and
kept on it, and sent exactly once, in order, when the signal returns; a deal the server
refuses stays with its reason until it is changed or deleted; a reload in the middle of
sending sends nothing twice; the read-only link reads offline too and follows the sheet with
conditional requests. Screenshots of the offline sheet go to SCREENSHOTS."""
from __future__ import annotations

import re
import tempfile
import threading
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, Route, expect
from playwright.sync_api import Error as PlaywrightError
from werkzeug.serving import make_server

from app import create_app
from tests.browser.conftest import SCREENSHOTS, phone_page
from tests.browser.test_axe import violations
from tests.browser.test_offline import ready
from tests.browser.test_sheet import tap
from tutor.rules.rulesets import RuleSet
from tutor.rules.sheet import Deal, evening

pytestmark = pytest.mark.service_worker

PLAYERS = ["Anna", "Bert", "Carl", "Dora", "Emil"]
PHONE = {"width": 360, "height": 740}


class Recorded:
    """The app in this process, every request to a sheet noted: (method, path, status)."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str, int]] = []
        self.app = create_app(instance_path=tempfile.mkdtemp(prefix="doko-offline-"))
        inner = self.app.wsgi_app

        def record(environ, start_response):  # type: ignore[no-untyped-def]
            def start(status, headers, exc_info=None):  # type: ignore[no-untyped-def]
                if "/sheet/" in environ["PATH_INFO"]:
                    self.seen.append((environ["REQUEST_METHOD"], environ["PATH_INFO"], int(status[:3])))
                return start_response(status, headers, exc_info)
            return inner(environ, start)

        self.app.wsgi_app = record  # type: ignore[method-assign]


@pytest.fixture
def recorded() -> Iterator[tuple[Recorded, str]]:
    server = Recorded()
    httpd = make_server("127.0.0.1", 0, server.app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield server, f"http://127.0.0.1:{httpd.server_port}"
    httpd.shutdown()
    thread.join()
    httpd.server_close()


# What the tests bring about on purpose: Chromium names in the console every answer of 400
# and more (the refusals the phone's queue reads too) and every request cut off.
EXPECTED = ("status of 409 (CONFLICT)", "status of 400 (BAD REQUEST)", "net::ERR_FAILED")


@pytest.fixture
def phone(browser: Browser, recorded) -> Iterator[Page]:
    with phone_page(browser, recorded[1], allow=EXPECTED) as page:
        page.set_viewport_size(PHONE)
        yield page


def sheet_online(page: Page) -> str:
    """A sheet of five with Bock rounds, one deal entered and the sheet opened online once:
    the phone keeps it (and its forms, and the calculator's table) from then on."""
    page.goto("/en/sheet/")
    ready(page)
    for field, name in zip(page.locator("input[name=player]").all(), PLAYERS):
        field.fill(name)
    page.check("input[name=bock]")
    page.click("text=Start the sheet")
    expect(page.locator("h1")).to_have_text("Score sheet")
    page.click("text=Enter deal 1")
    expect(page.locator("h1")).to_have_text("Deal 1")  # hx-boost swaps the form in: wait for it
    pick(page, (1, 2))
    page.fill("input[name=re_points]", "151")
    expect(page.locator("#verdict")).to_contain_text("Re wins")
    page.click("text=Save deal")
    expect(page.locator("h1")).to_have_text("Score sheet")
    url = page.url
    until(page, """caches.open('doko-sheets').then((c) => c.keys()).then((keys) => {
        const urls = keys.map((r) => new URL(r.url).pathname);
        return ['', '/deal', '/quick'].every((end) => urls.includes(location.pathname + end))
            && urls.some((u) => u.includes('/score/table/')); })""")
    kept_as_now(page, 2)
    return url


def kept_as_now(page: Page, version: int) -> None:
    """Wait until the phone keeps the sheet at this version (offline.json, asked by the page)."""
    until(page, f"""DokoSheetQueue.sheet(document.getElementById('sheet-offline').dataset.sheetKey)
        .then((kept) => !!kept && !!kept.data && kept.data.version === {version})""")


def until(page: Page, promise: str, seconds: float = 10) -> None:
    """Wait until the promise the expression makes resolves to true (evaluated, awaited, again)."""
    for _ in range(int(seconds * 10)):
        if page.evaluate(promise) is True:
            return
        page.wait_for_timeout(100)
    raise AssertionError(promise)


def pick(page: Page, re_players: tuple[int, ...]) -> None:
    for box in page.locator("input[name=re]").all():
        box.set_checked(int(box.get_attribute("value")) in re_players)


def pick_first(page: Page, count: int = 2) -> None:
    """Tick the first players the form offers (those who play this deal)."""
    for index, box in enumerate(page.locator("input[name=re]").all()):
        box.set_checked(index < count)


def totals(page: Page) -> list[int]:
    return [int(t.strip().replace("\u2212", "-")) for t in page.locator("tfoot td.num strong").all_inner_texts()]


def stored_deals(page: Page, url: str) -> list[str]:
    """The deals' ids on the server's sheet, in order (asked of the server, not the phone)."""
    html = page.request.get(url).text()
    return re.findall(r'/(?:deal|quick)/([0-9a-f]{12})"', html)


def kept_ids(page: Page) -> list[str]:
    return page.evaluate("DokoSheetQueue.entries().then((list) => list.map((e) => e.once))")


# The evening: deal 1 online (Bert and Carl Re, 151), then offline: a 120 tie with card points
# (Bock for five deals), Dora's queens solo lost (her compulsory solo: Bert deals again), and
# a normal deal entered quickly.
ONLINE = Deal("normal", 151, 7, 0, (1, 2))
OFFLINE = [Deal("normal", 120, 6, 1, (2, 3)), Deal.quick_entry("solo_queens", 2, (3,), "kontra", 2),
           Deal.quick_entry("normal", 2, (0, 3), "re", 1)]


def test_offline_a_table_of_five_reads_the_sheet_notes_three_deals_and_sees_them_sent_once(phone, axe_source):
    url = sheet_online(phone)
    phone.context.set_offline(True)
    phone.goto(url)  # the sheet, read from the phone
    status = phone.locator("#sheet-offline")
    expect(status).to_contain_text(re.compile(r"Offline: this is the sheet as the server had it at \d"))
    assert totals(phone) == list(evening(RuleSet.named("ddv"), 5, [ONLINE], bock=True).totals)
    expect(phone.locator(".sheet-next")).to_contain_text("Deals: Bert")
    expect(phone.locator(".sheet-next")).to_contain_text("Sits out: Bert")

    phone.click("text=Enter deal 2")  # with card points: the tie
    expect(phone.locator("h1")).to_have_text("Deal 2")
    assert phone.locator("select[name=dealer]").input_value() == "1"
    pick(phone, (2, 3))
    phone.fill("input[name=re_points]", "120")
    expect(phone.locator("#result")).to_contain_text("You are offline")
    expect(phone.locator("#result")).to_contain_text("Kontra wins.")
    assert violations(phone, axe_source) == []
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    phone.locator("#result").scroll_into_view_if_needed()
    phone.screenshot(path=str(SCREENSHOTS / "sheet-offline-form.png"))
    phone.click("text=Save deal")
    expect(phone.locator("#kept-2")).to_contain_text("on this phone")
    expect(status).to_contain_text("1 deal is kept on this phone")

    phone.click("text=Quick entry")  # quickly: Dora's solo, lost, in the Bock round
    expect(phone.locator("h1")).to_have_text("Deal 3 Bock ×2")
    expect(phone.locator("#value-hint")).to_contain_text("Type it without Bock: the sheet multiplies it by 2.")
    assert phone.locator("select[name=dealer]").input_value() == "2"
    phone.select_option("select[name=game]", "solo_queens")
    pick(phone, (3,))
    phone.check("input[name=winner][value=kontra]")
    phone.fill("input[name=value]", "2")
    expect(phone.locator("#quick-result")).to_contain_text("The opponents won, 2")
    phone.click("text=Save deal")
    expect(phone.locator("#kept-3")).to_contain_text("compulsory")

    phone.click("text=Quick entry")  # Carl deals again after the compulsory solo
    expect(phone.locator("h1")).to_have_text("Deal 4 Bock ×2")
    assert phone.locator("select[name=dealer]").input_value() == "2"
    pick(phone, (0, 3))
    phone.check("input[name=winner][value=re]")
    phone.fill("input[name=value]", "1")
    expect(phone.locator("#quick-result")).to_contain_text("Re won, 1")
    assert violations(phone, axe_source) == []
    phone.click("text=Save deal")
    expect(status).to_contain_text("3 deals are kept on this phone")

    engine = evening(RuleSet.named("ddv"), 5, [ONLINE, *OFFLINE], bock=True)
    assert totals(phone) == list(engine.totals)  # the phone's totals are the engine's
    for row in engine.rows[1:]:
        cells = phone.locator(f"#kept-{row.number} td.num small").all_inner_texts()
        written = [c.split("\n")[0].replace("\u2212", "-") for c in cells]
        assert written == ["—" if e is None else f"{e:+d}" if e else "0" for e in row.entries]
    expect(phone.locator(".sheet-next")).to_contain_text("Deals: Dora")
    expect(phone.locator(".sheet-next")).to_contain_text("Bock ×2")
    assert violations(phone, axe_source) == []
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    phone.screenshot(path=str(SCREENSHOTS / "sheet-offline-kept.png"))
    phone.locator(".sheet-wrap").scroll_into_view_if_needed()
    phone.screenshot(path=str(SCREENSHOTS / "sheet-offline-kept-rows.png"))
    phone.screenshot(path=str(SCREENSHOTS / "sheet-offline-kept-full.png"), full_page=True)
    kept = kept_ids(phone)
    assert len(kept) == 3

    phone.context.set_offline(False)  # the signal is back: the `online` event sends them
    expect(status).to_have_text("3 deals from this phone are now on the sheet.", timeout=15000)
    assert stored_deals(phone, url)[1:] == kept  # each once, in the order typed, under its one-time id
    assert phone.locator(".sheet-table tbody tr.is-kept").count() == 0
    assert totals(phone) == list(engine.totals)
    assert kept_ids(phone) == []


def test_edits_and_deletes_say_they_need_the_network(phone):
    url = sheet_online(phone)
    phone.context.set_offline(True)
    phone.goto(url)
    tap(phone, phone.locator("#deal-1 td").first)  # a tap on the row opens the deal online
    expect(phone.locator("#sheet-offline")).to_contain_text("Changing or deleting a deal on the sheet needs")
    assert phone.url == url
    phone.click("text=Undo deal 1")
    assert phone.url == url
    phone.click("text=Download as CSV")  # worked out by the server: said, not a download that fails
    expect(phone.locator("#sheet-offline")).to_contain_text("Settling up and downloading the sheet need a connection")
    phone.fill("input[name=cents]", "5")
    phone.locator("input[name=cents]").press("Enter")
    expect(phone.locator("#sheet-offline")).to_contain_text("Settling up and downloading the sheet need a connection")
    assert phone.url == url
    phone.goto(url + "/deal/" + stored_deals_offline(phone)[0])  # opened by its address: the offline page says it
    expect(phone.locator("[data-offline-sheet=change]")).to_be_visible()
    phone.click("[data-offline-sheet=change] >> text=Back to the sheet")
    expect(phone.locator("h1")).to_have_text("Score sheet")
    phone.context.set_offline(False)


def stored_deals_offline(page: Page) -> list[str]:
    return page.evaluate("DokoSheetQueue.sheet(document.getElementById('sheet-offline').dataset.sheetKey)"
                         ".then((kept) => kept.data.deals)")


def another_phone_adds_a_deal(page: Page, url: str) -> None:
    """Someone else enters a deal on the sheet meanwhile (over HTTP, as the form would)."""
    html = page.request.get(url + "/quick").text()
    fields = dict(re.findall(r'name="(version|once)" value="([^"]*)"', html))
    body = "&".join([f"{k}={v}" for k, v in fields.items()] + ["game=normal", "re=2", "re=3", "winner=re", "value=3"])
    response = page.request.post(url + "/quick", data=body, max_redirects=0,
                                 headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert response.status == 303


def test_a_kept_deal_the_server_refuses_stays_with_its_reason_until_changed_or_deleted(phone, axe_source):
    url = sheet_online(phone)
    phone.context.set_offline(True)
    phone.goto(url)
    for number, value in ((2, "2"), (3, "4")):
        phone.click("text=Quick entry")
        expect(phone.locator("h1")).to_contain_text(f"Deal {number}")
        pick_first(phone)
        phone.check("input[name=winner][value=kontra]")
        phone.fill("input[name=value]", value)
        expect(phone.locator("#quick-result")).to_contain_text("Kontra won")
        phone.click("text=Save deal")
        expect(phone.locator("h1")).to_have_text("Score sheet")
    another_phone_adds_a_deal(phone, url)  # the sheet changed meanwhile: the kept deals do not fit it
    phone.context.set_offline(False)
    refused = phone.locator("#sheet-kept")
    expect(refused).to_contain_text("Deal 3 was not saved: This sheet was changed on another phone", timeout=15000)
    expect(refused).to_contain_text("Deal 4 waits until the deal before it is saved or deleted.")
    expect(phone.locator("#kept-3")).to_contain_text("not saved")
    assert len(stored_deals(phone, url)) == 2 and len(kept_ids(phone)) == 2  # nothing typed is lost
    assert violations(phone, axe_source) == []
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    refused.scroll_into_view_if_needed()
    phone.screenshot(path=str(SCREENSHOTS / "sheet-offline-refused.png"))

    phone.click("#sheet-kept >> text=Change it")  # the form, with what was typed, on the sheet as it is now
    expect(phone.locator("h1")).to_have_text("Deal 3")
    expect(phone.locator("input[name=value]")).to_have_value("2")
    expect(phone.locator("input[name=winner][value=kontra]")).to_be_checked()
    pick_first(phone)  # the dealer moved on: who plays now
    expect(phone.locator("#quick-result")).to_contain_text("Kontra won, 2")
    phone.click("text=Save deal")
    # Sent from the page or by the worker, in one go or two: the page says so and shows the server's rows.
    expect(phone.locator("#sheet-offline")).to_have_text(re.compile(r"from this phone (is|are) now on the sheet"),
                                                         timeout=15000)
    until(phone, "DokoSheetQueue.entries().then((list) => list.length === 0)")
    assert len(stored_deals(phone, url)) == 4
    kept_as_now(phone, 5)  # what the phone keeps of the sheet follows it

    phone.context.set_offline(True)  # once more, and this time the refused deal is deleted
    phone.goto(url)
    phone.click("text=Enter deal 5")  # the sheet's button opens the quick form now: the last deal was one
    expect(phone.locator("h1")).to_contain_text("Deal 5")
    pick_first(phone)
    phone.check("input[name=winner][value=re]")
    phone.fill("input[name=value]", "1")
    expect(phone.locator("#quick-result")).to_contain_text("Re won")
    phone.click("text=Save deal")
    expect(phone.locator("h1")).to_have_text("Score sheet")
    another_phone_adds_a_deal(phone, url)
    phone.context.set_offline(False)
    expect(refused).to_contain_text("Deal 6 was not saved", timeout=15000)
    phone.click("#sheet-kept summary")
    phone.click("#sheet-kept button")
    expect(refused).to_have_count(0)
    assert kept_ids(phone) == [] and len(stored_deals(phone, url)) == 5


def test_a_reload_in_the_middle_of_sending_sends_nothing_twice(phone, recorded):
    server, _base = recorded
    url = sheet_online(phone)
    phone.context.set_offline(True)
    phone.goto(url)
    for number, winner in ((2, "re"), (3, "kontra"), (4, "re")):
        phone.click("text=Quick entry")
        expect(phone.locator("h1")).to_contain_text(f"Deal {number}")
        pick_first(phone)
        phone.check(f"input[name=winner][value={winner}]")
        phone.fill("input[name=value]", "1")
        expect(phone.locator("#quick-result")).to_contain_text("won, 1")
        phone.click("text=Save deal")
        expect(phone.locator("h1")).to_have_text("Score sheet")
    kept = kept_ids(phone)
    assert len(kept) == 3 and not phone.locator("#sheet-kept").count()
    lost: list[str] = []

    def lose_the_first_answer(route: Route) -> None:
        if route.request.method == "POST" and not lost:
            route.fetch()  # the server stores the deal...
            lost.append(route.request.url)
            route.abort()  # ...and its answer never comes back: the page is reloaded meanwhile
            return
        route.continue_()

    phone.context.route(re.compile(r"/sheet/[\w-]{22}/quick$"), lose_the_first_answer)
    phone.context.set_offline(False)
    for _ in range(100):
        if lost:
            break
        phone.wait_for_timeout(100)
    try:
        phone.reload()
    except PlaywrightError:  # the page was reloading itself, the deals sent: as well
        phone.wait_for_load_state()
    expect(phone.locator("#sheet-offline")).to_contain_text("from this phone", timeout=15000)
    assert lost and stored_deals(phone, url)[1:] == kept  # three deals, each once, in order
    # The first one sent again (its answer was lost; a deal whose answer the reload cut off
    # too): each stored once, by its one-time id.
    posts = [path for method, path, status in server.seen if method == "POST" and path.endswith("/quick")]
    assert len(posts) >= 4
    assert kept_ids(phone) == []


def test_the_read_only_link_reads_offline_and_follows_the_sheet_with_conditional_requests(browser, phone, recorded):
    server, base = recorded
    url = sheet_online(phone)
    view = phone.locator(".sheet-links input").first.input_value()
    view_path = "/" + view.split("/", 3)[3]
    with phone_page(browser, base) as other:  # a second phone follows the read-only link
        other.set_viewport_size(PHONE)
        other.goto(view_path)
        ready(other)
        until(other, f"caches.match('{view_path}', {{ignoreVary: true}}).then((r) => !!r)")
        server.seen.clear()
        other.wait_for_timeout(21000)  # two polls: the second one is a conditional GET, answered 304
        polls = [status for method, path, status in server.seen if method == "GET" and path == view_path]
        assert 304 in polls, server.seen
        other.context.set_offline(True)
        other.goto(view_path)
        expect(other.locator("#sheet-offline")).to_contain_text("Offline: this is the sheet as the server had it at")
        assert totals(other) == list(evening(RuleSet.named("ddv"), 5, [ONLINE], bock=True).totals)
        assert other.locator("text=Enter deal").count() == 0
        other.context.set_offline(False)
    assert url
