"""Lookup, indexing, slicing and sorting ops against NumPy references: every registered dtype,
then the edge cases (0-D, empty, negative axes and indices, repeated indices) and the named
errors for out-of-range indices, a bad padding_idx and a mask of the wrong shape."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.impl.nth_element import nth_element
from tests.ops.adversary import introselect_adversary
from tests.ops.op_testing import cpu_dtypes, op_test, sample

D = DataType


def t(array: np.ndarray) -> phi.Tensor:
    return phi.to_tensor(array)


def check(out: phi.Tensor, expected: np.ndarray) -> None:
    assert out.shape == list(expected.shape)
    assert out.dtype.numpy_dtype == expected.dtype
    np.testing.assert_array_equal(out.numpy(), expected)


IDX = np.array([2, 0, 2], dtype=np.int64)


# -- every registered dtype ----------------------------------------------------------------------


@op_test("gather", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("gather"))
def test_gather_picks_rows(dtype):
    x = sample((3, 4), dtype)
    check(phi.gather(t(x), t(IDX)), x[IDX])
    check(phi.gather(t(x), t(IDX.astype(np.int32)), 1), x[:, IDX])


@op_test("gather_nd", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("gather_nd"))
def test_gather_nd_picks_elements_and_slices(dtype):
    x = sample((3, 4), dtype)
    index = np.array([[0, 1], [2, 3], [2, 3]])
    check(phi.gather_nd(t(x), t(index)), x[index[:, 0], index[:, 1]])
    check(phi.gather_nd(t(x), t(np.array([[1], [0]]))), x[[1, 0]])


@op_test("index_select", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("index_select"))
def test_index_select_picks_along_an_axis(dtype):
    x = sample((3, 4), dtype)
    check(phi.index_select(t(x), t(IDX), 1), x[:, IDX])


@op_test("embedding", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("embedding"))
def test_embedding_looks_up_rows_and_zeroes_the_padding_row(dtype):
    weight = sample((4, 3), dtype, nonzero=True)
    ids = np.array([[0, 3], [1, 3]])
    check(phi.embedding(t(ids), t(weight)), weight[ids])
    expected = weight[ids].copy()
    expected[ids == 3] = 0
    check(phi.embedding(t(ids), t(weight), padding_idx=3), expected)


@op_test("take_along_axis", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("take_along_axis"))
def test_take_along_axis_matches_numpy(dtype):
    x = sample((3, 4), dtype)
    index = np.array([[3, 0], [1, 1], [0, 2]])
    check(phi.take_along_axis(t(x), t(index), 1), np.take_along_axis(x, index, 1))


@op_test("put_along_axis", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("put_along_axis"))
def test_put_along_axis_assigns_and_adds(dtype):
    x = sample((3, 4), dtype, low=0)
    index = np.array([[3], [1], [0]])
    values = sample((3, 1), dtype, seed=1, low=0)
    expected = x.copy()
    np.put_along_axis(expected, index, values, 1)
    check(phi.put_along_axis(t(x), t(index), t(values), 1), expected)
    added = x.copy()
    np.add.at(added, (np.arange(3)[:, None], index), values)
    check(phi.put_along_axis(t(x), t(index), t(values), 1, "add"), added)


@op_test("masked_select", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("masked_select"))
def test_masked_select_keeps_the_masked_elements(dtype):
    x = sample((3, 4), dtype)
    mask = sample((3, 4), D.BOOL, seed=3)
    check(phi.masked_select(t(x), t(mask)), x[mask])


@op_test("nonzero", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("nonzero"))
def test_nonzero_lists_coordinates(dtype):
    x = sample((3, 4), dtype, low=-1, high=1)
    check(phi.nonzero(t(x)), np.argwhere(x).astype(np.int64))


@op_test("one_hot", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("one_hot"))
def test_one_hot_encodes_float32(dtype):
    x = np.array([[0, 2], [1, 1]], dtype=dtype.numpy_dtype)
    check(phi.one_hot(t(x), 3), np.eye(3, dtype=np.float32)[x])


@op_test("scatter", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("scatter"))
def test_scatter_overwrites_or_accumulates_rows(dtype):
    x = sample((4, 2), dtype)
    index = np.array([1, 3, 1])
    updates = sample((3, 2), dtype, seed=2)
    expected = x.copy()
    expected[index] = updates  # the last of a repeated index wins
    check(phi.scatter(t(x), t(index), t(updates)), expected)
    summed = x.copy()
    summed[index] = 0
    np.add.at(summed, index, updates)
    check(phi.scatter(t(x), t(index), t(updates), False), summed)


@op_test("scatter_nd_add", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("scatter_nd_add"))
def test_scatter_nd_add_adds_at_coordinates(dtype):
    x = sample((3, 4), dtype, low=0)
    index = np.array([[1, 2], [1, 2], [0, 0]])
    updates = sample((3,), dtype, seed=1, low=0)
    expected = x.copy()
    np.add.at(expected, (index[:, 0], index[:, 1]), updates)
    check(phi.scatter_nd_add(t(x), t(index), t(updates)), expected)


@op_test("index_put", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("index_put"))
def test_index_put_writes_or_accumulates(dtype):
    x = sample((3, 4), dtype)
    rows, cols = np.array([0, 2]), np.array([1, 3])
    value = sample((2,), dtype, seed=5)
    expected = x.copy()
    expected[rows, cols] = value
    check(phi.index_put(t(x), [t(rows), t(cols)], t(value)), expected)
    if dtype is not D.BOOL:
        summed = x.copy()
        summed[rows, cols] += value
        check(phi.index_put(t(x), [t(rows), t(cols)], t(value), True), summed)


@op_test("slice", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("slice"))
def test_slice_cuts_and_decreases(dtype):
    x = sample((3, 4, 5), dtype)
    check(phi.slice(t(x), [0, 2], [1, -3], [3, 100], [1, 1], []), x[1:3, :, -3:])
    check(phi.slice(t(x), [1], [2], [3], [1], [1]), x[:, 2])


@op_test("strided_slice", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("strided_slice"))
def test_strided_slice_steps_forwards_and_backwards(dtype):
    x = sample((5, 6), dtype)
    check(phi.strided_slice(t(x), [0, 1], [4, 0], [-6, 6], [-2, 2]), x[4:-6:-2, 0:6:2])


@op_test("set_value", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("set_value"))
def test_set_value_writes_a_scalar_into_a_strided_region(dtype):
    x = sample((4, 3), dtype)
    expected = x.copy()
    expected[3:0:-2, 1] = np.array(1).astype(x.dtype)
    out = phi.set_value(t(x), [3, 1], [0, 2], [-2, 1], [0, 1], [1], [], [1], [1])
    check(out, expected)


@op_test("set_value_with_tensor", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("set_value_with_tensor"))
def test_set_value_with_tensor_broadcasts_the_value(dtype):
    x = sample((4, 3), dtype)
    value = sample((3,), dtype, seed=9)
    expected = x.copy()
    expected[1:3] = value
    out = phi.set_value_with_tensor(t(x), t(value), [1], [3], [1], [0], [], [])
    check(out, expected)


@op_test("argsort", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("argsort"))
def test_argsort_sorts_both_ways_with_stable_ties(dtype):
    x = sample((3, 5), dtype, low=0, high=3)
    out, indices = phi.argsort(t(x), 1)
    order = np.argsort(x, axis=1, kind="stable")
    check(indices, order.astype(np.int64))
    check(out, np.take_along_axis(x, order, 1))
    out, indices = phi.argsort(t(x), 0, descending=True)
    expected = np.flip(np.sort(x, axis=0), axis=0)
    check(out, expected)
    np.testing.assert_array_equal(np.take_along_axis(x, indices.numpy(), 0), expected)


@op_test("topk", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("topk"))
def test_topk_picks_the_largest_or_smallest(dtype):
    x = np.array([[3, 9, 1, 7], [5, 2, 8, 0]], dtype=dtype.numpy_dtype)
    out, indices = phi.topk(t(x), 2)
    check(out, np.array([[9, 7], [8, 5]], dtype=x.dtype))
    check(indices, np.array([[1, 3], [2, 0]], dtype=np.int64))
    out, indices = phi.topk(t(x), 1, 0, largest=False)
    check(out, x.min(axis=0, keepdims=True))


def _put_along_axis_grads(x, index, values, reduce, weights):
    arr, value = phi.to_tensor(x, stop_gradient=False), phi.to_tensor(values, stop_gradient=False)
    out = phi.put_along_axis(arr, t(index), value, 1, reduce)
    return phi.grad(phi.sum(phi.multiply(out, t(weights))), [arr, value])


@op_test("put_along_axis", kind="edge")
def test_put_along_axis_assign_gradient_goes_to_the_last_write():
    """Of several values written to one position only the last gets its gradient (values
    read from PaddlePaddle 3.3.1)."""
    x = np.arange(12.0).reshape(3, 4)
    values = np.arange(1.0, 10.0).reshape(3, 3)
    index = np.array([[1, 1, 2], [0, 0, 0], [3, 1, 3]])
    arr_grad, values_grad = _put_along_axis_grads(
        x, index, values, "assign", np.arange(1.0, 13.0).reshape(3, 4)
    )
    check(arr_grad, np.array([[1.0, 0, 0, 4], [0, 6, 7, 8], [9, 0, 11, 0]]))
    check(values_grad, np.array([[0.0, 2, 3], [0, 0, 5], [0, 10, 12]]))


@pytest.mark.parametrize(
    "reduce, arr_grad, values_grad",
    [
        # the tie at position 1 (arr 5 and two values 5) splits its gradient three ways
        ("amax", [[3.0, 2.0]], [[2.0, 2.0, 0.0]]),
        ("mean", [[1.5, 2.0]], [[2.0, 2.0, 1.5]]),
        ("mul", [[3.0, 150.0]], [[150.0, 150.0, 6.0]]),
    ],
)
def test_put_along_axis_reduce_gradients_equal_paddles(reduce, arr_grad, values_grad):
    """Values read from PaddlePaddle 3.3.1 for arr [[2, 5]], values [[5, 5, 1]] at [[1, 1, 0]]
    and upstream weights [[3, 6]]."""
    got = _put_along_axis_grads(
        np.array([[2.0, 5.0]]),
        np.array([[1, 1, 0]]),
        np.array([[5.0, 5.0, 1.0]]),
        reduce,
        np.array([[3.0, 6.0]]),
    )
    check(got[0], np.array(arr_grad))
    check(got[1], np.array(values_grad))


@op_test("topk", kind="edge")
def test_unsorted_topk_returns_paddles_order():
    """sorted=False gives the order std::nth_element leaves (values read from PaddlePaddle
    3.3.1's paddle._C_ops.topk on these inputs), ties and NaN (largest first) included."""
    x = np.array([[3, 1, 4, 1, 5, 9, 2, 6, 5, 3], [2, 7, 1, 8, 2, 8, 1, 8, 2, 8]], np.float32)
    out, indices = phi.topk(t(x), 4, 1, True, False)
    check(out, np.array([[6, 9, 5, 5], [8, 8, 8, 8]], np.float32))
    check(indices, np.array([[7, 5, 8, 4], [5, 9, 7, 3]]))
    out, indices = phi.topk(t(x), 4, 1, False, False)
    check(out, np.array([[2, 1, 1, 3], [1, 1, 2, 2]], np.float32))
    check(indices, np.array([[6, 1, 3, 0], [6, 2, 0, 8]]))
    y = np.array([1.0, np.nan, 3.0, 2.0, np.nan, 0.0])
    out, indices = phi.topk(t(y), 3, 0, True, False)
    check(out, np.array([np.nan, np.nan, 3.0]))
    check(indices, np.array([1, 4, 2]))
    out, indices = phi.topk(t(y), 3, 0, False, False)
    check(out, np.array([0.0, 1.0, 2.0]))
    check(indices, np.array([5, 0, 3]))


@op_test("topk", kind="edge")
def test_unsorted_topk_holds_the_k_largest_along_any_axis():
    rng = np.random.default_rng(5)
    x = rng.permutation(4 * 30 * 3).reshape(4, 30, 3).astype(np.float64)
    out, indices = phi.topk(t(x), 12, 1, True, False)
    np.testing.assert_array_equal(np.take_along_axis(x, indices.numpy(), 1), out.numpy())
    np.testing.assert_array_equal(np.sort(out.numpy(), 1), np.sort(x, 1)[:, -12:])


@op_test("topk", kind="edge")
def test_unsorted_topk_sorts_when_k_is_below_a_64th_of_the_axis():
    """PHI takes std::partial_sort (sorted output) when k * 64 < the axis' extent."""
    x = np.random.default_rng(6).permutation(130).astype(np.float32)
    out, _ = phi.topk(t(x), 2, 0, True, False)
    check(out, np.array([129, 128], np.float32))


def test_nth_element_partitions_around_the_nth_value():
    """Whatever path it takes (partitioning, insertion sort, or the heap selection after the
    depth limit, which the adversary's input reaches), the nth item is the one a full sort
    puts there, none before it is greater and none after it is less."""
    rng = np.random.default_rng(7)
    for size in (1, 2, 3, 4, 5, 17, 64, 257):
        for values in (rng.integers(0, 4, size), rng.permutation(size), np.arange(size)):
            nth = int(rng.integers(0, size))
            items = values.tolist()
            nth_element(items, nth, lambda a, b: a < b)
            assert sorted(items) == sorted(values.tolist())
            assert items[nth] == sorted(values.tolist())[nth]
            assert max(items[: nth + 1]) <= items[nth] <= min(items[nth:])
    adversary = introselect_adversary(300, 150).tolist()
    items = list(adversary)
    nth_element(items, 149, lambda a, b: a > b)
    assert items[149] == sorted(adversary, reverse=True)[149]
    assert min(items[:150]) >= items[149] >= max(items[149:])


@op_test("unique", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("unique"))
def test_unique_returns_values_first_indices_inverse_and_counts(dtype):
    x = np.array([[3, 1], [3, 2], [1, 1]], dtype=dtype.numpy_dtype)
    out, first, inverse, counts = phi.unique(t(x), True, True, True, [])
    values, ref_first, ref_inverse, ref_counts = np.unique(
        x.reshape(-1), return_index=True, return_inverse=True, return_counts=True
    )
    check(out, values)
    check(first, ref_first.astype(np.int64))
    check(inverse, ref_inverse.reshape(-1).astype(np.int64))
    check(counts, ref_counts.astype(np.int64))
    rows = phi.unique(t(x), False, False, False, [0], D.INT32)
    check(rows[0], np.unique(x, axis=0))
    assert rows[1:] == (None, None, None)


# -- edge cases ----------------------------------------------------------------------------------


@op_test("gather", "index_select", kind="edge")
def test_gather_and_index_select_edges_and_errors():
    x = np.arange(12.0).reshape(3, 4)
    check(phi.gather(t(x), t(np.array(1))), x[1])  # 0-D index drops the axis
    check(phi.gather(t(x), t(np.zeros(0, np.int64)), -1), x[:, :0])
    check(phi.index_select(t(x), t(np.array([3, 3])), -1), x[:, [3, 3]])
    with pytest.raises(
        InvalidArgumentError, match="index 3 is out of range for axis 0 with size 3"
    ):
        phi.gather(t(x), t(np.array([0, 3])))
    with pytest.raises(InvalidArgumentError, match="axis 1 with size 4"):
        phi.index_select(t(x), t(np.array([-1])), 1)
    with pytest.raises(InvalidArgumentError, match="'index' must be int32 or int64"):
        phi.gather(t(x), t(np.array([0.0])))


@op_test("gather_nd", "scatter_nd_add", kind="edge")
def test_gather_nd_and_scatter_nd_add_edges_and_errors():
    x = np.arange(6.0).reshape(2, 3)
    check(phi.gather_nd(t(x), t(np.zeros((2, 0), np.int64))), np.stack([x, x]))
    check(phi.gather_nd(t(x), t(np.array([[-1, -1]]))), x[[-1], [-1]])
    check(phi.scatter_nd_add(t(x), t(np.zeros((0, 2), np.int64)), t(np.zeros(0))), x)
    with pytest.raises(InvalidArgumentError, match="axis 1 with size 3"):
        phi.gather_nd(t(x), t(np.array([[0, 3]])))
    with pytest.raises(InvalidArgumentError, match="'updates' must have dims \\[2\\]"):
        phi.scatter_nd_add(t(x), t(np.array([[0, 0], [1, 1]])), t(np.zeros(3)))


@op_test("embedding", kind="edge")
def test_embedding_edges_and_named_errors():
    weight = np.arange(6.0).reshape(3, 2)
    check(phi.embedding(t(np.array(2)), t(weight)), weight[2])  # 0-D ids
    check(phi.embedding(t(np.zeros((0, 2), np.int64)), t(weight)), np.zeros((0, 2, 2)))
    ids = np.array([0, 1, 2])
    check(phi.embedding(t(ids), t(weight), padding_idx=-1), weight)  # -1: no padding row
    expected = weight.copy()
    expected[1] = 0
    check(phi.embedding(t(ids), t(weight), padding_idx=-2), expected)  # counts from the end
    with pytest.raises(InvalidArgumentError, match="'padding_idx' must be in \\[-3, 3\\)"):
        phi.embedding(t(np.array([0])), t(weight), padding_idx=3)
    with pytest.raises(
        InvalidArgumentError, match="index 3 is out of range for axis 0 with size 3"
    ):
        phi.embedding(t(np.array([3])), t(weight))


@op_test("take_along_axis", "put_along_axis", kind="edge")
def test_along_axis_edges():
    x = np.arange(6.0).reshape(2, 3)
    index = np.array([[-1, 0]])
    check(phi.take_along_axis(t(x), t(index), -1), x[:1, [2, 0]])
    out = phi.put_along_axis(t(x), t(np.array([[0, 0]])), t(np.array([[5.0, 7.0]])), 1, "mul")
    expected = x.copy()
    expected[0, 0] *= 35
    check(out, expected)
    out = phi.put_along_axis(
        t(x), t(np.array([[1], [1]])), t(np.array([[5.0], [7.0]])), 1, "amax", False
    )
    check(out, np.array([[0, 5, 2], [3, 7, 5]], dtype=np.float64))
    with pytest.raises(InvalidArgumentError, match="'reduce' must be one of"):
        phi.put_along_axis(t(x), t(index), t(np.array([[1.0, 1.0]])), 1, "max")
    with pytest.raises(InvalidArgumentError, match="rank of 'arr'"):
        phi.take_along_axis(t(x), t(np.array([0])), 1)


@op_test("masked_select", "nonzero", kind="edge")
def test_masked_select_broadcasts_and_names_a_mask_of_the_wrong_shape():
    x = np.arange(6.0).reshape(2, 3)
    mask = np.array([True, False, True])
    check(phi.masked_select(t(x), t(mask)), x[:, mask].reshape(-1))
    check(phi.masked_select(t(np.zeros((0, 3))), t(mask)), np.zeros(0))
    check(phi.nonzero(t(np.array(3.0))), np.zeros((1, 0), np.int64))
    check(phi.nonzero(t(np.zeros((2, 0)))), np.zeros((0, 2), np.int64))
    with pytest.raises(InvalidArgumentError, match="argument 'mask' with dims \\[2\\]"):
        phi.masked_select(t(x), t(np.array([True, False])))
    with pytest.raises(InvalidArgumentError, match="'mask' must be bool"):
        phi.masked_select(t(x), t(np.ones(3, np.int64)))


@op_test("one_hot", kind="edge")
def test_one_hot_edges():
    check(phi.one_hot(t(np.array(1)), 2), np.array([0, 1], np.float32))
    check(phi.one_hot(t(np.zeros(0, np.int64)), 2), np.zeros((0, 2), np.float32))
    with pytest.raises(InvalidArgumentError, match="index 2 is out of range"):
        phi.one_hot(t(np.array([2])), 2)


@op_test("scatter", "index_put", kind="edge")
def test_scatter_and_index_put_edges():
    x = np.arange(6.0).reshape(3, 2)
    check(
        phi.scatter(t(x), t(np.array(1)), t(np.array([9.0, 9.0]))),
        np.array([[0, 1], [9, 9], [4, 5]], float),
    )
    mask = np.array([True, False, True])
    expected = x.copy()
    expected[mask] = -1
    check(phi.index_put(t(x), [t(mask)], t(np.array(-1.0))), expected)
    with pytest.raises(InvalidArgumentError, match="'updates' must have dims \\[2, 2\\]"):
        phi.scatter(t(x), t(np.array([0, 1])), t(np.zeros((3, 2))))
    with pytest.raises(InvalidArgumentError, match="axis 0 with size 3"):
        phi.scatter(t(x), t(np.array([3])), t(np.zeros((1, 2))))
    with pytest.raises(InvalidArgumentError, match="axis 1 with size 2"):
        phi.index_put(t(x), [t(np.array([0])), t(np.array([2]))], t(np.array(0.0)))


@op_test("slice", "strided_slice", kind="edge")
def test_slices_clamp_out_of_range_bounds_and_can_be_empty():
    x = np.arange(24.0).reshape(2, 3, 4)
    check(
        phi.slice(t(x), [0, 1, 2], [0, 1, 2], [1, 2, 3], [1, 1, 1], [0, 1, 2]), np.array(x[0, 1, 2])
    )
    check(phi.slice(t(x), [2], [3], [1], [1], []), x[:, :, 3:1])
    check(phi.slice(t(x), [-1 + 3], [-100], [100], [1], []), x)
    check(phi.strided_slice(t(x), [2], [-1], [-100], [-1]), x[:, :, ::-1])
    check(phi.strided_slice(t(x), [0], [5], [-5], [-1]), x[5:-5:-1])
    with pytest.raises(InvalidArgumentError, match="'strides' must not hold 0"):
        phi.strided_slice(t(x), [0], [0], [1], [0])
    with pytest.raises(InvalidArgumentError, match="out of range for a tensor of rank 3"):
        phi.slice(t(x), [3], [0], [1], [1], [])
    with pytest.raises(InvalidArgumentError, match="size after slicing is 2"):
        phi.slice(t(x), [0], [0], [2], [1], [0])


@op_test("set_value", "set_value_with_tensor", kind="edge")
def test_set_value_none_axes_and_decrease_axes_shape_the_value():
    x = np.zeros((2, 3))
    out = phi.set_value_with_tensor(
        t(x), t(np.array([[1.0, 2.0]])), [1, 0], [2, 2], [1, 1], [0, 1], [0], [0]
    )
    expected = x.copy()
    expected[1, 0:2] = [1, 2]
    check(out, expected)
    check(phi.set_value(t(x), [], [], [], [], [], [], [1], [4.0]), np.full((2, 3), 4.0))
    check(phi.set_value(t(np.zeros((0, 2))), [], [], [], [], [], [], [1], [4.0]), np.zeros((0, 2)))
    with pytest.raises(InvalidArgumentError, match="cannot be broadcast to the shape \\[2\\]"):
        phi.set_value_with_tensor(t(x), t(np.ones(3)), [1, 0], [2, 2], [1, 1], [0, 1], [0], [])


@op_test("argsort", "topk", kind="edge")
def test_sorting_edges():
    x = np.array(2.0)
    out, indices = phi.argsort(t(x))
    check(out, x)
    check(indices, np.array(0))
    out, indices = phi.topk(t(np.zeros((2, 0))), 0, 1)
    check(out, np.zeros((2, 0)))
    out, _ = phi.argsort(t(np.array([[1.0, np.nan, 0.0]])), -1)
    np.testing.assert_array_equal(out.numpy(), np.array([[0.0, 1.0, np.nan]]))
    with pytest.raises(InvalidArgumentError, match="'k' must be in \\[0, 3\\]"):
        phi.topk(t(np.zeros(3)), 4)
    with pytest.raises(InvalidArgumentError, match="'axis' must be in \\[-1, 1\\)"):
        phi.argsort(t(np.zeros(3)), 1)


@op_test("unique", kind="edge")
def test_unique_edges():
    out = phi.unique(t(np.zeros(0, np.int64)), True, True, True, [])
    check(out[0], np.zeros(0, np.int64))
    check(out[3], np.zeros(0, np.int64))
    out = phi.unique(t(np.array(5.0)), False, True, False, [])
    check(out[0], np.array([5.0]))
    check(out[2], np.array([0], np.int64))
    with pytest.raises(InvalidArgumentError, match="'dtype' must be int32 or int64"):
        phi.unique(t(np.zeros(2)), False, False, False, [], D.FLOAT32)
