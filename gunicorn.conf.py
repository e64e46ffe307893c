"""How `make run` serves the app: gunicorn reads this file
(`gunicorn -c gunicorn.conf.py 'app:create_app()'`, the factory called once per worker).

Environment:
  HOST             address to bind; 127.0.0.1 unless set (HOST=0.0.0.0 opens it to the network,
                   which only makes sense behind a reverse proxy: see the README)
  PORT             port to bind; 8000 unless set
  WEB_CONCURRENCY  worker processes; one per CPU core (at least 2) unless set
  WEB_THREADS      threads per worker; 128 unless set

Worker model: gthread, with one change (tutor/server/worker.py): a connection is handed to a
thread only once its whole request has arrived; until then the worker's poller reads what
the client sends. A client that trickles its request costs a socket and a few bytes, never a
thread, and is closed when its request has not arrived within REQUEST_TIMEOUT seconds (10).
With 128 threads in each worker (idle threads cost little memory, and are only started when
needed) a slow page (the quiz pack on a cache miss takes seconds of CPU) does not stop the
other requests of its worker, as it does with an event-loop worker such as gevent.
docs/reliability.md has the measurements behind this choice. Behind a buffering reverse
proxy no slow client reaches gunicorn at all.
"""
from __future__ import annotations

import os


def _whole(name: str, default: int, low: int, high: int) -> int:
    """A whole number from the environment, refused with a clear message when it is not one."""
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    if not (text.isascii() and text.isdigit()) or not low <= int(text) <= high:
        raise SystemExit(f"{name}={text!r}: expected a whole number from {low} to {high}")
    return int(text)


bind = f"{os.environ.get('HOST', '').strip() or '127.0.0.1'}:{_whole('PORT', 8000, 1, 65535)}"
workers = _whole("WEB_CONCURRENCY", max(2, os.cpu_count() or 1), 1, 64)
# gthread whose poller reads each request whole before a thread answers it (tutor/server/worker.py):
# a client trickling its request costs a socket, not a thread.
worker_class = "tutor.server.worker.Worker"
threads = _whole("WEB_THREADS", 128, 1, 1024)
# Connections one worker keeps open at once (kept-alive ones included); more wait in the backlog.
worker_connections = 1000
backlog = 2048

# A worker that does not report for this long is stuck: it is killed and replaced.
timeout = 30
# On stop or reload, requests in flight get this long to finish.
graceful_timeout = 20
# An idle kept-alive connection is closed after this many seconds.
keepalive = 5

# Bounds on what a request line and its headers may be (gunicorn's defaults, written out).
limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190

accesslog = "-"
errorlog = "-"
loglevel = "info"
# X-Forwarded-* headers are believed only from these addresses (gunicorn also reads
# FORWARDED_ALLOW_IPS from the environment); a reverse proxy on the same machine is trusted.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
# gunicorn's control socket lives at one path per user ($HOME/.gunicorn/gunicorn.ctl): several
# instances on one machine would take it from each other, and nothing here uses it.
control_socket_disable = True

# Memory: every gthread thread that allocates gets a malloc arena of its own from glibc (up to
# 8 per core), and an arena keeps what Brotli and a page's rendering used. Two arenas per
# worker hold the threads' memory; requests/s differ no more than a busy machine's runs do
# (docs/performance.md:
# after `bench/http.py --accept-encoding "br, gzip"` the workers ended at 67 and 70 MiB, and
# at 89 and 121 MiB with glibc's default of 16 arenas, MALLOC_ARENA_MAX=16). glibc reads
# MALLOC_ARENA_MAX only when a process starts, so a worker asks for it with mallopt(); a
# MALLOC_ARENA_MAX in the environment is obeyed instead.
M_ARENA_MAX = -8  # glibc's <malloc.h>
MALLOC_ARENAS = 2


def post_fork(server, worker):  # noqa: ARG001 (gunicorn's hook signature)
    if os.environ.get("MALLOC_ARENA_MAX"):
        return
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").mallopt(M_ARENA_MAX, MALLOC_ARENAS)
    except (OSError, AttributeError):  # not glibc: its own allocator, nothing to ask
        pass
