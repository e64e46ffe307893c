"""A sheet on the phones at the table: the list of the sheets opened on this device (a cookie
of its own, newest first) and the QR code that opens the read-only link on another."""

from __future__ import annotations

from typing import Final

import segno
from flask import request
from flask_babel import gettext as _
from markupsafe import Markup, escape
from werkzeug.wrappers import Response

from tutor.web.base import htmx, security

# The links of the sheets opened here, newest first, in a cookie of this device only: nobody
# has to bookmark an editor's link to find the evening again.
MY_SHEETS: Final = "sheets"
MY_SHEETS_KEPT: Final = 12
MY_SHEETS_DAYS: Final = 400


def my_sheet_keys() -> list[str]:
    keys = (security.cookie(request, MY_SHEETS) or "").split(".")
    return [k for k in keys if len(k) == 22 and k.replace("-", "").replace("_", "").isalnum()][:MY_SHEETS_KEPT]


def remember_sheet(response: Response) -> Response:
    """After a sheet page is shown, put its link first in this device's list."""
    if request.endpoint == "sheet.show" and response.status_code in (200, 304) and not htmx.is_partial(request):
        key = (request.view_args or {}).get("key", "")
        keys = [key, *(k for k in my_sheet_keys() if k != key)][:MY_SHEETS_KEPT]
        security.set_cookie(response, request, MY_SHEETS, ".".join(keys), MY_SHEETS_DAYS * 86400)
    return response


def view_qr(url: str) -> Markup:
    """The read-only link as a QR code, an SVG the page shows inline (no script, no style)."""
    code = segno.make(url, error="m")
    title = escape(_("QR code of the read-only link"))
    svg = code.svg_inline(scale=6, border=4, title=title, dark="#000", light="#fff", svgclass="qr", lineclass=None)
    return Markup(svg.replace("<svg ", '<svg role="img" ', 1))  # noqa: S704 (segno's own SVG, the title escaped)
