"""The analysis is pure Python beside the engine: its docstring examples hold, and it imports
nothing of the web."""
from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import tutor.analysis
from tests.rules.test_typing import web_imports

MODULES = ["tutor.analysis", *(m.name for m in pkgutil.iter_modules(tutor.analysis.__path__, "tutor.analysis."))]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    failures, _ = doctest.testmod(importlib.import_module(name))
    assert failures == 0


@pytest.mark.parametrize("name", MODULES)
def test_the_analysis_imports_nothing_of_the_web(name):
    source = Path(importlib.import_module(name).__file__).read_text()
    assert web_imports(source) == [], name
