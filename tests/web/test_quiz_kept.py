"""What the quiz keeps (tutor/web/quiz/asking.py): a question and its feedback rendered once,
their compressed bodies, the question built once, cookie signatures, and new questions drawn
from the day's seeds. The pages must be the very bytes the plain way gives (everything
rendered and compressed on every request, as before), headers and cookies included."""
from __future__ import annotations

import gzip
import random
import re
import time
from datetime import UTC, datetime

import brotli
import pytest
from itsdangerous import URLSafeSerializer

from app import create_app
from tutor.quiz import KINDS, MAX_LEVEL
from tutor.web.base import shared, signed
from tutor.web.quiz import asking
from tutor.web.quiz import progress as quiz_progress

from .test_quiz import form_for, question_of, token_of, wrong_for

SECRET = "kept-test-key"


def plain(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing kept: every request renders and compresses (the way before)."""
    monkeypatch.setattr(shared, "look", lambda kept, key: None)
    monkeypatch.setattr(shared, "send_compressed", lambda response, key: response)


def new_app(tmp_path, name):
    # One clock for every app of a test: the practice cookie holds minutes, and the plain and
    # the kept runs must not fall on either side of a minute.
    return create_app({"TESTING": True, "SECRET_KEY": SECRET, "PRACTICE_NOW": NOW}, instance_path=str(tmp_path / name))


NOW = datetime.now(UTC).replace(second=0, microsecond=0)


def seen(response) -> tuple:
    data = response.get_data()
    encoding = response.headers.get("Content-Encoding")
    if encoding == "br":
        data = brotli.decompress(data)
    elif encoding == "gzip":
        data = gzip.decompress(data)
    # (Date: gunicorn sends its own; Flask-Compress adds one when it answers a GET conditionally)
    headers = sorted((k, re.sub(r"\d\d:\d\d:\d\d", "T", v)) for k, v in response.headers.items()
                     if k not in ("Content-Length", "Date"))
    return response.status_code, headers, data.decode()


ENCODINGS = ({"Accept-Encoding": "br, gzip"}, {"Accept-Encoding": "gzip"}, {},
             {"HX-Request": "true", "Accept-Encoding": "br"})


def visit(app, lang: str, rules: str, kind: str, seed: int, level: int, headers: dict) -> list[tuple]:
    """A question by its link, then a right and a wrong answer to it, each by a new visitor."""
    shown = []
    client = app.test_client()
    client.set_cookie("rules", rules)
    page = client.get(f"/{lang}/quiz/{kind}?q={seed}&l={level}", headers=headers)
    shown.append(seen(page))
    html = seen(page)[2]
    question, _data = question_of(app, html)
    for answer in (question.answer, wrong_for(question)):
        other = app.test_client()
        other.set_cookie("rules", rules)
        response = other.post(f"/{lang}/quiz/{kind}", data={"token": token_of(html), **form_for(question, answer)},
                              headers=headers)
        shown.append(seen(response))
    return shown


def learner_run(app, lang: str, rules: str) -> list[tuple]:
    """One learner answering in a row (streaks, levels up and down), and the daily challenge."""
    shown = []
    client = app.test_client()
    client.set_cookie("rules", rules)
    for i in range(8):
        for ask, post in ((f"/{lang}/quiz/trumps?q={i}", f"/{lang}/quiz/trumps"),
                          (f"/{lang}/quiz/daily", f"/{lang}/quiz/daily")):
            page = client.get(ask, headers=ENCODINGS[i % 4])
            shown.append(seen(page))
            html = seen(page)[2]
            if 'name="token"' not in html:
                continue
            question, _data = question_of(app, html)
            answer = wrong_for(question) if i % 4 == 2 else question.answer
            response = client.post(post, data={"token": token_of(html), **form_for(question, answer)},
                                   headers=ENCODINGS[(i + 1) % 4])
            shown.append(seen(response))
    return shown


CASES = [(lang, rules, kind, seed, level)
         for n, kind in enumerate(KINDS)
         for lang, rules in (("en", "ddv"), (("de", "fr", "pt")[n % 3], "pagat"))
         for seed, level in ((7 + n, n % (MAX_LEVEL + 1)), (123456789, MAX_LEVEL))]
# The same questions in other languages and under other rules, one after the other.
CASES += [(lang, rules, kind, 42, 1) for kind in KINDS[:3] for lang, rules in (("en", "ddv"), ("fr", "ddv"),
                                                                               ("fr", "pagat"))]


def test_the_same_bytes_as_rendering_every_time(tmp_path, monkeypatch):
    """Every kind, two seeds, low and high levels, both rule sets, four languages, right and
    wrong answers, plain, compressed and htmx: asked the plain way, then twice with what is
    kept (the first renders and keeps, the second comes from memory)."""
    def run(app) -> list[tuple]:
        shown = []
        for i, case in enumerate(CASES):
            shown += visit(app, *case, ENCODINGS[i % 4])
        for lang, rules in (("en", "ddv"), ("it", "pagat")):
            shown += learner_run(app, lang, rules)
        return shown

    with monkeypatch.context() as patch:
        plain(patch)
        before = run(new_app(tmp_path, "plain"))
    app = new_app(tmp_path, "kept")
    first, again = run(app), run(app)
    assert app.extensions["quiz_fragments"] and app.extensions["quiz_shells"]  # it was kept
    assert len(before) == len(first) > 3 * len(CASES)
    for was, now, kept in zip(before, first, again):
        assert now == was
        assert kept == was


def test_what_is_kept_is_bounded_in_size(tmp_path, monkeypatch):
    monkeypatch.setattr(asking, "FRAGMENTS_KEPT", 12_000)  # characters: two or three fragments
    monkeypatch.setattr(shared, "COMPRESSED_BYTES", 9_000)  # bytes: two or three compressed pages (3 kB)
    app = new_app(tmp_path, "bounded")
    client = app.test_client()
    for seed in range(10):
        assert client.get(f"/en/quiz/winner?q={seed}", headers={"Accept-Encoding": "br"}).status_code == 200
    fragments, sent = app.extensions["quiz_fragments"], app.extensions["compressed_bodies"]
    assert 2 <= len(fragments) < 10 and fragments.currsize <= 12_000
    assert 2 <= len(sent) < 10 and sent.currsize <= 9_000 + 100
    # The last one asked is the one kept, and it is served from memory the same.
    again = client.get("/en/quiz/winner?q=9", headers={"Accept-Encoding": "br"})
    assert brotli.decompress(again.get_data()).decode().count('name="token"') == 1


def test_an_error_page_is_never_kept(tmp_path):
    app = new_app(tmp_path, "errors")
    client = app.test_client()
    response = client.post("/en/quiz/winner", data={"token": "tampered"})
    assert response.status_code == 400
    assert "could not be checked" in response.get_data(as_text=True)
    assert not app.extensions.get("quiz_fragments")


def test_feedback_follows_the_learners_figures(tmp_path):
    """The same answer to the same question: the streak shown is each learner's own."""
    app = new_app(tmp_path, "figures")
    html = app.test_client().get("/en/quiz/points?q=5&l=0").get_data(as_text=True)
    question, _data = question_of(app, html)
    fresh = app.test_client().post("/en/quiz/points", data={"token": token_of(html), **form_for(question)})
    assert "Streak: 1 right in a row." in fresh.get_data(as_text=True)
    learner = app.test_client()
    page = learner.get("/en/quiz/points?q=1&l=0").get_data(as_text=True)
    asked, _data = question_of(app, page)
    learner.post("/en/quiz/points", data={"token": token_of(page), **form_for(asked)})
    second = learner.post("/en/quiz/points", data={"token": token_of(html), **form_for(question)})
    assert "Streak: 2 right in a row." in second.get_data(as_text=True)


def test_daily_feedback_follows_each_learners_day(tmp_path):
    """The same second daily question answered the same way: the day's count is each learner's."""
    app = new_app(tmp_path, "daily")
    shown = []
    for first_right in (True, False):
        learner = app.test_client()
        for right in (first_right, True):
            html = learner.get("/en/quiz/daily").get_data(as_text=True)
            question, _data = question_of(app, html)
            answer = question.answer if right else wrong_for(question)
            response = learner.post("/en/quiz/daily", data={"token": token_of(html), **form_for(question, answer)})
        shown.append(response.get_data(as_text=True))
    assert "Today: 2 of 10 answered, 2 right." in shown[0]
    assert "Today: 2 of 10 answered, 1 right." in shown[1]


def test_new_questions_come_from_the_days_seeds_and_not_the_ones_answered(tmp_path, monkeypatch):
    monkeypatch.setattr(asking, "SEEDS_A_DAY", 2)
    app = new_app(tmp_path, "seeds")
    day = quiz_progress.today()
    day_seeds = {asking._day_seed("winner", 0, day, slot) for slot in range(2)}
    assert len(day_seeds) == 2
    client = app.test_client()
    asked = {question_of(app, client.get("/en/quiz/winner").get_data(as_text=True))[0].seed for _ in range(20)}
    assert asked == day_seeds  # both, and only they
    # Once one is answered, the learner gets the other one.
    first = sorted(day_seeds)[0]
    html = client.get(f"/en/quiz/winner?q={first}&l=0").get_data(as_text=True)
    question, _data = question_of(app, html)
    assert client.post("/en/quiz/winner", data={"token": token_of(html), **form_for(question)}).status_code == 200
    for _ in range(10):
        assert question_of(app, client.get("/en/quiz/winner").get_data(as_text=True))[0].seed != first
    # Both answered: a seed of its own (not one of the day's).
    second = sorted(day_seeds)[1]
    html = client.get(f"/en/quiz/winner?q={second}&l=0").get_data(as_text=True)
    question, _data = question_of(app, html)
    client.post("/en/quiz/winner", data={"token": token_of(html), **form_for(question)})
    assert question_of(app, client.get("/en/quiz/winner").get_data(as_text=True))[0].seed not in day_seeds


def test_the_days_seeds_change_with_the_day_kind_and_level():
    seeds = {asking._day_seed(kind, level, day, 0) for kind in ("winner", "legal") for level in (0, 1)
             for day in (739000, 739001)}
    assert len(seeds) == 8


def test_mixed_practice_draws_from_the_days_seeds_too(tmp_path, monkeypatch):
    monkeypatch.setattr(asking, "SEEDS_A_DAY", 1)
    app = new_app(tmp_path, "mixed")
    html = app.test_client().get("/en/quiz/mixed").get_data(as_text=True)
    question, data = question_of(app, html)
    assert data["m"] == "mixed"
    assert question.seed == asking._day_seed(question.kind, question.level, quiz_progress.today(), 0)


def test_signed_text_is_itsdangerous_own():
    rng = random.Random(3)
    for _ in range(50):
        data = {"k": rng.choice(KINDS), "s": rng.getrandbits(31), "l": [rng.random()] * rng.randint(0, 40)}
        expected = URLSafeSerializer(SECRET, salt="quiz-question").dumps(data)
        assert signed.dumps(SECRET, "quiz-question", data) == expected
        assert signed.dumps(SECRET, "quiz-question", data) == expected  # the kept signature
        assert signed.dumps(SECRET + "x", "quiz-question", data) != expected
        assert signed.dumps(SECRET, "practice", data) != expected


@pytest.mark.parametrize("secure", (False, True))
def test_a_kept_cookie_header_is_werkzeugs_own(secure):
    from flask import Request, Response
    from werkzeug.test import EnvironBuilder

    from tutor.web.base import security

    req = Request(EnvironBuilder(base_url="https://x/" if secure else "http://x/").get_environ())
    for name, value, age in (("quiz", "eyJrIjp7fX0.abc", 63072000), ("lang", "pt", 3600), ("odd", 'a "b";c', 60)):
        for _try in range(5):  # the two within one second
            ours, theirs = Response(), Response()
            start = int(time.time())
            security.set_cookie(ours, req, name, value, age)
            theirs.set_cookie(name, value, max_age=age, samesite="Lax", httponly=True, secure=secure)
            if int(time.time()) == start:
                break
        assert ours.headers.getlist("Set-Cookie") == theirs.headers.getlist("Set-Cookie")
        assert security.cookie_header(name, value, age, secure) == theirs.headers["Set-Cookie"]
