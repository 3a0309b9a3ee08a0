"""The TensorArray kernels (runtime/kernels/impl/tensor_array_kernels.py) against numpy and
PHI's array_kernel.cc semantics."""

from __future__ import annotations

import numpy as np
import pytest

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.impl import tensor_array_kernels as k
from phiops.runtime.tensor.sparse import TensorArray


def array_of(*items: np.ndarray) -> TensorArray:
    return TensorArray(items, DataType.FLOAT32)


def test_create_array_like_fills_each_items_shape() -> None:
    source = array_of(np.ones((2, 3), "float32"), np.ones((1,), "float32"))
    like = k.create_array_like_kernel(np, source, 0.5)
    assert [item.array.tolist() for item in like.items] == [np.full((2, 3), 0.5).tolist(), [0.5]]
    assert like.dtype is DataType.FLOAT32


def test_write_copies_and_grows() -> None:
    arr = k.create_array_kernel(np, DataType.FLOAT32)
    x = np.arange(3, dtype="float32")
    k.array_write_kernel(np, arr, x, np.array([2]))
    x[0] = 9.0
    assert k.array_length_kernel(np, arr).tolist() == [3]
    assert k.array_read_kernel(np, arr, np.array([2])).tolist() == [0.0, 1.0, 2.0]
    assert k.array_read_kernel(np, arr, np.array([0])).shape == (0,)


def test_write_of_another_dtype_is_an_error() -> None:
    arr = k.create_array_kernel(np, DataType.FLOAT32)
    with pytest.raises(InvalidArgumentError, match="argument 'x' is float64"):
        k.array_write_kernel(np, arr, np.ones(2), np.array([0]))


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_array_to_tensor_matches_numpy_concatenate(axis: int) -> None:
    a, b = np.ones((2, 3), "float32"), np.zeros((2, 3), "float32")
    out, index = k.array_to_tensor_kernel(np, array_of(a, b), axis, False)
    np.testing.assert_array_equal(out, np.concatenate([a, b], axis))
    assert index.dtype == np.int32 and index.tolist() == [a.shape[axis], b.shape[axis]]


def test_array_to_tensor_stacks() -> None:
    a, b = np.ones((2, 3), "float32"), np.zeros((2, 3), "float32")
    out, index = k.array_to_tensor_kernel(np, array_of(a, b), 2, True)
    np.testing.assert_array_equal(out, np.stack([a, b], 2))
    assert index.tolist() == [1, 1]


def test_array_to_tensor_of_an_empty_array_is_an_error() -> None:
    with pytest.raises(InvalidArgumentError, match="the array is empty"):
        k.array_to_tensor_kernel(np, array_of(), 0, False)


def test_array_pop_removes_the_item_counting_from_the_end() -> None:
    arr = array_of(np.zeros(1, "float32"), np.ones(1, "float32"), np.full(1, 2.0, "float32"))
    arr, item = k.array_pop_kernel(np, arr, -1)
    assert item.tolist() == [2.0] and len(arr.items) == 2
    with pytest.raises(InvalidArgumentError, match="index 5 is outside"):
        k.array_pop_kernel(np, arr, 5)


def test_index_must_be_one_integer() -> None:
    with pytest.raises(InvalidArgumentError, match="1-element integer tensor"):
        k.array_read_kernel(np, array_of(np.ones(1, "float32")), np.array([0.0]))


@pytest.mark.parametrize("starts, ends, want", [(1, 3, [1.0, 2.0]), (-2, 5, [1.0, 2.0]), (2, 1, [])])
def test_slice_array_takes_items_start_to_end(starts: int, ends: int, want: list) -> None:
    arr = array_of(*(np.full(1, v, "float32") for v in (0.0, 1.0, 2.0)))
    part = k.slice_array_kernel(np, arr, np.array([starts]), np.array([ends]))
    assert [item.array.tolist()[0] for item in part.items] == want


def test_slice_array_dense_takes_one_item_counting_from_the_end() -> None:
    arr = array_of(*(np.full(1, v, "float32") for v in (0.0, 1.0, 2.0)))
    assert k.slice_array_dense_kernel(np, arr, np.array([-1])).tolist() == [2.0]
    with pytest.raises(InvalidArgumentError, match="start 3 is outside"):
        k.slice_array_dense_kernel(np, arr, np.array([3]))


@pytest.mark.parametrize("use_stack", [False, True])
def test_tensor_to_array_undoes_array_to_tensor(use_stack: bool) -> None:
    a, b = np.arange(6, dtype="float32").reshape(2, 3), np.arange(6, 12, dtype="float32").reshape(2, 3)
    arr = array_of(a, b)
    out, _ = k.array_to_tensor_kernel(np, arr, 1, use_stack)
    back = k.tensor_to_array_kernel(np, arr, out, 1, use_stack)
    assert [item.array.tolist() for item in back.items] == [a.tolist(), b.tolist()]
