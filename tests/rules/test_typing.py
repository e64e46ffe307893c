"""The engine is pure Python whose docstring examples hold. That it imports nothing of the
web is an import contract (pyproject.toml, run by tests/test_quality.py)."""
import doctest
import importlib
import pkgutil

import pytest

import tutor.rules

ENGINE_MODULES = [m.name for m in pkgutil.iter_modules(tutor.rules.__path__, "tutor.rules.")]


@pytest.mark.parametrize("name", ENGINE_MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(module, extraglobs={"RuleSet": tutor.rules.rulesets.RuleSet})
    assert failures == 0
