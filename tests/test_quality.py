"""The whole of tutor/ is typed (mypy --strict), lint-clean (ruff) and keeps its layers (the
import contracts of pyproject.toml, checked by import-linter), as the suite checks."""
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True)


def test_tutor_passes_mypy_strict():
    result = run(sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "tutor", "app.py")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_finds_nothing():
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or "ruff"
    result = run(ruff, "check", "--no-cache", "--output-format", "concise", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_import_contracts_hold():
    """Layers web > learn > quiz > analysis > play > rules, the web's features independent,
    no Flask below the web layer (pyproject.toml, [tool.importlinter])."""
    lint_imports = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or "lint-imports"
    result = run(lint_imports, "--no-cache")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_contracts_name_every_feature_of_the_web():
    """A new folder of tutor/web/ is either shared (base, words) or a feature that the
    independence contract keeps apart from the others."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    independent = next(c for c in contracts if c["type"] == "independence")["modules"]
    web = ROOT / "tutor" / "web"
    folders = {f"tutor.web.{p.name}" for p in web.iterdir() if (p / "__init__.py").exists()}
    assert set(independent) == folders - {"tutor.web.base", "tutor.web.words"}
    assert not [p.name for p in web.glob("*.py") if p.name != "__init__.py"], "every module of the web is in a package"
