"""shape, shape64, full_batch_size_like and sequence_mask (issue 24) against PaddlePaddle 3.3.1's
ops (``paddle._C_ops.<op>``) with the same arguments, and paddle.shape and
paddle.nn.functional.sequence_mask against PaddlePaddle's. Runs only where PaddlePaddle is
installed."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops as phi  # noqa: E402
import phiops.nn.functional as phi_F  # noqa: E402
from phiops import _C_ops as phi_ops  # noqa: E402

RNG = np.random.default_rng(24)

SHAPE_INPUTS = [
    np.zeros((2, 3, 4), np.float32),
    np.zeros((), np.float64),
    np.zeros((0, 5), np.int64),
    np.zeros((3,), np.bool_),
    np.zeros((1, 2), np.complex64),
    np.zeros((2, 1, 1, 2), np.uint8),
]


def _same(ours: Any, theirs: Any) -> None:
    theirs = theirs.numpy()
    ours = ours.numpy()
    assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
    np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("op", ["shape", "shape64"])
@pytest.mark.parametrize("value", SHAPE_INPUTS, ids=lambda v: f"{v.dtype}{list(v.shape)}")
def test_shape_ops_match_paddle(op: str, value: np.ndarray) -> None:
    _same(
        getattr(phi_ops, op)(phi.to_tensor(value)),
        getattr(paddle._C_ops, op)(paddle.to_tensor(value)),
    )


@pytest.mark.parametrize("value", SHAPE_INPUTS[:3], ids=lambda v: f"{v.dtype}{list(v.shape)}")
def test_paddle_shape_matches(value: np.ndarray) -> None:
    _same(phi.shape(phi.to_tensor(value)), paddle.shape(paddle.to_tensor(value)))


FULL_BATCH_CASES = [
    ((5, 3), [-1, 4], "float32", 1.5, 0, 0),
    ((5, 3), [2, -1], "float64", -2.25, 1, 1),
    ((4, 6), [3, 1, 7], "int32", 7.0, 1, 2),
    ((4, 6), [-1, 2], "int64", -3.0, 0, 0),
    ((2, 3), [-1, 2], "bool", 1.0, 0, 0),
]
# Not compared: an empty input ((0, 3), shape [-1, 2]): PaddlePaddle 3.3.1 returns a tensor of
# the input's shape (0, 3) there, not the (0, 2) its InferMeta gives; phiops keeps (0, 2).


@pytest.mark.parametrize("case", FULL_BATCH_CASES, ids=lambda c: f"{c[2]}-{c[4]}-{c[5]}")
def test_full_batch_size_like_matches_paddle(case: tuple[Any, ...]) -> None:
    shape, out_shape, dtype, value, input_dim_idx, output_dim_idx = case
    x = RNG.uniform(-1, 1, shape).astype("float32")
    ours = phi_ops.full_batch_size_like(
        phi.to_tensor(x), out_shape, dtype, value, input_dim_idx, output_dim_idx
    )
    theirs = paddle._C_ops.full_batch_size_like(
        paddle.to_tensor(x),
        out_shape,
        getattr(paddle, dtype),
        value,
        input_dim_idx,
        output_dim_idx,
        paddle.CPUPlace(),
    )
    _same(ours, theirs)


SEQUENCE_MASK_CASES = [
    (np.array([1, 3, 0, 5], np.int64), 6, "int64"),
    (np.array([[1, 2], [3, 0]], np.int32), 3, "bool"),
    (np.array([1.5, 3.0, 0.0], np.float32), 4, "float32"),
    (np.array([2.0, 0.5], np.float64), 2, "float64"),
    (np.array([4, 1, 2], np.int64), -1, "int32"),
    (np.array([[0, 2, 1]], np.int32), 5, "int8"),
]


@pytest.mark.parametrize("case", SEQUENCE_MASK_CASES, ids=lambda c: f"{c[0].dtype}-{c[1]}-{c[2]}")
def test_sequence_mask_matches_paddle(case: tuple[Any, ...]) -> None:
    lengths, max_len, dtype = case
    ours = phi_ops.sequence_mask(phi.to_tensor(lengths), max_len, dtype)
    theirs = paddle._C_ops.sequence_mask(paddle.to_tensor(lengths), max_len, getattr(paddle, dtype))
    _same(ours, theirs)


@pytest.mark.parametrize("maxlen", [None, 4, "tensor"])
@pytest.mark.parametrize("dtype", ["int64", "float32", "bool"])
def test_functional_sequence_mask_matches_paddle(maxlen: Any, dtype: str) -> None:
    lengths = np.array([[3, 1], [0, 2]], np.int64)
    ours_max = phi.to_tensor(np.array(3, np.int32)) if maxlen == "tensor" else maxlen
    theirs_max = paddle.to_tensor(np.array(3, np.int32)) if maxlen == "tensor" else maxlen
    ours = phi_F.sequence_mask(phi.to_tensor(lengths), ours_max, dtype)
    theirs = paddle.nn.functional.sequence_mask(paddle.to_tensor(lengths), theirs_max, dtype)
    assert ours.stop_gradient and theirs.stop_gradient
    _same(ours, theirs)
