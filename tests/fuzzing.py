"""A fuzzer for every HTML form and query string of the app, over any transport.

It learns the app from the app itself: the routes from `app.url_map`, the forms and links
from the pages it renders (crawled from the home pages, following redirects, and filling in
forms well enough to make a score sheet and deals, so the sheet's own pages are reached).
Then it sends seeded random requests: form fields kept, dropped, repeated or replaced by
hostile, oversized, unicode or malformed values, on GET and POST, with and without htmx,
with damaged cookies. A response is a problem when its status is 5xx or its body shows a
traceback.

The transport is a function from a `Request` to a `Response`: Flask's test client in the
test suite (tests/test_fuzz_forms.py), a real gunicorn over HTTP in bench/fuzz.py.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any
from urllib.parse import parse_qsl, quote, quote_from_bytes, urlsplit

LANGUAGES = ("de", "en", "it", "es", "fr", "pt")
# Pages that cost seconds of CPU when not cached (the quiz pack): asked for rarely, and never
# with a rules cookie of their own (every distinct cookie would be a cache miss).
EXPENSIVE = frozenset({"quiz.pack"})
# Routes that are not the app's pages.
SKIPPED = frozenset({"static"})
TRACEBACK = re.compile(r"Traceback \(most recent call last\)|File \"[^\"]+\", line \d+|^\s+raise \w", re.M)

Value = str | bytes  # bytes: sent as they are, so they may be malformed UTF-8
# Host headers a request may make up: no page may fail on them, or carry them in a link.
HOSTS: tuple[str, ...] = ("a" * 64 + ".example", "a..b", ".", "evil.example", "localhost:99999", "[::1]:8000",
                          "bücher.example", "exa mple", "host_name.example", "127.0.0.1", "x" * 300)

NUMBERS: tuple[Value, ...] = (
    "0",
    "1",
    "-1",
    "+1",
    "\u22121",
    "--1",
    "-+1",
    "+-1",
    "- 1",
    " 1 2",
    "1 ",
    " 7",
    "007",
    "²",
    "①",
    "¹²",
    "١٢",
    "１２",
    "1_000",
    "1.5",
    "1e3",
    "0x10",
    "NaN",
    "inf",
    "-0",
    "9" * 12,
    "9" * 40,
    "-" + "9" * 40,
    "2147483648",
    "-2147483649",
    "4294967296",
    "99999999999999999999",
    "1" * 5000,
)
STRINGS: tuple[Value, ...] = (
    "",
    " ",
    "\t",
    "\n",
    "\x00",
    "a\x00b",
    "\r\nSet-Cookie: x=1",
    "<script>alert(1)</script>",
    '"><img src=x>',
    "' OR '1'='1",
    "'; DROP TABLE sheets; --",
    "../../../../etc/passwd",
    "%00",
    "%",
    "%zz",
    "{{7*7}}",
    "${7*7}",
    "{% raw %}",
    "\u202e\u2066evil",
    "\ufeff",
    "\u200b",
    "🂡🃏",
    "Ä" * 3,
    "ß",
    "İ",
    "ǅ",
    "\ud800",
    "\udfff",
    "null",
    "None",
    "true",
    "[]",
    "{}",
    "__proto__",
    "javascript:alert(1)",
    "//evil.example/",
    "https://evil.example/",
    "x" * 200,
    "é" * 2000,
    "A" * 70_000,
    b"\xff\xfe",
    b"\xc3\x28",
    b"\xed\xa0\x80",
    b"\xf4\x90\x80\x80",
)
HOSTILE: tuple[Value, ...] = NUMBERS + STRINGS
COOKIE_NAMES = ("rules", "lang", "quiz", "session")
COOKIE_VALUES = (
    "",
    "ddv",
    "pagat",
    "xx",
    "ddv|deck=40",
    "ddv|deck=41",
    "ddv|deck=40|deck=48",
    "ddv|=|",
    "|||",
    "pagat|dullen=nope",
    "ddv|schweinchen=²",
    "de",
    "zz",
    '"',
    "a" * 4000,
    "é",
    "%ff",
    "ddv|" + "x=1|" * 50,
)


@dataclass(frozen=True)
class Request:
    method: str
    path: str  # already percent-encoded
    query: str = ""  # already percent-encoded
    body: bytes | None = None
    headers: tuple[tuple[str, str], ...] = ()
    target: str = ""  # what was fuzzed: the endpoint and form, for the report

    @property
    def url(self) -> str:
        return self.path + ("?" + self.query if self.query else "")

    def describe(self) -> str:
        text = f"{self.method} {self.url}"
        if self.body:
            text += " body=" + self.body.decode("latin-1")
        if len(text) > 400:
            text = text[:400] + f"… ({len(text)} characters)"
        return text


@dataclass(frozen=True)
class Response:
    status: int
    location: str | None
    body: str
    # In process only: (exception type, the innermost function of the project it came from).
    error: tuple[str, str] | None = None


Fetch = Callable[[Request], Response]


@dataclass(frozen=True)
class Field:
    name: str
    kind: str  # text, number, hidden, select, checkbox, radio, textarea, submit, ...
    value: str | None  # the value the page gives it (None: a checkbox or radio not ticked)
    options: tuple[str, ...] = ()
    required: bool = False
    low: int | None = None
    high: int | None = None


@dataclass(frozen=True)
class Form:
    method: str
    action: str  # a path
    fields: tuple[Field, ...]
    page: str  # where it was found

    def groups(self) -> dict[str, list[Field]]:
        grouped: dict[str, list[Field]] = {}
        for f in self.fields:
            grouped.setdefault(f.name, []).append(f)
        return grouped


class _PageParser(HTMLParser):
    """The forms (with their fields) and the local links of one page."""

    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.page = page
        self.forms: list[Form] = []
        self.links: list[str] = []
        self._form: dict[str, Any] | None = None
        self._select: dict[str, Any] | None = None
        self._textarea: dict[str, Any] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: (v if v is not None else "") for k, v in attrs}
        if tag in ("a", "link") and a.get("href"):
            self.links.append(a["href"])
        if tag == "form":
            self._form = {"attrs": a, "fields": []}
        elif self._form is None:
            return
        elif tag == "input" and a.get("name"):
            kind = a.get("type", "text").lower()
            if kind in ("checkbox", "radio"):
                value = a.get("value", "on") if "checked" in a else None
                self._form["fields"].append(Field(a["name"], kind, value, (a.get("value", "on"),), "required" in a))
            else:
                self._form["fields"].append(
                    Field(
                        a["name"],
                        kind,
                        a.get("value", ""),
                        (),
                        "required" in a,
                        _int_or_none(a.get("min")),
                        _int_or_none(a.get("max")),
                    )
                )
        elif tag == "button" and a.get("name"):
            self._form["fields"].append(Field(a["name"], "submit", None, (a.get("value", ""),)))
        elif tag == "select" and a.get("name"):
            self._select = {"name": a["name"], "options": [], "selected": None, "required": "required" in a}
        elif tag == "option" and self._select is not None:
            value = a.get("value", "")
            self._select["options"].append(value)
            if "selected" in a:
                self._select["selected"] = value
        elif tag == "textarea" and a.get("name"):
            self._textarea = {"name": a["name"], "text": ""}

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self._textarea["text"] += data

    def handle_endtag(self, tag: str) -> None:
        if self._form is None:
            return
        if tag == "select" and self._select is not None:
            s = self._select
            value = s["selected"] if s["selected"] is not None else (s["options"][0] if s["options"] else "")
            self._form["fields"].append(Field(s["name"], "select", value, tuple(s["options"]), s["required"]))
            self._select = None
        elif tag == "textarea" and self._textarea is not None:
            self._form["fields"].append(Field(self._textarea["name"], "textarea", self._textarea["text"]))
            self._textarea = None
        elif tag == "form":
            a, fields = self._form["attrs"], tuple(self._form["fields"])
            method = a.get("method", "get").upper()
            action = a.get("action") or self.page
            self.forms.append(Form(method, _path_of(action, self.page), fields, self.page))
            for attribute, verb in (("hx-get", "GET"), ("hx-post", "POST")):
                if a.get(attribute):  # htmx sends the same fields to another URL
                    self.forms.append(Form(verb, _path_of(a[attribute], self.page), fields, self.page))
            self._form = None


def _int_or_none(text: str | None) -> int | None:
    try:
        return int(text) if text is not None else None
    except ValueError:
        return None


def _path_of(url: str, page: str) -> str:
    parts = urlsplit(url)
    if parts.scheme or parts.netloc:
        return ""
    if not parts.path:
        return urlsplit(page).path
    if not parts.path.startswith("/"):
        return urlsplit(page).path.rsplit("/", 1)[0] + "/" + parts.path
    return parts.path


def parse_page(page: str, html: str) -> tuple[list[Form], list[str]]:
    """The forms and the local links (path and query) of one page."""
    parser = _PageParser(page)
    parser.feed(html)
    parser.close()
    links = []
    for href in parser.links:
        parts = urlsplit(href)
        if parts.scheme or parts.netloc or not parts.path.startswith("/"):
            continue
        links.append(parts.path + ("?" + parts.query if parts.query else ""))
    return [f for f in parser.forms if f.action], links


def encode(pairs: Iterable[tuple[str, Value]]) -> str:
    """application/x-www-form-urlencoded, keeping malformed bytes and lone surrogates as they are."""

    def one(value: Value) -> str:
        raw = value if isinstance(value, bytes) else value.encode("utf-8", "surrogatepass")
        return quote_from_bytes(raw, safe="")

    return "&".join(f"{one(k)}={one(v)}" for k, v in pairs)


@dataclass
class Route:
    endpoint: str
    rule: str
    methods: frozenset[str]
    arguments: dict[str, tuple[str, ...]]  # argument -> the values its converter allows (empty: any)


def matcher(app: Any) -> Callable[[str, str], tuple[str, dict[str, Any]] | None]:
    """(method, path) -> (endpoint, arguments) by the app's url_map; None when nothing matches."""
    adapter = app.url_map.bind("localhost")

    def match(method: str, path: str) -> tuple[str, dict[str, Any]] | None:
        try:
            endpoint, arguments = adapter.match(path, method=method)
        except Exception:  # NotFound, MethodNotAllowed, RequestRedirect
            return None
        return str(endpoint), dict(arguments)

    return match


