"""Which gunicorn worker model holds against slow clients and slow pages: the measurements
behind gunicorn.conf.py's choice (docs/reliability.md).

    .venv/bin/python bench/workers.py [words a model's name must contain]

For each model: how many of 5 normal requests are answered within 2 s while N connections
trickle their headers (and the slowest of them), and the slowest answer to a normal request while 4 quiz packs are
made (each rules cookie its own cache miss, seconds of CPU). gevent is measured when it can
be imported (it is not a dependency of the app: PYTHONPATH=... to try it).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parent.parent)  # not bench/: its http.py would hide the standard one

import http.client  # noqa: E402
import importlib.util  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402

from tests.serving import LOOPBACK, SlowClients, gunicorn, timed_get  # noqa: E402

MODELS = {
    "sync, 2 workers (the old make run)": ("-k", "sync", "-w", "2", "--threads", "1"),
    "gthread, 2 workers × 32 threads": ("-k", "gthread", "-w", "2", "--threads", "32"),
    "gthread, 2 workers × 64 threads": ("-k", "gthread", "-w", "2", "--threads", "64"),
    "gthread, 2 workers × 128 threads": ("-k", "gthread", "-w", "2", "--threads", "128"),
    "whole requests first (tutor/server/worker.py), 2 workers × 128 threads (gunicorn.conf.py)":
        ("-k", "tutor.server.worker.Worker", "-w", "2", "--threads", "128"),
    "gevent, 2 workers × 1000 connections": ("-k", "gevent", "-w", "2"),
}
SLOW = (2, 50, 100, 200, 300)
COOKIES = ["ddv|deck=40", "pagat|schweinchen=true", "ddv|dullen=second_wins", "pagat|deck=40|poverty=true"]


def main() -> None:
    only = sys.argv[1:]  # words that a model's name must contain, to measure only some
    for name, args in MODELS.items():
        if only and not all(word in name for word in only):
            continue
        if "gevent" in args and importlib.util.find_spec("gevent") is None:
            print(f"{name}: skipped, gevent is not installed")
            continue
        with gunicorn(args=args) as server:
            cells = []
            for count in SLOW:
                with SlowClients(server.port, count, interval=0.3):
                    time.sleep(1.5)
                    answers = [timed_get(server.port, "/en/", timeout=2) for _ in range(5)]
                served = [seconds for status, seconds in answers if status == 200]
                cells.append(f"{count} slow: {len(served)}/5" + (f" (max {max(served):.2f} s)" if served else ""))
            packs = [threading.Thread(target=_pack, args=(server.port, cookie)) for cookie in COOKIES]
            for thread in packs:
                thread.start()
            time.sleep(0.3)
            latencies: list[float] = []
            probes = []
            while any(thread.is_alive() for thread in packs):
                # a normal request every 0.2 s, each on its own, so a stalled one does not delay the next
                probe = threading.Thread(
                    target=lambda out=latencies: out.append(timed_get(server.port, "/en/", timeout=30)[1])
                )
                probe.start()
                probes.append(probe)
                time.sleep(0.2)
            for thread in packs + probes:
                thread.join()
            cells.append(f"during 4 uncached quiz packs: slowest /en/ {max(latencies):.2f} s of {len(latencies)}")
        print(f"{name}: " + "; ".join(cells), flush=True)


def _pack(port: int, cookie: str) -> None:
    conn = http.client.HTTPConnection(LOOPBACK, port, timeout=120)
    conn.request("GET", "/en/quiz/pack", headers={"Cookie": f"rules={cookie}"})
    conn.getresponse().read()
    conn.close()


if __name__ == "__main__":
    main()
