"""Soak: many clients over the main pages for a while, against a real gunicorn started with
gunicorn.conf.py on a loopback port.

    .venv/bin/python bench/soak.py [--seconds 60] [--clients 32]

Prints the requests made, the errors (any status but 200, or no answer), the p50/p99/max
latency, and the resident memory of every worker before (after one round of warm-up
requests) and after, with the total every tenth of the run.
"""

from __future__ import annotations

import sys
from pathlib import Path

# The repository instead of this folder, whose http.py would shadow the standard library's.
HERE = Path(__file__).resolve().parent
sys.path[:] = [str(HERE.parent), *(p for p in sys.path if Path(p or ".").resolve() != HERE)]

import argparse  # noqa: E402
import http.client  # noqa: E402
import random  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402

from tests.serving import LOOPBACK, gunicorn  # noqa: E402

PAGES = [
    "/en/",
    "/de/",
    "/it/learn/",
    "/es/rules/",
    "/es/rules/parties",
    "/fr/quiz/",
    "/en/quiz/winner",
    "/de/quiz/points",
    "/en/quiz/daily",
    "/pt/settings",
    "/en/score/",
    "/en/score/?game=normal&re_points=151&re_announced=re",
    "/de/sheet/",
    "/manifest.webmanifest",
    "/sw.js",
    "/static/css/app.css",
]


def make_sheet(port: int) -> str:
    """A sheet with a few deals; its page and its deal form join the pages."""
    conn = http.client.HTTPConnection(LOOPBACK, port, timeout=30)
    body = "player=Anna&player=Ben&player=Cleo&player=Dirk&first_dealer=0&ruleset=ddv"
    conn.request(
        "POST",
        "/en/sheet/",
        body,
        {"Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin"},
    )
    reply = conn.getresponse()
    reply.read()
    sheet = reply.getheader("Location", "").split("?")[0]
    for version, re in enumerate(("re=0&re=1", "re=1&re=2", "re=0&re=2"), start=1):
        conn.request(
            "POST",
            f"{sheet}/deal",
            f"version={version}&dealer={version - 1}&{re}&game=normal&re_points=130",
            {"Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin"},
        )
        conn.getresponse().read()
    conn.close()
    return sheet


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))] if ordered else float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--clients", type=int, default=32)
    args = parser.parse_args()

    with gunicorn() as server:
        sheet = make_sheet(server.port)
        pages = PAGES + [sheet, f"{sheet}/deal", f"{sheet}/sheet.csv"]
        for lang in ("de", "en", "it", "es", "fr", "pt"):  # warm-up: every page made once
            for page in pages:
                conn = http.client.HTTPConnection(LOOPBACK, server.port, timeout=30)
                conn.request("GET", page.replace("/en/", f"/{lang}/", 1))
                conn.getresponse().read()
                conn.close()
        before = server.worker_rss_kib()

        latencies: list[float] = []
        errors: Counter[str] = Counter()
        lock = threading.Lock()
        deadline = time.monotonic() + args.seconds

        def client(number: int) -> None:
            rng = random.Random(number)
            conn = http.client.HTTPConnection(LOOPBACK, server.port, timeout=30)
            mine: list[float] = []
            while time.monotonic() < deadline:
                page = rng.choice(pages)
                start = time.monotonic()
                try:
                    conn.request("GET", page)
                    reply = conn.getresponse()
                    reply.read()
                    if reply.status != 200:
                        with lock:
                            errors[f"{reply.status} {page}"] += 1
                except (http.client.HTTPException, OSError) as error:
                    with lock:
                        errors[f"{type(error).__name__} {page}"] += 1
                    conn.close()
                    conn = http.client.HTTPConnection(LOOPBACK, server.port, timeout=30)
                mine.append(time.monotonic() - start)
            conn.close()
            with lock:
                latencies.extend(mine)

        threads = [threading.Thread(target=client, args=(n,)) for n in range(args.clients)]
        started = time.monotonic()
        for thread in threads:
            thread.start()
        series = []  # total worker RSS every tenth of the run: growth or a plateau?
        while any(thread.is_alive() for thread in threads):
            time.sleep(args.seconds / 10)
            series.append(sum(server.worker_rss_kib().values()) / 1024)
        for thread in threads:
            thread.join()
        seconds = time.monotonic() - started
        after = server.worker_rss_kib()
        alive = server.process.poll() is None

    count = len(latencies)
    print(
        f"{count} requests in {seconds:.1f} s ({count / seconds:.0f}/s)"
        f" from {args.clients} clients over {len(pages)} pages"
    )
    print(f"errors: {sum(errors.values())}" + "".join(f"\n  {n} × {what}" for what, n in errors.most_common()))
    print(
        f"latency: p50 {percentile(latencies, 0.5) * 1000:.0f} ms, p99 {percentile(latencies, 0.99) * 1000:.0f} ms, "
        f"max {max(latencies) * 1000:.0f} ms"
    )

    def mib(sizes: dict[int, int]) -> str:
        return (
            ", ".join(f"{kib / 1024:.1f}" for _, kib in sorted(sizes.items()))
            + f" MiB (total {sum(sizes.values()) / 1024:.1f})"
        )

    print(f"worker RSS before: {mib(before)}")
    print(f"worker RSS after:  {mib(after)}")
    print("total worker RSS every tenth of the run: " + ", ".join(f"{total:.1f}" for total in series) + " MiB")
    print(
        f"same workers throughout: {'yes' if set(before) == set(after) else 'NO'};"
        f" gunicorn still running: {'yes' if alive else 'NO'}"
    )
    return 1 if errors or not alive else 0


if __name__ == "__main__":
    sys.exit(main())