def routes_of(app: Any) -> list[Route]:
    """Every route of the app, from its url_map."""
    found = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint in SKIPPED:
            continue
        arguments = {}
        for name, converter in rule._converters.items():
            items = getattr(converter, "items", None)
            arguments[name] = tuple(sorted(items)) if items else ()
        found.append(Route(rule.endpoint, rule.rule, frozenset(rule.methods - {"HEAD", "OPTIONS"}), arguments))
    return found


@dataclass
class Fuzzer:
    """Discovers the app's pages and forms through `fetch`, then makes seeded random requests."""

    fetch: Fetch
    routes: list[Route]
    match: Callable[[str, str], tuple[str, dict[str, Any]] | None]  # (method, path) -> endpoint, arguments
    seed: int = 0
    pages: dict[str, str] = field(default_factory=dict)  # path+query -> endpoint
    forms: list[Form] = field(default_factory=list)
    links: list[str] = field(default_factory=list)
    parameter_names: set[str] = field(default_factory=set)
    path_values: dict[str, set[str]] = field(default_factory=dict)  # e.g. key -> sheet keys seen

    def __post_init__(self) -> None:
        self.random = random.Random(self.seed)

    # --- discovery ---------------------------------------------------------------

    def discover(self, max_pages: int = 150, per_endpoint: int = 4) -> None:
        """Crawl from every language's home page; fill in POST forms well enough to reach
        what they make (a sheet, its deals), and crawl what they made first."""
        queue: list[tuple[str, bool]] = [(f"/{lang}/", False) for lang in LANGUAGES]
        queue += [("/", False), ("/en/sheet/", False), ("/en/score/", False), ("/en/quiz/", False)]
        seen_forms: set[tuple[str, str, tuple[str, ...]]] = set()
        made: dict[str, int] = {}  # endpoint -> honest submissions that made something
        tries: dict[str, int] = {}  # endpoint -> honest submissions sent
        while queue and len(self.pages) < max_pages:
            url, forced = queue.pop(0)
            endpoint = self.endpoint_of("GET", urlsplit(url).path)
            if endpoint is None or endpoint in EXPENSIVE or endpoint in SKIPPED:
                continue
            kind = self._kind(url)
            if not forced and (
                url in self.pages or sum(1 for u in self.pages if self._kind(u) == kind) >= per_endpoint
            ):
                continue
            response = self.fetch(Request("GET", *_split(url), target=endpoint))
            self.pages[url] = endpoint
            self._remember(url)
            if response.location:
                queue.insert(0, (_local(response.location), forced))
            if response.status != 200:
                continue
            forms, links = parse_page(urlsplit(url).path, response.body)
            for link in links:
                self._remember(link)
                if link not in self.pages:
                    queue.append((link, False))
            for form in forms:
                key = (form.method, form.action, tuple(f.name for f in form.fields))
                if key in seen_forms:
                    continue
                seen_forms.add(key)
                self.forms.append(form)
                self.parameter_names.update(f.name for f in form.fields)
                target = self.endpoint_of(form.method, form.action) or ""
                if form.method != "POST" or made.get(target, 0) >= 2:
                    continue
                # honest tries: a sheet needs names, a deal its Re players and points
                while tries.get(target, 0) < 40:
                    tries[target] = tries.get(target, 0) + 1
                    reply = self.fetch(self._honest(form))
                    if reply.status < 400:  # accepted (a quiz answer) or made something (a sheet)
                        made[target] = made.get(target, 0) + 1
                        if reply.location:
                            queue.insert(0, (_local(reply.location), True))
                        for link in parse_page(form.action, reply.body)[1]:  # e.g. the answered question's own link
                            self._remember(link)
                        break

    def _remember(self, url: str) -> None:
        path, query = _split(url)
        if self.endpoint_of("GET", path) in SKIPPED:
            return
        if url not in self.links:
            self.links.append(url)
        self.parameter_names.update(name for name, _ in parse_qsl(query, keep_blank_values=True))
        for method in ("GET", "POST"):
            matched = self.match(method, path)
            if matched:
                for name, value in matched[1].items():
                    self.path_values.setdefault(name, set()).add(str(value))

    def _kind(self, url: str) -> tuple[str, ...]:
        """Pages of one kind: one endpoint, the same path arguments but for the language and
        the random ids (every quiz kind is a kind of its own, every sheet is not)."""
        matched = self.match("GET", _split(url)[0])
        if not matched:
            return ("?",)
        endpoint, arguments = matched
        return (endpoint, *sorted(f"{k}={v}" for k, v in arguments.items() if k not in ("lang", "key", "deal_id")))

    def endpoint_of(self, method: str, path: str) -> str | None:
        matched = self.match(method, path)
        return matched[0] if matched else None

    def _honest(self, form: Form) -> Request:
        """The form filled in as a person might: what the page offers, names in empty
        required text fields, numbers in range, a random choice of the checkboxes."""
        pairs: list[tuple[str, Value]] = []
        names = iter(["Anna", "Ben", "Cleo", "Dirk", "Emil", "Fritz", "Greta"])
        for name, group in form.groups().items():
            kind = group[0].kind
            if kind == "checkbox":
                ticked = [f for f in group if self.random.random() < 0.5]
                pairs += [(name, f.options[0]) for f in ticked]
            elif kind == "radio":
                checked = [f.value for f in group if f.value is not None]
                pairs.append((name, checked[0] if checked else group[0].options[0]))
            elif kind == "submit":
                pairs.append((name, self.random.choice([o for f in group for o in f.options])))
            else:
                for f in group:
                    value = f.value or ""
                    if not value and f.required and kind in ("text", "textarea"):
                        value = next(names, "Zoe")
                    elif not value and kind == "number" and self.random.random() < 0.7:
                        low, high = f.low or 0, f.high if f.high is not None else 10
                        value = str(self.random.randint(low, high))
                    pairs.append((name, value))
        request = self._request(form, pairs)
        # A person on this site: their browser says so (the fuzzed requests try other sites).
        headers = tuple(h for h in request.headers if h[0] not in ("Sec-Fetch-Site", "Origin"))
        return Request(request.method, request.path, request.query, request.body,
                       (*headers, ("Sec-Fetch-Site", "same-origin")), request.target)

    # --- fuzzing -------------------------------------------------------------------

    def requests(self, count: int, expensive_at_most: int = 3) -> Iterator[Request]:
        """`count` seeded random requests over the forms, the links and every route."""
        expensive = 0
        made = 0
        first = list(self.routes)  # every route once, then at random
        while made < count:
            roll = self.random.random()
            if first:
                request = self._fuzz_route(first.pop(0))
            elif roll < 0.6 and self.forms:
                request = self._fuzz_form(self.random.choice(self.forms))
            elif roll < 0.8 and self.links:
                # a kind of link first (its endpoint and its parameters), then one of that kind
                kinds = self._link_kinds()
                request = self._fuzz_link(self.random.choice(kinds[self.random.choice(sorted(kinds))]))
            else:
                request = self._fuzz_route(self.random.choice(self.routes))
            if request.target.split(" ")[0] in EXPENSIVE:
                if expensive >= expensive_at_most:
                    continue
                expensive += 1
                # one language and the default rules: the page is made once, then cached
                path = re.sub(r"^/[^/]+/", "/en/", request.path)
                request = Request("GET", path, request.query, None, (), request.target)
            made += 1
            yield request

    def _value(self, f: Field | None = None) -> Value:
        if f is not None and f.options and self.random.random() < 0.3:
            return self.random.choice(f.options)
        if f is not None and f.kind == "number" or self.random.random() < 0.3:
            return self.random.choice(NUMBERS)
        return self.random.choice(HOSTILE)

    def _fuzz_form(self, form: Form) -> Request:
        pairs: list[tuple[str, Value]] = []
        for name, group in form.groups().items():
            roll = self.random.random()
            defaults = [(name, f.value) for f in group if f.value is not None]
            if group[0].kind == "submit":  # the button that was pressed
                defaults = [(name, self.random.choice([o for f in group for o in f.options]))]
            if roll < 0.5:
                pairs += defaults
            elif roll < 0.6:
                continue  # missing
            elif roll < 0.7:
                pairs += defaults * self.random.randint(2, 5)  # repeated
            elif roll < 0.75 and group[0].options:
                pairs += [(name, self.random.choice(group[0].options)) for _ in range(self.random.randint(0, 9))]
            else:
                pairs += [(name, self._value(f)) for f in group]
        if self.random.random() < 0.1:
            pairs.append((self._name(), self._value()))
        if self.random.random() < 0.05:
            self.random.shuffle(pairs)
        method = form.method if self.random.random() < 0.9 else ("GET" if form.method == "POST" else "POST")
        return self._request(Form(method, form.action, form.fields, form.page), pairs)

    def _link_kinds(self) -> dict[tuple[str, ...], list[str]]:
        if len(getattr(self, "_kinds_of", ())) != len(self.links):
            kinds: dict[tuple[str, ...], list[str]] = {}
            for url in self.links:
                path, query = _split(url)
                names = sorted({name for name, _ in parse_qsl(query, keep_blank_values=True)})
                kinds.setdefault((self.endpoint_of("GET", path) or "?", *names), []).append(url)
            self._kinds_of = self.links[:]
            self._kinds = kinds
        return self._kinds

    def _fuzz_link(self, url: str) -> Request:
        path, query = _split(url)
        pairs: list[tuple[str, Value]] = list(parse_qsl(query, keep_blank_values=True))
        pairs = [(k, self._value() if self.random.random() < 0.6 else v) for k, v in pairs]
        for _ in range(self.random.choice((0, 0, 1, 2, 4))):
            pairs.append((self._name(), self._value()))
        method = "GET" if self.random.random() < 0.85 else "POST"
        target = self.endpoint_of(method, path) or f"unrouted {path}"
        if method == "POST":
            return self._with_headers(
                Request(
                    method,
                    path,
                    "",
                    encode(pairs).encode("ascii"),
                    (("Content-Type", "application/x-www-form-urlencoded"),),
                    target,
                )
            )
        return self._with_headers(Request(method, path, encode(pairs), None, (), target))

    def _fuzz_route(self, route: Route) -> Request:
        values: dict[str, str] = {}
        for name, allowed in route.arguments.items():
            known = sorted(self.path_values.get(name, ()))
            roll = self.random.random()
            if allowed and roll < 0.8:
                values[name] = self.random.choice(allowed)
            elif known and roll < 0.8:
                values[name] = self.random.choice(known)
            else:
                raw = self._value()
                values[name] = (
                    quote_from_bytes(raw if isinstance(raw, bytes) else raw.encode("utf-8", "surrogatepass"), safe="")[
                        :300
                    ]
                    or "x"
                )
        path = re.sub(r"<(?:[^:>]+:)?([^>]+)>", lambda m: values[m.group(1)], route.rule)
        method = self.random.choice(sorted(route.methods | {"GET", "POST"}))
        pairs = [(self._name(), self._value()) for _ in range(self.random.choice((0, 1, 3)))]
        if method in ("POST", "PUT", "PATCH"):
            return self._with_headers(
                Request(
                    method,
                    path,
                    "",
                    encode(pairs).encode("ascii"),
                    (("Content-Type", "application/x-www-form-urlencoded"),),
                    route.endpoint,
                )
            )
        return self._with_headers(Request(method, path, encode(pairs), None, (), route.endpoint))

    def _name(self) -> str:
        names = sorted(self.parameter_names) or ["x"]
        return self.random.choice(names + ["", "x", "é", "a[]", "__class__", "n" * 300])

    def _request(self, form: Form, pairs: Sequence[tuple[str, Value]]) -> Request:
        target = f"{self.endpoint_of(form.method, form.action) or 'unrouted ' + form.action} (form on {form.page})"
        if form.method == "GET":
            return self._with_headers(Request("GET", form.action, encode(pairs), None, (), target))
        return self._with_headers(
            Request(
                form.method,
                form.action,
                "",
                encode(pairs).encode("ascii"),
                (("Content-Type", "application/x-www-form-urlencoded"),),
                target,
            )
        )

    def _with_headers(self, request: Request) -> Request:
        headers = list(request.headers)
        if self.random.random() < 0.3:
            headers.append(("HX-Request", "true"))
            if self.random.random() < 0.5:
                headers.append(("HX-Target", self.random.choice(["result", "quiz", "main", "", "x" * 100])))
        if request.method == "POST":
            site = self.random.choice(["same-origin", "same-origin", "same-origin", "same-site", "cross-site", None])
            if site:
                headers.append(("Sec-Fetch-Site", site))
            if self.random.random() < 0.2:
                headers.append(("Origin", self.random.choice(["null", "https://evil.example", "http://localhost"])))
        if self.random.random() < 0.2 and request.target.split(" ")[0] not in EXPENSIVE:
            cookies = "; ".join(
                f"{self.random.choice(COOKIE_NAMES)}={quote(self.random.choice(COOKIE_VALUES), safe='|=')}"
                for _ in range(self.random.randint(1, 3))
            )
            headers.append(("Cookie", cookies))
        if self.random.random() < 0.1:
            headers.append(
                ("Accept-Language", self.random.choice(["de", "xx", "*", "en;q=2", "é" * 3, ";;;", "fr-CH, fr;q=0.9"]))
            )
        if self.random.random() < 0.1:
            headers.append(("Host", self.random.choice(HOSTS)))
        return Request(request.method, request.path, request.query, request.body, tuple(headers), request.target)


