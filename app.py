"""Doko Tutor: the Flask application factory. gunicorn serves `app:create_app()`; importing
this module builds nothing and writes nothing (no instance folder, no secret key)."""
from __future__ import annotations

import os
from typing import Any

from flask import Flask, Request, g
from flask.sessions import NullSession, SessionInterface
from flask_babel import Babel

from tutor.server import secret_key
from tutor.web.base import htmx, i18n, security


class NoSessions(SessionInterface):
    """No Flask session: what the app remembers lives in cookies of its own, one per kind,
    signed (tutor/web/base/signed.py), so no request needs Flask's session cookie read, a
    session object made or its saving considered. Writing to `flask.session` fails loudly
    (Flask's null session) rather than being lost."""

    def open_session(self, app: Flask, request: Request) -> NullSession:
        return self.make_null_session(app)


def create_app(config: dict[str, Any] | None = None, instance_path: str | None = None) -> Flask:
    """Build the app: configuration, extensions, blueprints, headers. The instance folder
    (secret key, SQLite sheets) is `instance/` unless another absolute path is given."""
    app = Flask(__name__, instance_path=instance_path, instance_relative_config=True)
    app.session_interface = NoSessions()
    app.config.update(
        MAX_CONTENT_LENGTH=64 * 1024,
        BABEL_DEFAULT_LOCALE=i18n.DEFAULT_LANGUAGE,
        BABEL_TRANSLATION_DIRECTORIES="translations",
        HTMX_FILE="htmx-2.0.11.min.js",
    )
    hosts = [h.strip() for h in os.environ.get("TRUSTED_HOSTS", "").split(",") if h.strip()]
    if hosts:
        # Flask refuses a request naming another Host (400), so no link or redirect built
        # from it ever points elsewhere.
        app.config["TRUSTED_HOSTS"] = hosts
    if config:
        app.config.update(config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = secret_key.load(app.instance_path)

    from tutor.web.shell import assets

    assets.init_app(app)  # first: its compression runs after every other response hook
    Babel(app, locale_selector=i18n.select_locale)
    htmx.init_app(app)
    security.init_app(app)
    app.after_request(i18n.remember_language)

    @app.url_value_preprocessor
    def pull_lang(endpoint: str | None, values: dict[str, Any] | None) -> None:
        """Every page URL starts with its language; keep it for the locale selector."""
        if values and "lang" in values:
            g.lang = values.pop("lang")

    @app.url_defaults
    def add_lang(endpoint: str, values: dict[str, Any]) -> None:
        """url_for() keeps the page's language unless told another."""
        if "lang" not in values and app.url_map.is_endpoint_expecting(endpoint, "lang"):
            values["lang"] = g.get("lang") or i18n.DEFAULT_LANGUAGE

    from tutor import web

    web.init_app(app)

    from tutor.server import cli

    cli.init_app(app)
    from tutor.web.base import shared

    shared.init_app(app)  # last: in front of everything, static files included
    return app
