"""The strict whole-number parser: chosen cases and properties over any text (its docstring
examples run with every module's, by --doctest-modules)."""
from __future__ import annotations

import string

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tutor.parse import MAX_DIGITS, MINUS_SIGN, NumberError, optional_whole_number, whole_number


@pytest.mark.parametrize(
    ("text", "number"),
    [("0", 0), ("7", 7), ("007", 7), ("-1", -1), ("+1", 1), (f"{MINUS_SIGN}12", -12), ("-0", 0),
     (" 240 ", 240), ("\t5\n", 5), ("9" * MAX_DIGITS, int("9" * MAX_DIGITS))],
)
def test_accepted(text, number):
    assert whole_number(text, "f") == number


@pytest.mark.parametrize(
    ("text", "reason"),
    [(None, "missing"), ("", "missing"), ("   ", "missing"),
     ("²", "not_a_number"), ("①", "not_a_number"), ("١٢", "not_a_number"), ("１", "not_a_number"),
     ("--1", "not_a_number"), ("-+1", "not_a_number"), ("+-1", "not_a_number"), ("-", "not_a_number"),
     ("+", "not_a_number"), (" 1 2", "not_a_number"), ("1 2", "not_a_number"), ("1_000", "not_a_number"),
     ("1.0", "not_a_number"), ("1e3", "not_a_number"), ("0x10", "not_a_number"), ("1-", "not_a_number"),
     ("- 1", "not_a_number"), ("\u00a01", "not_a_number"), ("1\x00", "not_a_number"), ("NaN", "not_a_number"),
     ("9" * (MAX_DIGITS + 1), "too_long"), ("1" * 5000, "too_long"), ("1" * 10**6, "too_long")],
)
def test_refused(text, reason):
    with pytest.raises(NumberError) as error:
        whole_number(text, "points")
    assert error.value.field == "points" and error.value.reason == reason


def test_bounds_are_inclusive_and_carried():
    assert whole_number("0", "dealer", low=0, high=3) == 0
    assert whole_number("3", "dealer", low=0, high=3) == 3
    for text, reason in (("-1", "too_small"), ("4", "too_large")):
        with pytest.raises(NumberError) as error:
            whole_number(text, "dealer", low=0, high=3)
        assert (error.value.reason, error.value.low, error.value.high) == (reason, 0, 3)


def test_max_digits_can_be_lowered():
    assert whole_number("999", "q", max_digits=3) == 999
    with pytest.raises(NumberError, match="too_long"):
        whole_number("1000", "q", max_digits=3)


def test_optional():
    assert optional_whole_number(None, "f", 5) == 5
    assert optional_whole_number(" ", "f", 5) == 5
    assert optional_whole_number("6", "f", 5) == 6
    with pytest.raises(NumberError):
        optional_whole_number("--1", "f", 5)


def test_not_a_string_is_still_a_number_error():
    with pytest.raises(NumberError):
        whole_number(12, "f")  # type: ignore[arg-type]


VALID = st.builds(
    lambda space1, sign, digits, space2: f"{space1}{sign}{digits}{space2}",
    st.sampled_from(["", " ", "\t"]), st.sampled_from(["", "-", "+"]),
    st.text(string.digits, min_size=1, max_size=MAX_DIGITS), st.sampled_from(["", " ", "\n"]),
)


@settings(max_examples=300, derandomize=True)
@given(VALID)
def test_agrees_with_int_on_every_valid_string(text):
    assert whole_number(text, "f") == int(text)


@settings(max_examples=300, derandomize=True)
@given(st.text(string.digits, min_size=1, max_size=MAX_DIGITS))
def test_unicode_minus_is_minus(digits):
    assert whole_number(MINUS_SIGN + digits, "f") == -int(digits)


@settings(max_examples=500, derandomize=True)
@given(st.one_of(st.text(), st.text(alphabet="0123456789-+ \u2212²①٣_."), st.none()),
       st.one_of(st.none(), st.integers(-1000, 1000)), st.one_of(st.none(), st.integers(-1000, 1000)))
@example("²", None, None)
@example("①", None, None)
@example("--1", None, None)
@example(" 1 2", None, None)
@example("", None, None)
@example("1" * 100_000, None, None)
def test_never_raises_anything_else(text, low, high):
    try:
        number = whole_number(text, "f", low=low, high=high)
    except NumberError as error:
        assert error.field == "f"
        return
    assert isinstance(number, int)
    body = text.strip(" \t\r\n")
    assert number == (-int(body[1:]) if body.startswith(MINUS_SIGN) else int(text))
    assert (low is None or number >= low) and (high is None or number <= high)
    assert text.strip(" \t\r\n").lstrip("-+\u2212").isascii()


@settings(max_examples=300, derandomize=True)
@given(st.text())
def test_accepted_text_is_only_ascii_digits_and_one_sign(text):
    try:
        whole_number(text, "f")
    except NumberError:
        return
    body = text.strip(" \t\r\n")
    if body[0] in "-+\u2212":
        body = body[1:]
    assert body and all(c in string.digits for c in body)
