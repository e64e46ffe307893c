"""A deal played with the tutor in real Chromium on a phone, with one thumb: one whole deal by
tapping, with htmx swapping the table in place and as plain pages without JavaScript; the
hand and the trick on the table in view without scrolling after every move (360 × 740);
focus on the new state after a move, by keyboard too; no accessibility violations in the new
states (the announce control open, a quick check, a wedding's clarification, the solos);
screenshots of a first trick, a mid-deal with the announce control open and a clarification."""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE, SCREENSHOTS, phone_page
from tests.browser.test_axe import violations
from tutor.play import position
from tutor.play.moves import Move
from tutor.rules.rulesets import RuleSet

DDV = RuleSet.named("ddv")
TALL_PHONE = {"width": 360, "height": 740}


def shot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"play-{name}.png"))


def announcing_seed() -> int:
    """A deal whose first turn offers the learner an announcement."""
    return next(s for s in range(500) if (p := position(DDV, s, "", 0)).turn and p.turn.announce)


def clarified() -> tuple[int, str]:
    """A wedding of a computer player, and the moves after which its clarification trick has
    just been shown with the learner to play next."""
    for seed in range(600):
        p = position(DDV, seed, "", 1)
        if p.game != "wedding" or p.declarer == 0 or p.turn is None or p.turn.kind != "play":
            continue
        while p.turn is not None and p.game == "wedding" and p.deal.clarification_trick is None:
            p = position(DDV, seed, p.then(Move("card", p.turn.options[0])), 1)
        if p.turn is not None and p.deal.clarification_trick is not None:
            return seed, p.moves
    raise AssertionError("no wedding")


@contextmanager
def tall_page(browser: Browser, server: str, javascript: bool = True) -> Iterator[Page]:
    context = browser.new_context(viewport=TALL_PHONE, base_url=server, java_script_enabled=javascript,
                                  service_workers="block")
    try:
        yield context.new_page()
    finally:
        context.close()


def tap(page: Page, locator) -> None:
    """Tap a button and wait for the next state (its URL) to arrive, swapped or loaded."""
    before = page.url
    locator.first.click()
    page.wait_for_url(lambda url: url != before)


def in_view(page: Page, selector: str) -> bool:
    """Whether every element of ``selector`` is inside the screen, above the tab bar."""
    return bool(page.evaluate("""(selector) => {
        const bar = document.querySelector('.tabs').getBoundingClientRect().top;
        const found = [...document.querySelectorAll(selector)];
        return found.length > 0 && found.every((e) => {
            const r = e.getBoundingClientRect();
            return r.top >= 0 && r.bottom <= bar + 1;
        });
    }""", selector))


def play_twelve_cards(page: Page) -> int:
    """Play a whole deal by tapping the first legal card, answering each quick check; after
    every move the hand (or the check) is in view without scrolling. The cards played."""
    played = 0
    for _step in range(40):
        if page.get_by_role("heading", name="The deal is over").count():
            break
        assert page.evaluate("window.scrollY") == 0
        checks = page.locator("button[name='w']")
        if checks.count():
            assert in_view(page, "button[name='w']")
            tap(page, checks)
            continue
        assert in_view(page, ".play-cards button") and in_view(page, ".play-seats")
        tap(page, page.locator("button[name='card']"))
        played += 1
    return played


def test_the_hand_stays_in_view_after_every_move_with_htmx(browser: Browser, server: str):
    with tall_page(browser, server) as page:
        page.goto(f"/en/play/?s={announcing_seed()}&l=0&r=ddv")
        assert play_twelve_cards(page) == 12
        expect(page.get_by_role("heading", name="The deal is over")).to_be_visible()


def test_the_hand_stays_in_view_after_every_move_without_javascript(browser: Browser, server: str):
    with tall_page(browser, server, javascript=False) as page:
        page.goto(f"/en/play/?s={announcing_seed()}&l=0&r=ddv")
        assert play_twelve_cards(page) == 12


def play_deal(page: Page, shots: bool = False) -> None:
    seed = announcing_seed()
    page.goto(f"/en/play/?s={seed}&l=0&r=ddv")
    if shots:
        shot(page, "first-trick")
    page.get_by_text("Announce…").click()
    expect(page.locator("button[name='announce']").first).to_be_visible()
    tap(page, page.locator("button[name='announce']"))
    expect(page.locator(".play__said")).to_contain_text("You:")
    expect(page.get_by_role("link", name="Take it back")).to_be_visible()
    for _step in range(60):
        if page.get_by_role("heading", name="The deal is over").count():
            break
        checks = page.locator("button[name='w']")
        if checks.count():
            tap(page, checks)
            expect(page.locator(".play-verdict")).to_be_visible()
            continue
        tap(page, page.locator("button[name='card']"))
    expect(page.get_by_role("heading", name="The deal is over")).to_be_visible()
    expect(page.get_by_role("link", name="How good were my cards?")).to_be_visible()
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


def test_by_keyboard_focus_lands_on_the_new_state_without_a_jump(page: Page):
    page.goto(f"/en/play/?s={announcing_seed()}&l=0&r=ddv")
    card = page.locator("button[name='card']").first
    card.focus()
    before = page.url
    page.keyboard.press("Enter")
    page.wait_for_url(lambda url: url != before)
    expect(page.locator("#play-now")).to_be_focused()
    assert page.evaluate("window.scrollY") == 0
    page.keyboard.press("Tab")  # from the new state's heading on to what it offers
    assert page.evaluate("document.activeElement.closest('.play-dock') !== null")


