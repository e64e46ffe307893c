"""Installable and offline: the manifest parses, the service worker activates, and with
the network gone the reference (its contents and every section) and a visited page still render."""
from __future__ import annotations

import re
import threading
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect
from werkzeug.serving import make_server

from app import create_app
from tests.browser.conftest import PHONE
from tutor.web.base.reference import PAGES as REFERENCE
from tutor.web.shell import pwa

pytestmark = pytest.mark.service_worker


def ready(page) -> str:
    """Wait for the service worker to be active and in control; its state."""
    state = page.evaluate(
        """navigator.serviceWorker.ready.then((r) => r.active.state === "activated" ? "activated" :
            new Promise((resolve) => r.active.addEventListener("statechange", (e) => resolve(e.target.state))))""")
    if not page.evaluate("!!navigator.serviceWorker.controller"):
        page.reload()
        page.wait_for_function("!!navigator.serviceWorker.controller")
    return state


def test_manifest_parses_with_its_icons(page):
    page.goto("/en/")
    manifest = page.evaluate(
        "fetch(document.querySelector('link[rel=manifest]').href).then((r) => r.json())")
    assert manifest["display"] == "standalone" and manifest["lang"] == "en"
    for icon in manifest["icons"]:
        size = page.evaluate(
            """(src) => new Promise((resolve) => { const img = new Image();
                img.onload = () => resolve(img.naturalWidth + 'x' + img.naturalHeight); img.src = src; })""",
            icon["src"])
        assert size == icon["sizes"]


def test_service_worker_activates(page):
    page.goto("/en/")
    assert ready(page) == "activated"
    caches = page.evaluate("caches.keys()")
    assert any(key.startswith("doko-shell-") for key in caches)


def test_offline_the_reference_and_visited_pages_still_render(page, context):
    page.goto("/de/")
    ready(page)
    page.goto("/de/quiz/")
    expect(page.locator("h1")).to_have_text("Quiz")
    context.set_offline(True)
    page.goto("/de/rules/")  # precached, never visited
    expect(page.locator("h1")).to_have_text("Regelübersicht")
    page.goto("/de/rules/trumps")  # a section: precached too, never visited
    expect(page.locator("h1")).to_have_text("Trümpfe, höchster zuerst")
    expect(page.locator("#trumps .card").first).to_be_visible()
    page.click(".ref-pager a[rel=next]")  # the next section, through htmx, from the cache
    expect(page).to_have_url(re.compile(r"/de/rules/following-suit$"))
    expect(page.locator("#following-suit .card").first).to_be_visible()
    page.goto("/de/rules/#equal-cards")  # an old bookmark: the contents send it on
    expect(page).to_have_url(re.compile(r"/de/rules/tricks#equal-cards$"))
    expect(page.locator("#equal-cards")).to_be_visible()
    page.goto("/de/quiz/")
    expect(page.locator("h1")).to_have_text("Quiz")
    page.goto("/de/learn/")  # never visited: the offline page
    expect(page.locator("h1")).to_have_text("Du bist offline")
    page.click(".tabs a[href='/de/quiz/']")  # a boosted htmx request, served from the cache
    expect(page.locator("h1")).to_have_text("Quiz")
    context.set_offline(False)


def cached(page, path: str) -> bool:
    return page.evaluate("(path) => caches.match(path, {ignoreVary: true}).then((r) => !!r)", path)


def test_only_the_visitors_language_is_precached_and_another_is_kept_once_visited(page, context):
    page.goto("/it/")
    ready(page)
    assert cached(page, "/it/rules/") and cached(page, "/it/offline") and cached(page, "/it/score/")
    assert all(cached(page, f"/it/rules/{slug}") for slug in REFERENCE)
    assert not cached(page, "/fr/rules/") and not cached(page, "/fr/rules/trumps") and not cached(page, "/de/offline")
    page.goto("/fr/quiz/")  # a page of another language: its reference and offline page follow
    page.wait_for_function("caches.match('/fr/offline', {ignoreVary: true}).then((r) => !!r)")
    page.wait_for_function("caches.match('/fr/rules/', {ignoreVary: true}).then((r) => !!r)")
    page.wait_for_function("caches.match('/fr/rules/house-options', {ignoreVary: true}).then((r) => !!r)")
    context.set_offline(True)
    page.goto("/fr/rules/")  # never visited, kept when French was
    expect(page.locator("#trumps a")).to_have_attribute("href", "/fr/rules/trumps")
    page.goto("/fr/rules/trumps")
    expect(page.locator("#trumps .card").first).to_be_visible()
    page.goto("/fr/learn/")
    expect(page.locator("h1")).to_have_text(page.evaluate(
        "caches.match('/fr/offline', {ignoreVary: true}).then((r) => r.text())"
        ".then((t) => new DOMParser().parseFromString(t, 'text/html').querySelector('h1').textContent)"))
    assert not cached(page, "/de/rules/")
    context.set_offline(False)


@pytest.fixture
def in_process_page(browser: Browser, tmp_path) -> Iterator[Page]:
    """A page on a server in this process, so that a test can hand the app a new version.
    Every other browser test uses the server in its own process (conftest.serving)."""
    httpd = make_server("127.0.0.1", 0, create_app(instance_path=str(tmp_path / "instance")), threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    context = browser.new_context(viewport=PHONE, base_url=f"http://127.0.0.1:{httpd.server_port}",
                                  service_workers="allow")
    yield context.new_page()
    context.close()
    httpd.shutdown()
    thread.join()
    httpd.server_close()


# Chromium may drop a precache download half-way; the in-process server then leaves that
# file to the garbage collector, which is the server's business, not this test's.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_an_update_waits_and_offers_a_reload(in_process_page, monkeypatch):
    page = in_process_page
    page.goto("/en/")
    ready(page)
    expect(page.locator("#update-banner")).to_be_hidden()
    monkeypatch.setattr(pwa, "asset_version", lambda: "0new0version")
    page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")
    expect(page.locator("#update-banner")).to_be_visible()
    page.click("#update-reload")
    page.wait_for_function("caches.keys().then((keys) => keys.includes('doko-shell-0new0version'))")
    page.wait_for_load_state()
    expect(page.locator("#update-banner")).to_be_hidden()
    # Every cache of the old version is gone; the sheets kept on the phone outlive versions.
    old = page.evaluate("caches.keys().then((keys) => keys.filter((k) => !k.includes('0new0version')))")
    assert old in ([], ["doko-sheets"])


def test_offline_a_sheet_never_opened_here_says_so(page, context):
    """A sheet opened on this phone is kept (tests/browser/test_sheet_offline.py); one never
    opened here is not: offline, its address gets the offline page, which says so instead of
    "pages you have opened before work", and offers this phone's sheets and the calculator."""
    page.goto("/en/sheet/")
    ready(page)
    context.set_offline(True)
    page.goto("/en/sheet/abcdefghijklmnopqrstuv")  # a sheet this phone never opened
    expect(page.locator("h1")).to_have_text("You are offline")
    expect(page.locator("[data-offline-sheet=new]")).to_be_visible()
    expect(page.locator("[data-offline-sheet=change]")).to_be_hidden()
    expect(page.locator("[data-offline-general]")).to_be_hidden()
    page.click("text=Score a deal offline with the calculator")
    expect(page.locator("input[name=re_points]")).to_be_visible()
    page.goto("/en/learn/")  # any other page not kept: the general words
    expect(page.locator("[data-offline-general]")).to_be_visible()
    expect(page.locator("[data-offline-sheet=new]")).to_be_hidden()
    context.set_offline(False)
