"""Starts the app the way `make run` does, on a free port of 127.0.0.1, for the benchmarks.

The gunicorn settings are `gunicorn.conf.py` when the project has one, otherwise the flags of
the Makefile's `run` recipe (its --bind replaced by a loopback address). Every process started
here is stopped again, whatever happens.

As a command, it wraps another one: the app is served while the command runs, and the
command finds it in $BENCH_BASE (for example http://127.0.0.1:41234):

    .venv/bin/python bench/_serve.py -- sh -c 'curl -s "$BENCH_BASE/en/"'
"""
from __future__ import annotations

import os
import sys

# Its folder holds http.py: keep it out of the way of the standard library's http.
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE]

import shlex  # noqa: E402
import shutil  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import urllib.error  # noqa: E402
import urllib.request  # noqa: E402
from pathlib import Path  # noqa: E402
from types import FrameType  # noqa: E402
from typing import IO  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FALLBACK_FLAGS = ["--workers", "2", "--access-logfile", "-"]  # what `make run` said when this was written


def gunicorn_executable() -> str:
    """The project's gunicorn (its virtualenv), else the one on PATH."""
    local = ROOT / ".venv" / "bin" / "gunicorn"
    if local.exists():
        return str(local)
    found = shutil.which("gunicorn")
    if not found:
        sys.exit("gunicorn not found: run `make install` first")
    return found


def makefile_flags() -> list[str]:
    """The gunicorn flags of the Makefile's `run` recipe, without --bind and the app."""
    try:
        lines = (ROOT / "Makefile").read_text().splitlines()
    except OSError:
        return list(FALLBACK_FLAGS)
    in_run = False
    for line in lines:
        if line.startswith("run:"):
            in_run = True
            continue
        if in_run and not line.startswith("\t"):
            break
        if in_run and "gunicorn" in line:
            words = shlex.split(line.strip())
            words = words[next(i for i, w in enumerate(words) if w.endswith("gunicorn")) + 1:]
            flags: list[str] = []
            skip = False
            for word in words:
                if skip:
                    skip = False
                elif word in ("--bind", "-b"):
                    skip = True
                elif word.startswith("--bind=") or (word.startswith("-b") and len(word) > 2):
                    pass
                elif ":" in word and not word.startswith("-") and "$" not in word:
                    pass  # the app, e.g. app:create_app()
                else:
                    flags.append(word)
            return flags
    return list(FALLBACK_FLAGS)


def settings() -> list[str]:
    """How `make run` configures gunicorn, apart from where it binds."""
    conf = ROOT / "gunicorn.conf.py"
    if conf.exists():
        return ["-c", str(conf)]
    return makefile_flags()


def describe() -> str:
    """The gunicorn settings in words, for the printed figures."""
    return " ".join(shlex.quote(word) for word in settings())


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def compile_translations() -> None:
    """`make run` compiles the catalogs first; so do the benchmarks, when a .mo is stale."""
    stale = [
        po for po in (ROOT / "translations").glob("*/LC_MESSAGES/messages.po")
        if not po.with_suffix(".mo").exists() or po.with_suffix(".mo").stat().st_mtime < po.stat().st_mtime
    ]
    pybabel = ROOT / ".venv" / "bin" / "pybabel"
    if stale and pybabel.exists():
        subprocess.run([str(pybabel), "-q", "compile", "-d", str(ROOT / "translations")], check=True,
                       stdout=subprocess.DEVNULL)


class Server:
    """One gunicorn serving `app_spec` on 127.0.0.1, stopped on exit of the with-block."""

    def __init__(self, app_spec: str = "app:create_app()", pythonpath: str | None = None, ready_path: str = "/",
                 extra: list[str] | None = None) -> None:
        self.app_spec = app_spec
        self.extra = extra or []
        self.pythonpath = pythonpath
        self.ready_path = ready_path
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.log: IO[bytes] | None = None

    def __enter__(self) -> Server:
        argv = [gunicorn_executable(), *settings(), "--bind", f"127.0.0.1:{self.port}"]
        if self.pythonpath:
            argv += ["--pythonpath", self.pythonpath]
        argv += self.extra  # given last, these win over the settings
        argv.append(self.app_spec)
        self.log = tempfile.TemporaryFile()
        # Access log lines go to stdout, as with `make run`; nobody reads them here.
        self.process = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=self.log,
                                        start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                self.log.seek(0)
                sys.exit(f"gunicorn {self.app_spec} stopped at start:\n{self.log.read().decode(errors='replace')}")
            try:
                with urllib.request.urlopen(self.base + self.ready_path, timeout=5):
                    return self
            except urllib.error.HTTPError:
                return self  # it answers
            except OSError:
                time.sleep(0.2)
        self.stop()
        sys.exit(f"gunicorn {self.app_spec} did not answer within a minute")

    def worker_pids(self) -> list[int]:
        """The workers (the master's children)."""
        if not self.process:
            return []
        pids = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[1] == str(self.process.pid):
                pids.append(int(stat.parent.name))
        return sorted(pids)

    def worker_sockets(self) -> list[int]:
        """Open sockets of each worker: the listening one and its connections."""
        counts = []
        for pid in self.worker_pids():
            try:
                counts.append(sum(1 for fd in Path(f"/proc/{pid}/fd").iterdir()
                                  if os.readlink(fd).startswith("socket:")))
            except OSError:
                continue
        return counts

    def worker_cpu_seconds(self) -> float:
        """CPU time (user and system) the workers have used so far, together."""
        total = 0
        for pid in self.worker_pids():
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += int(fields[11]) + int(fields[12])  # utime, stime (man 5 proc)
        return total / os.sysconf("SC_CLK_TCK")

    def worker_rss_kib(self) -> list[int]:
        """Resident memory of each worker, in KiB."""
        sizes = []
        for pid in self.worker_pids():
            try:
                lines = Path(f"/proc/{pid}/status").read_text().splitlines()
            except OSError:
                continue
            sizes += [int(line.split()[1]) for line in lines if line.startswith("VmRSS:")]
        return sorted(sizes)

    def stop(self) -> None:
        process, self.process = self.process, None
        if process and process.poll() is None:
            process.terminate()  # the master stops its workers
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                pass
        if process:
            try:
                os.killpg(process.pid, signal.SIGKILL)  # anything of its session still there
            except (ProcessLookupError, PermissionError):
                pass
            process.wait()
        if self.log:
            self.log.close()
            self.log = None

    def __exit__(self, *exc: object) -> None:
        self.stop()


def stop_on_signals() -> None:
    """SIGTERM and SIGHUP unwind like Ctrl-C, so the with-blocks stop their servers."""
    def unwind(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, unwind)


def main() -> int:
    args = sys.argv[1:]
    if args[:1] == ["--"]:
        args = args[1:]
    if not args:
        sys.exit(__doc__)
    stop_on_signals()
    compile_translations()
    with Server() as server:
        child = subprocess.Popen(args, env={**os.environ, "BENCH_BASE": server.base})
        try:
            return child.wait()
        except KeyboardInterrupt:
            child.terminate()
            child.wait()
            return 130


if __name__ == "__main__":
    sys.exit(main())
