"""Each optimizer's SelectedRows update against its dense update (the gradient made dense) on
one step: on the touched rows they agree (repeated rows of the gradient add up first), and the
other rows are left as PHI leaves them: unchanged by SGD, Adagrad and lazy Adam/AdamW, updated
with a zero gradient by Momentum and non-lazy Adam/AdamW. PHI's SelectedRows Adam updates with
the beta powers advanced one step (runtime/kernels/impl/selected_rows_kernels.py): the dense
update it is compared with is given those powers."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.eager.tensor import wrap_array
from phiops.runtime.tensor import SelectedRows

HEIGHT, WIDTH = 8, 3
ROWS = np.array([5, 1, 5, 2], np.int64)  # row 5 twice
VALUES = np.random.default_rng(3).normal(size=(4, WIDTH)).astype(np.float32)
TOUCHED = np.array([1, 2, 5])
UNTOUCHED = np.array([0, 3, 4, 6, 7])


def _dense_grad() -> np.ndarray:
    dense = np.zeros((HEIGHT, WIDTH), np.float32)
    np.add.at(dense, ROWS, VALUES)
    return dense


def _sparse_grad() -> paddle.Tensor:
    storage = SelectedRows(ROWS.copy(), HEIGHT, VALUES.copy())
    return wrap_array(storage, storage.meta)


def _step(make: Any, grad: Any, steps: int = 2, warm: bool = True) -> np.ndarray:
    """The parameter after ``steps`` steps with ``grad`` (a dense warm-up step first when
    ``warm``, so that every row has state: moments, velocity)."""
    init = np.random.default_rng(5).normal(size=(HEIGHT, WIDTH)).astype(np.float32)
    param = paddle.nn.Embedding(HEIGHT, WIDTH).weight
    param.set_value(init)
    optimizer = make([param])
    if warm:
        param._grad = paddle.to_tensor(np.full((HEIGHT, WIDTH), 0.5, np.float32))
        optimizer.step()
    for _ in range(steps):
        param._grad = grad() if callable(grad) else paddle.to_tensor(grad)
        optimizer.step()
    return param.numpy().copy()


CASES = {
    "sgd": lambda p: paddle.optimizer.SGD(0.1, parameters=p),
    "momentum": lambda p: paddle.optimizer.Momentum(0.1, 0.9, parameters=p),
    "momentum_nesterov": lambda p: paddle.optimizer.Momentum(0.1, 0.9, parameters=p, use_nesterov=True),
    "adagrad": lambda p: paddle.optimizer.Adagrad(0.1, parameters=p),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_update_matches_the_dense_update(name: str) -> None:
    sparse = _step(CASES[name], _sparse_grad)
    dense = _step(CASES[name], _dense_grad())
    np.testing.assert_allclose(sparse[TOUCHED], dense[TOUCHED], rtol=1e-6, atol=1e-7)
    # SGD and Adagrad leave the other rows; Momentum moves them (velocity), as the dense update
    np.testing.assert_allclose(sparse[UNTOUCHED], dense[UNTOUCHED], rtol=1e-6, atol=1e-7)


def test_sgd_and_adagrad_leave_other_rows() -> None:
    for name in ("sgd", "adagrad"):
        warm = _step(CASES[name], _sparse_grad, steps=0)
        after = _step(CASES[name], _sparse_grad, steps=2)
        np.testing.assert_array_equal(after[UNTOUCHED], warm[UNTOUCHED])
        assert not np.allclose(after[TOUCHED], warm[TOUCHED])


def _adam_reference(lazy: bool, decay: float = 0.0) -> np.ndarray:
    """Two steps of PHI's SelectedRows Adam (after a dense warm-up step), in numpy."""
    rate, b1, b2, eps = 0.01, 0.9, 0.999, 1e-8
    param = np.random.default_rng(5).normal(size=(HEIGHT, WIDTH)).astype(np.float64)
    m1, m2 = np.zeros_like(param), np.zeros_like(param)
    pow1, pow2 = b1, b2
    grads = [np.full_like(param, 0.5), _dense_grad(), _dense_grad()]
    for step, grad in enumerate(grads):
        param *= 1 - rate * decay
        rows = TOUCHED if lazy and step else slice(None)
        # the dense warm-up step updates with the current powers, the sparse ones advanced
        p1, p2 = (pow1 * b1, pow2 * b2) if step else (pow1, pow2)
        m1[rows] = b1 * m1[rows] + (1 - b1) * grad[rows]
        m2[rows] = b2 * m2[rows] + (1 - b2) * grad[rows] ** 2
        size = rate * np.sqrt(1 - p2) / (1 - p1)
        param[rows] -= size * m1[rows] / (np.sqrt(m2[rows]) + eps * np.sqrt(1 - p2))
        # the accumulators: advanced once per step (the sparse kernel returns what it used)
        pow1, pow2 = (p1, p2) if step else (pow1 * b1, pow2 * b2)
    return param


@pytest.mark.parametrize("lazy", [False, True])
@pytest.mark.parametrize("kind", ["Adam", "AdamW"])
def test_adam_lazy_and_non_lazy(kind: str, lazy: bool) -> None:
    decay = 0.05 if kind == "AdamW" else 0.0
    extra = {"weight_decay": decay} if kind == "AdamW" else {}
    make = lambda p: getattr(paddle.optimizer, kind)(  # noqa: E731
        0.01, parameters=p, lazy_mode=lazy, **extra
    )
    got = _step(make, _sparse_grad)
    want = _adam_reference(lazy, decay)
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-6)
    if lazy and not decay:
        # lazy: untouched rows keep what the warm-up step gave them
        warm = _step(make, _sparse_grad, steps=0)
        np.testing.assert_array_equal(got[UNTOUCHED], warm[UNTOUCHED])
