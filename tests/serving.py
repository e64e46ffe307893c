"""A real gunicorn, started with the project's gunicorn.conf.py on a free loopback port, and
the clients that test it: slow ones that trickle their headers, and the worker processes'
memory. Shared by tests/test_serving.py and the scripts in bench/."""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOOPBACK = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return int(probe.getsockname()[1])


@dataclass
class Server:
    url: str
    port: int
    process: subprocess.Popen[bytes]
    log: Path

    def worker_pids(self) -> list[int]:
        """The worker processes (the master's children)."""
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        try:
            return [int(pid) for pid in children.read_text().split()]
        except OSError:
            return []

    def worker_rss_kib(self) -> dict[int, int]:
        """Resident memory of each worker, in KiB."""
        sizes = {}
        for pid in self.worker_pids():
            try:
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        sizes[pid] = int(line.split()[1])
            except OSError:
                pass
        return sizes

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")


@contextmanager
def gunicorn(
    env: dict[str, str] | None = None, args: tuple[str, ...] = (), start_timeout: float = 60
) -> Iterator[Server]:
    """gunicorn -c gunicorn.conf.py app:create_app() on a free loopback port, with its own SQLite file
    and secret key; stopped (the whole process group) on the way out, whatever happened."""
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="doko-serving-") as folder:
        log = Path(folder) / "gunicorn.log"
        environment = {
            **os.environ,
            "HOST": LOOPBACK,
            "PORT": str(port),
            "DATABASE_URL": f"sqlite:///{folder}/doko.sqlite3",
            "SECRET_KEY": secrets.token_urlsafe(32),
            **(env or {}),
        }
        with open(log, "wb") as out:
            process = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", *args, "app:create_app()"],
                cwd=ROOT,
                env=environment,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        server = Server(f"http://{LOOPBACK}:{port}", port, process, log)
        try:
            _wait_until_serving(server, start_timeout)
            yield server
        finally:
            _stop(process)


def _wait_until_serving(server: Server, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection((LOOPBACK, server.port), timeout=2) as conn:
                conn.sendall(b"GET /manifest.webmanifest HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
                if conn.recv(12).startswith(b"HTTP/1."):
                    return
        except OSError:
            pass
        if server.process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError("gunicorn did not start:\n" + server.log_text())
        time.sleep(0.2)


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            pass
    try:  # whatever of the group is left (a worker that ignored the stop)
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait(timeout=10)


class SlowClients:
    """`count` connections that send a request line and then one header byte every
    `interval` seconds, never finishing their headers, until stopped."""

    def __init__(self, port: int, count: int, interval: float = 0.5) -> None:
        self.port, self.count, self.interval = port, count, interval
        self.sockets: list[socket.socket] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._trickle, daemon=True)

    def __enter__(self) -> SlowClients:
        for _ in range(self.count):
            conn = socket.create_connection((LOOPBACK, self.port), timeout=5)
            conn.sendall(b"GET /en/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            self.sockets.append(conn)
        self._thread.start()
        return self

    def _trickle(self) -> None:
        while not self._stop.wait(self.interval):
            for conn in self.sockets:
                try:
                    conn.send(b"z")
                except OSError:
                    pass

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        for conn in self.sockets:
            conn.close()


def timed_get(port: int, path: str, timeout: float = 10) -> tuple[int, float]:
    """(status, seconds) of one plain GET on a new connection; status 0 when it timed out."""
    start = time.monotonic()
    try:
        with socket.create_connection((LOOPBACK, port), timeout=timeout) as conn:
            conn.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
            head = b""
            while b"\r\n" not in head:
                chunk = conn.recv(4096)
                if not chunk:
                    break
                head += chunk
            while conn.recv(65536):
                pass
        status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/") else 0
    except OSError:
        status = 0
    return status, time.monotonic() - start
