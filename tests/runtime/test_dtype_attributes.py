"""DataType attributes: a usual name ("float32") takes the generated API's one-lookup fast path;
every other spelling still goes through the full normalisation, which accepts or rejects it."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError


@pytest.mark.parametrize(
    "spelling", ["float64", "FLOAT64", "paddle.float64", np.float64, np.dtype("float64")]
)
def test_every_spelling_of_a_dtype_gives_the_same_cast(spelling) -> None:
    got = phi.cast(phi.to_tensor([1.5, -2.0]), spelling)
    assert got.dtype is DataType.FLOAT64
    np.testing.assert_array_equal(got.numpy(), [1.5, -2.0])


@pytest.mark.parametrize("bad", ["float65", 3.5, ["float32"]])
def test_a_bad_dtype_is_rejected_naming_the_op_and_argument(bad) -> None:
    with pytest.raises(InvalidArgumentError, match=r"cast\(\): argument 'dtype'"):
        phi.cast(phi.to_tensor([1.0]), bad)


def test_the_undefined_name_is_the_undefined_dtype() -> None:
    # UNDEFINED is 0, falsy: the fast path must not mistake it for a miss that changes it.
    assert phi.full_like(phi.to_tensor([1, 2]), 7, "undefined").dtype is DataType.INT64
