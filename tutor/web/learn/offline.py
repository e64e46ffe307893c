"""The lessons of one language to keep on the device: `/<lang>/learn/pack`.

Opening Learn asks the service worker to keep every page of the lessons in that language
(learn.js, templates/pwa/sw.js). Fetched one by one they weigh about 670 kB (201 pages in
English, 3.3 kB each with Brotli, most of it the same page shell); sent together they weigh
about a sixteenth of that. The pack is every such page rendered by its own view, as a GET of
its address renders it under the visitor's rules for a learner who has not started (the one
part that names a learner's progress, the checks still open on a lesson's last step, is left
out: `packing`), then cut in three: the page's head (everything before `<main>`), its main
part and its foot. The heads of the pages differ only in the title and in the page's own
address (the language menu and the hreflang links), so the pack holds one head with those
two left open, and the main part and title of each page; a page whose head or foot is not
that one comes whole. The worker puts the pieces together again, and keeps a page opened
online (with the learner's progress) as it was shown; tests/web/test_learn_offline.py checks
that the pack gives every page back to the byte.

Each step with a check carries what judges it offline (templates/learn/_parts.html,
`offline_feedback`), so the pack holds no rule of its own. It is the same for every learner
of one language and rules: made once (a second or two of CPU, most of it Brotli's best
quality) and kept, compressed both ways.
"""
from __future__ import annotations

import gzip
import json
import re
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import Any, Final

import brotli  # type: ignore[import-untyped]
from flask import current_app, request
from werkzeug.http import dump_cookie
from werkzeug.test import EnvironBuilder

from tutor.web.base import i18n, security, shared
from tutor.web.learn.progress import COOKIE as PROGRESS_COOKIE

# The parts of a page, and the two holes of the shared head: its title, and the page's own
# address after the language ("learn/cards/2"), wherever the head links to it in a language.
TITLE_SLOT: Final = "t"
PATH_SLOT: Final = "p"
_HOLE: Final = "\x00"
_MAIN: Final = re.compile(r'(?=<main[\s>])')
_MAIN_END: Final = "</main>"
_TITLE: Final = re.compile(r"<title>(.*?)</title>", re.S)

PACKS_KEPT: Final = 4 * 1024 * 1024  # bytes: a pack is about 45 kB with Brotli and 85 kB with gzip
BROTLI_QUALITY: Final = 11  # the pack is made once and kept: the smallest Brotli makes
GZIP_LEVEL: Final = 9


PACKING: Final = "tutor.lessons_pack"  # the WSGI environ's mark of a page rendered for the pack


def packing() -> bool:
    """Whether this request renders a page for the pack (no client can ask for that)."""
    return bool(request.environ.get(PACKING))


class UndeclaredPackCookie(AssertionError):
    """A page of the pack read a cookie the pack does not pass on (so its key lacks it)."""


@dataclass(frozen=True)
class Parts:
    head: str
    main: str
    foot: str
    title: str


def parts_of(html: str) -> Parts | None:
    """A page cut at its `<main>`; None for a page without one (or without a title)."""
    found = _MAIN.search(html)
    end = html.rfind(_MAIN_END)
    title = _TITLE.search(html)
    if found is None or end < found.start() or title is None:
        return None
    end += len(_MAIN_END)
    return Parts(html[:found.start()], html[found.start():end], html[end:], title.group(1))


def own_path(url: str, script_root: str) -> str:
    """A page's address after its language: "/de/learn/cards/2" -> "learn/cards/2"."""
    path = url[len(script_root):] if url.startswith(script_root) else url
    return path.split("/", 2)[2] if path.count("/") >= 2 else ""


def head_template(head: str, title: str, path: str) -> list[str]:
    """The head with its title and its own address left open: literal text at even places,
    the name of a hole at odd places."""
    text = head.replace(f"<title>{title}</title>", f"<title>{_HOLE}{TITLE_SLOT}{_HOLE}</title>", 1)
    languages = "|".join(re.escape(lang) for lang in i18n.LANGUAGES)
    text = re.sub(rf'(/(?:{languages})/){re.escape(path)}"', lambda m: f'{m.group(1)}{_HOLE}{PATH_SLOT}{_HOLE}"', text)
    return text.split(_HOLE)


