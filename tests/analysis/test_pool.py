"""The analysis off the request threads: a bounded pool that answers "busy" beyond its limit,
with the same answers in a worker process as in this one."""
from __future__ import annotations

import json
import threading

import pytest

from app import create_app
from tests.analysis.helpers import DDV, finished, stopped
from tutor.analysis import pool
from tutor.analysis.judge import analyse
from tutor.analysis.review import review
from tutor.analysis.view import SeatView


def view() -> SeatView:
    real = stopped(finished(DDV, 1003, 0), 6)
    return SeatView.of(real, real.turn)


def test_beyond_its_limit_the_pool_is_busy_at_once():
    analyses = pool.Analyses(workers=0, limit=1)
    started, release = threading.Event(), threading.Event()

    def slow() -> str:
        started.set()
        release.wait(10)
        return "done"

    results: list[str] = []
    first = threading.Thread(target=lambda: results.append(analyses._run(slow)))
    first.start()
    assert started.wait(10)
    with pytest.raises(pool.Busy):
        analyses.analyse(view(), 10, 1)
    release.set()
    first.join(10)
    assert results == ["done"]
    assert analyses.analyse(view(), 10, 1) == analyse(view(), 10, 1)  # the slot is free again


def test_a_worker_process_gives_the_same_answers():
    analyses = pool.Analyses(workers=1)
    try:
        assert analyses.analyse(view(), 20, 3) == analyse(view(), 20, 3)
        deal = finished(DDV, 1004, 0)
        assert analyses.review(deal, 1, 10, 2) == review(deal, 1, 10, 2)
    finally:
        analyses.close()


def test_the_environment_sizes_the_pool():
    assert (pool.from_environment({}).workers, pool.from_environment({}).limit) == (1, 2)
    sized = pool.from_environment({"ANALYSIS_WORKERS": "3", "ANALYSIS_LIMIT": "5"})
    assert (sized.workers, sized.limit) == (3, 5)
    assert pool.from_environment({"ANALYSIS_WORKERS": "0"}).limit == 1


def test_the_api_says_busy_with_a_503(monkeypatch):
    monkeypatch.setattr(pool, "_shared", pool.Analyses(workers=0, limit=0))
    client = create_app({"TESTING": True}).test_client()
    from tests.test_api_analyse import request_of

    response = client.post("/api/v1/analyse", data=json.dumps(request_of(view())), content_type="application/json",
                           headers={"Accept-Language": "de"})
    assert response.status_code == 503 and response.headers["Retry-After"] == "2"
    error = response.get_json()["error"]
    assert error["code"] == "busy" and error["field"] is None and "gleich" in error["message"]
