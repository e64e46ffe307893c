"""The analysis off the request threads: a bounded pool of worker processes, at most a set
number of analyses at once, and a clear "busy" beyond that, so that judging cards (a tenth of
a second to a few seconds of CPU each) never holds up the pages.

The web layer calls ``shared()`` for the pool of its process (sized from the environment,
see the README) and asks it for an analysis or a review; either comes back, or ``Busy`` is
raised at once when the pool already has its limit of work. ``ANALYSIS_WORKERS=0`` runs each
analysis in the calling thread (still bounded), for a process of its own or for tests.

>>> pool = Analyses(workers=0, limit=1)
>>> pool.limit, pool.workers
(1, 0)
>>> pool.close()
"""
from __future__ import annotations

import atexit
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Final, TypeVar

from tutor.analysis.judge import Analysis, analyse
from tutor.analysis.review import Judgement, review
from tutor.analysis.view import SeatView
from tutor.rules.deal import Deal

WORKERS_VARIABLE: Final = "ANALYSIS_WORKERS"
LIMIT_VARIABLE: Final = "ANALYSIS_LIMIT"
DEFAULT_WORKERS: Final = 1
Result = TypeVar("Result")


class Busy(Exception):
    """The pool already has its limit of analyses running or waiting: try again in a moment."""


class Analyses:
    """``workers`` processes (0: the calling thread) and at most ``limit`` analyses at once,
    running or waiting for a worker; beyond that ``Busy``."""

    def __init__(self, workers: int = DEFAULT_WORKERS, limit: int | None = None) -> None:
        if workers < 0:
            raise ValueError("workers must be 0 or more")
        self.workers = workers
        self.limit = limit if limit is not None else max(1, 2 * workers)
        self._slots = threading.BoundedSemaphore(self.limit)
        self._executor: Executor | None = None
        self._lock = threading.Lock()

    def analyse(self, view: SeatView, samples: int, seed: int) -> Analysis:
        """One decision judged (``judge.analyse``), off this thread; Busy when full."""
        return self._run(analyse, view, samples, seed)

    def review(self, deal: Deal, seat: int, samples: int, seed: int) -> tuple[Judgement, ...]:
        """A finished deal reviewed for one seat (``review.review``), off this thread."""
        return self._run(review, deal, seat, samples, seed)

    def _run(self, work: Callable[..., Result], *args: object) -> Result:
        if not self._slots.acquire(blocking=False):
            raise Busy
        try:
            if self.workers == 0:
                return work(*args)
            return self._pool().submit(work, *args).result()
        finally:
            self._slots.release()

    def _pool(self) -> Executor:
        with self._lock:
            if self._executor is None:
                # Not fork: the web server's process has threads, and a forked copy of a
                # threaded process may inherit a lock held by one of them.
                context = multiprocessing.get_context("forkserver")
                self._executor = ProcessPoolExecutor(self.workers, mp_context=context, initializer=_nicer)
            return self._executor

    def close(self) -> None:
        with self._lock:
            if self._executor is not None:
                self._executor.shutdown(wait=True, cancel_futures=True)
                self._executor = None


NICENESS: Final = 10  # how much lower the workers' priority is than the web server's


def _nicer() -> None:
    """A worker process gives way to the web server's: pages first, analyses in what is left
    (Linux's idle scheduling, where there is one: it runs only when nothing else would)."""
    if hasattr(os, "nice"):
        os.nice(NICENESS)
    if hasattr(os, "sched_setscheduler") and hasattr(os, "SCHED_IDLE"):
        try:
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        except OSError:
            pass  # not allowed here: the lower priority above will do


_shared: Analyses | None = None
_shared_lock = threading.Lock()


def from_environment(environ: dict[str, str] | os._Environ[str] = os.environ) -> Analyses:
    """A pool sized as the environment says: ``ANALYSIS_WORKERS`` processes (default 1; 0 for
    none) and ``ANALYSIS_LIMIT`` analyses at once (default twice the workers, at least 1)."""
    workers = int(environ.get(WORKERS_VARIABLE, DEFAULT_WORKERS))
    limit = environ.get(LIMIT_VARIABLE)
    return Analyses(workers, int(limit) if limit else None)


def shared() -> Analyses:
    """This process's pool, made on first use from the environment."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = from_environment()
            atexit.register(_shared.close)
        return _shared
