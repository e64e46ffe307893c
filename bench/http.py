"""Requests per second and latency (p50, p99) of the app's main routes under load, each beside
a trivial WSGI app that answers a body of the same size, served by the same gunicorn settings
(the ceiling): the ratio says how much of the server's capacity the app itself costs.

The app runs as `make run` runs it, on a free port of 127.0.0.1; the load is Debian's `wrk`
(installed with apt-get when it is missing), 16 connections for 5 s per route by default,
after 1 s of warming up; the ceiling is measured right after each route, at its body size.
The routes are the table TARGETS below. The worker memory is read from /proc at the end.
With --rounds N, "ratio" is the best route round over the best ceiling round, and "median"
the middle one of each round's route over the ceiling measured right after it; in both, only
the rounds whose connections were shared evenly between the workers count, when there are
any (see Result.even). "cpu ms" is the workers' CPU time per answer (from /proc), and "cpu r"
the ceiling's over the route's: the same ratio, steadier, as it does not move with how busy
the cores were with other things.

Run: .venv/bin/python bench/http.py [--duration 5] [--connections 16] [--rounds 1] [--accept-encoding "br, gzip"]
     [--json] [--only "quiz answer"]...
"""
from __future__ import annotations

import os
import sys

# This file is called http.py: keep its folder out of the way of the standard library's http.
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE] + [HERE]

import argparse  # noqa: E402
import http.cookiejar  # noqa: E402
import json  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import urllib.error  # noqa: E402
import urllib.parse  # noqa: E402
import urllib.request  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from html.parser import HTMLParser  # noqa: E402
from typing import Any  # noqa: E402

import _serve  # noqa: E402

# What is measured. Add a line to measure another route:
#   (name, method, path, body) with body None for a GET, "form:<path>" to POST the first form
#   of the page at <path> (parsed from its HTML, as a browser would fill it in), or a JSON text.
#   "learner+" before either sends a returning learner's cookies (RETURNING: questions answered
#   and lessons opened first, the cookies they set kept); a path "{sheet30}" is a score sheet
#   with 30 deals, made through its forms before the load.
# "optional" routes are skipped with a note while they answer 404.
TARGETS: list[tuple[str, str, str, str | None]] = [
    ("home", "GET", "/en/", None),
    ("learn", "GET", "/en/learn/", None),
    ("lesson step", "GET", "/en/learn/cards/1", None),
    ("rules contents", "GET", "/en/rules/", None),
    ("rules section", "GET", "/en/rules/trumps", None),  # the section with the most cards drawn
    ("quiz question", "GET", "/en/quiz/winner", None),
    # Always the same question and a wrong answer to it (the costlier kind: the rule goes into
    # review, so the practice cookie changes too), not whichever question the page drew.
    ("quiz answer", "POST", "/en/quiz/winner", "form:/en/quiz/winner?q=1&l=0"),
    # The same answer from a learner who has been here before: the quiz, practice and lessons
    # cookies are read, checked and written again.
    ("answer, cookies", "POST", "/en/quiz/winner", "learner+form:/en/quiz/winner?q=1&l=0"),
    ("calculator", "GET", "/en/score/?rules=ddv&re_points=156&re_fox=1&kontra_doppelkopf=1", None),
    ("play step", "GET", "/en/play/?s=113138500&l=0&r=ddv&m=C", None),  # mid-deal: the first card played
    ("sheet, 30 deals", "GET", "{sheet30}", None),
    ("api trick", "POST", "/api/v1/trick", '{"rules": "ddv", "game": "normal", "cards": ["9D", "QC", "10H", "AD"]}'),
]
OPTIONAL = {"play step"}

# The ceiling: a WSGI app with nothing to do but answer `n` bytes at /<n>.
CEILING_APP = '''
def app(environ, start_response):
    size = int(environ.get("PATH_INFO", "/0").strip("/") or 0)
    body = b"x" * size
    start_response("200 OK", [("Content-Type", "text/html; charset=utf-8"), ("Content-Length", str(size))])
    return [body]
'''

