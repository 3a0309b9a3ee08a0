"""runtime.optimizer: SGD and Adam on the in-place ops, with PaddlePaddle's interface."""

from __future__ import annotations

import numpy as np
import pytest

import generated as phi
from runtime.errors import InvalidArgumentError
from runtime.optimizer import SGD, Adam


def param(values: list[float]) -> phi.Tensor:
    return phi.to_tensor(np.array(values, np.float32), stop_gradient=False)


def test_sgd_step_moves_against_the_gradient_in_place() -> None:
    w = param([1.0, 2.0])
    storage = w._impl.array
    optimizer = SGD(learning_rate=0.5, parameters=[w])
    phi.sum(phi.multiply(w, w)).backward()  # grad = 2w
    optimizer.step()
    assert w._impl.array is storage
    np.testing.assert_allclose(w.numpy(), [0.0, 0.0])


def test_step_skips_parameters_without_a_gradient() -> None:
    used, unused = param([1.0]), param([1.0])
    optimizer = SGD(learning_rate=1.0, parameters=[used, unused])
    phi.sum(used).backward()
    optimizer.step()
    assert used.numpy().tolist() == [0.0] and unused.numpy().tolist() == [1.0]


def test_adam_matches_the_reference_formula_over_three_steps() -> None:
    w = param([1.0, -2.0, 3.0])
    optimizer = Adam(learning_rate=0.1, parameters=[w])
    reference = np.array([1.0, -2.0, 3.0])
    m = v = np.zeros(3)
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    for step in range(1, 4):
        optimizer.clear_grad()
        phi.sum(phi.multiply(w, w)).backward()
        optimizer.step()
        grad = 2 * reference
        m = beta1 * m + (1 - beta1) * grad
        v = beta2 * v + (1 - beta2) * grad * grad
        lr = 0.1 * np.sqrt(1 - beta2**step) / (1 - beta1**step)
        reference = reference - lr * m / (np.sqrt(v) + eps * np.sqrt(1 - beta2**step))
    np.testing.assert_allclose(w.numpy(), reference, rtol=1e-5)


def test_step_records_no_gradient() -> None:
    w = param([1.0])
    optimizer = Adam(parameters=[w])
    phi.sum(w).backward()
    optimizer.step()
    assert w.is_leaf and not w.stop_gradient


def test_set_lr_changes_the_next_step() -> None:
    w = param([1.0])
    optimizer = SGD(learning_rate=0.1, parameters=[w])
    optimizer.set_lr(1.0)
    phi.sum(w).backward()
    optimizer.step()
    assert optimizer.get_lr() == 1.0 and w.numpy().tolist() == [0.0]


def test_clear_grad_resets_every_parameter() -> None:
    w = param([1.0])
    optimizer = SGD(parameters=[w])
    phi.sum(w).backward()
    optimizer.clear_grad()
    assert w.grad.numpy().tolist() == [0.0]


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: SGD(parameters=[]), "SGD: 'parameters' is empty"),
        (
            lambda: SGD(parameters=[phi.to_tensor([1.0])]),
            r"SGD: parameters\[0\] has stop_gradient=True",
        ),
        (lambda: SGD(parameters=[np.ones(1)]), r"SGD: parameters\[0\] is a ndarray, not a Tensor"),
        (
            lambda: SGD(learning_rate=-1.0, parameters=[param([1.0])]),
            "learning_rate must be a non-negative number, got -1.0",
        ),
        (
            lambda: Adam(beta1=1.0, parameters=[param([1.0])]),
            r"Adam: beta1 must be in \[0, 1\), got 1.0",
        ),
        (
            lambda: Adam(epsilon=0.0, parameters=[param([1.0])]),
            "Adam: epsilon must be positive, got 0.0",
        ),
    ],
)
def test_bad_arguments_are_named(make: object, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        make()
