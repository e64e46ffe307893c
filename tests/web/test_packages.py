"""The web layer by feature: a feature's package imports the engine, the quiz, the shared
base and words, never another feature, so each feature can be read (and moved) alone."""
import ast
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "tutor" / "web"
SHARED = ("base", "words")
FEATURES = sorted(p.name for p in WEB.iterdir() if p.is_dir() and (p / "__init__.py").exists() and p.name not in SHARED)


def web_packages_imported(path: Path) -> set[str]:
    """The packages of tutor.web that a module imports (``tutor.web.score.form`` → ``score``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        for name in names:
            parts = name.split(".")
            if parts[:2] == ["tutor", "web"] and len(parts) > 2:
                found.add(parts[2])
    return found


def test_the_web_layer_has_its_features_and_shared_packages():
    assert {"shell", "quiz", "score", "reference", "api"} <= set(FEATURES)
    assert all((WEB / name / "__init__.py").exists() for name in SHARED)
    assert not [p.name for p in WEB.glob("*.py") if p.name != "__init__.py"], "every module belongs to a package"


@pytest.mark.parametrize("feature", FEATURES)
def test_a_feature_imports_no_other_feature(feature):
    for module in (WEB / feature).rglob("*.py"):
        others = web_packages_imported(module) - {feature, *SHARED}
        assert not others, f"{module.relative_to(WEB)} imports {others}"


@pytest.mark.parametrize("shared", SHARED)
def test_the_shared_packages_import_no_feature(shared):
    for module in (WEB / shared).rglob("*.py"):
        assert web_packages_imported(module) <= set(SHARED), module
