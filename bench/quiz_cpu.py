"""CPU per request of a new quiz question and of answering one (the same question each time,
with a wrong answer, as bench/http.py posts it), through Flask's test client in one process
(Accept-Encoding: br, gzip, no cookies, as bench/http.py's wrk sends): best of 40 rounds of
25 requests, after a warm-up. Then the same requests handed straight to the WSGI app, as
gunicorn hands them (without the test client's own work of building each request and reading
its response). `--profile` prints cProfile's top functions instead.

Run: .venv/bin/python bench/quiz_cpu.py [--profile] [path, default /en/quiz/winner]
"""
from __future__ import annotations

import cProfile
import io
import os
import pstats
import re
import sys
import time
from html import unescape
from typing import Any
from urllib.parse import urlencode

sys.path[0] = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")  # not bench/: its http.py

from flask import Flask  # noqa: E402

from app import create_app  # noqa: E402

HEADERS = {"Accept-Encoding": "br, gzip"}


def first_form(html: str) -> dict[str, str]:
    """The token and the first choice of the question's form, as bench/http.py posts it."""
    token = re.search(r'name="token" value="([^"]+)"', html)
    pick = re.search(r'name="([a-z_]+)" value="([^"]*)"', html[token.end():] if token else "")
    assert token and pick, "no question form on the page"
    return {"token": unescape(token.group(1)), pick.group(1): unescape(pick.group(2))}


def best(run: object, rounds: int = 40, per: int = 25) -> float:
    times = []
    for _ in range(rounds):
        start = time.process_time()
        for _ in range(per):
            run()  # type: ignore[operator]
        times.append((time.process_time() - start) / per)
    return min(times) * 1000


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    path = args[0] if args else "/en/quiz/winner"
    app = create_app({"TESTING": False})
    client = app.test_client(use_cookies=False)
    page = client.get(path + "?q=1&l=0").get_data(as_text=True)  # as bench/http.py: one question, a wrong answer
    form = first_form(page)

    def ask() -> None:
        assert client.get(path, headers=HEADERS).status_code == 200

    def answer() -> None:
        assert client.post(path, data=form, headers=HEADERS).status_code == 200

    for _ in range(4000):  # past the warm-up of whatever the app keeps (all 512 of the day's seeds asked)
        ask()
    answer()
    if "--profile" in sys.argv:
        for name, run in (("question", ask), ("answer", answer)):
            profile = cProfile.Profile()
            profile.enable()
            for _ in range(400):
                run()
            profile.disable()
            print(f"== {name}")
            pstats.Stats(profile).sort_stats("cumulative").print_stats(45)
        return
    print(f"GET  {path}: {best(ask):.3f} ms CPU per request (best of 40)")
    print(f"POST {path}: {best(answer):.3f} ms CPU per request (best of 40)")
    body = urlencode(form).encode()
    for _ in range(4000):  # the same warm-up: this is another host (127.0.0.1:8000), kept apart
        wsgi(app, "GET", path)
    print(f"GET  {path}: {best(lambda: wsgi(app, 'GET', path)):.3f} ms, straight to the WSGI app")
    print(f"POST {path}: {best(lambda: wsgi(app, 'POST', path, body)):.3f} ms, straight to the WSGI app")


def wsgi(app: Flask, method: str, path: str, body: bytes = b"") -> None:
    """One request handed to the app as gunicorn hands it (an environ), its answer read."""
    environ: dict[str, Any] = {
        "REQUEST_METHOD": method, "SCRIPT_NAME": "", "PATH_INFO": path, "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8000", "SERVER_PROTOCOL": "HTTP/1.1", "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(body), "wsgi.errors": sys.stderr, "wsgi.multithread": True,
        "wsgi.multiprocess": True, "wsgi.run_once": False, "wsgi.version": (1, 0), "wsgi.input_terminated": True,
        "HTTP_HOST": "127.0.0.1:8000", "HTTP_ACCEPT_ENCODING": HEADERS["Accept-Encoding"], "REMOTE_ADDR": "127.0.0.1",
    }
    if body:
        environ |= {"CONTENT_TYPE": "application/x-www-form-urlencoded", "CONTENT_LENGTH": str(len(body))}
    status: list[str] = []
    chunks = app.wsgi_app(environ, lambda s, headers, exc_info=None: status.append(s))
    try:
        b"".join(chunks)
    finally:
        getattr(chunks, "close", lambda: None)()
    assert status[0].startswith("200"), status


if __name__ == "__main__":
    main()
