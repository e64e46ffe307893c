"""CPU per request of a new quiz question and of answering one (the same question each time,
with a wrong answer, as bench/http.py posts it), through Flask's test client in one process
(Accept-Encoding: br, gzip, no cookies, as bench/http.py's wrk sends): best of 40 rounds of
25 requests, after a warm-up. `--profile` prints cProfile's top functions instead.

Run: .venv/bin/python bench/quiz_cpu.py [--profile] [path, default /en/quiz/winner]
"""
from __future__ import annotations

import cProfile
import os
import pstats
import re
import sys
import time
from html import unescape

sys.path[0] = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")  # not bench/: its http.py

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

    for _ in range(1500):  # past the warm-up of whatever the app keeps
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


if __name__ == "__main__":
    main()
