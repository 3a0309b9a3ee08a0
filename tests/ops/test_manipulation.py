"""reshape, transpose, squeeze, unsqueeze, flatten, expand against numpy."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.registration import ALL_TYPES
from tests.ops.op_testing import cpu_dtypes, op_test, sample

D = DataType


def assert_equal(out, expected: np.ndarray, dtype: DataType):
    assert out.dtype == dtype
    assert out.shape == list(expected.shape)
    np.testing.assert_array_equal(out.numpy(), expected)


# Every registered dtype ------------------------------------------------------------------------


def test_reshape_is_registered_for_every_dtype_as_in_paddle():
    assert cpu_dtypes("reshape") == [D.ALL_DTYPE]


@op_test("reshape", kind="dtypes")
@pytest.mark.parametrize("dtype", ALL_TYPES)  # reshape is registered for ALL_DTYPE
def test_reshape_rearranges_the_elements_in_order(dtype):
    x = sample((2, 6), dtype)
    assert_equal(phi.reshape(phi.to_tensor(x), [3, 4]), x.reshape(3, 4), dtype)


@op_test("transpose", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("transpose"))
def test_transpose_permutes_the_axes(dtype):
    x = sample((2, 3, 4), dtype)
    assert_equal(phi.transpose(phi.to_tensor(x), [2, 0, 1]), np.transpose(x, (2, 0, 1)), dtype)


@op_test("squeeze", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("squeeze"))
def test_squeeze_removes_size_one_dimensions(dtype):
    x = sample((1, 3, 1), dtype)
    assert_equal(phi.squeeze(phi.to_tensor(x)), x.reshape(3), dtype)


@op_test("unsqueeze", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("unsqueeze"))
def test_unsqueeze_inserts_size_one_dimensions(dtype):
    x = sample((2, 3), dtype)
    assert_equal(phi.unsqueeze(phi.to_tensor(x), [1]), x.reshape(2, 1, 3), dtype)


@op_test("flatten", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("flatten"))
def test_flatten_merges_the_axes(dtype):
    x = sample((2, 3, 4), dtype)
    assert_equal(phi.flatten(phi.to_tensor(x), 1, 2), x.reshape(2, 12), dtype)


@op_test("expand", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("expand"))
def test_expand_repeats_size_one_dimensions(dtype):
    x = sample((1, 3), dtype)
    assert_equal(phi.expand(phi.to_tensor(x), [2, 3]), np.concatenate([x, x]), dtype)


# reshape ---------------------------------------------------------------------------------------


@op_test("reshape", kind="edge")
def test_reshape_infers_minus_one():
    x = np.arange(12, dtype=np.float32)
    assert_equal(phi.reshape(phi.to_tensor(x), [-1, 4]), x.reshape(3, 4), D.FLOAT32)


@op_test("reshape", kind="edge")
def test_reshape_zero_copies_the_input_dimension():
    x = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    assert_equal(phi.reshape(phi.to_tensor(x), [0, -1]), x.reshape(2, 12), D.INT32)


@op_test("reshape", kind="edge")
def test_reshape_of_one_element_to_0d():
    out = phi.reshape(phi.to_tensor(np.array([[5.0]])), [])
    assert_equal(out, np.array(5.0), D.FLOAT64)


@op_test("reshape", kind="edge")
def test_reshape_of_an_empty_tensor():
    out = phi.reshape(phi.to_tensor(np.zeros((0, 6), np.float32)), [-1, 2, 3])
    assert (out.shape, out.dtype) == ([0, 2, 3], D.FLOAT32)


@op_test("reshape", kind="edge")
def test_reshape_shares_memory_with_x():
    x = phi.to_tensor(np.arange(6, dtype=np.float64))
    assert np.shares_memory(phi.reshape(x, [2, 3]).numpy(), x.numpy())


@op_test("reshape", kind="edge")
def test_reshape_rejects_a_wrong_element_count():
    with pytest.raises(
        InvalidArgumentError,
        match=r"argument 'shape' \[4, 2\] holds 8 elements, but argument 'x' with dims \[2, 3\] holds 6",
    ):
        phi.reshape(phi.to_tensor(np.ones((2, 3))), [4, 2])


@op_test("reshape", kind="edge")
def test_reshape_rejects_two_minus_ones():
    with pytest.raises(InvalidArgumentError, match=r"at most one -1, got \[-1, -1\]"):
        phi.reshape(phi.to_tensor(np.ones((2, 3))), [-1, -1])


# transpose -------------------------------------------------------------------------------------


@op_test("transpose", kind="edge")
def test_transpose_accepts_negative_entries():
    x = np.arange(6).reshape(2, 3)
    assert_equal(phi.transpose(phi.to_tensor(x), [-1, -2]), x.T, D.INT64)


@op_test("transpose", kind="edge")
def test_transpose_of_a_0d_tensor():
    assert_equal(
        phi.transpose(phi.to_tensor(np.float32(1.5)), []), np.array(1.5, np.float32), D.FLOAT32
    )


@op_test("transpose", kind="edge")
def test_transpose_of_an_empty_tensor():
    out = phi.transpose(phi.to_tensor(np.zeros((0, 3), np.int8)), [1, 0])
    assert (out.shape, out.dtype) == ([3, 0], D.INT8)


@op_test("transpose", kind="edge")
def test_transpose_rejects_a_repeated_axis():
    with pytest.raises(InvalidArgumentError, match=r"argument 'perm' must be a permutation"):
        phi.transpose(phi.to_tensor(np.ones((2, 3))), [0, 0])


# squeeze / unsqueeze ---------------------------------------------------------------------------


@op_test("squeeze", kind="edge")
def test_squeeze_leaves_a_named_axis_whose_size_is_not_one():
    x = np.ones((1, 3, 1), np.float32)
    assert phi.squeeze(phi.to_tensor(x), [0, 1]).shape == [3, 1]


@op_test("squeeze", kind="edge")
def test_squeeze_with_a_negative_axis():
    x = np.ones((1, 3, 1), np.float32)
    assert phi.squeeze(phi.to_tensor(x), [-1]).shape == [1, 3]


@op_test("squeeze", kind="edge")
def test_squeeze_of_a_0d_tensor_is_0d():
    assert phi.squeeze(phi.to_tensor(np.float32(2.0)), [0]).shape == []


@op_test("squeeze", kind="edge")
def test_squeeze_shares_memory_with_x():
    x = phi.to_tensor(np.zeros((1, 4), np.float32))
    assert np.shares_memory(phi.squeeze(x).numpy(), x.numpy())


@op_test("squeeze", kind="edge")
def test_squeeze_rejects_an_axis_out_of_range():
    with pytest.raises(
        InvalidArgumentError,
        match=r"argument 'axis' must be in \[-2, 2\) for a tensor of rank 2, got 2",
    ):
        phi.squeeze(phi.to_tensor(np.ones((1, 3))), [2])


@op_test("unsqueeze", kind="edge")
def test_unsqueeze_axes_count_in_the_growing_output():
    assert phi.unsqueeze(phi.to_tensor(np.ones((2, 3))), [0, 3]).shape == [1, 2, 3, 1]


@op_test("unsqueeze", kind="edge")
def test_unsqueeze_negative_axis_appends():
    assert phi.unsqueeze(phi.to_tensor(np.ones((2, 3))), [-1]).shape == [2, 3, 1]


@op_test("unsqueeze", kind="edge")
def test_unsqueeze_of_a_0d_tensor():
    out = phi.unsqueeze(phi.to_tensor(np.int64(7)), [0])
    assert_equal(out, np.array([7]), D.INT64)


@op_test("unsqueeze", kind="edge")
def test_unsqueeze_of_an_empty_tensor():
    assert phi.unsqueeze(phi.to_tensor(np.zeros((0,), np.float32)), [0]).shape == [1, 0]


@op_test("unsqueeze", kind="edge")
def test_unsqueeze_rejects_an_axis_out_of_range():
    with pytest.raises(
        InvalidArgumentError,
        match=r"must be in \[-3, 3\) to insert a dimension into a tensor of rank 2, got 3",
    ):
        phi.unsqueeze(phi.to_tensor(np.ones((2, 3))), [3])


# flatten ---------------------------------------------------------------------------------------


@op_test("flatten", kind="edge")
def test_flatten_defaults_leave_the_tensor_unchanged_in_shape():
    assert phi.flatten(phi.to_tensor(np.ones((2, 3, 4)))).shape == [2, 3, 4]


@op_test("flatten", kind="edge")
def test_flatten_with_negative_axes_merges_everything():
    x = np.arange(24, dtype=np.int16).reshape(2, 3, 4)
    assert_equal(phi.flatten(phi.to_tensor(x), 0, -1), x.reshape(-1), D.INT16)


@op_test("flatten", kind="edge")
def test_flatten_of_a_0d_tensor_gives_one_element():
    assert_equal(
        phi.flatten(phi.to_tensor(np.float32(3.0)), 0, -1), np.array([3.0], np.float32), D.FLOAT32
    )


@op_test("flatten", kind="edge")
def test_flatten_of_an_empty_tensor():
    assert phi.flatten(phi.to_tensor(np.zeros((2, 0, 3))), 0, 1).shape == [0, 3]


@op_test("flatten", kind="edge")
def test_flatten_rejects_stop_before_start():
    with pytest.raises(
        InvalidArgumentError,
        match=r"argument 'stop_axis' \(0\) must not come before argument 'start_axis' \(1\)",
    ):
        phi.flatten(phi.to_tensor(np.ones((2, 3, 4))), 1, 0)


# expand ----------------------------------------------------------------------------------------


@op_test("expand", kind="edge")
def test_expand_adds_leading_dimensions_and_keeps_minus_one():
    x = np.array([1, 2, 3], np.int32)
    assert_equal(phi.expand(phi.to_tensor(x), [2, -1]), np.stack([x, x]), D.INT32)


@op_test("expand", kind="edge")
def test_expand_of_a_0d_tensor():
    assert_equal(phi.expand(phi.to_tensor(np.float64(2.0)), [3]), np.full(3, 2.0), D.FLOAT64)


@op_test("expand", kind="edge")
def test_expand_output_does_not_share_memory_with_x():
    x = phi.to_tensor(np.ones((1, 3), np.float32))
    assert not np.shares_memory(phi.expand(x, [2, 3]).numpy(), x.numpy())


@op_test("expand", kind="edge")
def test_expand_rejects_growing_a_dimension_whose_size_is_not_one():
    with pytest.raises(
        InvalidArgumentError,
        match=r"dimension 0 of 'x' has size 2, which is not 1 and differs from 4",
    ):
        phi.expand(phi.to_tensor(np.ones((2, 3))), [4, 3])


def test_expand_of_a_0d_tensor_to_shape_empty_stays_0d() -> None:
    # PaddlePaddle 3.3.1: paddle.expand(to_tensor(float32(3.0)), []).shape == [].
    x = phi.to_tensor(np.float32(3.0))
    out = phi.expand(x, [])
    assert out.shape == []
    assert out.numpy() == np.float32(3.0)


def test_expand_to_the_same_shape_gives_a_writable_copy() -> None:
    x = phi.to_tensor(np.array([1.0, 2.0], "float32"))
    out = phi.expand(x, [2])
    out.scale_(3.0)
    np.testing.assert_array_equal(x.numpy(), [1.0, 2.0])
    np.testing.assert_array_equal(out.numpy(), [3.0, 6.0])