# wrk sends what the environment says and reports in one JSON line.
WRK_LUA = r'''
wrk.method = os.getenv("BENCH_METHOD") or "GET"
local body = os.getenv("BENCH_BODY")
if body and body ~= "" then wrk.body = body end
local ctype = os.getenv("BENCH_CTYPE")
if ctype and ctype ~= "" then wrk.headers["Content-Type"] = ctype end
local encoding = os.getenv("BENCH_ACCEPT_ENCODING")
if encoding and encoding ~= "" then wrk.headers["Accept-Encoding"] = encoding end
local cookie = os.getenv("BENCH_COOKIE")
if cookie and cookie ~= "" then wrk.headers["Cookie"] = cookie end

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH {"requests": %d, "duration_us": %d, "bytes": %d, "p50_us": %d, "p99_us": %d, ' ..
    '"non_2xx": %d, "errors": %d}\n',
    summary.requests, summary.duration, summary.bytes, latency:percentile(50), latency:percentile(99),
    e.status, e.connect + e.read + e.write + e.timeout))
end
'''


@dataclass
class Result:
    requests: int
    rps: float
    p50_ms: float
    p99_ms: float
    non_2xx: int
    errors: int
    split: list[int] | None = None  # each worker's sockets halfway through the run
    cpu_ms: float | None = None  # the workers' CPU time per answer, in ms

    @property
    def even(self) -> bool:
        """Whether the connections were shared evenly between the workers (within two). wrk
        opens its connections at once and keeps them: when one worker took most of them, it
        is busy on one core while the other idles, and the figure says more about that
        split than about the app (the ceiling alone moved from 5,700 to 10,200 answers a
        second with it)."""
        return self.split is None or len(self.split) < 2 or max(self.split) - min(self.split) <= 2


class FormParser(HTMLParser):
    """The first <form> of a page, filled in as a browser would submit it: hidden fields,
    the first choice of each radio group and select, the first checkbox, and the first
    named submit button."""

    def __init__(self) -> None:
        super().__init__()
        self.action: str | None = None
        self.method = "get"
        self.fields: list[tuple[str, str]] = []
        self.in_form = False
        self.done = False
        self.radios: set[str] = set()
        self.checkbox = False
        self.button = False
        self.select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if self.done:
            return
        if tag == "form" and not self.in_form:
            self.in_form, self.action, self.method = True, a.get("action", ""), a.get("method", "get").lower()
            return
        if not self.in_form:
            return
        name, kind = a.get("name"), a.get("type", "text" if tag == "input" else "submit").lower()
        if tag == "select" and name:
            self.select = name
        elif tag == "option" and self.select:
            self.fields.append((self.select, a.get("value", "")))
            self.select = None
        elif not name:
            return
        elif tag == "input" and kind == "radio":
            if name not in self.radios:
                self.radios.add(name)
                self.fields.append((name, a.get("value", "on")))
        elif tag == "input" and kind == "checkbox":
            if not self.checkbox:
                self.checkbox = True
                self.fields.append((name, a.get("value", "on")))
        elif kind == "submit" and tag in ("button", "input"):
            if not self.button:
                self.button = True
                self.fields.append((name, a.get("value", "")))
        elif tag in ("input", "textarea") and kind not in ("button", "reset", "image", "file"):
            self.fields.append((name, a.get("value", "")))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form" and self.in_form:
            self.in_form, self.done = False, True


