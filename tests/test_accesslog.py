"""The access log (tutor/accesslog.py): the very lines gunicorn's own Logger writes."""
from __future__ import annotations

import datetime
import runpy

import pytest
from gunicorn.config import Config
from gunicorn.glogging import Logger

from tests.serving import ROOT
from tutor.accesslog import AccessLog


class Resp:
    def __init__(self, status, sent, headers):
        self.status, self.sent, self.headers = status, sent, headers


class Req:
    def __init__(self, headers):
        self.headers = headers


ENVIRON = {
    "REMOTE_ADDR": "203.0.113.9", "REQUEST_METHOD": "POST", "RAW_URI": "/en/quiz/winner?x=1",
    "SERVER_PROTOCOL": "HTTP/1.1", "PATH_INFO": "/en/quiz/winner", "QUERY_STRING": "x=1",
    "HTTP_REFERER": 'http://127.0.0.1:8000/en/quiz/"winner"', "HTTP_USER_AGENT": "Mozilla/5.0 (Linux; Android 14)",
    "HTTP_AUTHORIZATION": "Basic " + __import__("base64").b64encode(b"dora:secret").decode(),
    "HTTP_COOKIE": "lang=de", "wsgi.url_scheme": "http", "werkzeug.request": object(), "tutor.page_lang": "en",
}
REQ = Req([("HOST", "127.0.0.1:8000"), ("USER-AGENT", "Mozilla/5.0 (Linux; Android 14)"), ("COOKIE", "lang=de")])


def line(logger_class, access_format, resp, environ):
    cfg = Config()
    cfg.set("access_log_format", access_format)
    logger = logger_class(cfg)
    took = datetime.timedelta(seconds=0, microseconds=4321)
    return access_format % logger.atoms_wrapper_class(logger.atoms(resp, REQ, environ, took))


@pytest.mark.parametrize("access_format", [
    Config().access_log_format,  # gunicorn's default, the one gunicorn.conf.py keeps
    '%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s %(B)s "%(f)s" "%(a)s" %(m)s %(U)s %(q)s %(H)s %(T)s %(D)s %(M)s'
    ' %(L)s %(p)s %(nothing)s',
    '%(h)s "%({user-agent}i)s" %({content-type}o)s %({wsgi.url_scheme}e)s %({tutor.page_lang}e)s',  # all of it
])
@pytest.mark.parametrize("resp", [Resp("200 OK", 2930, [("Content-Type", "text/html"), ("Set-Cookie", "a=b")]),
                                  Resp("304 Not Modified", None, []), Resp(404, 12, [])])
def test_the_same_line_as_gunicorns_own(access_format, resp, monkeypatch):
    monkeypatch.setattr(Logger, "now", lambda self: "[01/Dec/2026:13:00:00 +0000]")
    for environ in (ENVIRON, {k: v for k, v in ENVIRON.items() if not k.startswith("HTTP_")}):
        assert line(AccessLog, access_format, resp, environ) == line(Logger, access_format, resp, environ)


def test_make_run_logs_with_it(monkeypatch):
    for name in ("HOST", "PORT", "WEB_CONCURRENCY", "WEB_THREADS"):
        monkeypatch.delenv(name, raising=False)
    config = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    assert config["logger_class"] == "tutor.accesslog.AccessLog"
    assert config["accesslog"] == "-"
