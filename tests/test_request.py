"""The app's request class reads a small urlencoded form its own short way (tutor/request.py):
for whatever body, type, length and server, the form, the files and any refusal are what
werkzeug's own parser gives."""
from __future__ import annotations

import io
from typing import Any

import pytest
from flask import Flask
from htmx_flask.requests import HtmxAwareRequest
from hypothesis import given, settings
from hypothesis import strategies as st
from werkzeug.exceptions import ClientDisconnected, HTTPException

from app import create_app
from tutor import security
from tutor.request import URLENCODED, Request

LIMIT = 64 * 1024  # the app's MAX_CONTENT_LENGTH


@pytest.fixture(scope="module")
def app() -> Flask:
    return create_app({"TESTING": True})


def environ(body: bytes, content_type: str | None, length: str | None, terminated: bool,
            chunked: bool = False) -> dict[str, Any]:
    env: dict[str, Any] = {"REQUEST_METHOD": "POST", "PATH_INFO": "/en/quiz/winner", "SERVER_NAME": "localhost",
                           "SERVER_PORT": "80", "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(body)}
    if content_type is not None:
        env["CONTENT_TYPE"] = content_type
    if length is not None:
        env["CONTENT_LENGTH"] = length
    if terminated:
        env["wsgi.input_terminated"] = True  # as gunicorn says
    if chunked:
        env["HTTP_TRANSFER_ENCODING"] = "chunked"
    return env


def read(cls: type[HtmxAwareRequest], env: dict[str, Any]) -> tuple[Any, ...]:
    req = cls(env)
    try:
        return (list(req.form.items(multi=True)), list(req.files.items(multi=True)), req.stream.read())
    except HTTPException as refused:
        return ("refused", refused.code)


def both(app: Flask, make: Any) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    with app.app_context():
        return read(Request, make()), read(HtmxAwareRequest, make())


def test_the_app_reads_requests_with_it(app: Flask) -> None:
    assert app.request_class is Request
    with app.test_request_context("/en/", method="POST", data={"token": "a b", "pick": ["1", "2"]}):
        from flask import request
        assert request.form.getlist("pick") == ["1", "2"] and request.form["token"] == "a b"
        assert request.htmx is not None  # htmx-flask's request still


TEXT = st.text(alphabet="ab=&;+%2Fé€ \x00xyz0123456789ABCDEFG", max_size=60)
BODIES = st.one_of(TEXT.map(str.encode), st.binary(max_size=40))
TYPES = st.sampled_from([URLENCODED, URLENCODED + "; charset=UTF-8", "Application/X-WWW-Form-Urlencoded",
                         "multipart/form-data; boundary=x", "text/plain", "", None])


@settings(max_examples=400, deadline=None)
@given(body=BODIES, content_type=TYPES, terminated=st.booleans(), chunked=st.booleans(),
       length=st.sampled_from(["exact", "none", "junk", "padded", "over"]))
def test_every_body_reads_as_werkzeug_reads_it(app: Flask, body: bytes, content_type: str | None,
                                               terminated: bool, chunked: bool, length: str) -> None:
    text = {"exact": str(len(body)), "none": None, "junk": "12a", "padded": f" {len(body)}",
            "over": str(LIMIT + 1)}[length]
    ours, werkzeugs = both(app, lambda: environ(body, content_type, text, terminated, chunked))
    assert ours == werkzeugs


def test_a_form_reads_the_same_outside_the_app() -> None:
    body = b"token=a.b&pick=1&pick=%E2%99%A3"
    ours, werkzeugs = (read(cls, environ(body, URLENCODED, str(len(body)), True))
                       for cls in (Request, HtmxAwareRequest))
    assert ours == werkzeugs and ours[0] == [("token", "a.b"), ("pick", "1"), ("pick", "♣")]


def test_a_large_form_reads_the_same(app: Flask) -> None:
    body = "&".join(f"f{i}=" + "x%20y" * 20 for i in range(500)).encode()
    assert len(body) < LIMIT
    ours, werkzeugs = both(app, lambda: environ(body, URLENCODED, str(len(body)), True))
    assert ours == werkzeugs and len(ours[0]) == 500


def test_over_the_limit_is_refused_as_werkzeug_refuses_it(app: Flask) -> None:
    body = b"a=" + b"x" * LIMIT
    ours, werkzeugs = both(app, lambda: environ(body, URLENCODED, str(len(body)), True))
    assert ours == werkzeugs == ("refused", 413)


class Trickle(io.BytesIO):
    """A body that arrives a few bytes at a time, as a socket may give it."""

    def read(self, size: int | None = -1) -> bytes:
        return super().read(min(3, size if size is not None and size >= 0 else 3))


def test_a_body_read_in_pieces_is_read_whole(app: Flask) -> None:
    body = b"token=abc.def&pick=1&pick=2"
    env = environ(body, URLENCODED, str(len(body)), True)
    env["wsgi.input"] = Trickle(body)
    with app.app_context():
        assert read(Request, env)[0] == [("token", "abc.def"), ("pick", "1"), ("pick", "2")]


def test_a_body_cut_short_is_refused(app: Flask) -> None:
    """The one place it differs on purpose: werkzeug reads what came of a body that ended
    early (on a server that bounds the input) as if it were all; this refuses it, 400."""
    with app.app_context():
        req = Request(environ(b"token=abc&pick=1", URLENCODED, "40", True))
        with pytest.raises(ClientDisconnected):
            req.form  # noqa: B018


def test_a_cut_short_answer_gets_a_400_page(app: Flask) -> None:
    client = app.test_client()
    response = client.post("/en/quiz/winner", data=b"token=abc", content_type=URLENCODED,
                           environ_overrides={"CONTENT_LENGTH": "400", "wsgi.input_terminated": True})
    assert response.status_code == 400
    assert "The request could not be understood." in response.get_data(as_text=True)


def test_no_flask_session_is_read_or_written(app: Flask) -> None:
    """What the app remembers lives in signed cookies of its own: a session cookie sent
    (forged or old) is never read, none is written, and writing to the session fails loudly."""
    from flask import session

    client = app.test_client()
    client.set_cookie("session", "eyJ4IjoxfQ.forged")
    for response in (client.get("/en/"), client.get("/en/quiz/winner?q=1&l=0")):
        assert response.status_code == 200
        assert not any(c.startswith("session=") for c in response.headers.getlist("Set-Cookie"))
        assert "session" not in security.cookies_read(response.request.environ)
    with app.test_request_context("/en/"):
        assert "x" not in session
        with pytest.raises(RuntimeError):
            session["x"] = 1


# Addresses that differ from the first in one thing each (query, method, scheme, port, root,
# host, path, an upgrade to a websocket), and a few of their own.
ADDRESSES = [
    ("http://localhost/", "/en/quiz/winner", "GET", {}),
    ("http://localhost/", "/en/quiz/winner?q=2", "GET", {}),
    ("http://localhost/", "/en/quiz/winner", "POST", {}),
    ("https://localhost/", "/en/quiz/winner", "GET", {}),
    ("http://localhost:8000/", "/en/quiz/winner", "GET", {}),
    ("http://localhost/tutor/", "/en/quiz/winner", "GET", {}),
    ("http://127.0.0.1/", "/en/quiz/winner", "GET", {}),
    ("http://localhost/", "/en/quiz/legal", "GET", {}),
    ("http://localhost/", "/en/quiz/winner", "GET", {"Connection": "Upgrade", "Upgrade": "websocket"}),
    ("https://doko.example.org/", "/de/rules/trumps?x=1&y=%C3%BC", "GET", {}),
    ("https://doko.example.org:443/", "/", "HEAD", {}),
    ("http://bücher.example/", "/fr/", "GET", {}),  # an IDNA host
    ("http://localhost/", "/en/caf%C3%A9", "GET", {}),
    ("http://localhost/", "/en/rules/", "POST", {}),  # 405
    ("http://localhost/", "/en/quiz", "GET", {}),  # a redirect to the address with its slash
    ("http://localhost/", "/xx/quiz/winner", "GET", {}),  # 404
]


def matched(adapter: Any) -> tuple[Any, ...]:
    """What Flask's `match_request` gets from an adapter: the rule and arguments, or the refusal."""
    try:
        rule, args = adapter.match(return_rule=True)
    except HTTPException as refused:
        return type(refused), refused.code, getattr(refused, "new_url", None)
    return rule.endpoint, rule.rule, args


def test_url_adapters_are_flasks_own(app: Flask) -> None:
    """The app keeps the URL adapter of an address (app.App.create_url_adapter): for every
    address, asked first or again after the others, it must be the one Flask makes, and the
    request's host is set as Flask sets it."""
    from werkzeug.test import EnvironBuilder

    def made(create: Any, base: str, path: str, method: str, headers: dict[str, str]) -> tuple[Any, ...]:
        env = EnvironBuilder(path=path, base_url=base, method=method, headers=headers).get_environ()
        req = app.request_class(env)
        adapter = create(app, req)
        found = matched(adapter)
        if isinstance(found[-1], dict):
            found[-1].clear()  # as Flask takes the language out: what is kept must not change
        return {k: v for k, v in vars(adapter).items() if k != "_matched"}, req.host, found, matched(adapter)

    for _round in range(2):
        for address in ADDRESSES:
            assert made(type(app).create_url_adapter, *address) == made(Flask.create_url_adapter, *address), address


def test_a_kept_adapter_still_checks_the_host(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    monkeypatch.setenv("TRUSTED_HOSTS", "doko.example.org")
    trusted = create_app({"TESTING": True}, instance_path=str(tmp_path / "instance"))
    client = trusted.test_client()
    for _ in range(2):
        assert client.get("/en/", headers={"Host": "doko.example.org"}).status_code == 200
        assert client.get("/en/", headers={"Host": "evil.example"}).status_code == 400
