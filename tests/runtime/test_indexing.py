"""Tensor indexing: reads against NumPy, the ops each form lowers to, writes in place with the
version counter, gradients reaching the written value, iteration and the named errors."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.errors import InvalidArgumentError, OutOfRangeError, PreconditionNotMetError

X = np.arange(24.0).reshape(2, 3, 4)
MASK = X[:, :, 0] > 5

READS = {
    "int": 1,
    "negative-int-and-reversed-slice": (-1, slice(None, None, -2)),
    "clamped-slices": (slice(1, 100), slice(-100, 2)),
    "empty": slice(2, 1),
    "ellipsis-none": (Ellipsis, None),
    "middle-ellipsis": (0, Ellipsis, 1),
    "list": [1, 0, 1],
    "list-on-axis-1": (slice(None), [2, 0]),
    "lists-separated": ([0, 1], slice(None), [1, 2]),
    "lists-adjacent": (slice(None), [0, 1], [1, 2]),
    "lists-with-none-between": ([0, 1], None, [1, 2]),
    "int-array-2d": np.array([[0, 1], [1, 1]]),
    "mask-leading-axes": MASK,
    "mask-on-axis-1": (slice(None), np.array([True, False, True])),
    "python-true": True,
}


@pytest.mark.parametrize("index", list(READS.values()), ids=list(READS))
def test_reads_match_numpy(index):
    out = phi.to_tensor(X)[index]
    expected = X[index]
    assert out.shape == list(expected.shape)
    np.testing.assert_array_equal(out.numpy(), expected)


def test_a_tensor_index_reads_like_its_array():
    x = phi.to_tensor(X)
    np.testing.assert_array_equal(x[phi.to_tensor(np.array([1, 0]))].numpy(), X[[1, 0]])
    np.testing.assert_array_equal(x[phi.to_tensor(np.array(1))].numpy(), X[1])
    np.testing.assert_array_equal(x[phi.to_tensor(X > 10)].numpy(), X[X > 10])


def test_reads_record_the_lowering_ops():
    x = phi.to_tensor(X, stop_gradient=False)
    ops = {
        "slice": x[1, 1:3],
        "strided_slice": x[:, ::2],
        "index_select": x[:, [0, 2]],
        "masked_select": x[phi.to_tensor(X > 3)],
        "gather_nd": x[[0, 1], :, [1, 2]],
    }
    for op, out in ops.items():
        assert out._grad_node[0].spec.op == op


def test_a_write_is_in_place_and_bumps_the_version():
    x = phi.to_tensor(X.copy())
    array = x._impl.array
    version = getattr(x._impl, "_version", 0)
    x[0, 1:] = 5.0
    x[:, [0, 2], 3] = phi.to_tensor(np.array([-1.0, -2.0]))
    x[phi.to_tensor(X > 20)] = 0.0
    expected = X.copy()
    expected[0, 1:] = 5.0
    expected[:, [0, 2], 3] = [-1.0, -2.0]
    expected[X > 20] = 0.0
    assert x._impl.array is array
    assert x._impl._version == version + 3
    np.testing.assert_array_equal(x.numpy(), expected)


def test_a_write_casts_and_broadcasts_the_value():
    x = phi.to_tensor(np.zeros((2, 3), np.int64))
    x[:, 1] = 7
    x[1] = np.array([1, 2, 3])
    np.testing.assert_array_equal(x.numpy(), [[0, 7, 0], [1, 2, 3]])


def test_a_backward_that_saved_the_old_values_raises_after_a_write():
    x = phi.to_tensor(X, stop_gradient=False)
    y = phi.scale(x, 1.0)
    z = phi.multiply(y, y)
    y[0] = 1.0
    with pytest.raises(PreconditionNotMetError, match="modified in place"):
        phi.sum(z).backward()


def test_gradients_reach_the_written_value_and_the_kept_elements():
    x = phi.to_tensor(X, stop_gradient=False)
    v = phi.to_tensor(np.ones(4), stop_gradient=False)
    y = phi.scale(x, 2.0)
    y[0, 1] = phi.scale(v, 3.0)
    phi.sum(y).backward()
    expected = np.full(X.shape, 2.0)
    expected[0, 1] = 0
    np.testing.assert_array_equal(x.grad.numpy(), expected)
    np.testing.assert_array_equal(v.grad.numpy(), np.full(4, 3.0))


def test_a_leaf_that_needs_a_gradient_cannot_be_written():
    x = phi.to_tensor(X, stop_gradient=False)
    with pytest.raises(InvalidArgumentError, match="leaf Tensor"):
        x[0] = 1.0
    with phi.no_grad():
        x[0] = 1.0
    assert float(x[0, 0, 0]) == 1.0


def test_iteration_walks_the_first_axis():
    rows = list(phi.to_tensor(X))
    assert len(rows) == 2
    np.testing.assert_array_equal(rows[1].numpy(), X[1])
    with pytest.raises(TypeError, match="0-D"):
        list(phi.to_tensor(1.0))


@pytest.mark.parametrize(
    "index, message",
    [
        (5, "index 5 is out of range for axis 0 with size 2"),
        ((slice(None), -4), "index -4 is out of range for axis 1 with size 3"),
        ([0, 2], "index 2 is out of range for axis 0 with size 2"),
        ((0, 0, 0, 0), "too many indices for a tensor of rank 3"),
        (np.array([True, False, True]), "mask with shape \\[3\\] does not match the shape \\[2\\]"),
    ],
)
def test_bad_indices_are_named_index_errors(index, message):
    x = phi.to_tensor(X.copy())
    with pytest.raises(OutOfRangeError, match=message):
        x[index]
    with pytest.raises(OutOfRangeError, match=message):
        x[index] = 0.0


def test_a_value_of_the_wrong_shape_is_named():
    x = phi.to_tensor(X.copy())
    with pytest.raises(InvalidArgumentError, match="cannot be broadcast"):
        x[0] = phi.to_tensor(np.ones(5))
    with pytest.raises(InvalidArgumentError, match="cannot be broadcast"):
        x[[0, 1]] = phi.to_tensor(np.ones(5))
