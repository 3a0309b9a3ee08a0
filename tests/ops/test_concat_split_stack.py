"""concat, split and stack against numpy."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.tensor.meta_tensor import MetaTensor
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.multiary import concat_infer_meta
from tests.ops.op_testing import cpu_dtypes, op_test, sample

D = DataType


def assert_equal(out, expected: np.ndarray, dtype: DataType):
    assert out.dtype == dtype
    assert out.shape == list(expected.shape)
    np.testing.assert_array_equal(out.numpy(), expected)


def tensors(*arrays: np.ndarray):
    return [phi.to_tensor(a) for a in arrays]


# Every registered dtype ------------------------------------------------------------------------


@op_test("concat", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("concat"))
def test_concat_joins_along_axis(dtype):
    x, y = sample((2, 3), dtype, seed=1), sample((2, 1), dtype, seed=2)
    assert_equal(phi.concat(tensors(x, y), axis=1), np.concatenate([x, y], axis=1), dtype)


@op_test("split", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("split"))
def test_split_cuts_along_axis(dtype):
    x = sample((5, 2), dtype)
    first, second = phi.split(phi.to_tensor(x), [2, 3], 0)
    assert_equal(first, x[:2], dtype)
    assert_equal(second, x[2:], dtype)


@op_test("stack", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("stack"))
def test_stack_joins_along_a_new_axis(dtype):
    x, y = sample((2, 3), dtype, seed=1), sample((2, 3), dtype, seed=2)
    assert_equal(phi.stack(tensors(x, y), axis=1), np.stack([x, y], axis=1), dtype)


# concat ----------------------------------------------------------------------------------------


@op_test("concat", kind="edge")
def test_concat_with_a_negative_axis():
    x, y = np.ones((2, 2), np.float32), np.zeros((2, 3), np.float32)
    assert_equal(phi.concat(tensors(x, y), axis=-1), np.concatenate([x, y], axis=1), D.FLOAT32)


@op_test("concat", kind="edge")
def test_concat_defaults_to_axis_zero():
    x, y = np.ones((1, 2)), np.zeros((2, 2))
    assert phi.concat(tensors(x, y)).shape == [3, 2]


@op_test("concat", kind="edge")
def test_concat_accepts_an_empty_tensor():
    x, y = np.ones((2, 3), np.int32), np.zeros((0, 3), np.int32)
    assert_equal(phi.concat(tensors(x, y)), x, D.INT32)


@op_test("concat", kind="edge")
def test_concat_of_mixed_dtypes_raises_naming_the_cast():
    with pytest.raises(InvalidArgumentError, match=r"x\[1\] is float64.*cast\(x\[0\], 'float64'\)"):
        phi.concat(tensors(np.array([1], np.int32), np.array([0.5], np.float64)))


@op_test("concat", kind="edge")
def test_concat_rejects_dims_that_differ_outside_axis():
    with pytest.raises(InvalidArgumentError, match=r"dimension 1 differs \(4 vs 3\)"):
        phi.concat(tensors(np.ones((2, 3)), np.ones((2, 4))), axis=0)


@op_test("concat", kind="edge")
def test_concat_rejects_tensors_of_different_rank():
    with pytest.raises(
        InvalidArgumentError,
        match=r"argument 'x\[1\]' with dims \[3\] must have the rank of 'x\[0\]'",
    ):
        phi.concat(tensors(np.ones((2, 3)), np.ones((3,))))


@op_test("concat", kind="edge")
def test_concat_rejects_0d_tensors():
    with pytest.raises(
        InvalidArgumentError, match="holds 0-D tensors, which cannot be concatenated"
    ):
        phi.concat(tensors(np.float32(1.0), np.float32(2.0)))


@op_test("concat", kind="edge")
def test_concat_rejects_an_axis_out_of_range():
    with pytest.raises(
        InvalidArgumentError,
        match=r"argument 'axis' must be in \[-2, 2\) for a tensor of rank 2, got 2",
    ):
        phi.concat(tensors(np.ones((2, 3)), np.ones((2, 3))), axis=2)


def test_concat_infer_meta_rejects_an_empty_list():
    # Called directly: through phi.concat the dispatcher stops earlier, finding no dtype.
    with pytest.raises(
        InvalidArgumentError,
        match="^argument 'x' must hold at least one tensor, got an empty list$",
    ):
        concat_infer_meta([], 0, MetaTensor())


@op_test("concat", kind="edge")
def test_concat_rejects_a_float_axis():
    x = phi.to_tensor(np.ones((2, 3)))
    with pytest.raises(
        InvalidArgumentError, match="argument 'axis' must be an integer, got float 1.0"
    ):
        phi.concat([x, x], axis=1.0)


# split -----------------------------------------------------------------------------------------


@op_test("split", kind="edge")
def test_split_minus_one_takes_what_is_left():
    x = np.arange(10, dtype=np.float32).reshape(2, 5)
    pieces = phi.split(phi.to_tensor(x), [1, -1], -1)
    assert [p.shape for p in pieces] == [[2, 1], [2, 4]]
    assert_equal(pieces[1], x[:, 1:], D.FLOAT32)


@op_test("split", kind="edge")
def test_split_allows_an_empty_section():
    pieces = phi.split(phi.to_tensor(np.arange(3)), [0, 3], 0)
    assert [p.shape for p in pieces] == [[0], [3]]


@op_test("split", kind="edge")
def test_split_rejects_sections_that_do_not_sum_to_the_axis():
    with pytest.raises(
        InvalidArgumentError,
        match=r"argument 'sections' \[1, 1\] sums to 2, but argument 'x' with dims \[3\]",
    ):
        phi.split(phi.to_tensor(np.arange(3)), [1, 1], 0)


@op_test("split", kind="edge")
def test_split_rejects_a_0d_tensor():
    with pytest.raises(InvalidArgumentError, match="must have at least 1 dimension to be split"):
        phi.split(phi.to_tensor(np.float32(1.0)), [1], 0)


@op_test("split", kind="edge")
def test_split_rejects_an_axis_out_of_range():
    with pytest.raises(
        InvalidArgumentError,
        match=r"argument 'axis' must be in \[-1, 1\) for a tensor of rank 1, got 1",
    ):
        phi.split(phi.to_tensor(np.arange(4)), [2, 2], 1)


# stack -----------------------------------------------------------------------------------------


@op_test("stack", kind="edge")
def test_stack_of_0d_tensors_gives_a_vector():
    out = phi.stack(tensors(np.float32(1.0), np.float32(2.0)))
    assert_equal(out, np.array([1.0, 2.0], np.float32), D.FLOAT32)


@op_test("stack", kind="edge")
def test_stack_with_a_negative_axis_appends_the_new_axis():
    x, y = np.ones((2, 3)), np.zeros((2, 3))
    assert_equal(phi.stack(tensors(x, y), axis=-1), np.stack([x, y], axis=-1), D.FLOAT64)


@op_test("stack", kind="edge")
def test_stack_of_empty_tensors():
    out = phi.stack(tensors(np.zeros((0, 2), np.int32), np.zeros((0, 2), np.int32)))
    assert (out.shape, out.dtype) == ([2, 0, 2], D.INT32)


@op_test("stack", kind="edge")
def test_stack_of_mixed_dtypes_raises():
    with pytest.raises(InvalidArgumentError, match="must share one dtype"):
        phi.stack(tensors(np.array([1], np.int64), np.array([2.5], np.float32)))


@op_test("stack", kind="edge")
def test_stack_rejects_different_dims():
    with pytest.raises(
        InvalidArgumentError,
        match=r"argument 'x\[1\]' with dims \[3\] must have the dims of 'x\[0\]' \[2\]",
    ):
        phi.stack(tensors(np.ones(2), np.ones(3)))


@op_test("stack", kind="edge")
def test_stack_rejects_an_axis_out_of_range():
    with pytest.raises(
        InvalidArgumentError,
        match=r"argument 'axis' must be in \[-3, 3\) for stacking tensors of rank 2, got 3",
    ):
        phi.stack(tensors(np.ones((2, 3)), np.ones((2, 3))), axis=3)
