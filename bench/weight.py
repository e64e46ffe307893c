"""How many bytes a phone downloads for each main page: on a first visit (the page with what it
loads, and separately what the service worker precaches when it installs) and on a repeat visit
with the worker in charge.

Each page is opened in Debian's Chromium (/usr/bin/chromium, driven by Playwright) on a fresh
profile, against the app served as `make run` serves it on a free port of 127.0.0.1. Bytes are
what the browser received over the network (headers and encoded body, Chromium's
encodedDataLength; for the worker's own script, which Chromium reports without a body, its
Content-Length); answers the worker gave from its cache cost nothing. The server's own
access log counts the requests that reached it, as a check (its byte counts miss files sent
with sendfile, so bytes come from the browser).

Run: .venv/bin/python bench/weight.py [--json]
"""
from __future__ import annotations

import os
import sys

# This folder holds http.py: keep it out of the way of the standard library's http.
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE] + [HERE]

import argparse  # noqa: E402
import json  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402
from urllib.parse import urlsplit  # noqa: E402

import _serve  # noqa: E402
from playwright.sync_api import Error, Request, sync_playwright  # noqa: E402

# The main pages; add a line to weigh another.
PAGES: list[tuple[str, str]] = [
    ("home", "/en/"),
    ("learn", "/en/learn/"),
    ("quiz question", "/en/quiz/winner"),
    ("calculator", "/en/score/"),
    ("sheet index", "/en/sheet/"),
    ("rules contents", "/en/rules/"),
    ("rules section", "/en/rules/trumps"),  # the section with the most cards drawn
    ("settings", "/en/settings"),
]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
LOG_FORMAT = "%(m)s %(U)s?%(q)s %(s)s %(B)s"
QUIET = 1.0  # seconds without a new request before a visit counts as over
VISIT_LIMIT = 30.0  # seconds a visit may take at most


@dataclass
class Tally:
    requests: int = 0
    bytes: int = 0
    urls: list[str] = field(default_factory=list)

    def add(self, request: Request, path: str) -> None:
        try:
            sizes = request.sizes()
            headers, body = max(0, sizes["responseHeadersSize"]), max(0, sizes["responseBodySize"])
        except Error:  # a request that failed before any answer
            headers = body = 0
        response = request.response()
        if body == 0 and response is not None and response.status == 200 \
                and request.headers.get("service-worker") == "script":
            # Chromium reports no body for the worker's own script: its Content-Length says.
            length = response.headers.get("content-length", "")
            body = int(length) if length.isdigit() else 0
        self.requests += 1
        self.bytes += headers + body
        self.urls.append(path)

    def kb(self) -> float:
        return round(self.bytes / 1000, 1)


