"""The app's request class: htmx-flask's (Flask's, with `request.htmx`), with a short way
to read the one kind of form the app posts (a small urlencoded body: a quiz answer, a lesson's
check, the calculator and sheet forms). werkzeug gets there through its content-type parser,
a wrapped and limited input stream and a form parser made for every request; under load that
was about a tenth of what a quiz answer cost. Every other body (multipart, chunked, no or a bad
length, one over MAX_CONTENT_LENGTH, any other type) takes werkzeug's way, as does every
request in debug mode (Flask then adds its helpful error for a missing file).
tests/test_request.py checks that both ways give the same form for whatever body.
"""
from __future__ import annotations

import io
from typing import Final
from urllib.parse import parse_qsl

from flask import current_app
from htmx_flask.requests import HtmxAwareRequest
from werkzeug.exceptions import ClientDisconnected

URLENCODED: Final = "application/x-www-form-urlencoded"


class Request(HtmxAwareRequest):
    def _load_form_data(self) -> None:
        if "form" in self.__dict__:
            return
        environ = self.environ
        length = environ.get("CONTENT_LENGTH")
        if (environ.get("CONTENT_TYPE") != URLENCODED or not length or not (length.isascii() and length.isdigit())
                or "HTTP_TRANSFER_ENCODING" in environ):
            super()._load_form_data()
            return
        size, limit = int(length), self.max_content_length
        if (limit is not None and size > limit) or (current_app and (current_app.debug
                                                                     or not current_app.config["FAST_PATHS"])):
            super()._load_form_data()  # werkzeug answers 413 for the first
            return
        stream = environ["wsgi.input"]
        data = stream.read(size) if size else b""
        while len(data) < size:
            more = stream.read(size - len(data))
            if not more:  # the client went before its whole body came: 400, not half a form
                raise ClientDisconnected()
            data += more
        try:
            # werkzeug's own reading of a urlencoded body (formparser.FormDataParser).
            items = parse_qsl(data.decode(), keep_blank_values=True, errors="werkzeug.url_quote")
        except ValueError:  # not UTF-8: werkzeug's parser is silent about it, and so is this
            items = []
        cls = self.parameter_storage_class
        self.__dict__.update(stream=io.BytesIO(), form=cls(items), files=cls())
