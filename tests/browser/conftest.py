"""One real server and one real Chromium (Debian's, never a downloaded one) for every
browser test; each test gets a fresh phone-sized context."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
PHONE = {"width": 360, "height": 640}
SCREENSHOTS = Path(os.environ.get("SCREENSHOTS", "/tmp/doko-screens"))
VENDOR = Path(__file__).parent / "vendor"


ROOT = Path(__file__).resolve().parents[2]
SERVE = """
import logging, sys
from werkzeug.serving import run_simple
from app import create_app
logging.getLogger("werkzeug").setLevel(logging.WARNING)
run_simple("127.0.0.1", int(sys.argv[1]), create_app(instance_path=sys.argv[2]), threaded=True)
"""
STARTS = 3  # a free port can be taken by another process before the server binds it


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _start(instance: str, env: dict[str, str] | None, log: IO[bytes]) -> tuple[subprocess.Popen[bytes], int] | None:
    """The server process and its port once it accepts connections; None if it exited."""
    port = _free_port()
    served = {**os.environ, "TRUSTED_HOSTS": "127.0.0.1,localhost", **(env or {})}  # the share links whole
    process = subprocess.Popen([sys.executable, "-c", SERVE, str(port), instance], cwd=ROOT,
                               env=served, stdout=log, stderr=log)
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process, port
        except OSError:
            if process.poll() is not None:
                return None
            if time.monotonic() > deadline:
                process.kill()
                process.wait(timeout=10)
                return None
            time.sleep(0.1)


@contextmanager
def serving(env: dict[str, str] | None = None) -> Iterator[str]:
    """The app served by werkzeug in its own process on a free loopback port, with an
    instance folder of its own (so servers of parallel test workers share no secret key and
    no sheets). A process of its own, so what the server does (a file left to the garbage
    collector when the browser drops a download) cannot turn into a warning in the tests."""
    instance = tempfile.mkdtemp(prefix="doko-instance-")
    log = tempfile.TemporaryFile()
    started = None
    try:
        for _attempt in range(STARTS):
            started = _start(instance, env, log)
            if started:
                break
        if started is None:
            log.seek(0)
            pytest.fail("the test server did not start:\n" + log.read().decode(errors="replace"))
        process, port = started
        try:
            yield f"http://127.0.0.1:{port}"
        finally:
            process.terminate()
            process.wait(timeout=10)
    finally:
        log.close()
        shutil.rmtree(instance, ignore_errors=True)


@pytest.fixture(scope="session")
def server() -> Iterator[str]:
    """The app as a browser meets it, shared by the browser tests."""
    with serving() as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@contextmanager
def phone_page(browser: Browser, base_url: str, service_workers: str = "allow",
               allow: tuple[str, ...] = ()) -> Iterator[Page]:
    """A phone-sized page that fails the test on any script error or CSP violation.
    ``service_workers="block"`` where the service worker's precaching is beside the point;
    ``allow``: console errors the test brings about on purpose (a part of their text)."""
    context = browser.new_context(viewport=PHONE, base_url=base_url, locale="en-GB", service_workers=service_workers)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" else None)
    yield page
    context.close()
    expected = ("net::ERR_INTERNET_DISCONNECTED", *allow)
    assert not [p for p in problems if not any(part in p for part in expected)], problems


@pytest.fixture
def page(browser: Browser, server: str, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A phone page on the shared server. Its service worker would precache every
    language's shell pages for each test, so it is blocked unless the test is marked
    ``service_worker`` (the offline tests)."""
    wanted = request.node.get_closest_marker("service_worker") is not None
    with phone_page(browser, server, "allow" if wanted else "block") as page:
        yield page


@pytest.fixture
def context(page: Page) -> BrowserContext:
    return page.context


@pytest.fixture(scope="session")
def axe_source() -> str:
    return next(VENDOR.glob("axe-*.min.js")).read_text()
