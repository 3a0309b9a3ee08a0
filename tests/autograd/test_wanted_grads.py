"""Gradients only where needed: the engine tells a backward op which input gradients
are wanted, and its grad kernel computes only those (PHI passes null outputs for the others)."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
import phiops.generated.backward as phi_backward
from phiops.runtime.kernels.impl import conv_grad_kernel, matmul_grad_kernel
from phiops.runtime.kernels.kernel import swap_wanted_outputs


def _tensor(shape: tuple[int, ...], seed: int, needs_grad: bool) -> phi.Tensor:
    values = np.random.default_rng(seed).uniform(-1, 1, shape)
    tensor = phi.to_tensor(values)
    tensor.stop_gradient = not needs_grad
    return tensor


def _counting_matmuls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = matmul_grad_kernel.blas.matmul

    def counted(*args: object) -> object:
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(matmul_grad_kernel.blas, "matmul", counted)
    return calls


def test_matmul_grad_skips_x_grad_of_a_stop_gradient_input(monkeypatch: pytest.MonkeyPatch) -> None:
    x, w = _tensor((3, 4), 0, False), _tensor((4, 5), 1, True)
    out = phi.sum(phi.matmul(x, w))
    calls = _counting_matmuls(monkeypatch)
    out.backward()
    assert len(calls) == 1  # y_grad only; x_grad would be a second product
    np.testing.assert_allclose(w.grad.numpy(), x.numpy().T @ np.ones((3, 5)))
    assert x.grad is None


def test_matmul_grad_computes_both_when_both_are_wanted(monkeypatch: pytest.MonkeyPatch) -> None:
    x, w = _tensor((3, 4), 0, True), _tensor((4, 5), 1, True)
    out = phi.sum(phi.matmul(x, w))
    calls = _counting_matmuls(monkeypatch)
    out.backward()
    assert len(calls) == 2
    np.testing.assert_allclose(x.grad.numpy(), np.ones((3, 5)) @ w.numpy().T)


def test_a_direct_call_of_a_backward_op_computes_every_gradient() -> None:
    x, y, out_grad = _tensor((2, 3), 0, False), _tensor((3,), 1, False), _tensor((2, 3), 2, False)
    x_grad, y_grad = phi_backward.multiply_grad(x, y, out_grad)
    np.testing.assert_allclose(x_grad.numpy(), out_grad.numpy() * y.numpy())
    np.testing.assert_allclose(y_grad.numpy(), (out_grad.numpy() * x.numpy()).sum(0))


@pytest.mark.parametrize(
    "op", ["add_grad", "subtract_grad", "multiply_grad", "maximum_grad", "elementwise_pow_grad"]
)
@pytest.mark.parametrize("mask", [(True, False), (False, True)])
def test_elementwise_grads_return_none_for_an_unwanted_gradient(
    op: str, mask: tuple[bool, bool]
) -> None:
    x, y = phi.to_tensor(np.full((2, 3), 1.5)), phi.to_tensor(np.full((3,), 2.0))
    out_grad = phi.to_tensor(np.ones((2, 3)))
    full = getattr(phi_backward, op)(x, y, out_grad)
    previous = swap_wanted_outputs(mask)
    try:
        masked = getattr(phi_backward, op)(x, y, out_grad)
    finally:
        swap_wanted_outputs(previous)
    for wanted, got, reference in zip(mask, masked, full):
        if wanted:
            np.testing.assert_array_equal(got.numpy(), reference.numpy())
        else:
            assert got is None


def test_add_with_a_stop_gradient_operand_gives_the_other_its_gradient() -> None:
    x, b = _tensor((2, 3), 0, True), _tensor((3,), 1, False)
    phi.sum(phi.add(x, b)).backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.ones((2, 3)))
    assert b.grad is None


def test_conv2d_grad_skips_the_input_gradient_of_a_stop_gradient_input(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    image, kernel = _tensor((1, 2, 5, 5), 0, False), _tensor((3, 2, 3, 3), 1, True)
    out = phi.sum(phi.conv2d(image, kernel))
    calls: list[int] = []
    real = conv_grad_kernel.input_grad_of

    def counted(*args: object) -> object:
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(conv_grad_kernel, "input_grad_of", counted)
    out.backward()
    assert calls == [] and image.grad is None and kernel.grad is not None


def test_matmul_double_grad_skips_gradients_nobody_wants(monkeypatch: pytest.MonkeyPatch) -> None:
    x, w = _tensor((3, 4), 0, True), _tensor((4, 5), 1, True)
    # the first gradient seeded with a constant ones tensor (a sum would put sum_grad, which
    # has a double grad, between the seed and matmul_grad)
    seed = phi.to_tensor(np.ones((3, 5)))
    (x_grad,) = phi.grad([phi.matmul(x, w)], [x], grad_outputs=[seed], create_graph=True)
    second = phi.sum(phi.multiply(x_grad, x_grad))
    calls = _counting_matmuls(monkeypatch)
    (w_grad,) = phi.grad([second], [w])
    # matmul_double_grad's x_grad and y_grad are wanted (one product each); its grad_out_grad
    # (two more products) is not: the first backward's seed, a constant, leads nowhere.
    assert len(calls) == 2
    ones = np.ones((3, 5))
    expected = 2 * (ones.T @ (ones @ w.numpy().T)).T
    np.testing.assert_allclose(w_grad.numpy(), expected, rtol=1e-12)

