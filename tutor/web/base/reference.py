"""The rules reference's addresses, which every feature links to: the contents page
`/<lang>/rules/`, a page per section `/<lang>/rules/<page>`, and the anchors that are parts of
a page `/<lang>/rules/<page>#<anchor>`. The slugs are the anchors the reference had when it
was one page (`/<lang>/rules/#<anchor>` still works: static/js/reference.js), so they stay.
"""
from __future__ import annotations

from typing import Any, Final

from flask import url_for

# The reference's pages, in reading order.
PAGES: Final = ("cards", "trumps", "following-suit", "tricks", "parties", "announcements", "winning", "scoring",
                "house-options")
# Anchors inside a page, and the page they are on.
PARTS: Final[dict[str, str]] = {"equal-cards": "tricks", "reservations": "parties"}


def page_of(anchor: str) -> str:
    """The page an anchor is on: its own, or the page it is a part of (KeyError for neither)."""
    page = PARTS.get(anchor, anchor)
    if page not in PAGES:
        raise KeyError(anchor)
    return page


def reference_url(anchor: str | None = None, lang: str | None = None) -> str:
    """The address of a section or part of the reference (the contents for None), in the
    page's language unless `lang` is given."""
    values: dict[str, Any] = {"lang": lang} if lang else {}
    if anchor is None:
        return url_for("reference.show", **values)
    page = page_of(anchor)
    if page != anchor:
        values["_anchor"] = anchor
    return url_for("reference.section", slug=page, **values)
