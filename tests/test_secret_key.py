"""The secret key: from the environment first, written atomically, never empty or short."""
from __future__ import annotations

import multiprocessing
import os
import stat
import threading
import time

import pytest

from app import create_app
from tutor.server import secret_key
from tutor.server.secret_key import MIN_LENGTH, SecretKeyError

LONG = "k" * MIN_LENGTH


@pytest.fixture(autouse=True)
def no_key_in_environment(monkeypatch):
    monkeypatch.delenv("SECRET_KEY", raising=False)


def test_the_environment_comes_first(tmp_path, monkeypatch):
    (tmp_path / "secret_key").write_text("f" * 50)
    monkeypatch.setenv("SECRET_KEY", LONG)
    assert secret_key.load(str(tmp_path)) == LONG


def test_the_environment_alone_makes_no_file(tmp_path, monkeypatch):
    monkeypatch.setenv("SECRET_KEY", LONG)
    secret_key.load(str(tmp_path))
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("value", ["", "   ", "short", "k" * (MIN_LENGTH - 1)])
def test_an_empty_or_short_key_from_the_environment_is_refused(tmp_path, monkeypatch, value):
    monkeypatch.setenv("SECRET_KEY", value)
    with pytest.raises(SecretKeyError, match="SECRET_KEY environment variable") as error:
        secret_key.load(str(tmp_path))
    assert "unset it" in str(error.value) and "token_urlsafe" in str(error.value)


@pytest.mark.parametrize("content", ["", "\n", "  \n", "abc"])
def test_an_empty_or_short_key_file_is_refused(tmp_path, content):
    (tmp_path / "secret_key").write_text(content)
    with pytest.raises(SecretKeyError) as error:
        secret_key.load(str(tmp_path))
    message = str(error.value)
    assert str(tmp_path / "secret_key") in message
    assert f"at least {MIN_LENGTH} characters" in message and "SECRET_KEY" in message
    assert f"delete {tmp_path / 'secret_key'}" in message


def test_the_app_refuses_to_start_with_an_empty_key(monkeypatch):
    monkeypatch.setenv("SECRET_KEY", "")
    with pytest.raises(SecretKeyError):
        create_app({"TESTING": True})


def test_a_new_key_is_made_once_private_and_kept(tmp_path):
    folder = tmp_path / "instance"
    key = secret_key.load(str(folder))
    assert len(key) >= MIN_LENGTH
    assert secret_key.load(str(folder)) == key
    assert stat.S_IMODE(os.stat(folder / "secret_key").st_mode) == 0o600
    assert [p.name for p in folder.iterdir()] == ["secret_key"], "a temporary file was left behind"


def _start(folder: str, barrier, results) -> None:
    barrier.wait()
    try:
        results.put(secret_key.load(folder))
    except Exception as error:  # the parent reports it
        results.put(f"error: {error!r}")


@pytest.mark.parametrize("round_", range(3))
def test_processes_starting_together_all_read_the_same_key(tmp_path, round_):
    for attempt in range(6):
        _start_together(tmp_path / str(attempt), processes=16)


def _start_together(folder, processes):
    """Start many processes at one barrier; every one must read the one key on disk."""
    folder.mkdir()
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(processes)
    results = context.Queue()
    workers = [context.Process(target=_start, args=(str(folder), barrier, results)) for _ in range(processes)]
    for worker in workers:
        worker.start()
    keys = [results.get(timeout=30) for _ in workers]
    for worker in workers:
        worker.join(timeout=30)
    assert all(worker.exitcode == 0 for worker in workers)
    assert len(set(keys)) == 1, keys
    assert len(keys[0]) >= MIN_LENGTH, keys
    assert (folder / "secret_key").read_text() == keys[0]
    assert [p.name for p in folder.iterdir()] == ["secret_key"]


def test_a_slow_write_is_never_seen_half_done(tmp_path, monkeypatch):
    """A disk that takes its time: a second start during the write still reads a whole key."""
    real_fdopen = os.fdopen

    class Slow:
        def __init__(self, file):
            self.file = file

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return self.file.__exit__(*exc)

        def write(self, text):
            time.sleep(0.3)
            return self.file.write(text)

        def __getattr__(self, name):
            return getattr(self.file, name)

    monkeypatch.setattr(os, "fdopen", lambda *args, **kwargs: Slow(real_fdopen(*args, **kwargs)))
    keys: list[str] = []
    first = threading.Thread(target=lambda: keys.append(secret_key.load(str(tmp_path))))
    first.start()
    time.sleep(0.1)
    try:
        keys.append(secret_key.load(str(tmp_path)))
    finally:
        first.join()
    assert len(keys) == 2 and keys[0] == keys[1] and len(keys[0]) >= MIN_LENGTH, keys


def test_importing_the_app_module_builds_nothing_and_writes_nothing():
    # gunicorn serves app:create_app(); an import alone (a test, a tool) must not make the
    # instance folder or its secret key in the checkout.
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent

    def files() -> set[tuple[str, int]]:
        # Caches of the tools (dot folders) and compiled Python are not the checkout.
        def kept(parts: tuple[str, ...]) -> bool:
            return not any(part.startswith(".") or part in ("__pycache__", "node_modules") for part in parts)
        return {(str(p.relative_to(root)), p.stat().st_mtime_ns) for p in root.rglob("*")
                if p.is_file() and kept(p.relative_to(root).parts)}

    before = files()
    out = subprocess.run([sys.executable, "-B", "-c", "import app; print(hasattr(app, 'app'))"], cwd=root,
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
    assert files() == before
