"""Autograd against deep graphs and misuse: no recursion, named errors, safe numpy()."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.errors import InvalidArgumentError

DEPTH = 2000  # well past Python's default recursion limit of 1000


def leaf(values: object, dtype: str = "float64") -> phi.Tensor:
    return phi.to_tensor(np.asarray(values, dtype=dtype), stop_gradient=False)


def chain(x: phi.Tensor, depth: int = DEPTH) -> phi.Tensor:
    y = x
    for _ in range(depth):
        y = phi.scale(y, 1.0, bias=0.5)
    return y


def test_grad_through_a_chain_deeper_than_the_recursion_limit() -> None:
    x = leaf([1.0, 2.0])
    (g,) = phi.grad(phi.sum(chain(x)), x)
    np.testing.assert_array_equal(g.numpy(), [1.0, 1.0])


def test_backward_through_a_chain_deeper_than_the_recursion_limit() -> None:
    x = leaf([1.0, 2.0])
    phi.sum(chain(x)).backward()
    np.testing.assert_array_equal(x.grad.numpy(), [1.0, 1.0])


def test_double_grad_through_a_chain_deeper_than_the_recursion_limit() -> None:
    x = leaf([1.0, 2.0])
    y = chain(x)
    (g,) = phi.grad(phi.sum(phi.multiply(y, y)), x, create_graph=True)
    # y = x + DEPTH/2, d(sum y^2)/dx = 2y, d(sum 2y)/dx = 2.
    np.testing.assert_allclose(g.numpy(), 2 * (np.array([1.0, 2.0]) + DEPTH * 0.5))
    (gg,) = phi.grad(phi.sum(g), x)
    np.testing.assert_array_equal(gg.numpy(), [2.0, 2.0])


def test_numpy_is_a_read_only_view_so_writes_cannot_corrupt_saved_tensors() -> None:
    x = leaf([1.0, 2.0])
    y = phi.exp(x)
    array = y.numpy()
    with pytest.raises(ValueError, match="read-only"):
        array[0] = 100.0
    phi.sum(phi.multiply(y, y)).backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * np.exp([2.0, 4.0]))


def test_numpy_copy_is_writable_and_independent() -> None:
    x = phi.to_tensor([1.0, 2.0])
    array = x.numpy().copy()
    array[0] = 9.0
    assert x.numpy().tolist() == [1.0, 2.0]


def test_a_hook_returning_another_dtype_is_an_error_naming_the_tensor() -> None:
    x = leaf([1.0, 2.0])
    x.register_hook(lambda g: phi.cast(g, "float32"))
    with pytest.raises(InvalidArgumentError, match=r"leaf tensor.*float64 \[2\].*float32 \[2\]"):
        phi.sum(phi.exp(x)).backward()


def test_a_hook_returning_another_shape_is_an_error_naming_the_op_output() -> None:
    x = leaf([1.0, 2.0])
    y = phi.exp(x)
    y.register_hook(lambda g: phi.sum(g))
    with pytest.raises(InvalidArgumentError, match=r"output 0 of 'exp'.*float64 \[\]"):
        phi.sum(y).backward()


def test_a_hook_returning_a_non_tensor_is_an_error() -> None:
    x = leaf([1.0])
    x.register_hook(lambda g: 5)
    with pytest.raises(InvalidArgumentError, match="got int 5"):
        phi.sum(x).backward()


def test_register_hook_with_a_non_callable_is_an_error() -> None:
    with pytest.raises(InvalidArgumentError, match="register_hook: hook must be callable.*int 5"):
        leaf([1.0]).register_hook(5)


def test_grad_with_none_inputs_is_an_error() -> None:
    x = leaf([1.0])
    with pytest.raises(InvalidArgumentError, match="grad: inputs must be a Tensor.*NoneType"):
        phi.grad(phi.sum(x), None)


def test_grad_with_a_non_tensor_output_is_an_error() -> None:
    x = leaf([1.0])
    with pytest.raises(InvalidArgumentError, match=r"grad: outputs\[0\] must be a Tensor"):
        phi.grad([3.0], x)


def test_grad_outputs_of_the_wrong_dtype_is_an_error() -> None:
    x = leaf([1.0, 2.0])
    y = phi.exp(x)
    seed = phi.to_tensor(np.ones(2, dtype="float32"))
    with pytest.raises(InvalidArgumentError, match="grad_tensor has dtype float32.*float64"):
        phi.grad(y, x, grad_outputs=seed)


def test_grad_outputs_that_is_not_a_tensor_is_an_error() -> None:
    x = leaf([1.0, 2.0])
    with pytest.raises(InvalidArgumentError, match="grad_outputs must be"):
        phi.grad(phi.exp(x), x, grad_outputs=1.0)
    with pytest.raises(InvalidArgumentError, match="grad_tensor must be a Tensor or None"):
        phi.grad(phi.exp(x), x, grad_outputs=[1.0])
