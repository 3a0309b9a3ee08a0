"""Tensors that share storage share its version counter; basic indexing gives views; indexed
assignment of one element.

Expected values were read from PaddlePaddle 3.3.1 (CPU) by hand, running the same lines; they are
not produced by the code under test.
"""

from __future__ import annotations

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.errors import PreconditionNotMetError


# -- detach shares the version counter ---------------------------------------------------------
def test_writing_a_detached_output_in_place_makes_its_backward_raise() -> None:
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    a = paddle.exp(x)
    y = paddle.sum(a)
    a.detach().zero_()
    with pytest.raises(PreconditionNotMetError, match="modified in place"):
        y.backward()


def test_a_detach_made_before_the_save_still_shares_the_counter() -> None:
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    a = paddle.exp(x)
    detached = a.detach()
    y = paddle.sum(paddle.exp(a))  # saves a after the detach was made
    detached.zero_()
    with pytest.raises(PreconditionNotMetError, match="modified in place"):
        y.backward()


def test_detach_shares_the_data_both_ways() -> None:
    a = paddle.to_tensor([1.0, 2.0])
    d = a.detach()
    d.scale_(3.0)
    np.testing.assert_array_equal(a.numpy(), [3.0, 6.0])
    a.zero_()
    np.testing.assert_array_equal(d.numpy(), [0.0, 0.0])
    assert d.stop_gradient


def test_an_unmodified_detach_leaves_backward_alone() -> None:
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    a = paddle.exp(x)
    a.detach()
    paddle.sum(a).backward()
    np.testing.assert_allclose(x.grad.numpy(), np.exp([1.0, 2.0]), rtol=1e-6)


# -- basic slices are views ----------------------------------------------------------------
@pytest.mark.parametrize(
    "index, expected",
    [
        (0, [[5, 5, 5], [1, 1, 1]]),
        ((slice(None), 1), [[1, 5, 1], [1, 5, 1]]),
        ((None, 0, slice(None, None, 2)), [[5, 1, 5], [1, 1, 1]]),
        ((Ellipsis, slice(1, None)), [[1, 5, 5], [1, 5, 5]]),
        ((-1, -1), [[1, 1, 1], [1, 1, 5]]),
    ],
)
def test_writing_a_basic_slice_in_place_writes_the_tensor(index: object, expected: list) -> None:
    b = paddle.ones([2, 3])
    b[index].scale_(5.0)
    np.testing.assert_array_equal(b.numpy(), expected)


def test_a_slice_sees_later_writes_to_its_tensor() -> None:
    b = paddle.ones([2, 3])
    row = b[0]
    b.scale_(2.0)
    np.testing.assert_array_equal(row.numpy(), [2.0, 2.0, 2.0])


@pytest.mark.parametrize("index", [[0], (np.array([True, False]),)])
def test_an_advanced_index_is_a_copy(index: object) -> None:
    b = paddle.ones([2, 3])
    b[index].scale_(3.0)
    np.testing.assert_array_equal(b.numpy(), np.ones((2, 3)))


def test_writing_a_slice_of_a_saved_tensor_makes_its_backward_raise() -> None:
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    a = paddle.exp(x)
    y = paddle.sum(a)
    with paddle.no_grad():
        a[0].zero_()
    with pytest.raises(PreconditionNotMetError, match="modified in place"):
        y.backward()


def test_a_slice_still_carries_gradients() -> None:
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    paddle.sum(x[1] * 3.0).backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[0.0, 0.0], [3.0, 3.0]])


def test_writing_a_slice_in_place_keeps_paddles_gradient() -> None:
    # PaddlePaddle 3.3.1 gives b [[5,5,5],[1,1,1]] and x.grad all ones here.
    x = paddle.ones([2, 3])
    x.stop_gradient = False
    b = x * 1
    b[0].scale_(5.0)
    np.testing.assert_array_equal(b.numpy(), [[5, 5, 5], [1, 1, 1]])
    b.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.ones((2, 3)))


# -- assigning one element ---------------------------------------------------------------
def test_assigning_a_float_to_one_element() -> None:
    x = paddle.to_tensor(np.array([1.0, 4.0], "float32"))
    x[0] = 5.0
    np.testing.assert_array_equal(x.numpy(), [5.0, 4.0])


def test_assigning_to_one_element_of_a_matrix() -> None:
    x = paddle.to_tensor(np.ones((2, 3), "float32"))
    x[0, 1] = 5.0
    np.testing.assert_array_equal(x.numpy(), [[1, 5, 1], [1, 1, 1]])


def test_assigning_an_int_to_the_last_element() -> None:
    x = paddle.to_tensor(np.array([1, 4], "int64"))
    x[-1] = 5
    np.testing.assert_array_equal(x.numpy(), [1, 5])


def test_assigning_a_one_element_tensor_with_more_dims() -> None:
    x = paddle.to_tensor(np.array([1.0, 4.0], "float32"))
    x[0] = paddle.to_tensor([[7.0]])
    np.testing.assert_array_equal(x.numpy(), [7.0, 4.0])


def test_a_one_element_value_still_gets_its_gradient() -> None:
    # PaddlePaddle 3.3.1: y [7, 4], v.grad [2], x.grad [0, 3].
    v = paddle.to_tensor([7.0], stop_gradient=False)
    x = paddle.to_tensor(np.array([1.0, 4.0], "float32"), stop_gradient=False)
    y = x * 1
    y[0] = v
    (y * paddle.to_tensor([2.0, 3.0])).sum().backward()
    np.testing.assert_array_equal(y.numpy(), [7.0, 4.0])
    np.testing.assert_array_equal(v.grad.numpy(), [2.0])
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, 3.0])


def test_a_value_that_cannot_broadcast_is_still_refused() -> None:
    x = paddle.to_tensor(np.ones((2, 3), "float32"))
    with pytest.raises(paddle.InvalidArgumentError, match="cannot be broadcast"):
        x[0] = paddle.to_tensor([1.0, 2.0])