def fetch(base: str, method: str, path: str, body: bytes | None, ctype: str | None,
          encoded: bool = True, cookie: str = "") -> tuple[int, bytes]:
    """The answer as it travels (compressed when --accept-encoding asked for it), or plain."""
    headers = {"Content-Type": ctype} if ctype else {}
    if encoded and os.environ.get("BENCH_ACCEPT_ENCODING"):
        headers["Accept-Encoding"] = os.environ["BENCH_ACCEPT_ENCODING"]
    if cookie:
        headers["Cookie"] = cookie
    request = urllib.request.Request(base + path, data=body, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def form_of(base: str, page: str, cookie: str = "") -> tuple[str, str]:
    """The action and urlencoded body of the first form on `page`."""
    status, html = fetch(base, "GET", page, None, None, encoded=False, cookie=cookie)
    parser = FormParser()
    parser.feed(html.decode("utf-8", errors="replace"))
    if status != 200 or parser.action is None:
        sys.exit(f"no form found on {page} (status {status})")
    return urllib.parse.urljoin(page, parser.action), urllib.parse.urlencode(parser.fields)


# What a returning learner has done before (bench "learner+"): winner questions answered
# (none of them the one measured, q=1, which the cookies would then count once already), a
# few of other kinds, and lesson steps opened.
RETURNING = ([f"/en/quiz/winner?q={seed}&l=0" for seed in range(2, 14)] +
             [f"/en/quiz/{kind}?q={seed}&l=1" for kind in ("legal", "points", "party") for seed in (5, 6)])
RETURNING_STEPS = ("/en/learn/cards/1", "/en/learn/cards/2", "/en/learn/trumps/1")


def returning_learner(base: str) -> str:
    """The Cookie header of a learner who answered RETURNING (each with the form's first
    choices, right or wrong as they fall) and opened RETURNING_STEPS, as a browser keeps the
    cookies those answers set."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    for page in RETURNING:
        with opener.open(base + page, timeout=30) as response:
            parser = FormParser()
            parser.feed(response.read().decode())
        action = urllib.parse.urljoin(page, parser.action or page)
        try:
            opener.open(urllib.request.Request(base + action, data=urllib.parse.urlencode(parser.fields).encode()),
                        timeout=30).read()
        except urllib.error.HTTPError:  # a number left empty does not fit: a new question, the cookies kept
            pass
    for page in RETURNING_STEPS:
        opener.open(base + page, timeout=30).read()
    return "; ".join(f"{cookie.name}={cookie.value}" for cookie in jar)


def sheet_with_deals(base: str, deals: int) -> str:
    """A score sheet of four with `deals` deals, entered through its forms; its path."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    made = opener.open(urllib.request.Request(base + "/en/sheet/", data=urllib.parse.urlencode(
        [("player", name) for name in ("Anna", "Bert", "Carl", "Dora")] + [("ruleset", "ddv")]).encode()), timeout=30)
    sheet = urllib.parse.urlsplit(made.geturl()).path
    for n in range(deals):
        html = opener.open(base + sheet + "/deal", timeout=30).read().decode()
        hidden = dict(re.findall(r'type="hidden" name="(\w+)" value="([^"]*)"', html))
        dealer = re.search(r'name="dealer"[^>]*>.*?<option value="(\d)" selected', html, re.S)
        fields = [*hidden.items(), ("dealer", dealer.group(1) if dealer else str(n % 4)), ("re", str(n % 4)),
                  ("re", str((n + 1) % 4)), ("re_points", str(100 + (n * 7) % 60)), ("re_fox", str(n % 2))]
        opener.open(urllib.request.Request(base + sheet + "/deal", data=urllib.parse.urlencode(fields).encode()),
                    timeout=30).read()
    return sheet


def ensure_wrk() -> str:
    found = shutil.which("wrk")
    if found:
        return found
    print("wrk is missing: installing Debian's package", file=sys.stderr)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env, timeout=600)
    subprocess.run(["apt-get", "install", "-y", "-qq", "wrk"], check=True, env=env, timeout=600)
    found = shutil.which("wrk")
    if not found:
        sys.exit("wrk could not be installed")
    return found


