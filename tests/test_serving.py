"""Serving: gunicorn.conf.py binds to loopback unless told otherwise, and a crowd of clients
trickling their headers does not keep a normal client from being served within a second."""
from __future__ import annotations

import http.client
import os
import runpy
import time

import pytest

from tests.serving import LOOPBACK, ROOT, SlowClients, gunicorn, timed_get

CONFIG = str(ROOT / "gunicorn.conf.py")


def settings(monkeypatch, **env):
    for name in ("HOST", "PORT", "WEB_CONCURRENCY", "WEB_THREADS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(CONFIG)


def test_loopback_port_8000_by_default(monkeypatch):
    config = settings(monkeypatch)
    assert config["bind"] == "127.0.0.1:8000"
    assert config["worker_class"] == "gthread" and config["threads"] >= 64
    assert config["workers"] >= 2
    assert 0 < config["timeout"] <= 60 and 0 < config["keepalive"] <= 10


def test_host_port_and_workers_from_the_environment(monkeypatch):
    config = settings(monkeypatch, HOST="0.0.0.0", PORT="9000", WEB_CONCURRENCY="3", WEB_THREADS="8")
    assert (config["bind"], config["workers"], config["threads"]) == ("0.0.0.0:9000", 3, 8)


@pytest.mark.parametrize(("name", "value"), [("PORT", "²"), ("PORT", "70000"), ("WEB_CONCURRENCY", "0"),
                                             ("WEB_CONCURRENCY", "many"), ("WEB_THREADS", "-1")])
def test_a_bad_setting_is_refused_with_its_name(monkeypatch, name, value):
    with pytest.raises(SystemExit, match=name):
        settings(monkeypatch, **{name: value})


def test_make_run_uses_the_config():
    makefile = (ROOT / "Makefile").read_text()
    run = makefile.split("\nrun:", 1)[1].split("\n\n", 1)[0]
    assert "-c gunicorn.conf.py" in run and "--bind" not in run and "0.0.0.0" not in run


def test_a_normal_client_is_served_while_50_clients_trickle_their_headers():
    with gunicorn() as server:
        with SlowClients(server.port, count=50, interval=0.3):
            time.sleep(1.5)  # every slow connection accepted and sending
            timings = []
            for _ in range(5):
                timings.append(timed_get(server.port, "/en/", timeout=3))
                time.sleep(0.2)
        assert server.process.poll() is None
    assert all(status == 200 for status, _ in timings), timings
    assert max(seconds for _, seconds in timings) < 1.0, timings


def test_the_server_stops_with_its_workers():
    with gunicorn() as server:
        workers = server.worker_pids()
        assert workers
    for pid in workers:
        assert not os.path.exists(f"/proc/{pid}") or "zombie" in open(f"/proc/{pid}/status").read()


def _get(port: int, path: str, headers: dict[str, str]) -> tuple[int, dict[str, str], str]:
    connection = http.client.HTTPConnection(LOOPBACK, port, timeout=10)
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read().decode()
    finally:
        connection.close()


def test_behind_the_proxy_https_pages_say_https_cached_or_not():
    """As the README's nginx sends them: Host and X-Forwarded-Proto from 127.0.0.1, which
    gunicorn believes. An https page links to https and asks for HSTS; a plain-http one does
    neither; whichever came first and was kept."""
    with gunicorn(env={"TRUSTED_HOSTS": "doko.example.org"}) as server:
        for _round in range(2):
            for scheme in ("http", "https", "http"):
                headers = {"Host": "doko.example.org", "X-Forwarded-Proto": scheme}
                status, answer, html = _get(server.port, "/en/rules/", headers)
                assert status == 200
                assert f'hreflang="de" href="{scheme}://doko.example.org/de/rules/"' in html, scheme
                other = "http" if scheme == "https" else "https"
                assert f"{other}://doko.example.org" not in html, scheme
                assert answer.get("Strict-Transport-Security") == ("max-age=31536000" if scheme == "https" else None)