def path_of(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + ("?" + parts.query if parts.query else "")


def split(requests: list[Request], page_path: str) -> tuple[Tally, Tally, Tally]:
    """What went over the network, in three parts: the page itself (the document), what the
    page loaded besides (directly, or through the worker when it fetched from the network on
    the page's behalf), and what the worker fetched on its own (its precache)."""
    served_by_worker = set()
    for request in requests:
        response = request.response()
        if request.service_worker is None and response is not None and response.from_service_worker:
            served_by_worker.add(request.url)
    document, others, worker = Tally(), Tally(), Tally()
    for request in requests:
        response = request.response()
        path = path_of(request.url)
        if request.service_worker is None:
            if response is not None and response.from_service_worker:
                continue  # the worker answered; if it went to the network, that is counted below
            (document if path == page_path and request.resource_type == "document" else others).add(request, path)
        elif request.url in served_by_worker:
            (document if path == page_path else others).add(request, path)
            served_by_worker.discard(request.url)
        else:
            worker.add(request, path)
    return document, others, worker


def wait_quiet(page: Any, log: Path, pending: set[Request] | None = None) -> None:
    """Until the server has seen no request for QUIET seconds and the browser waits for no
    answer (one the server takes longer than QUIET to make, such as the lessons' pack made for
    the first time, is still counted); waiting in the browser, so that Playwright hands over
    the events meanwhile."""
    deadline = time.monotonic() + VISIT_LIMIT
    size, since = log.stat().st_size, time.monotonic()
    while time.monotonic() < deadline:
        page.wait_for_timeout(100)
        now = log.stat().st_size
        if now != size or pending:
            size, since = now, time.monotonic()
        elif time.monotonic() - since >= QUIET:
            return


def server_lines(log: Path, start: int) -> list[str]:
    """The access log's lines since `start`: method, path, status, body bytes."""
    with log.open() as file:
        file.seek(start)
        return [line.strip().replace("? ", " ") for line in file if line.strip()]



def weigh(playwright: Any, base: str, log: Path, name: str, path: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="bench-weight-profile-") as profile:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            finished: list[Request] = []
            pending: set[Request] = set()

            def done(request: Request) -> None:
                finished.append(request)
                pending.discard(request)

            context.on("request", lambda request: pending.add(request))
            context.on("requestfinished", done)
            context.on("requestfailed", done)
            page = context.pages[0] if context.pages else context.new_page()

            mark = log.stat().st_size
            page.goto(base + path, wait_until="load")
            worker = page.evaluate(
                "() => 'serviceWorker' in navigator ? Promise.race([navigator.serviceWorker.ready.then(() => true),"
                f" new Promise((done) => setTimeout(() => done(false), {int(VISIT_LIMIT * 1000)}))]) : false")
            wait_quiet(page, log, pending)
            first = list(finished)
            first_server = server_lines(log, mark)

            mark = log.stat().st_size
            page.goto(base + path, wait_until="load")
            wait_quiet(page, log, pending)
            repeat = finished[len(first):]
            repeat_server = server_lines(log, mark)
            document, others, precache = split(first, path)  # sizes are asked of the open browser
            again_document, again_others, again_worker = split(repeat, path)
        finally:
            context.close()
    again_others.requests += again_worker.requests
    again_others.bytes += again_worker.bytes
    again_others.urls += again_worker.urls
    return {
        "name": name, "path": path, "worker_ready": bool(worker),
        "first": {"document_kb": document.kb(), "page_requests": document.requests + others.requests,
                  "page_kb": round(document.kb() + others.kb(), 1), "precache_requests": precache.requests,
                  "precache_kb": precache.kb(), "server_requests": len(first_server)},
        "repeat": {"page_kb": again_document.kb(), "other_requests": again_others.requests,
                   "other_kb": again_others.kb(), "other_urls": again_others.urls,
                   "server_requests": len(repeat_server),
                   "server_other": [line for line in repeat_server if line.split(" ")[1:2] != [path]]},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        sys.exit(f"{CHROMIUM} is missing: `make browser` installs Debian's chromium")
    _serve.stop_on_signals()
    _serve.compile_translations()
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-weight-") as tmp:
        log = Path(tmp) / "access.log"
        log.touch()
        extra = ["--access-logfile", str(log), "--access-logformat", LOG_FORMAT]
        with _serve.Server(extra=extra) as server, sync_playwright() as playwright:
            for name, path in PAGES:
                rows.append(weigh(playwright, server.base, log, name, path))
    if args.json:
        print(json.dumps({"pages": rows}, indent=1, ensure_ascii=False))
        return
    print("Bytes received by Chromium (kB = 1000 bytes, headers included), fresh profile per page.")
    head = (f"{'page':<16} {'path':<16} | {'first: page kB':>14} {'(document)':>10} {'reqs':>4} | "
            f"{'worker precache kB':>18} {'reqs':>4} | {'repeat: page kB':>15} {'other reqs':>10} {'other kB':>8}")
    print(head)
    print("-" * len(head))
    for row in rows:
        first, repeat = row["first"], row["repeat"]
        print(f"{row['name']:<16} {row['path']:<16} | {first['page_kb']:>14.1f} {first['document_kb']:>10.1f} "
              f"{first['page_requests']:>4} | {first['precache_kb']:>18.1f} {first['precache_requests']:>4} | "
              f"{repeat['page_kb']:>15.1f} {repeat['other_requests']:>10} {repeat['other_kb']:>8.1f}")
    for row in rows:
        if not row["worker_ready"]:
            print(f"note: {row['name']}: no service worker became ready")
        if row["repeat"]["other_urls"]:
            print(f"repeat visit of {row['name']} also asked for: {', '.join(row['repeat']['other_urls'])}")
    print("requests the server saw (first visit / repeat): "
          + ", ".join(f"{r['name']} {r['first']['server_requests']}/{r['repeat']['server_requests']}" for r in rows))


if __name__ == "__main__":
    main()
