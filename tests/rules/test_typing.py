"""The engine and the quiz generators are pure Python: their docstring examples hold, and
they import nothing of the web (no Flask, no tutor.web)."""
import ast
import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import tutor.quiz
import tutor.rules

ENGINE_MODULES = [m.name for m in pkgutil.iter_modules(tutor.rules.__path__, "tutor.rules.")]
QUIZ_MODULES = ["tutor.quiz", *(m.name for m in pkgutil.iter_modules(tutor.quiz.__path__, "tutor.quiz."))]
# What the web layer is made of: none of it may be imported below it.
WEB: tuple[str, ...] = ("flask", "flask_babel", "htmx_flask", "werkzeug", "jinja2", "itsdangerous", "tutor.web")


@pytest.mark.parametrize("name", ENGINE_MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(module, extraglobs={"RuleSet": tutor.rules.rulesets.RuleSet})
    assert failures == 0


def imported(source: str) -> set[str]:
    """Every module a source file imports, top level or inside a function."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def web_imports(source: str) -> list[str]:
    return sorted(n for n in imported(source) if any(n == w or n.startswith(w + ".") for w in WEB))


def test_the_import_check_sees_flask_wherever_it_is_imported():
    assert web_imports("import flask") == ["flask"]
    assert web_imports("def f():\n    from flask_babel import gettext\n") == ["flask_babel", "flask_babel.gettext"]
    assert web_imports("from tutor import web") == ["tutor.web"]
    assert web_imports("from tutor.rules import cards\n# flask is not imported here\n") == []


@pytest.mark.parametrize("name", ENGINE_MODULES + QUIZ_MODULES)
def test_engine_and_quiz_import_nothing_of_the_web(name):
    source = Path(importlib.import_module(name).__file__).read_text()
    assert web_imports(source) == [], name
