"""The one strict parser for whole numbers typed into forms and query strings.

`str.isdigit()` accepts "²" and "①", which `int()` then rejects, and `lstrip("-")` lets "--1"
through; `int()` itself accepts "1_000", Arabic-Indic digits and thousands of digits. Here
a whole number is: optional spaces, at most one sign ("-", "+" or the minus sign U+2212),
one to `max_digits` ASCII digits, optional spaces. Anything else raises `NumberError`, the
only exception this module raises, which names the field and says why, so that the caller
can answer with the field's own translated message and a 400.

>>> whole_number("42", "points")
42
>>> whole_number("\N{MINUS SIGN}3", "points"), whole_number("+7", "points"), whole_number(" 8 ", "points")
(-3, 7, 8)
>>> whole_number("--1", "re_points")
Traceback (most recent call last):
...
tutor.parse.NumberError: re_points: not_a_number ('--1')
>>> whole_number("²", "dealer")
Traceback (most recent call last):
...
tutor.parse.NumberError: dealer: not_a_number ('²')
>>> whole_number("5", "dealer", low=0, high=3)
Traceback (most recent call last):
...
tutor.parse.NumberError: dealer: too_large ('5')
>>> optional_whole_number("", "bock", default=0), optional_whole_number(None, "bock", default=0)
(0, 0)
"""
from __future__ import annotations

import re
from typing import Final, Literal

Reason = Literal["missing", "not_a_number", "too_long", "too_small", "too_large"]

# Digits a field may have unless the caller says otherwise: far more than any score or count.
MAX_DIGITS: Final = 9
# Text longer than this is refused before it is looked at (spaces and sign included).
MAX_TEXT: Final = 64
MINUS_SIGN: Final = "\N{MINUS SIGN}"
_NUMBER: Final = re.compile(r"([-+\N{MINUS SIGN}]?)([0-9]+)", re.ASCII)
_SPACES: Final = " \t\r\n"


class NumberError(ValueError):
    """A field's value is not an acceptable whole number; `reason` says which way."""

    def __init__(
        self, field: str, value: str | None, reason: Reason, low: int | None = None, high: int | None = None
    ) -> None:
        self.field = field
        self.value = value
        self.reason: Reason = reason
        self.low = low
        self.high = high
        shown = value if value is None or len(value) <= 20 else value[:20] + "…"
        super().__init__(f"{field}: {reason} ({shown!r})")


def whole_number(
    text: str | None,
    field: str,
    *,
    low: int | None = None,
    high: int | None = None,
    max_digits: int = MAX_DIGITS,
) -> int:
    """`text` as an int within [low, high] (each bound optional), or NumberError for `field`."""
    if text is None:
        raise NumberError(field, text, "missing", low, high)
    if not isinstance(text, str):  # a caller's mistake must still be a NumberError
        raise NumberError(field, repr(text), "not_a_number", low, high)
    if len(text) > MAX_TEXT:
        raise NumberError(field, text, "too_long", low, high)
    stripped = text.strip(_SPACES)
    if not stripped:
        raise NumberError(field, text, "missing", low, high)
    match = _NUMBER.fullmatch(stripped)
    if match is None:
        raise NumberError(field, text, "not_a_number", low, high)
    sign, digits = match.groups()
    if len(digits) > max_digits:
        raise NumberError(field, text, "too_long", low, high)
    number = -int(digits) if sign in ("-", MINUS_SIGN) else int(digits)
    if low is not None and number < low:
        raise NumberError(field, text, "too_small", low, high)
    if high is not None and number > high:
        raise NumberError(field, text, "too_large", low, high)
    return number


def optional_whole_number(
    text: str | None,
    field: str,
    default: int,
    *,
    low: int | None = None,
    high: int | None = None,
    max_digits: int = MAX_DIGITS,
) -> int:
    """Like whole_number(), but a missing or blank value is `default`."""
    if text is None or (isinstance(text, str) and len(text) <= MAX_TEXT and not text.strip(_SPACES)):
        return default
    return whole_number(text, field, low=low, high=high, max_digits=max_digits)
