"""The analysis is pure Python above the engine: its docstring examples hold. That it imports
nothing of the web is an import contract (pyproject.toml, run by tests/test_quality.py)."""
from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import tutor.analysis

MODULES = ["tutor.analysis", *(m.name for m in pkgutil.iter_modules(tutor.analysis.__path__, "tutor.analysis."))]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    failures, _ = doctest.testmod(importlib.import_module(name))
    assert failures == 0