def run_wrk(wrk: str, lua: str, url: str, method: str, body: str | None, ctype: str | None,
            seconds: float, connections: int, server: _serve.Server | None = None, cookie: str = "") -> Result:
    env = {**os.environ, "BENCH_METHOD": method, "BENCH_BODY": body or "", "BENCH_CTYPE": ctype or "",
           "BENCH_COOKIE": cookie}
    argv = [wrk, "-t", "2", "-c", str(connections), "-d", f"{seconds:g}s", "--timeout", "10s", "-s", lua, url]
    split: list[int] = []
    if server is not None:  # how the connections are shared out, looked at halfway
        looker = threading.Timer(seconds / 2, lambda: split.extend(server.worker_sockets()))
        looker.start()
        cpu_before = server.worker_cpu_seconds()
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=seconds + 60)
    cpu = None
    if server is not None:
        cpu = server.worker_cpu_seconds() - cpu_before
        looker.join()
    line = next((text for text in done.stdout.splitlines() if text.startswith("BENCH ")), None)
    if done.returncode != 0 or line is None:
        sys.exit(f"wrk failed on {url}:\n{done.stdout}\n{done.stderr}")
    data = json.loads(line[len("BENCH "):])
    return Result(requests=data["requests"], rps=data["requests"] / (data["duration_us"] / 1e6),
                  p50_ms=data["p50_us"] / 1000, p99_ms=data["p99_us"] / 1000, non_2xx=data["non_2xx"],
                  errors=data["errors"], split=split if server is not None else None,
                  cpu_ms=cpu * 1000 / data["requests"] if cpu is not None and data["requests"] else None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=5.0, help="seconds of load per route (default 5)")
    parser.add_argument("--connections", type=int, default=16, help="open connections (default 16)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="rounds of route and ceiling, the best of each kept (default 1)")
    parser.add_argument("--accept-encoding", default="", metavar="LIST",
                        help='Accept-Encoding sent with every request, as a browser does ("br, gzip"); none unless '
                             'given, and the ceiling then answers the compressed size')
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--only", action="append", default=[], metavar="ROUTE",
                        help="measure only this route of TARGETS (by name; may be given again)")
    args = parser.parse_args()
    unknown = set(args.only) - {name for name, *_rest in TARGETS}
    if unknown:
        parser.error(f"no such route: {', '.join(sorted(unknown))} (routes: {', '.join(t[0] for t in TARGETS)})")
    os.environ["BENCH_ACCEPT_ENCODING"] = args.accept_encoding
    wrk = ensure_wrk()
    _serve.stop_on_signals()
    _serve.compile_translations()
    rows: list[dict[str, Any]] = []
    notes: list[str] = []
    with tempfile.TemporaryDirectory(prefix="bench-http-") as tmp:
        with open(os.path.join(tmp, "bench_ceiling.py"), "w") as file:
            file.write(CEILING_APP)
        lua = os.path.join(tmp, "bench.lua")
        with open(lua, "w") as file:
            file.write(WRK_LUA)
        with _serve.Server() as app, _serve.Server("bench_ceiling:app", pythonpath=tmp, ready_path="/1") as ceiling:
            rss = measure(args, wrk, lua, app, ceiling, rows, notes)
    report(args, rows, notes, rss)


def measure(args: argparse.Namespace, wrk: str, lua: str, app: _serve.Server, ceiling: _serve.Server,
            rows: list[dict[str, Any]], notes: list[str]) -> list[int]:
    """Every route of TARGETS, each right before the ceiling at its body size."""
    for name, method, path, spec in TARGETS:
        if args.only and name not in args.only:
            continue
        body, ctype, cookie = None, None, ""
        if spec and spec.startswith("learner+"):
            cookie, spec = returning_learner(app.base), spec[len("learner+"):]
        if path == "{sheet30}":
            path = sheet_with_deals(app.base, 30)
        if spec and spec.startswith("form:"):
            path, body = form_of(app.base, spec[len("form:"):], cookie)
            ctype = "application/x-www-form-urlencoded"
        elif spec:
            body, ctype = spec, "application/json"
        status, answer = fetch(app.base, method, path, body.encode() if body else None, ctype, cookie=cookie)
        if status == 404 and name in OPTIONAL:
            notes.append(f"{name} ({method} {path}): skipped, it answers 404 (not built yet)")
            continue
        if not 200 <= status < 300:
            notes.append(f"{name} ({method} {path}): answers {status}, measured anyway")
        size = len(answer)
        run_wrk(wrk, lua, app.base + path, method, body, ctype, min(1.0, args.duration), args.connections,
                cookie=cookie)
        runs = []
        for _ in range(args.rounds):
            mine = run_wrk(wrk, lua, app.base + path, method, body, ctype, args.duration, args.connections, app,
                           cookie)
            theirs = run_wrk(wrk, lua, f"{ceiling.base}/{size}", "GET", None, None, args.duration, args.connections,
                             ceiling)
            runs.append((mine, theirs))
        # A busy machine only ever slows a round down: keep the best, of the rounds whose
        # connections were shared evenly between the workers when there are any.
        mines = [m for m, _t in runs if m.even] or [m for m, _t in runs]
        theirs_even = [t for _m, t in runs if t.even] or [t for _m, t in runs]
        measured, top = max(mines, key=lambda r: r.rps), max(theirs_even, key=lambda r: r.rps)
        pairs = [(m, t) for m, t in runs if m.even and t.even] or runs
        paired = [m.rps / t.rps if t.rps else 0.0 for m, t in pairs]
        uneven = sum(not m.even for m, _t in runs), sum(not t.even for _m, t in runs)
        if args.rounds > 1 and any(uneven):
            notes.append(f"{name}: connections shared unevenly between the workers in {uneven[0]} of {args.rounds} "
                         f"rounds of the route and {uneven[1]} of the ceiling; "
                         + ("those rounds left out" if len(mines) < len(runs) or len(theirs_even) < len(runs)
                            else "kept (no round was even)"))
        rows.append({
            "name": name, "method": method, "path": path, "bytes": size,
            "requests": measured.requests, "rps": round(measured.rps, 1), "p50_ms": round(measured.p50_ms, 2),
            "p99_ms": round(measured.p99_ms, 2),
            "non_2xx": measured.non_2xx, "errors": measured.errors,
            "ceiling_rps": round(top.rps, 1), "ceiling_p50_ms": round(top.p50_ms, 2),
            "ceiling_p99_ms": round(top.p99_ms, 2), "ratio": round(measured.rps / top.rps, 3),
            # Each round's route over the ceiling right after it, the middle one: a machine whose
            # speed drifts between rounds moves it less than the best of each.
            "ratio_median": round(statistics.median(paired), 3),
            # The workers' CPU time per answer (the middle of the rounds counted), and the
            # ceiling's over the route's: steadier than requests/s, which also move with how
            # wrk's connections fell to the workers and with what else the cores were doing.
            "cpu_ms": _median_cpu(mines), "ceiling_cpu_ms": _median_cpu(theirs_even),
            "cpu_ratio": _cpu_ratio(_median_cpu(theirs_even), _median_cpu(mines)),
        })
        if measured.requests < 20:
            notes.append(f"{name}: only {measured.requests} answers in {args.duration:g} s, a rough figure "
                         "(a longer --duration steadies it)")
        if measured.non_2xx or measured.errors:
            notes.append(f"{name}: {measured.non_2xx} answers not 2xx, {measured.errors} socket errors under load")
    return app.worker_rss_kib()


