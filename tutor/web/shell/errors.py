"""Error pages in the visitor's language: a full page, or just the message for htmx."""
from __future__ import annotations

from flask import Flask, jsonify, render_template, request
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException, InternalServerError
from werkzeug.wrappers import Response

from tutor import htmx


def _message(error: HTTPException) -> str:
    """A translated sentence for the error (descriptions we raise are translated already)."""
    if error.code == 404:
        return _("There is no page at this address.")
    if error.code == 405:
        return _("This page cannot be used that way.")
    if error.code == 413:
        return _("That was more data than this page accepts.")
    if error.code == 400:
        if error.description and error.description != type(error).description:
            return str(error.description)
        return _("The request could not be understood.")
    return _("Something went wrong on our side. Please try again.")


def handle(error: HTTPException) -> tuple[Response | str, int]:
    """Render any HTTP error; the API keeps its JSON shape."""
    code = error.code or 500
    if request.path.startswith("/api/"):
        return jsonify(error={"code": error.name.lower().replace(" ", "_"), "message": _message(error)}), code
    template = "errors/_message.html" if htmx.is_partial(request) else "errors/error.html"
    return render_template(template, code=code, message=_message(error)), code


def handle_unexpected(error: Exception) -> tuple[Response | str, int]:
    """A bug must still look like the app, not like a stack trace."""
    return handle(InternalServerError(original_exception=error))


def init_app(app: Flask) -> None:
    app.register_error_handler(HTTPException, handle)
    if not app.testing:
        app.register_error_handler(Exception, handle_unexpected)
