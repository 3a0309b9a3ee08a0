"""full_with_tensor (issue 26) against PaddlePaddle 3.3.1's ``paddle._C_ops.full_with_tensor``
with the same arguments. Runs only where PaddlePaddle is installed."""

from __future__ import annotations

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops as phi  # noqa: E402
from phiops import _C_ops as phi_ops  # noqa: E402

CASES = [
    (np.array([1.5], np.float32), [2, 3], "float32"),
    (np.array(-2.75, np.float64), [4], "int64"),
    (np.array([3], np.int32), [2, 1, 2], "float64"),
    (np.array([1.0], np.float32), [3], "bool"),
    (np.array([0.5], np.float32), [0, 2], "float32"),
    (np.array([2], np.int64), [2, 2], "int32"),
]


@pytest.mark.parametrize(("value", "shape", "dtype"), CASES, ids=lambda c: str(c))
def test_full_with_tensor_matches_paddle(value: np.ndarray, shape: list, dtype: str) -> None:
    theirs = paddle._C_ops.full_with_tensor(
        paddle.to_tensor(value), shape, getattr(paddle, dtype)
    ).numpy()
    ours = phi_ops.full_with_tensor(phi.to_tensor(value), shape, getattr(phi, dtype)).numpy()
    assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
    np.testing.assert_array_equal(ours, theirs)


def test_full_with_tensor_shape_tensor_matches_paddle() -> None:
    value, shape = np.array([4.0], np.float32), np.array([2, 3], np.int64)
    theirs = paddle._C_ops.full_with_tensor(
        paddle.to_tensor(value), paddle.to_tensor(shape), paddle.float32
    )
    ours = phi_ops.full_with_tensor(phi.to_tensor(value), phi.to_tensor(shape), phi.float32)
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
