"""The app's SECRET_KEY, which signs quiz questions and quiz progress.

From the `SECRET_KEY` environment variable when set; otherwise a random key made once and
kept in the instance folder, so that every worker of one installation shares it.
"""
from __future__ import annotations

import os
import secrets
from pathlib import Path


def load(instance_path: str) -> str:
    """The secret key: the environment's, else the instance folder's (made on first use)."""
    key = os.environ.get("SECRET_KEY")
    if key:
        return key
    path = Path(instance_path) / "secret_key"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        key = secrets.token_urlsafe(32)
        try:
            # O_EXCL: when two workers start at once, the first one's key wins.
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            return path.read_text().strip()
        with os.fdopen(fd, "w") as file:
            file.write(key)
        return key
