"""Doko Tutor: the Flask application factory. gunicorn serves `app:app`."""
from __future__ import annotations

from typing import Any

from flask import Flask


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the app: configuration, extensions, blueprints."""
    app = Flask(__name__, instance_relative_config=True)
    app.config.update(MAX_CONTENT_LENGTH=64 * 1024)
    if config:
        app.config.update(config)

    from tutor.web import api

    app.register_blueprint(api.bp)
    return app


app = create_app()
