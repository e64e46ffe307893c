"""One real server and one real Chromium (Debian's, never a downloaded one) for every
browser test; each test gets a fresh phone-sized context."""
from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright
from werkzeug.serving import make_server

from app import create_app

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
PHONE = {"width": 360, "height": 640}
SCREENSHOTS = Path(os.environ.get("SCREENSHOTS", "/tmp/doko-screens"))
VENDOR = Path(__file__).parent / "vendor"


@pytest.fixture(scope="session")
def server() -> Iterator[str]:
    """The app served by werkzeug on a free loopback port, in a thread."""
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    app = create_app()
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}"
    httpd.shutdown()
    thread.join()
    httpd.server_close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def context(browser: Browser, server: str) -> Iterator[BrowserContext]:
    context = browser.new_context(viewport=PHONE, base_url=server, locale="en-GB", service_workers="allow")
    yield context
    context.close()


@pytest.fixture
def page(context: BrowserContext) -> Iterator[Page]:
    """A phone-sized page that fails the test on any script error or CSP violation."""
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" else None)
    yield page
    assert not [p for p in problems if "net::ERR_INTERNET_DISCONNECTED" not in p], problems


@pytest.fixture(scope="session")
def axe_source() -> str:
    return next(VENDOR.glob("axe-*.min.js")).read_text()
