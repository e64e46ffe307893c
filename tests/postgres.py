"""A throwaway PostgreSQL server for the sheet's tests, started once per test process
(under pytest-xdist, each worker starts its own, so no two workers share tables).

Debian's `postgresql` package provides the binaries (`make test` installs it when missing).
The server runs in a temporary folder, as the `postgres` user when the tests run as root,
listening on a unix socket and a free loopback port, and is stopped when the tests end.
TEST_DATABASE_URL names an existing server instead. When PostgreSQL cannot start, the
tests that need it fail: they are never skipped.
"""
from __future__ import annotations

import atexit
import glob
import os
import shutil
import socket
import subprocess
import tempfile

import pytest

_url: str | None = None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _bindir() -> str:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if not found:
        pytest.fail("PostgreSQL is not installed: `make test` installs Debian's postgresql package")
    return os.path.dirname(found[-1])


def postgres_url() -> str:
    """The URL of a running PostgreSQL for tests; started on first use."""
    global _url
    if _url:
        return _url
    if os.environ.get("TEST_DATABASE_URL"):
        _url = os.environ["TEST_DATABASE_URL"]
        return _url
    bindir = _bindir()
    folder = tempfile.mkdtemp(prefix="doko-pg-")
    prefix: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        shutil.chown(folder, "postgres", "postgres")
        prefix = ["runuser", "-u", "postgres", "--"]
    data = os.path.join(folder, "data")

    def run(*args: str, may_fail: bool = False) -> bool:
        result = subprocess.run([*prefix, *args], capture_output=True, text=True, timeout=120)
        if result.returncode != 0 and not may_fail:
            log = os.path.join(folder, "log")
            with open(log) if os.path.exists(log) else open(os.devnull) as file:
                tail = file.read()[-2000:]
            pytest.fail(f"PostgreSQL did not start: {' '.join(args)}\n{result.stdout}{result.stderr}{tail}")
        return result.returncode == 0

    run(f"{bindir}/initdb", "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync")
    for attempt in range(3):  # another process may take the free port before the server binds it
        port = _free_port()
        options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off"
        start = (f"{bindir}/pg_ctl", "-D", data, "-o", options, "-l", os.path.join(folder, "log"), "-w", "-t", "60",
                 "start")
        if run(*start, may_fail=attempt < 2):
            break

    def stop() -> None:
        subprocess.run([*prefix, f"{bindir}/pg_ctl", "-D", data, "-m", "immediate", "stop"],
                       capture_output=True, timeout=60)
        shutil.rmtree(folder, ignore_errors=True)

    atexit.register(stop)
    _url = f"postgresql://postgres@127.0.0.1:{port}/postgres"
    return _url
