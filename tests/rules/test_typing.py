"""The engine is fully typed and its docstring examples hold."""
import doctest
import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import tutor.rules

ENGINE_MODULES = [m.name for m in pkgutil.iter_modules(tutor.rules.__path__, "tutor.rules.")]


@pytest.mark.parametrize("name", ENGINE_MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(module, extraglobs={"RuleSet": tutor.rules.rulesets.RuleSet})
    assert failures == 0


def test_engine_passes_mypy_strict():
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "tutor/rules"],
        capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_engine_knows_nothing_of_the_web():
    for name in ENGINE_MODULES:
        source = Path(importlib.import_module(name).__file__).read_text()
        assert "flask" not in source.lower(), name