def problems(request: Request, response: Response) -> list[str]:
    """What is wrong with a response: a 5xx, or a traceback shown to the visitor."""
    found = []
    if response.status >= 500:
        found.append(f"{response.status}")
    if TRACEBACK.search(response.body):
        found.append("traceback in the body")
    return found


def _split(url: str) -> tuple[str, str]:
    path, _, query = url.partition("?")
    return path, query


def _local(location: str) -> str:
    parts = urlsplit(location)
    return parts.path + ("?" + parts.query if parts.query else "")


def in_process(app: Any) -> Fetch:
    """Flask's test client as a transport. The app should not be in TESTING mode, so that an
    exception becomes the 500 page a visitor would get; the exception itself is kept."""
    from werkzeug.exceptions import HTTPException

    client = app.test_client(use_cookies=False)
    raised: list[BaseException] = []
    handle_user_exception = app.handle_user_exception

    def record(exception: Exception) -> Any:
        # Every exception of a view passes here, before the app's own handlers turn it into a page.
        if not isinstance(exception, HTTPException):
            raised.append(exception)
        return handle_user_exception(exception)

    app.handle_user_exception = record

    def fetch(request: Request) -> Response:
        raised.clear()
        headers = [(k, v) for k, v in request.headers if k != "Content-Type"]
        content_type = next((v for k, v in request.headers if k == "Content-Type"), None)
        reply = client.open(
            request.path,
            method=request.method,
            query_string=request.query or None,
            data=request.body,
            headers=headers,
            content_type=content_type,
        )
        body = reply.get_data().decode("utf-8", "replace")
        error = where(raised[-1]) if raised else None
        return Response(reply.status_code, reply.headers.get("Location"), body, error)

    return fetch


