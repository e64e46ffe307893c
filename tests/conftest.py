"""The app, a test client and a CLI runner, as in Flask's tutorial."""
from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from app import create_app

LANGUAGES = ("de", "en", "it", "es", "fr", "pt")
# Every page of the shell, by its path after the language.
PAGES = ("", "learn/", "quiz/", "score/", "rules/", "settings", "offline")


@pytest.fixture
def app() -> Flask:
    return create_app({"TESTING": True})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()
