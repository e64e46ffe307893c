"""The app's SECRET_KEY, which signs quiz questions and quiz progress.

From the `SECRET_KEY` environment variable when it is set; otherwise a random key made once
and kept in the instance folder, so that every worker of one installation shares it.

The file is never visible half-written: the key is written to a temporary file in the same
folder, flushed to disk, then hard-linked into place. `link` fails when the name exists, so
when many processes start at once exactly one key wins and every process reads that one.
A key that is empty or too short (from the environment or from the file) is refused at start
with a message that says what to do, never used: anything signed with it could be forged.
"""
from __future__ import annotations

import os
import secrets
import tempfile
from pathlib import Path

ENVIRONMENT = "SECRET_KEY"
FILENAME = "secret_key"
# token_urlsafe(32) gives 43 characters; a key given by hand must be at least this long.
MIN_LENGTH = 32
_MAKE_ONE = "python3 -c 'import secrets; print(secrets.token_urlsafe(32))' makes one"


class SecretKeyError(RuntimeError):
    """The secret key is missing, empty or too short; the app must not start with it."""


def load(instance_path: str) -> str:
    """The secret key: the environment's, else the instance folder's (made on first use)."""
    if ENVIRONMENT in os.environ:
        return check(os.environ[ENVIRONMENT], f"the {ENVIRONMENT} environment variable",
                     f"set {ENVIRONMENT} to a long random value ({_MAKE_ONE}), or unset it to use a key kept "
                     "in the instance folder")
    path = Path(instance_path) / FILENAME
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = _create(path)
    return check(text.strip(), str(path), f"delete {path} so that a new key is made, or set {ENVIRONMENT} "
                 f"to a long random value ({_MAKE_ONE})")


def check(key: str, source: str, remedy: str) -> str:
    """`key` itself when it is long enough to sign with; else SecretKeyError naming `source`
    and what to do about it."""
    if len(key.strip()) < MIN_LENGTH:
        length = len(key.strip())
        what = "is empty" if not length else f"has only {length} character{'' if length == 1 else 's'}"
        raise SecretKeyError(
            f"The secret key from {source} {what}; it needs at least {MIN_LENGTH} characters: {remedy}."
        )
    return key


def _create(path: Path) -> str:
    """Write a new key to `path` unless another process got there first; the winner's key."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{FILENAME}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(secrets.token_urlsafe(32))
            file.flush()
            os.fsync(file.fileno())
        try:
            os.link(temporary, path)
        except FileExistsError:
            pass  # another process linked its key first: use that one
        else:
            _fsync_folder(path.parent)
    finally:
        os.unlink(temporary)
    return path.read_text(encoding="utf-8")


def _fsync_folder(folder: Path) -> None:
    """Make the new name itself durable (a crash right after must not lose the link)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
