"""The text form of each flag type: strict parsers, canonical formatters, and value checks."""

from __future__ import annotations

import math
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.flags import FlagType
from phiops.runtime.flags.values import INTEGER_RANGES

INTEGER_TYPES = tuple(INTEGER_RANGES)
PROPERTY_SETTINGS = settings(max_examples=300, deadline=None, database=None)

# bool ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("true", True), ("TRUE", True), ("True", True), ("1", True), ("yes", True), ("YeS", True),
        ("false", False), ("FALSE", False), ("0", False), ("no", False), ("No", False),
    ],
)  # fmt: skip
def test_bool_parses_true_false_1_0_yes_no_in_any_case(text, value):
    assert FlagType.BOOL.parse(text) is value


@pytest.mark.parametrize(
    "text", ["", "on", "off", "y", "n", "t", "2", "-1", " true", "true ", "truee"]
)
def test_bool_rejects_every_other_text_quoting_it(text):
    with pytest.raises(InvalidArgumentError, match=re.escape(f"{text!r} is not a bool")):
        FlagType.BOOL.parse(text)


def test_bool_formats_as_true_and_false():
    assert (FlagType.BOOL.format(True), FlagType.BOOL.format(False)) == ("true", "false")


@given(st.booleans(), st.sampled_from(["true", "false", "yes", "no"]), st.data())
@PROPERTY_SETTINGS
def test_bool_round_trips_and_ignores_case(value, word, data):
    assert FlagType.BOOL.parse(FlagType.BOOL.format(value)) is value
    mixed_case = "".join(data.draw(st.sampled_from([c.lower(), c.upper()])) for c in word)
    assert FlagType.BOOL.parse(mixed_case) is (word in ("true", "yes"))


# Integers ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("0", 0), ("42", 42), ("+42", 42), ("-42", -42), ("-0", 0),
        ("0x1F", 31), ("0X1f", 31), ("-0x10", -16), ("+0x10", 16), ("0x0010", 16),
    ],
)  # fmt: skip
def test_integers_parse_decimal_and_0x_hex_with_an_optional_sign(text, value):
    assert FlagType.INT64.parse(text) == value


@pytest.mark.parametrize(
    "text",
    ["", "-", "+", "1.0", "1e3", "0o17", "0b1", "010", "00", " 1", "1 ", "1_000", "0x", "0xg",
     "--1", "+-1", "\u0663", "abc", "true"],
)  # fmt: skip
@pytest.mark.parametrize("flag_type", INTEGER_TYPES)
def test_integers_reject_every_other_text_quoting_it(flag_type, text):
    with pytest.raises(
        InvalidArgumentError, match=re.escape(f"{text!r} is not a valid {flag_type.value}")
    ):
        flag_type.parse(text)


@pytest.mark.parametrize(
    ("flag_type", "text"),
    [
        (FlagType.INT32, "2147483648"),
        (FlagType.INT32, "-2147483649"),
        (FlagType.INT32, "0x80000000"),
        (FlagType.UINT32, "-1"),
        (FlagType.UINT32, "4294967296"),
        (FlagType.INT64, "0x8000000000000000"),
        (FlagType.UINT64, "18446744073709551616"),
        (FlagType.UINT64, "9" * 5000),
    ],
)
def test_integers_reject_text_out_of_range_quoting_it(flag_type, text):
    with pytest.raises(
        InvalidArgumentError, match=re.escape(f"{text!r} is out of range for {flag_type.value}")
    ):
        flag_type.parse(text)


def test_integers_format_in_decimal():
    assert FlagType.INT32.format(-0x10) == "-16"


@pytest.mark.parametrize("flag_type", INTEGER_TYPES)
def test_integers_round_trip_over_their_whole_range(flag_type):
    lowest, highest = INTEGER_RANGES[flag_type]

    @given(st.integers(lowest, highest))
    @PROPERTY_SETTINGS
    def round_trips(value):
        assert flag_type.parse(flag_type.format(value)) == value
        assert flag_type.parse(hex(value)) == value

    round_trips()


@pytest.mark.parametrize("flag_type", INTEGER_TYPES)
def test_integers_reject_every_value_outside_their_range(flag_type):
    lowest, highest = INTEGER_RANGES[flag_type]

    @given(st.integers(max_value=lowest - 1) | st.integers(min_value=highest + 1))
    @PROPERTY_SETTINGS
    def rejected(value):
        with pytest.raises(InvalidArgumentError, match="out of range"):
            flag_type.parse(str(value))
        with pytest.raises(InvalidArgumentError, match="out of range"):
            flag_type.check(value)

    rejected()


# double --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [("1.5", 1.5), ("-2e-3", -2e-3), ("7", 7.0), ("1_000.5", 1000.5), (" 2.5\n", 2.5),
     ("inf", math.inf), ("-Infinity", -math.inf), ("1e999", math.inf)],
)  # fmt: skip
def test_double_parses_what_python_float_reads(text, value):
    assert FlagType.DOUBLE.parse(text) == value


def test_double_parses_nan():
    assert math.isnan(FlagType.DOUBLE.parse("NaN"))


@pytest.mark.parametrize("text", ["", "abc", "1,5", "0x10", "1.5.2", "true"])
def test_double_rejects_what_python_float_rejects_quoting_it(text):
    with pytest.raises(InvalidArgumentError, match=re.escape(f"{text!r} is not a valid double")):
        FlagType.DOUBLE.parse(text)


@given(st.floats(allow_nan=True, allow_infinity=True))
@PROPERTY_SETTINGS
def test_double_round_trips_every_float_including_inf_and_nan(value):
    parsed = FlagType.DOUBLE.parse(FlagType.DOUBLE.format(value))
    if math.isnan(value):
        assert math.isnan(parsed)
    else:
        assert parsed == value and math.copysign(1.0, parsed) == math.copysign(1.0, value)


# string --------------------------------------------------------------------------------------


@given(st.text())
@PROPERTY_SETTINGS
def test_string_round_trips_any_text_unchanged(value):
    assert FlagType.STRING.format(value) == value
    assert FlagType.STRING.parse(FlagType.STRING.format(value)) == value


# Checking Python values ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("flag_type", "value", "stored"),
    [
        (FlagType.BOOL, True, True),
        (FlagType.INT32, -(2**31), -(2**31)),
        (FlagType.UINT64, 2**64 - 1, 2**64 - 1),
        (FlagType.DOUBLE, 3, 3.0),
        (FlagType.DOUBLE, -0.5, -0.5),
        (FlagType.STRING, "", ""),
    ],
)
def test_check_accepts_values_the_type_holds(flag_type, value, stored):
    checked = flag_type.check(value)
    assert checked == stored and type(checked) is type(stored)


@pytest.mark.parametrize(
    ("flag_type", "value"),
    [
        (FlagType.BOOL, 0),
        (FlagType.BOOL, None),
        (FlagType.INT32, False),
        (FlagType.INT64, 2.0),
        (FlagType.UINT32, "1"),
        (FlagType.DOUBLE, True),
        (FlagType.DOUBLE, "0.5"),
        (FlagType.STRING, b"bytes"),
    ],
)
def test_check_rejects_values_of_another_type_naming_them(flag_type, value):
    with pytest.raises(InvalidArgumentError, match=rf"got {value!r} \({type(value).__name__}\)"):
        flag_type.check(value)
