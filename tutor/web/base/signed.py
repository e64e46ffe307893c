"""Small state kept on the device in a signed cookie (the quiz's and the lessons' progress,
the play stats): each kind signs with its own salt, reads only what it signed, and starts
afresh from anything else."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from itsdangerous import BadSignature, URLSafeSerializer

T = TypeVar("T")


def read(secret: str, salt: str, text: str | None, load: Callable[[Any], T], fresh: Callable[[], T]) -> T:
    """What a cookie of this kind holds, or a fresh one when it is missing or not ours."""
    if not text:
        return fresh()
    try:
        return load(URLSafeSerializer(secret, salt=salt).loads(text))
    except BadSignature:
        return fresh()


def write(secret: str, salt: str, data: Any) -> str:
    """The cookie's text for ``data`` (plain JSON-able values), signed for this kind."""
    return URLSafeSerializer(secret, salt=salt).dumps(data)
