"""Long fuzz run: ≥ 10,000 seeded random requests to every form, query string and route of the
app, served by a real gunicorn started with gunicorn.conf.py on a loopback port.

    .venv/bin/python bench/fuzz.py [--requests 10000] [--seed 1] [--clients 4]

Prints the count of each status, and every 5xx (and every response showing a traceback) with
its request. Exits 1 when there was any. tests/fuzzing.py is the fuzzer; the suite runs it
briefly in process (tests/test_fuzz_forms.py).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

# The repository instead of this folder, whose http.py would shadow the standard library's.
HERE = Path(__file__).resolve().parent
sys.path[:] = [str(HERE.parent), *(p for p in sys.path if Path(p or ".").resolve() != HERE)]

from app import create_app  # noqa: E402  (the url_map only: nothing is served from this process)
from tests.fuzzing import Fuzzer, matcher, over_http, problems, routes_of  # noqa: E402
from tests.serving import LOOPBACK, gunicorn  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--clients", type=int, default=4, help="requests sent at once")
    args = parser.parse_args()

    app = create_app({"TESTING": True})
    with gunicorn() as server:
        fetch = over_http(LOOPBACK, server.port)
        fuzzer = Fuzzer(fetch, routes_of(app), matcher(app), seed=args.seed)
        started = time.monotonic()
        fuzzer.discover()
        print(
            f"discovered {len(fuzzer.pages)} pages, {len(fuzzer.forms)} forms, {len(fuzzer.links)} links "
            f"in {time.monotonic() - started:.1f} s"
        )
        requests = list(fuzzer.requests(args.requests, expensive_at_most=20))
        statuses: Counter[int] = Counter()
        endpoints: Counter[str] = Counter()
        bad: list[str] = []
        failed: list[str] = []

        def send(request):  # type: ignore[no-untyped-def]
            try:
                return request, fetch(request), None
            except Exception as error:  # a dropped connection is a finding too
                return request, None, error

        started = time.monotonic()
        with ThreadPoolExecutor(args.clients) as pool:
            for request, response, error in pool.map(send, requests):
                endpoints[request.target.split(" ")[0]] += 1
                if response is None:
                    failed.append(f"{error!r}: {request.describe()}")
                    continue
                statuses[response.status] += 1
                found = problems(request, response)
                if found:
                    bad.append(f"{', '.join(found)} [{request.target}] {request.describe()}")
        seconds = time.monotonic() - started
        alive = server.process.poll() is None
        log = server.log_text()

    print(
        f"{len(requests)} requests in {seconds:.1f} s ({len(requests) / seconds:.0f}/s),"
        f" {args.clients} at once, seed {args.seed}"
    )
    print("by status: " + ", ".join(f"{status} × {n}" for status, n in sorted(statuses.items())))
    print(f"endpoints fuzzed: {len(endpoints)}; gunicorn still running at the end: {'yes' if alive else 'NO'}")
    print(f"gunicorn log: {log.count('Booting worker')} worker boots, {log.count('WORKER TIMEOUT')} worker timeouts")
    print(f"5xx or traceback: {len(bad)}")
    for line in bad:
        print("  " + line)
    if failed:
        print(f"requests without an answer: {len(failed)}")
        for line in failed[:50]:
            print("  " + line)
    return 1 if bad or failed else 0


if __name__ == "__main__":
    sys.exit(main())
