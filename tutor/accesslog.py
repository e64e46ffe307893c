"""gunicorn's access log, the same lines for less work (gunicorn.conf.py names this class).

gunicorn's Logger builds every atom a format could name for every request: one for each
request header, response header and WSGI environ entry, each escaped, before it formats the
line. A Flask request ends with about sixty environ entries and a page answers with a dozen
headers, so that was a sixth of the server's time for a small page. When the format names no
header or environ atom (`%({name}i)s`, `%({name}o)s`, `%({name}e)s`), as gunicorn's default
format does not, this logger hands gunicorn's own `atoms()` only what the plain atoms read:
the same values, the same line.
"""
from __future__ import annotations

from typing import Any, Final

from gunicorn.glogging import Logger  # type: ignore[import-untyped]

# What gunicorn's plain atoms read of the environ (h r m U q H f a, and u from the
# Authorization header); nothing else of it reaches a line without a {...}e atom.
ENVIRON_READ: Final = ("REMOTE_ADDR", "REQUEST_METHOD", "RAW_URI", "SERVER_PROTOCOL", "PATH_INFO",
                       "QUERY_STRING", "HTTP_REFERER", "HTTP_USER_AGENT", "HTTP_AUTHORIZATION")


class _Sent:
    """The response as the plain atoms see it: its status and the bytes sent, no headers."""

    __slots__ = ("sent", "status")
    headers: Final = ()

    def __init__(self, resp: Any) -> None:
        self.status = resp.status
        self.sent = getattr(resp, "sent", None)


class _NoHeaders:
    __slots__ = ()
    headers: Final = ()


NO_HEADERS: Final = _NoHeaders()


class AccessLog(Logger):  # type: ignore[misc]  # gunicorn has no type hints
    """gunicorn's Logger; its atoms made from only what the format can show."""

    def atoms(self, resp: Any, req: Any, environ: dict[str, Any], request_time: Any) -> dict[str, Any]:
        if "{" in self.cfg.access_log_format:  # a header or environ atom: everything, as gunicorn does
            atoms: dict[str, Any] = super().atoms(resp, req, environ, request_time)
            return atoms
        read = {name: environ[name] for name in ENVIRON_READ if name in environ}
        atoms = super().atoms(_Sent(resp), NO_HEADERS, read, request_time)
        return atoms
