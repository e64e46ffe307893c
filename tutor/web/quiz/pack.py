"""The quiz to take offline, `/<lang>/quiz/pack`: thirty questions of every kind and the daily
challenges of the coming days with their answers, made once per language and rules and kept
compressed (quiz.js checks answers on the device).
"""

from __future__ import annotations

import gzip
import random
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Final

import brotli  # type: ignore[import-untyped]
from flask import make_response, render_template, request
from markupsafe import Markup
from werkzeug.wrappers import Response

from tutor.quiz import KINDS, MAX_LEVEL, make
from tutor.web.base import shared
from tutor.web.base.rules import current_rules, from_cookie, to_cookie
from tutor.web.quiz import progress as quiz_progress
from tutor.web.quiz.asking import ANCHORS, parts_size, progress
from tutor.web.quiz.progress import daily_plan, today
from tutor.web.quiz.views import bp
from tutor.web.words import questions as quiz_text

PACK_PER_KIND: Final = 30
PACK_DAYS: Final = 3


@bp.get("/pack")
def pack() -> Response:
    """The quiz to take offline: thirty questions of every kind and the daily challenges of
    the coming days, with their answers, in this language and under the visitor's rules.
    The service worker keeps it; quiz.js checks answers on the device.

    The thirty of every kind depend only on the language and the rules: made once per pair
    (the costly part, seconds of CPU). The daily challenges follow the day and the learner's
    levels: rendered apart and put in. Each whole pack is kept compressed (Brotli, gzip);
    both caches are bounded, so cycling the rules cookie costs CPU, never memory."""
    levels = tuple(sorted(progress().levels().items()))
    where, rules_key = shared.address_key(), to_cookie(current_rules())
    body = _pack_body(where, rules_key, today(), levels)
    encoding = request.accept_encodings.best_match(["br", "gzip"])
    if encoding == "br":
        response = make_response(body.br)
    elif encoding == "gzip":
        response = make_response(body.gzip)
    else:
        before, after = _pack_kinds(where, rules_key)
        response = make_response(before + body.days + after)
    if encoding:
        response.headers["Content-Encoding"] = encoding  # Flask-Compress leaves it as it is
    response.vary.add("Accept-Encoding")
    return response


PACK_KINDS_KEPT: Final = 8 * 1024 * 1024  # characters: about 1 MB a (address, rules) pair
PACK_BODIES_KEPT: Final = 4 * 1024 * 1024  # bytes: whole packs compressed twice, about 160 kB each


@dataclass(frozen=True)
class _PackBody:
    """A whole pack compressed, ready to send, and its daily challenges (a client that takes
    no compression, rare, gets the page joined again)."""

    days: str
    br: bytes
    gzip: bytes

    def size(self) -> int:
        return len(self.days) + len(self.br) + len(self.gzip)


PACK_DAYS_MARK: Final = "<!-- the daily challenges -->"


def _pack_kinds(where: Hashable, rules_key: str) -> tuple[str, str]:
    """The pack without its daily challenges, split where they go, made once per address
    (its links: base/shared.py's `address_key`) and rules."""
    kinds_kept = shared.store("quiz_pack_kinds", PACK_KINDS_KEPT, parts_size)
    parts: tuple[str, str] | None = shared.look(kinds_kept, (where, rules_key))
    if parts is None:
        rules = from_cookie(rules_key)
        kinds = [(kind, [make(kind, _pack_seed(kind, i), rules, i % (MAX_LEVEL + 1)) for i in range(PACK_PER_KIND)])
                 for kind in KINDS]
        html = render_template("quiz/pack.html", kinds=kinds, days_html=Markup(PACK_DAYS_MARK), text=quiz_text,
                               anchors=ANCHORS)
        before, after = html.split(PACK_DAYS_MARK, 1)
        parts = shared.keep(kinds_kept, (where, rules_key), (before, after))
    return parts


def _pack_body(where: Hashable, rules_key: str, day: int, levels: tuple[tuple[str, int], ...]) -> _PackBody:
    """The whole pack for this address, rules, day and levels, compressed once."""
    bodies = shared.store("quiz_pack_bodies", PACK_BODIES_KEPT, _PackBody.size)
    key = (where, rules_key, day, levels)
    body: _PackBody | None = shared.look(bodies, key)
    if body is None:
        rules = from_cookie(rules_key)
        days = [(quiz_progress.day_text(d), [make(k, s, rules, lvl) for k, s, lvl in daily_plan(d, dict(levels))])
                for d in range(day, day + PACK_DAYS)]
        daily = render_template("quiz/_pack_days.html", days=days, text=quiz_text, anchors=ANCHORS)
        kinds = _pack_kinds(where, rules_key)
        raw = (kinds[0] + daily + kinds[1]).encode()
        body = shared.keep(bodies, key, _PackBody(daily, brotli.compress(raw, quality=PACK_BROTLI_QUALITY),
                                                  gzip.compress(raw, compresslevel=PACK_GZIP_LEVEL, mtime=0)))
    return body


PACK_BROTLI_QUALITY: Final = 9
PACK_GZIP_LEVEL: Final = 9


def _pack_seed(kind: str, i: int) -> int:
    return random.Random(f"pack-{kind}-{i}").getrandbits(31)
