"""A real gunicorn killed with SIGKILL in the middle of writes loses no confirmed deal, on
SQLite and on PostgreSQL."""
from __future__ import annotations

import csv
import http.client
import io
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

import pytest

from tests.postgres import postgres_url

ROOT = Path(__file__).resolve().parents[2]
WRITERS = 3  # phones, each keeping its own sheet
CONFIRMED_BEFORE_KILL = 5  # deals each phone has saved before the kill, however slow the machine


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """gunicorn serving app:create_app() on a loopback port, in its own process group."""

    def __init__(self, database_url: str, instance: Path) -> None:
        self.port = free_port()
        env = {**os.environ, "DATABASE_URL": database_url}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{self.port}", "--workers", "2",
             "app:create_app()"],
            cwd=ROOT, env=env, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if self.request("GET", "/en/")[0] == 200:
                    return
            except OSError:
                time.sleep(0.1)
        self.kill()
        pytest.fail("gunicorn did not start")

    def request(self, method: str, path: str, form: dict | None = None) -> tuple[int, str, str]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            body = urlencode(form or {}, doseq=True)
            headers = {"Content-Type": "application/x-www-form-urlencoded"} if form is not None else {}
            conn.request(method, path, body=body if form is not None else None, headers=headers)
            response = conn.getresponse()
            return response.status, response.getheader("Location") or "", response.read().decode()
        finally:
            conn.close()

    def kill(self) -> None:
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait(timeout=10)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_sigkill_during_writes_loses_no_confirmed_deal(tmp_path, backend):
    url = f"sqlite:///{tmp_path}/sheets.sqlite3" if backend == "sqlite" else postgres_url()
    server = Server(url, tmp_path)
    try:
        sheets = []
        for _ in range(WRITERS):
            new_sheet = {"player": ["A", "B", "C", "D"], "ruleset": "ddv"}
            status, location, _ = server.request("POST", "/en/sheet/", new_sheet)
            assert status == 303
            sheets.append(location)
        confirmed: dict[str, list[int]] = {sheet: [] for sheet in sheets}
        unexpected: list[int] = []

        def phone(sheet: str) -> None:
            version = 1
            for n in range(10_000):
                points = 100 + n % 100
                try:
                    status, _, _ = server.request("POST", sheet + "/deal", {
                        "version": version, "dealer": "0", "re": ["1", "2"], "re_points": points})
                except (OSError, http.client.HTTPException):
                    return  # the server is gone: this deal was never confirmed
                if status != 303:
                    unexpected.append(status)
                    return
                confirmed[sheet].append(points)
                version += 1

        threads = [threading.Thread(target=phone, args=(sheet,)) for sheet in sheets]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 30
        while min(map(len, confirmed.values())) < CONFIRMED_BEFORE_KILL and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.1)  # the phones are in the middle of their next writes now
        server.kill()
        for thread in threads:
            thread.join(timeout=30)
        assert not unexpected
    finally:
        server.kill()

    server = Server(url, tmp_path)
    try:
        for sheet in sheets:
            status, _, body = server.request("GET", sheet + "/sheet.csv")
            assert status == 200
            rows = list(csv.reader(io.StringIO(body)))[1:-1]
            stored = [int(row[5]) for row in rows]  # the column of Re’s card points
            mine = confirmed[sheet]
            assert len(mine) >= CONFIRMED_BEFORE_KILL, "the writers barely started before the kill"
            # Every confirmed deal is there, in order; at most the one in flight came in too.
            assert stored[: len(mine)] == mine
            assert len(stored) - len(mine) in (0, 1)
            # And the sheet still takes the next deal.
            status, _, _ = server.request("POST", sheet + "/deal", {
                "version": len(stored) + 1, "dealer": "0", "re": ["1", "2"], "re_points": "130"})
            assert status == 303
    finally:
        server.kill()
