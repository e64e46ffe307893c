"""Error pages in the visitor's language: a full page, or just the message for htmx; under
/api/ the API's JSON error shape instead (API.md)."""
from __future__ import annotations

from typing import Final

from flask import Flask, current_app, render_template, request
from flask_babel import gettext as _
from werkzeug.exceptions import BadHost, HTTPException, InternalServerError, MethodNotAllowed, SecurityError
from werkzeug.wrappers import Response

from tutor.web.base import htmx, i18n
from tutor.web.words.errors import api_error

# The API's error code for each status the generic handlers see (API.md's codes).
API_CODES: Final = {400: "bad_request", 404: "not_found", 405: "method_not_allowed", 413: "too_large"}


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


def _under_sheets(code: int) -> bool:
    """Whether a page not found was a score sheet's address (a sheet deleted, a link typed
    wrong): its page offers the sheets of this device, not just the start."""
    parts = request.path.split("/")
    return code == 404 and len(parts) > 3 and parts[2] == "sheet" and parts[1] in i18n.LANGUAGES


def _allowed(error: HTTPException) -> list[str]:
    """The methods a 405's address does answer (routing knows them), for its Allow header."""
    methods = error.valid_methods if isinstance(error, MethodNotAllowed) else None
    return sorted(methods or [])


def _api(error: HTTPException, code: int) -> Response:
    """The API's JSON shape for an error its own handlers did not answer."""
    api_code = API_CODES.get(code, "internal_error" if code >= 500 else "bad_request")
    allowed = _allowed(error)
    params = {"allowed": ", ".join(m for m in allowed if m not in ("HEAD", "OPTIONS")) or "POST"}
    response = api_error(api_code, None, params, code)
    if allowed:
        response.headers["Allow"] = ", ".join(allowed)
    return response


def handle(error: HTTPException) -> Response:
    """Render any HTTP error; the API keeps its JSON shape; a 405 always says what is allowed."""
    code = error.code or 500
    if request.path.startswith("/api/"):
        return _api(error, code)
    if isinstance(error, (SecurityError, BadHost)) or isinstance(request.routing_exception, (SecurityError, BadHost)):
        # A Host that TRUSTED_HOSTS does not name, or that no URL can name (a label of more
        # than 63 characters, an empty one), whatever else was wrong with the request (a hook
        # may refuse it before routing does): no page is built for it (its links would carry
        # that host, or could not be built at all), just the sentence.
        return Response(_("The request could not be understood."), code, content_type="text/plain; charset=utf-8")
    template = "errors/_message.html" if htmx.is_partial(request) else "errors/error.html"
    page = render_template(template, code=code, message=_message(error), sheets=_under_sheets(code))
    response = current_app.make_response((page, code))
    if _allowed(error):
        response.headers["Allow"] = ", ".join(_allowed(error))
    return response


def handle_unexpected(error: Exception) -> Response:
    """A bug must still look like the app, not like a stack trace; its traceback goes to the log."""
    current_app.logger.error("Exception on %s [%s]", request.path, request.method, exc_info=error)
    return handle(InternalServerError(original_exception=error))


def init_app(app: Flask) -> None:
    app.register_error_handler(HTTPException, handle)
    if not app.testing:
        app.register_error_handler(Exception, handle_unexpected)
