"""`flask translate update|compile`: refresh the catalogs after strings change.

    flask --app app translate update    # re-extract messages and merge them into every .po
    flask --app app translate compile   # build the .mo files the app reads
"""
from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import click
from flask import Flask

ROOT = Path(__file__).resolve().parents[2]
WIDTH = 100  # the catalogs' line width: the same on every machine, so an update rewraps nothing


def _pybabel(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", *args], cwd=ROOT, check=True)


def extract(pot: Path) -> None:
    """Collect every translatable string of the app, the API and the engine into `pot`."""
    _pybabel(
        "extract", "-F", "babel.cfg", "-k", "_l", "-k", "lazy_gettext", "-k", "lazy_pgettext:1c,2",
        "--no-location",
        "--sort-output", "-o", str(pot), "--project", "Doko Tutor", ".",
    )


def init_app(app: Flask) -> None:
    @app.cli.group()
    def translate() -> None:
        """Translation and localization commands."""

    @translate.command()
    def update() -> None:
        """Re-extract the messages and merge them into every language's catalog."""
        with tempfile.TemporaryDirectory() as tmp:
            pot = Path(tmp) / "messages.pot"
            extract(pot)
            _pybabel("update", "-i", str(pot), "-d", "translations", "--no-fuzzy-matching", "--ignore-obsolete",
                     "--width", str(WIDTH))

    @translate.command()
    def compile() -> None:
        """Compile every catalog into the .mo file the app reads."""
        _pybabel("compile", "-d", "translations")

    @translate.command()
    @click.argument("lang")
    def init(lang: str) -> None:
        """Start a catalog for a new language."""
        with tempfile.TemporaryDirectory() as tmp:
            pot = Path(tmp) / "messages.pot"
            extract(pot)
            _pybabel("init", "-i", str(pot), "-d", "translations", "-l", lang)
