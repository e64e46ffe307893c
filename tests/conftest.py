"""The app, a test client and a CLI runner, as in Flask's tutorial."""
from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from app import create_app

LANGUAGES = ("de", "en", "it", "es", "fr", "pt")
# Every page of the shell, by its path after the language.
PAGES = ("", "learn/", "quiz/", "score/", "rules/", "rules/trumps", "settings", "offline")


@pytest.fixture
def app(tmp_path: Path) -> Flask:
    """A fresh app with an instance folder of its own (its secret key, its SQLite sheets),
    as flaskr's conftest gives each test its own database: no test sees another's data."""
    return create_app({"TESTING": True}, instance_path=str(tmp_path / "instance"))


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """--doctest-modules (pyproject.toml) would collect the conftest files as modules of
    their own, and two of them share the name: they hold no examples, so not as tests."""
    return True if collection_path.name == "conftest.py" else None
