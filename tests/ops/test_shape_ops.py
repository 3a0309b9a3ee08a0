"""shape, shape64, full_batch_size_like and sequence_mask (issue 24) against numpy references,
paddle.shape and paddle.nn.functional.sequence_mask, and their bad input."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import phiops as paddle
import phiops.nn.functional as F
from phiops import _C_ops
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, NotFoundError, PhiError
from tests.ops.op_testing import cpu_dtypes, op_test, sample


def _mask(lengths: np.ndarray, maxlen: int) -> np.ndarray:
    return np.arange(maxlen) < lengths[..., None]


@op_test("shape", "shape64", kind="dtypes")
@pytest.mark.parametrize("op,result", [("shape", np.int32), ("shape64", np.int64)])
def test_shape_gives_the_extents_for_each_dtype(op: str, result: type) -> None:
    for dtype in cpu_dtypes(op):
        x = paddle.to_tensor(sample((2, 3, 4), dtype))
        out = getattr(_C_ops, op)(x).numpy()
        assert out.dtype == result, dtype
        np.testing.assert_array_equal(out, np.array([2, 3, 4], dtype=result))


@op_test("shape", "shape64", kind="edge")
def test_shape_of_0d_and_empty_tensors() -> None:
    assert _C_ops.shape(paddle.to_tensor(1.5)).numpy().shape == (0,)
    assert _C_ops.shape64(paddle.to_tensor(1.5)).numpy().shape == (0,)
    empty = paddle.to_tensor(np.zeros((0, 3), np.float32))
    np.testing.assert_array_equal(_C_ops.shape(empty).numpy(), np.array([0, 3], np.int32))
    np.testing.assert_array_equal(_C_ops.shape64(empty).numpy(), np.array([0, 3], np.int64))


def test_paddle_shape_is_int64_and_stops_gradients() -> None:
    x = paddle.ones([2, 5])
    x.stop_gradient = False
    out = paddle.shape(x)
    assert out.dtype == paddle.int64 and out.stop_gradient
    np.testing.assert_array_equal(out.numpy(), np.array([2, 5], np.int64))
    assert list(inspect.signature(paddle.shape).parameters) == ["input"]
    assert x.shape == [2, 5]  # the Tensor property is untouched


@op_test("full_batch_size_like", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("full_batch_size_like"), ids=lambda d: d.name.lower())
def test_full_batch_size_like_for_each_dtype(dtype: DataType) -> None:
    x = paddle.to_tensor(np.zeros((5, 3), np.float32))
    out = _C_ops.full_batch_size_like(x, [2, -1, 4], dtype, 1, 0, 1).numpy()
    np.testing.assert_array_equal(out, np.full((2, 5, 4), 1, dtype=dtype.numpy_dtype))
    assert out.dtype == dtype.numpy_dtype


@op_test("full_batch_size_like", kind="edge")
def test_full_batch_size_like_edges_and_bad_input() -> None:
    x = paddle.to_tensor(np.zeros((0, 3), np.float32))
    out = _C_ops.full_batch_size_like(x, [-1, 2], paddle.float64, 2.5, 0, 0).numpy()
    assert out.shape == (0, 2) and out.dtype == np.float64
    x = paddle.to_tensor(np.zeros((4, 3), np.int64))  # any input dtype lends its extent
    out = _C_ops.full_batch_size_like(x, [3, 7], paddle.bool, 1.0, 1, 1).numpy()
    np.testing.assert_array_equal(out, np.ones((3, 3), np.bool_))
    with pytest.raises(InvalidArgumentError, match="output_dim_idx"):
        _C_ops.full_batch_size_like(x, [3, 7], paddle.float32, 1.0, 0, 2)
    with pytest.raises(InvalidArgumentError, match="input_dim_idx"):
        _C_ops.full_batch_size_like(x, [3, 7], paddle.float32, 1.0, 2, 0)
    with pytest.raises(InvalidArgumentError, match="shape"):
        _C_ops.full_batch_size_like(x, [], paddle.float32, 1.0, 0, 0)
    with pytest.raises(InvalidArgumentError, match="shape"):
        _C_ops.full_batch_size_like(x, [-1, -2], paddle.float32, 1.0, 0, 0)


@op_test("sequence_mask", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("sequence_mask_scalar"), ids=lambda d: d.name.lower())
def test_sequence_mask_for_each_dtype(dtype: DataType) -> None:
    lengths = sample((3, 4), dtype, low=0, high=6)
    out = _C_ops.sequence_mask(paddle.to_tensor(lengths), 5, paddle.float32).numpy()
    np.testing.assert_array_equal(out, _mask(lengths, 5).astype(np.float32))
    out = _C_ops.sequence_mask(paddle.to_tensor(lengths), -1, paddle.int32).numpy()
    maxlen = int(np.max(lengths))
    np.testing.assert_array_equal(out, _mask(lengths, maxlen).astype(np.int32))


@op_test("sequence_mask", kind="edge")
def test_sequence_mask_edges_and_bad_input() -> None:
    # 0-D lengths, fractional lengths (j < 1.5 holds for 0 and 1), an empty batch with maxlen
    out = F.sequence_mask(paddle.to_tensor(3), maxlen=4).numpy()
    np.testing.assert_array_equal(out, np.array([1, 1, 1, 0], np.int64))
    out = F.sequence_mask(paddle.to_tensor([1.5, 0.0]), maxlen=3, dtype="float64").numpy()
    np.testing.assert_array_equal(out, np.array([[1, 1, 0], [0, 0, 0]], np.float64))
    out = F.sequence_mask(paddle.to_tensor(np.zeros((0,), np.int64)), maxlen=2).numpy()
    assert out.shape == (0, 2) and out.dtype == np.int64
    with pytest.raises(InvalidArgumentError, match="'x' is empty"):
        F.sequence_mask(paddle.to_tensor(np.zeros((0,), np.int64)))
    with pytest.raises(NotFoundError, match="BOOL"):  # no kernel for bool lengths
        F.sequence_mask(paddle.to_tensor([True, False]))
    with pytest.raises(InvalidArgumentError, match="maxlen"):
        F.sequence_mask(paddle.to_tensor([1, 2]), maxlen="3")
    with pytest.raises(PhiError):
        F.sequence_mask(paddle.to_tensor([1, 2]), dtype="not_a_dtype")


def test_functional_sequence_mask_matches_paddles_signature_and_defaults() -> None:
    assert list(inspect.signature(F.sequence_mask).parameters) == ["x", "maxlen", "dtype", "name"]
    lengths = np.array([[2, 0], [1, 4]], np.int32)
    x = paddle.to_tensor(lengths)
    out = F.sequence_mask(x)
    assert out.stop_gradient and out.dtype == paddle.int64
    np.testing.assert_array_equal(out.numpy(), _mask(lengths, 4).astype(np.int64))
    out = F.sequence_mask(x, maxlen=paddle.to_tensor(3), dtype=paddle.bool)
    np.testing.assert_array_equal(out.numpy(), _mask(lengths, 3))
