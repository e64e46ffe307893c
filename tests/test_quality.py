"""The whole of tutor/ is typed (mypy --strict) and lint-clean (ruff), as the suite checks."""
import shutil
import subprocess
import sys
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