def where(exception: BaseException) -> tuple[str, str]:
    """(exception type, `module:function` of the innermost frame of the project's own code)."""
    import traceback

    place = "?"
    for frame in traceback.extract_tb(exception.__traceback__):
        path = frame.filename.replace("\\", "/")
        if "/tutor/" in path or path.endswith("/app.py"):
            module = path[path.rfind("/tutor/") + 1 :] if "/tutor/" in path else "app.py"
            place = f"{module.removesuffix('.py').replace('/', '.')}:{frame.name}"
    return type(exception).__name__, place


def over_http(host: str, port: int, timeout: float = 30) -> Fetch:
    """A server on `host:port` as a transport: one kept-alive connection per thread."""
    import http.client
    import threading

    local = threading.local()

    def fetch(request: Request) -> Response:
        for attempt in (1, 2):
            conn = getattr(local, "conn", None)
            if conn is None:
                conn = local.conn = http.client.HTTPConnection(host, port, timeout=timeout)
            try:
                conn.putrequest(request.method, request.url, skip_accept_encoding=True)
                for name, value in request.headers:
                    conn.putheader(name, value.encode("utf-8"))
                if request.body is not None:
                    conn.putheader("Content-Length", str(len(request.body)))
                conn.endheaders(request.body)
                reply = conn.getresponse()
                body = reply.read().decode("utf-8", "replace")
                if reply.will_close:
                    conn.close()
                    local.conn = None
                return Response(reply.status, reply.getheader("Location"), body)
            except (http.client.HTTPException, OSError):
                conn.close()
                local.conn = None
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    return fetch
