"""The gunicorn worker `make run` uses: gthread, but a connection gets one of the worker's
threads only once its whole request has arrived.

gthread hands a connection to a thread as soon as its first bytes are there, and the thread
then waits for the rest: a client that sends its headers a byte at a time (a slow phone, or
someone doing it on purpose) holds a thread for as long as it likes, and a few hundred of
them hold every thread of the server. Here the worker's own poller, which already watches
every idle connection, reads what each client sends into a small buffer, as an event loop
does, until the request head is complete and, for a request with a Content-Length, its body
too. Only then does a thread parse and answer it, reading from that buffer. A client whose
request has not arrived within REQUEST_TIMEOUT seconds is closed. So a slow client costs a
socket and the bytes it sent, never a thread.

What is read here is the request as it arrives, not parsed: gunicorn's own parser still
reads every byte (from the buffer first, then from the socket) and refuses what it refuses.
A chunked body, a request that asks for `100 Continue` before sending its body, and anything
larger than the app accepts go to a thread as soon as their head is there. TLS connections
and HTTP/2 take gthread's own way unchanged.

This subclasses gunicorn's ThreadWorker (pinned in requirements.txt) and relies on how it
hands connections around: `enqueue_req`, `handle`, `murder_pending`, a connection's parser
and its unreader's `take_buffered` and `unread`. tests/test_serving.py runs it for real.
"""
from __future__ import annotations

import os
import selectors
import time
from functools import partial
from typing import Any, Final

from gunicorn.workers.gthread import ThreadWorker  # type: ignore[import-untyped]

# Seconds for a whole request to arrive, as nginx's client_header_timeout (REQUEST_TIMEOUT in
# the environment, from 1 to 300).
REQUEST_TIMEOUT: Final = 10.0
MAX_REQUEST: Final = 128 * 1024  # bytes kept before a thread takes over: the app accepts 64 KiB of body
HEAD_END: Final = b"\r\n\r\n"


def arrived(buffer: bytes | bytearray) -> bool:
    """Whether a request's bytes so far are enough to hand it to a thread: its head and the
    body its Content-Length names; or anything a thread must deal with at once (a chunked
    body, `Expect: 100-continue`, a head or body bigger than MAX_REQUEST, a Content-Length
    that is not a number: gunicorn's parser refuses those)."""
    end = buffer.find(HEAD_END)
    if end < 0:
        return len(buffer) > MAX_REQUEST
    length = 0
    for line in bytes(buffer[:end]).split(b"\r\n")[1:]:
        name, _colon, value = line.partition(b":")
        name, value = name.strip().lower(), value.strip().lower()
        if name == b"transfer-encoding" or (name == b"expect" and value == b"100-continue"):
            return True
        if name == b"content-length":
            if not value.isdigit():
                return True
            length = int(value)
    return length > MAX_REQUEST or len(buffer) >= end + len(HEAD_END) + length


def request_timeout(environ: Any) -> float:
    """REQUEST_TIMEOUT from the environment, in seconds; refused with its name when it is not
    a whole number from 1 to 300."""
    text = str(environ.get("REQUEST_TIMEOUT", "")).strip()
    if not text:
        return REQUEST_TIMEOUT
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= 300:
        raise SystemExit(f"REQUEST_TIMEOUT={text!r}: expected a whole number of seconds from 1 to 300")
    return float(text)


class Worker(ThreadWorker):  # type: ignore[misc]  # gunicorn has no type hints
    """gthread whose poller reads each request whole before a thread answers it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.arriving: dict[Any, float] = {}  # connection: when it must have sent its request
        self.request_timeout = request_timeout(os.environ)

    def _own_way(self, conn: Any) -> bool:
        return bool(self.cfg.is_ssl or conn.is_http2 or "h2" in (self.cfg.http_protocols or ()))

    def enqueue_req(self, conn: Any) -> None:
        """A connection with something to read: read its request here, then a thread."""
        if getattr(conn, "whole", False) or self._own_way(conn):
            conn.whole = False
            super().enqueue_req(conn)
            return
        # Bytes a thread read ahead (the next request of a kept-alive connection) are the start.
        conn.arrived = bytearray(conn.parser.unreader.take_buffered() if conn.parser is not None else b"")
        if arrived(conn.arrived):
            self._to_thread(conn)
            return
        conn.sock.setblocking(False)
        self.arriving[conn] = time.monotonic() + self.request_timeout
        self.poller.register(conn.sock, selectors.EVENT_READ, partial(self._read, conn))

    def _read(self, conn: Any, client: Any) -> None:
        try:
            data = client.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:  # the client went away before its request came
            self._stop_reading(conn)
            self._close(conn)
            return
        conn.arrived += data
        if arrived(conn.arrived):
            self._stop_reading(conn)
            self._to_thread(conn)

    def _stop_reading(self, conn: Any) -> None:
        self.arriving.pop(conn, None)
        try:
            self.poller.unregister(conn.sock)
        except (KeyError, ValueError, OSError):
            pass

    def _to_thread(self, conn: Any) -> None:
        conn.early, conn.arrived = bytes(conn.arrived), None
        conn.data_ready = True  # gthread waits for no first bytes: they are here
        conn.whole = True
        self.enqueue_req(conn)

    def _close(self, conn: Any) -> None:
        self.nr_conns -= 1
        conn.close()

    def handle(self, conn: Any) -> Any:
        """In the thread: the parser reads the bytes that arrived first, then the socket."""
        early = getattr(conn, "early", None)
        if early:
            conn.init()  # makes the parser (nothing once it is made)
            conn.parser.unreader.unread(early)
            conn.early = None
        return super().handle(conn)

    def murder_pending(self) -> None:
        """Also close the connections whose request has not arrived in time."""
        super().murder_pending()
        now = time.monotonic()
        for conn in [c for c, deadline in self.arriving.items() if deadline <= now]:
            self._stop_reading(conn)
            self._close(conn)
