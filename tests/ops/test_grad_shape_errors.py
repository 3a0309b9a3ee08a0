"""Grad ops called directly with a gradient of the wrong shape raise a phiops error naming the op
and the argument (never a numpy broadcasting or reshape error, never a silently wrong result);
the gradient of the forward op's own output shape is accepted."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import phiops.generated as phi
from phiops.generated import backward as grads
from phiops.runtime.errors import InvalidArgumentError


def _ones(shape: list[int], dtype: str = "float32") -> phi.Tensor:
    return phi.to_tensor(np.ones(shape, dtype))


def _index(values: list[Any]) -> phi.Tensor:
    return phi.to_tensor(np.array(values, "int64"))


def _like(tensor: phi.Tensor, shape: list[int] | None = None) -> phi.Tensor:
    return _ones(tensor.shape if shape is None else shape)


X = _ones([3, 4])
ROWS = _index([[0], [2]])
MASK = phi.to_tensor(np.array([[True, False, True, False]] * 3))
VECTOR = _ones([3])
MESH = [_ones([2]), _ones([3])]
VOLUME = _ones([2, 3, 4])

# op -> (call with a gradient of `shape`, the forward output's shape, a wrong shape, argument)
CASES: dict[str, tuple[Callable[[list[int]], Any], list[int], list[int], str]] = {
    "gather_nd_grad": (
        lambda shape: grads.gather_nd_grad(X, ROWS, _ones(shape)),
        phi.gather_nd(X, ROWS).shape, [5, 4], "out_grad",
    ),
    "scatter_nd_add_grad": (
        lambda shape: grads.scatter_nd_add_grad(ROWS, _ones([2, 4]), _ones(shape)),
        phi.scatter_nd_add(X, ROWS, _ones([2, 4])).shape, [3, 5], "updates",
    ),
    "index_put_grad": (
        lambda shape: grads.index_put_grad(X, [_index([0, 2])], _ones([4]), _ones(shape), False),
        phi.index_put(X, [_index([0, 2])], _ones([4])).shape, [5, 4], "out_grad",
    ),
    "masked_select_grad": (
        lambda shape: grads.masked_select_grad(X, MASK, _ones(shape)),
        phi.masked_select(X, MASK).shape, [5], "out_grad",
    ),
    "diag_grad": (
        lambda shape: grads.diag_grad(VECTOR, _ones(shape), 1),
        phi.diag(VECTOR, 1).shape, [3, 3], "out_grad",
    ),
    "diag_grad of a matrix": (
        lambda shape: grads.diag_grad(X, _ones(shape), -1),
        phi.diag(X, -1).shape, [3], "out_grad",
    ),
    "meshgrid_grad": (
        lambda shape: grads.meshgrid_grad(MESH, [_ones([2, 3]), _ones(shape)]),
        phi.meshgrid(MESH)[1].shape, [4, 3], "outputs_grad[1]",
    ),
    "instance_norm_grad": (
        lambda shape: grads.instance_norm_grad(
            VOLUME, _ones([3]), _ones([6]), _ones([6]), _ones(shape), 1e-5
        ),
        phi.instance_norm(VOLUME, _ones([3]), _ones([3]), 1e-5).shape, [2, 3, 5], "y_grad",
    ),
    "layer_norm_grad": (
        lambda shape: grads.layer_norm_grad(
            X, _ones([4]), _ones([4]), _ones([3]), _ones([3]), _ones(shape), 1e-5, 1
        ),
        phi.layer_norm(X, _ones([4]), _ones([4]), 1e-5, 1).shape, [4, 4], "out_grad",
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_forward_output_shape_is_accepted(case: str) -> None:
    call, good, _, _ = CASES[case]
    call(list(good))


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_gradient_of_the_wrong_shape_is_named(case: str) -> None:
    call, good, bad, argument = CASES[case]
    assert list(bad) != list(good)
    with pytest.raises(InvalidArgumentError) as caught:
        call(bad)
    message = str(caught.value)
    assert message.startswith(case.split()[0] + "(")
    assert f"argument '{argument}'" in message and str(list(bad)) in message


def test_meshgrid_grad_needs_one_gradient_per_input() -> None:
    with pytest.raises(InvalidArgumentError, match="'outputs_grad' must hold 2 tensors"):
        grads.meshgrid_grad(MESH, [_ones([2, 3])])


@pytest.mark.parametrize("shape, offset", [([4], 0), ([4], -2), ([3, 5], 2), ([5, 3], -1),
                                           ([3, 5], 7), ([], 1)])  # fmt: skip
def test_diag_grad_takes_every_diag_output_shape(shape: list[int], offset: int) -> None:
    x = phi.to_tensor(np.arange(int(np.prod(shape)), dtype="float64").reshape(shape))
    out = phi.diag(x, offset)
    grad = grads.diag_grad(x, phi.to_tensor(np.ones(out.shape)), offset)
    assert grad.shape == x.shape


@pytest.mark.parametrize("native", [True, False])
def test_layer_norm_grad_statistics_of_the_wrong_size_are_named(native: bool) -> None:
    phi.set_flags({"use_native_kernels": native})
    try:
        with pytest.raises(InvalidArgumentError, match=r"'mean' must hold 3 values \(one per"):
            grads.layer_norm_grad(X, None, None, _ones([2]), _ones([3]), _ones([3, 4]), 1e-5, 1)
        with pytest.raises(InvalidArgumentError, match=r"'scale' must hold 4 values"):
            grads.layer_norm_grad(
                X, _ones([5]), None, _ones([3]), _ones([3]), _ones([3, 4]), 1e-5, 1
            )
    finally:
        phi.set_flags({"use_native_kernels": True})
