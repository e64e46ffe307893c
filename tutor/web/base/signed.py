"""Small state kept on the device in a signed cookie (the quiz's and the lessons' progress,
the play stats): each kind signs with its own salt, reads only what it signed, and starts
afresh from anything else."""
from __future__ import annotations

import json
from collections.abc import Callable
from functools import lru_cache
from typing import Any, Final, TypeVar

from itsdangerous import BadSignature, Signer, URLSafeSerializer, want_bytes

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


class CompactJSON:
    """itsdangerous's own JSON (its _CompactJSON: no spaces, no ASCII escapes, the same text),
    with its encoder made once instead of once a call; given to the serializer as its
    documented `serializer` argument."""

    _encoder: Final = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))

    @staticmethod
    def dumps(obj: Any, **kwargs: Any) -> str:
        return CompactJSON._encoder.encode(obj)

    @staticmethod
    def loads(text: str | bytes, **kwargs: Any) -> Any:
        return json.loads(text)


class KeptKeySigner(Signer):
    """itsdangerous's Signer (its `signer` argument, with its default key derivation and
    digest), deriving its key from the secret and the salt once instead of for every
    signature: the key depends on nothing else."""

    def derive_key(self, secret_key: str | bytes | None = None) -> bytes:
        secret = self.secret_keys[-1] if secret_key is None else want_bytes(secret_key)
        return _key(secret, self.salt)


@lru_cache(maxsize=64)
def _key(secret: bytes, salt: bytes) -> bytes:
    return Signer(secret, salt=salt).derive_key()


@lru_cache(maxsize=64)
def serializer(secret: str, salt: str) -> URLSafeSerializer:
    """The serializer of a kind (made once, not on every request): itsdangerous's, whose
    signatures and texts are the same as `URLSafeSerializer(secret, salt=salt)` gives."""
    return URLSafeSerializer(secret, salt=salt, serializer=CompactJSON, signer=KeptKeySigner)


VERIFIED_KEPT: Final = 512  # texts whose signature checked out lately
VERIFIED_MAX_CHARS: Final = 2048  # longer ones are checked every time: at most about 2 MB kept


def loads(secret: str, salt: str, text: str) -> Any:
    """What ``URLSafeSerializer(secret, salt=salt).loads(text)`` gives, or its BadSignature.
    A text read lately (a cookie sent on every request, a question's token posted by many
    learners) is neither checked nor decoded again: the same text always gives the same value,
    and the value is shared, so it is only to be read (every kind's ``load`` makes its own
    objects of it)."""
    if len(text) > VERIFIED_MAX_CHARS:
        return serializer(secret, salt).loads(text)
    return _decoded(secret, salt, text)


@lru_cache(maxsize=VERIFIED_KEPT)
def _decoded(secret: str, salt: str, text: str) -> Any:
    """The value of a text whose signature is right; BadSignature (not kept) else."""
    return serializer(secret, salt).loads(text)


SIGNED_KEPT: Final = 1024  # recent JSON texts and their signed texts: up to 4 kB each


def dumps(secret: str, salt: str, data: Any) -> str:
    """What ``URLSafeSerializer(secret, salt=salt).dumps(data)`` gives, the same text. A value
    whose JSON text was signed lately (the token of a question many learners are asked, a
    cookie written again unchanged) is taken from memory."""
    return _signed(secret, salt, CompactJSON.dumps(data))


@lru_cache(maxsize=SIGNED_KEPT)
def _signed(secret: str, salt: str, text: str) -> str:
    signed: str = serializer(secret, salt).dumps(json.loads(text))
    return signed