def fill(template: list[str], title: str, path: str) -> str:
    """The head of one page from the shared one (what the worker does, in JavaScript)."""
    holes = {TITLE_SLOT: title, PATH_SLOT: path}
    return "".join(holes[part] if i % 2 else part for i, part in enumerate(template))


def pack(pages: dict[str, str], script_root: str) -> dict[str, Any]:
    """The pages cut into one shared head and foot and, for each, its title and main part;
    a page the shared ones do not give back exactly comes whole."""
    cut = {url: parts_of(html) for url, html in pages.items()}
    model = next(((url, p) for url, p in cut.items() if p is not None and own_path(url, script_root).count("/") >= 2),
                 None)
    template: list[str] = []
    foot = ""
    if model is not None:
        template = head_template(model[1].head, model[1].title, own_path(model[0], script_root))
        foot = model[1].foot
    entries: dict[str, Any] = {}
    for url, parts in cut.items():
        if parts is not None and parts.foot == foot and template \
                and fill(template, parts.title, own_path(url, script_root)) == parts.head:
            entries[url] = {"t": parts.title, "m": parts.main}
        else:
            entries[url] = {"h": pages[url]}
    return {"root": script_root, "head": template, "foot": foot, "headers": page_headers(), "pages": entries}


def page_headers() -> dict[str, str]:
    """The headers each page kept from the pack is served with: what the app sends with a page."""
    return {"Content-Type": "text/html; charset=utf-8", **security.HEADERS}


def render_pages(urls: Iterable[str], cookies: dict[str, str | None]) -> dict[str, str]:
    """Each address as a GET of it renders it for a visitor with these cookies (and no
    others), at this request's scheme, host and script root, marked as rendered for the pack
    (`packing`); only pages that answer 200. A page that reads another cookie than these and
    the lessons' progress (which it then finds absent) fails in tests: the pack's key would
    not name it."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    header = "; ".join(dump_cookie(name, value).split(";")[0] for name, value in cookies.items() if value is not None)
    root = request.script_root
    pages: dict[str, str] = {}
    read: set[str] = set()
    for url in urls:
        path = url[len(root):] if root and url.startswith(root) else url
        headers = [("Cookie", header)] if header else []
        environ = EnvironBuilder(path=path, base_url=request.root_url, headers=headers).get_environ()
        environ[PACKING] = True
        with app.app_context(), app.request_context(environ):
            response = app.full_dispatch_request()
            read |= security.cookies_read(environ)
            if response.status_code == 200 and response.mimetype == "text/html":
                pages[url] = response.get_data(as_text=True)
            response.close()
    allowed = set(cookies) | {PROGRESS_COOKIE}
    if not read <= allowed and app.testing:
        raise UndeclaredPackCookie(f"the lessons' pages read {sorted(read - allowed)}")
    return pages


@dataclass(frozen=True)
class Body:
    """A whole pack, compressed both ways, ready to send."""

    br: bytes
    gzip: bytes
    raw_size: int

    def size(self) -> int:
        return len(self.br) + len(self.gzip)


def body(key: Hashable, urls: list[str], cookies: dict[str, str | None]) -> Body:
    """The pack for these addresses and cookies, made once per key (which starts with the
    address key: scheme, host, script root, language, asset version) and kept."""
    kept = shared.store("learn_packs", PACKS_KEPT, Body.size)
    found: Body | None = shared.look(kept, key)
    if found is None:
        data = json.dumps(pack(render_pages(urls, cookies), request.script_root), ensure_ascii=False,
                          separators=(",", ":")).encode()
        found = shared.keep(kept, key, Body(brotli.compress(data, quality=BROTLI_QUALITY),
                                            gzip.compress(data, compresslevel=GZIP_LEVEL, mtime=0), len(data)))
    return found
