"""Serving: gunicorn.conf.py binds to loopback unless told otherwise, and a crowd of clients
trickling their requests does not keep a normal client from being served."""
from __future__ import annotations

import http.client
import os
import re
import runpy
import socket
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
    assert config["worker_class"] == "tutor.server.worker.Worker" and config["threads"] >= 64
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


def test_a_normal_client_is_served_while_300_clients_trickle_their_headers():
    """More trickling clients than the server has threads (2 × 128): the worker's poller
    holds them (tutor/server/worker.py), and every normal request is still answered. How fast is
    measured by bench/workers.py, not here."""
    with gunicorn() as server:
        with SlowClients(server.port, count=300, interval=0.3):
            time.sleep(1.5)  # every slow connection accepted and sending
            answers = [timed_get(server.port, "/en/", timeout=10) for _ in range(5)]
        assert server.process.poll() is None
    assert [status for status, _ in answers] == [200] * 5, answers


def _send(conn: socket.socket, *pieces: bytes, pause: float = 0.0) -> bytes:
    for piece in pieces:
        conn.sendall(piece)
        time.sleep(pause)
    conn.shutdown(socket.SHUT_WR)
    received = b""
    while chunk := conn.recv(65536):
        received += chunk
    return received


TRICK = b'{"rules": "ddv", "game": "normal", "cards": ["9D", "QC", "10H", "AD"]}'


def test_requests_that_arrive_in_pieces_are_answered_whole():
    """A body trickled in, two requests in one packet, and a body sent only after `100 Continue`
    all reach the app whole, as gunicorn's parser reads them."""
    head = (b"POST /api/v1/trick HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n" % len(TRICK))
    with gunicorn() as server:
        with socket.create_connection((LOOPBACK, server.port), timeout=10) as conn:
            answer = _send(conn, head, b"Connection: close\r\n\r\n", TRICK[:10], TRICK[10:40], TRICK[40:], pause=0.3)
        assert answer.startswith(b"HTTP/1.1 200") and b'"winner": 2' in answer.replace(b'"winner":2', b'"winner": 2')
        with socket.create_connection((LOOPBACK, server.port), timeout=10) as conn:
            two = b"GET /sw.js HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" + head + b"Connection: close\r\n\r\n" + TRICK
            answer = _send(conn, two)
        assert answer.count(b"HTTP/1.1 200") == 2, answer[:300]
        with socket.create_connection((LOOPBACK, server.port), timeout=10) as conn:
            conn.sendall(head + b"Expect: 100-continue\r\nConnection: close\r\n\r\n")
            assert conn.recv(64).startswith(b"HTTP/1.1 100")
            answer = _send(conn, TRICK)
        assert b"HTTP/1.1 200" in answer


def test_a_request_that_does_not_arrive_in_time_is_closed():
    with gunicorn(env={"REQUEST_TIMEOUT": "1"}) as server:
        with socket.create_connection((LOOPBACK, server.port), timeout=10) as conn:
            conn.sendall(b"GET /en/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            start = time.monotonic()
            for _ in range(40):  # a byte every 0.2 s: still trickling when the time is up
                try:
                    conn.sendall(b"z")
                except OSError:
                    break
                time.sleep(0.2)
                if conn.recv(1, socket.MSG_DONTWAIT | socket.MSG_PEEK) == b"":
                    break
            closed_after = time.monotonic() - start
        assert closed_after < 5, closed_after


@pytest.mark.parametrize(("buffer", "whole"), [
    (b"GET / HTTP/1.1\r\nHost: x\r\n", False),
    (b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", True),
    (b"POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nabc", False),
    (b"POST / HTTP/1.1\r\ncontent-length:  5 \r\n\r\nabcde", True),
    (b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", True),
    (b"POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n", True),
    (b"POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", True),
    (b"POST / HTTP/1.1\r\nContent-Length: 999999999\r\n\r\n", True),
    (b"GET / HTTP/1.1\r\nX: " + b"y" * 200_000, True),
])
def test_a_request_goes_to_a_thread_when_it_has_arrived(buffer, whole):
    from tutor.server.worker import arrived

    assert arrived(buffer) is whole


@pytest.mark.parametrize("text", ["0", "301", "soon", "1.5"])
def test_a_bad_request_timeout_is_refused_with_its_name(text):
    from tutor.server.worker import request_timeout

    with pytest.raises(SystemExit, match="REQUEST_TIMEOUT"):
        request_timeout({"REQUEST_TIMEOUT": text})
    assert request_timeout({}) == 10 and request_timeout({"REQUEST_TIMEOUT": "30"}) == 30


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


def test_under_a_prefix_every_link_stays_under_it_cached_or_not():
    """gunicorn told the app lives at /doko (SCRIPT_NAME, as a proxy mounting it there sets it):
    every link, stylesheet and script of a page points under /doko, on the first answer and on
    the kept one."""
    with gunicorn(env={"SCRIPT_NAME": "/doko"}) as server:
        for _round in range(2):
            status, _headers, html = _get(server.port, "/doko/en/rules/", {"Host": "127.0.0.1"})
            assert status == 200
            links = re.findall(r'(?:href|src|action)="([^"#]+)"', html)
            assert links and all(link.startswith("/doko/") for link in links), [x for x in links if
                                                                                 not x.startswith("/doko/")]
