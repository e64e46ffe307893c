"""No Flask session: every kind of memory has a signed cookie of its own."""
from __future__ import annotations

import pytest
from flask import Flask

from tutor.web.base import security


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


def test_a_body_cut_short_is_a_400_page(app: Flask) -> None:
    """werkzeug's own form parser: a client that goes before its whole body came."""
    client = app.test_client()
    response = client.post("/en/quiz/winner", data=b"token=abc", content_type="application/x-www-form-urlencoded",
                           environ_overrides={"CONTENT_LENGTH": "400"})
    assert response.status_code == 400
