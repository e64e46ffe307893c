"""Small state kept on the device in a signed cookie (the quiz's and the lessons' progress,
the play stats): each kind signs with its own salt, reads only what it signed, and starts
afresh from anything else."""
from __future__ import annotations

import json
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
        return load(loads(secret, salt, text))
    except BadSignature:
        return fresh()


def write(secret: str, salt: str, data: Any) -> str:
    """The cookie's text for ``data`` (plain JSON-able values), signed for this kind."""
    return dumps(secret, salt, data)


SIGNED_KEPT: Final = 1024  # recent JSON texts and their signed texts: up to 4 kB each


@lru_cache(maxsize=64)
def serializer(secret: str, salt: str) -> URLSafeSerializer:
    """The serializer of a kind (made once, not on every request)."""
    return URLSafeSerializer(secret, salt=salt)


VERIFIED_KEPT: Final = 512  # texts whose signature checked out lately
VERIFIED_MAX_CHARS: Final = 2048  # longer ones are checked every time: at most about 2 MB kept


def loads(secret: str, salt: str, text: str) -> Any:
    """What ``URLSafeSerializer(secret, salt=salt).loads(text)`` gives (a fresh value each
    time: the caller may change it), or its BadSignature. The signature of a text that
    checked out lately (a question's token posted by many learners, a cookie sent on every
    request) is not checked again: the same text always checks out the same way."""
    if len(text) > VERIFIED_MAX_CHARS:
        return serializer(secret, salt).loads(text)
    return serializer(secret, salt).load_payload(_verified(secret, salt, text))


@lru_cache(maxsize=VERIFIED_KEPT)
def _verified(secret: str, salt: str, text: str) -> bytes:
    """The signed payload of a text whose signature is right; BadSignature (not kept) else."""
    payload: bytes = serializer(secret, salt).make_signer().unsign(text.encode())
    return payload


def dumps(secret: str, salt: str, data: Any) -> str:
    """What ``URLSafeSerializer(secret, salt=salt).dumps(data)`` gives, the same text. A value
    whose JSON text was signed lately (a cookie written again unchanged, the token of a
    question asked before) is taken from memory: only its JSON is made again, not its
    compressed form and signature."""
    return _signed(secret, salt, _JSON.encode(data))


# itsdangerous's JSON (its _CompactJSON: no spaces, no ASCII escapes), with one encoder made
# once rather than one per call.
_JSON: Final = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


@lru_cache(maxsize=SIGNED_KEPT)
def _signed(secret: str, salt: str, text: str) -> str:
    signed: str = serializer(secret, salt).dumps(json.loads(text))
    return signed