def test_a_dimmed_card_tells_its_rule_on_a_tap(page: Page):
    seed = next(s for s in range(300) if (p := position(DDV, s, "", 0)).turn
                and len(set(p.turn.options)) < len(set(p.turn.hand)))
    page.goto(f"/en/play/?s={seed}&l=0&r=ddv")
    page.locator("button[name='why']").first.click()
    expect(page.locator("#play-why")).to_contain_text("may not be played now.")
    assert in_view(page, ".play-cards button")


def test_the_new_states_have_no_violations_and_look_right(browser: Browser, server: str, axe_source: str):
    with tall_page(browser, server) as page:
        seed = announcing_seed()
        first = position(DDV, seed, "", 0)
        mid = position(DDV, seed, first.then(Move("card", first.turn.options[0])), 0)
        assert mid.turn.announce  # still in time for an announcement in trick 2
        page.goto(f"/en/play/?s={seed}&l=0&r=ddv&m={mid.moves}")
        page.get_by_text("Announce…").click()
        assert in_view(page, ".play-offers button") or page.locator(".play-pop__panel").count()
        assert in_view(page, ".play-cards button")
        assert violations(page, axe_source) == []
        shot(page, "announce-open")
        page.keyboard.press("Escape")
        expect(page.locator(".play-pop__panel")).to_be_hidden()

        wedding, moves = clarified()
        page.goto(f"/en/play/?s={wedding}&l=1&r=ddv&m={moves}")
        if page.locator("button[name='w']").count():
            tap(page, page.locator("button[name='w']"))
        expect(page.locator(".play-strip__news")).to_contain_text("partner")
        assert in_view(page, ".play-strip__news") and in_view(page, ".play-cards button")
        assert violations(page, axe_source) == []
        shot(page, "wedding-clarified")

        solos = next(s for s in range(200) if (p := position(DDV, s, "", 2)).turn and p.turn.kind == "reserve")
        page.goto(f"/de/play/?s={solos}&l=2&r=ddv")
        page.locator(".play-pop summary").click()
        expect(page.locator("button[value='solo_diamonds']")).to_be_visible()
        assert violations(page, axe_source) == []


def test_no_violations_in_the_dark_on_a_question(browser: Browser, server: str, axe_source: str):
    with phone_page(browser, server, service_workers="block") as page:
        page.emulate_media(color_scheme="dark")
        page.goto(f"/de/play/?s={announcing_seed()}&l=0&r=ddv")
        assert violations(page, axe_source) == []
        wedding = next(s for s in range(3000) if (p := position(DDV, s, "", 1)).turn and p.turn.kind == "reserve")
        page.goto(f"/fr/play/?s={wedding}&l=1&r=ddv")  # a reservation to choose
        assert violations(page, axe_source) == []


def test_a_note_arriving_after_the_page_moves_nothing_under_the_thumb(browser: Browser, server: str):
    """The note after a trick comes a moment after the page (the analysis runs first): on a
    phone it is laid over the top of the screen, so the hand does not jump under a thumb that
    is already on its way. Its own markup (play/_note.html) is swapped into the slot as htmx
    would, with the page's real styles."""
    with tall_page(browser, server) as page:
        page.goto(f"/en/play/?s={announcing_seed()}&l=0&r=ddv")
        for _card in range(4):  # into the second trick, so that the first one has its strip
            if page.locator(".play-note-slot").count():
                break
            tap(page, page.locator("button[name='card']"))
        hand = page.locator(".play-cards").first
        before = hand.bounding_box()
        page.evaluate("""() => {
            const slot = document.querySelector('.play-strip') || document.querySelector('main');
            const note = document.createElement('div');
            note.className = 'play-note play-note--mistake';
            note.setAttribute('role', 'status');
            note.innerHTML = '<p class="play-note__title">Mistake. Better: A♠.</p><p>Two lines of reason, long enough '
                + 'to wrap on a phone, as the real sentences do, so that the note takes some room.</p>';
            slot.appendChild(note);
        }""")
        after = hand.bounding_box()
        assert before and after and abs(after["y"] - before["y"]) < 1, (before, after)
        assert page.locator(".play-note").bounding_box()["y"] < 60  # at the top of the screen


def test_a_move_without_a_connection_says_so(browser: Browser, server: str, axe_source: str):
    """Every move of a deal is the server's: offline, a tap says that it needs the network
    instead of doing nothing, and the banner goes once a request gets through again."""
    with tall_page(browser, server) as page:
        page.goto(f"/en/play/?s={announcing_seed()}&l=0&r=ddv")
        banner = page.locator("#net-banner")
        expect(banner).to_be_hidden()
        page.context.set_offline(True)
        page.locator("button[name='card']").first.click()
        expect(banner).to_be_visible()
        expect(banner).to_contain_text("No connection")
        assert in_view(page, ".play-cards button")  # the banner is not over the hand
        assert violations(page, axe_source) == []
        page.context.set_offline(False)
        tap(page, page.locator("button[name='card']"))
        expect(banner).to_be_hidden()