def _median_cpu(results: list[Result]) -> float | None:
    figures = [r.cpu_ms for r in results if r.cpu_ms is not None]
    return round(statistics.median(figures), 3) if figures else None


def _cpu_ratio(ceiling: float | None, route: float | None) -> float | None:
    return round(ceiling / route, 3) if ceiling and route else None


def report(args: argparse.Namespace, rows: list[dict[str, Any]], notes: list[str], rss: list[int]) -> None:
    setup = {"gunicorn": _serve.describe(), "connections": args.connections, "duration_s": args.duration,
             "rounds": args.rounds, "accept_encoding": args.accept_encoding,
             "wrk_threads": 2, "cores": os.cpu_count(), "worker_rss_mib": [round(k / 1024, 1) for k in rss]}
    if args.json:
        print(json.dumps({"setup": setup, "routes": rows, "notes": notes}, indent=1))
        return
    rounds = f", best of {args.rounds} rounds" if args.rounds > 1 else ""
    rounds += f", Accept-Encoding: {args.accept_encoding}" if args.accept_encoding else ""
    print(f"gunicorn {setup['gunicorn']} on 127.0.0.1, wrk -t2 -c{args.connections} -d{args.duration:g}s{rounds}, "
          f"{os.cpu_count()} cores; ceiling: a trivial WSGI app, same settings, same body size")
    head = f"{'route':<16} {'method path':<44} {'bytes':>7} {'req/s':>8} {'p50 ms':>7} {'p99 ms':>7} " \
           f"{'ceil req/s':>10} {'ratio':>6} {'median':>6} {'cpu ms':>6} {'ceil':>5} {'cpu r':>5}"
    print(head)
    print("-" * len(head))
    for row in rows:
        where = f"{row['method']} {row['path']}"
        where = where if len(where) <= 44 else where[:41] + "..."
        print(f"{row['name']:<16} {where:<44} {row['bytes']:>7} {row['rps']:>8.1f} {row['p50_ms']:>7.2f} "
              f"{row['p99_ms']:>7.2f} {row['ceiling_rps']:>10.1f} {row['ratio']:>6.3f} {row['ratio_median']:>6.3f} "
              f"{_figure(row['cpu_ms'], 6)} {_figure(row['ceiling_cpu_ms'], 5)} {_figure(row['cpu_ratio'], 5)}")
    print("cpu ms: the workers' CPU time per answer (median of the rounds counted); ceil: the ceiling's; "
          "cpu r: ceil over cpu ms")
    print(f"worker memory after the run (RSS): {', '.join(f'{m} MiB' for m in setup['worker_rss_mib'])}")
    for note in notes:
        print("note:", note)


def _figure(value: float | None, width: int) -> str:
    return f"{value:>{width}.3f}" if value is not None else f"{'-':>{width}}"


if __name__ == "__main__":
    main()
