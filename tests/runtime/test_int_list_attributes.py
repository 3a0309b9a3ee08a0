"""List attributes (IntArray, int[]) take a fast path for lists and tuples of plain ints; every
other value still goes through the full conversion, which accepts or rejects it as before."""

from __future__ import annotations

import numpy as np
import pytest

from phiops.runtime.dispatch import attributes
from phiops.runtime.errors import InvalidArgumentError

CONVERTERS = [attributes.to_int_array, attributes.to_int_list]


@pytest.mark.parametrize("convert", CONVERTERS)
@pytest.mark.parametrize("value", [[4, 6], (2, 0, 1), [-1], [2**63 - 1, -(2**63)]])
def test_plain_ints_come_back_as_a_tuple(convert, value) -> None:
    assert convert(value, "op", "arg") == tuple(value)
    assert type(convert(value, "op", "arg")) is tuple


@pytest.mark.parametrize("convert", CONVERTERS)
def test_numpy_ints_in_a_list_are_still_accepted(convert) -> None:
    got = convert([np.int64(3), 4], "op", "arg")
    assert got == (3, 4) and all(type(item) is int for item in got)


@pytest.mark.parametrize("convert", CONVERTERS)
@pytest.mark.parametrize("value", [[2**63], [-(2**63) - 1], [1.0, 2], [True, 2]])
def test_out_of_range_floats_and_bools_are_rejected_naming_the_argument(convert, value) -> None:
    with pytest.raises(InvalidArgumentError, match=r"op\(\): argument 'arg"):
        convert(value, "op", "arg")


@pytest.mark.parametrize("convert", CONVERTERS)
@pytest.mark.parametrize("equal_but_not_ints", [[4.0, 6], [4, 6.0], (True, 6)])
def test_a_list_seen_before_does_not_let_equal_floats_or_bools_pass(
    convert, equal_but_not_ints
) -> None:
    # [4, 6] is remembered as in range; [4.0, 6] and (True, 6) compare equal to ints but are
    # still refused.
    assert convert([4, 6], "op", "arg") == (4, 6)
    assert convert([1, 6], "op", "arg") == (1, 6)
    with pytest.raises(InvalidArgumentError, match=r"op\(\): argument 'arg"):
        convert(equal_but_not_ints, "op", "arg")
