"""The seven flag types: which Python values each one holds, and how each is spelled as text.

Text is what environment variables and the command line carry. Parsing is strict: each type
accepts exactly the spellings listed on `FlagType.parse`, and an error quotes the text it
rejected. Formatting writes one canonical spelling, so that ``parse(format(v)) == v`` for every
value the type holds (a NaN comes back as a NaN).
"""

from __future__ import annotations

import re
from enum import Enum
from types import MappingProxyType

from phiops.runtime.errors import InvalidArgumentError

__all__ = ["ENV_PREFIX", "FlagType", "FlagValue", "INTEGER_RANGES"]

FlagValue = bool | int | float | str

ENV_PREFIX = "FLAGS_"
"""Prefix of a flag's environment variable, and of the keys get_flags returns."""


class FlagType(Enum):
    """A flag's type, named as gflags names them."""

    BOOL = "bool"
    INT32 = "int32"
    UINT32 = "uint32"
    INT64 = "int64"
    UINT64 = "uint64"
    DOUBLE = "double"
    STRING = "string"

    def check(self, value: object) -> FlagValue:
        """Return `value` as a flag of this type stores it, or raise InvalidArgumentError.

        bool takes only True/False; the integer types take an int (not a bool) within their
        range; double takes an int or a float (not a bool) and stores a float; string takes a str.
        """
        if self is FlagType.BOOL:
            if isinstance(value, bool):
                return value
            raise InvalidArgumentError(f"expected True or False, got {_describe(value)}")
        if self is FlagType.DOUBLE:
            return _check_double(value)
        if self is FlagType.STRING:
            if isinstance(value, str):
                return str(value)
            raise InvalidArgumentError(f"expected a str, got {_describe(value)}")
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidArgumentError(f"expected an int, got {_describe(value)}")
        return _in_range(self, int(value), str(value))

    def parse(self, text: str) -> FlagValue:
        """Read a value of this type from text; raise InvalidArgumentError quoting bad text.

        - bool: true/false, 1/0, yes/no, in any case.
        - integers: decimal digits without leading zeros, or 0x/0X followed by hex digits, either
          with an optional + or - sign; the value must be within the type's range.
        - double: whatever Python's float() reads, including inf, -inf and nan.
        - string: any text, taken as it is.
        """
        if self is FlagType.BOOL:
            return _parse_bool(text)
        if self is FlagType.DOUBLE:
            return _parse_double(text)
        if self is FlagType.STRING:
            return text
        return _parse_integer(self, text)

    def format(self, value: FlagValue) -> str:
        """The canonical text of a value this type holds: true/false, decimal, repr(float), text."""
        if self is FlagType.BOOL:
            return "true" if value else "false"
        if self is FlagType.DOUBLE:
            return repr(float(value))
        return str(value)


INTEGER_RANGES = MappingProxyType(
    {
        FlagType.INT32: (-(2**31), 2**31 - 1),
        FlagType.UINT32: (0, 2**32 - 1),
        FlagType.INT64: (-(2**63), 2**63 - 1),
        FlagType.UINT64: (0, 2**64 - 1),
    }
)
"""The inclusive (lowest, highest) value of each integer type."""

_TRUE_WORDS = frozenset({"true", "1", "yes"})
_FALSE_WORDS = frozenset({"false", "0", "no"})
_INTEGER_TEXT = re.compile(
    r"(?P<sign>[+-]?)(?:0[xX](?P<hex>[0-9a-fA-F]+)|(?P<decimal>0|[1-9][0-9]*))"
)
# No integer type reaches 21 decimal digits; checking the length first also keeps int() away
# from its limit on very long digit strings.
_MAX_DECIMAL_DIGITS = len(str(2**64 - 1))


def _parse_bool(text: str) -> bool:
    word = text.lower()
    if word in _TRUE_WORDS:
        return True
    if word in _FALSE_WORDS:
        return False
    raise InvalidArgumentError(
        f"{text!r} is not a bool: expected true/false, 1/0 or yes/no (in any case)"
    )


def _parse_integer(flag_type: FlagType, text: str) -> int:
    match = _INTEGER_TEXT.fullmatch(text)
    if match is None:
        raise InvalidArgumentError(
            f"{text!r} is not a valid {flag_type.value}: expected decimal digits without leading "
            "zeros, or 0x followed by hex digits, with an optional sign"
        )
    if match["hex"] is not None:
        number = int(match["hex"], 16)
    elif len(match["decimal"]) > _MAX_DECIMAL_DIGITS:
        raise InvalidArgumentError(_out_of_range_message(flag_type, repr(text)))
    else:
        number = int(match["decimal"])
    return _in_range(flag_type, -number if match["sign"] == "-" else number, repr(text))


def _parse_double(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise InvalidArgumentError(
            f"{text!r} is not a valid double: expected a number as Python's float() reads it, "
            "such as 1.5, -2e-3, inf or nan"
        ) from None


def _check_double(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidArgumentError(f"expected a float or an int, got {_describe(value)}")
    try:
        return float(value)
    except OverflowError:
        raise InvalidArgumentError(f"{value} is too large for a double") from None


def _in_range(flag_type: FlagType, number: int, shown: str) -> int:
    lowest, highest = INTEGER_RANGES[flag_type]
    if lowest <= number <= highest:
        return number
    raise InvalidArgumentError(_out_of_range_message(flag_type, shown))


def _out_of_range_message(flag_type: FlagType, shown: str) -> str:
    lowest, highest = INTEGER_RANGES[flag_type]
    return f"{shown} is out of range for {flag_type.value}: expected {lowest} to {highest}"


def _describe(value: object) -> str:
    return f"{value!r} ({type(value).__name__})"
