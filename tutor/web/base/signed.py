"""Small state kept on the device in a signed cookie (the quiz's and the lessons' progress,
the play stats): each kind signs with its own salt, reads only what it signed, and starts
afresh from anything else."""
from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any, Final, TypeVar

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
    return dumps(secret, salt, data)


SIGNED_KEPT: Final = 4096  # signatures of recent texts: about 300 bytes each


@lru_cache(maxsize=64)
def serializer(secret: str, salt: str) -> URLSafeSerializer:
    """The serializer of a kind (made once, not on every request)."""
    return URLSafeSerializer(secret, salt=salt)


@lru_cache(maxsize=SIGNED_KEPT)
def _signed(secret: str, salt: str, payload: bytes) -> str:
    text: bytes = serializer(secret, salt).make_signer().sign(payload)
    return text.decode()


def dumps(secret: str, salt: str, data: Any) -> str:
    """What ``URLSafeSerializer(secret, salt=salt).dumps(data)`` gives, the same text, with the
    signature of a text signed lately taken from memory (a cookie written again unchanged,
    the token of a question asked before) instead of computed again."""
    payload: bytes = serializer(secret, salt).dump_payload(data)
    return _signed(secret, salt, payload)
