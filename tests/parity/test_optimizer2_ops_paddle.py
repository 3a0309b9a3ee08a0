"""The optimizer ops of issues 24 and 25 (adagrad_, rmsprop_, adamax_, adadelta_, lamb_, nadam_,
radam_, rprop_, asgd_, and adam_/adamw_ with amsgrad) against ``paddle._C_ops``: the same
inputs, every updated tensor compared, for float32 and float64. Runs only where PaddlePaddle is
installed."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops.generated as phi  # noqa: E402

SHAPE = (3, 5)
TOLERANCE = {"float32": {"rtol": 1e-5, "atol": 1e-6}, "float64": {"rtol": 1e-12, "atol": 1e-13}}


def _inputs(op: str, dtype: str, seed: int) -> tuple[list[Any], tuple[Any, ...]]:
    """(the op's tensor inputs as arrays, None for an absent one; its attributes)."""
    rng = np.random.default_rng(seed)

    def normal() -> np.ndarray:
        return rng.standard_normal(SHAPE).astype(dtype)

    def positive() -> np.ndarray:
        return rng.uniform(0.1, 1.0, SHAPE).astype(dtype)

    def one(value: float) -> np.ndarray:
        return np.array([value], dtype)

    lr = one(0.05)
    if op == "adagrad_":
        return [normal(), normal(), positive(), lr, None], (1e-6, False)
    if op == "rmsprop_":
        return [normal(), positive(), normal(), normal(), lr, 0.1 * normal(), None], (
            1e-10,
            0.9,
            0.3,
            False,
            False,
        )
    if op == "adamax_":
        return [normal(), normal(), lr, normal(), positive(), one(0.9**3), None], (
            0.9,
            0.99,
            1e-8,
            False,
        )
    if op == "adadelta_":
        return [normal(), normal(), positive(), positive(), lr, None], (0.9, 1e-6, False)
    if op == "lamb_":
        tensors = [normal(), normal(), lr, normal(), positive(), one(0.9**2), one(0.999**2)]
        return tensors + [None, None], (0.01, 0.9, 0.999, 1e-6, False, False)
    if op == "nadam_":
        pows = [np.full(SHAPE, 0.96**3, dtype), np.full(SHAPE, 0.999**3, dtype)]
        tensors = [normal(), normal(), lr, *pows, np.full(SHAPE, 0.5, dtype), normal()]
        return tensors + [positive(), None], (0.9, 0.999, 1e-8, 0.004, False)
    if op == "radam_":
        step = 8
        pows = [np.full(SHAPE, 0.9**step, dtype), np.full(SHAPE, 0.999**step, dtype)]
        rho = np.full(SHAPE, 3.5, dtype)
        return [normal(), normal(), lr, *pows, rho, normal(), positive(), None], (
            0.9,
            0.999,
            1e-8,
            False,
        )
    if op == "rprop_":
        prev = normal()
        prev[0, :2] = 0
        rates = rng.uniform(1e-5, 0.1, SHAPE).astype(dtype)
        rates[1, 0] = 1e-5
        bounds, etas = np.array([1e-5, 0.05], dtype), np.array([0.5, 1.2], dtype)
        return [normal(), normal(), prev, rates, None, bounds, etas], (False,)
    if op == "asgd_":
        return [normal(), normal(), lr, normal(), normal(), one(3), None], (False,)
    if op in ("adam_", "adamw_"):
        tensors = [normal(), normal(), lr, normal(), positive(), positive()]
        tensors += [one(0.9**2), one(0.999**2), None, None, 0.9, 0.999, 1e-8]
        decay = (0.5, 0.1, True) if op == "adamw_" else ()
        return tensors, (*decay, False, 1000, False, False, True)
    raise AssertionError(op)


OPS = [
    "adagrad_",
    "rmsprop_",
    "adamax_",
    "adadelta_",
    "lamb_",
    "nadam_",
    "radam_",
    "rprop_",
    "asgd_",
    "adam_",
    "adamw_",
]


def _run(
    to: Callable[[np.ndarray], Any], op: Callable[..., Any], tensors: list[Any], attrs: tuple
) -> list[np.ndarray]:
    args = [to(a.copy()) if isinstance(a, np.ndarray) else a for a in tensors]
    op(*args, *attrs)
    return [a.numpy() for a in args if not isinstance(a, (type(None), float))]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("op", OPS)
def test_the_op_updates_every_tensor_as_paddles(op: str, dtype: str) -> None:
    tensors, attrs = _inputs(op, dtype, seed=OPS.index(op))
    ours = _run(phi.to_tensor, getattr(phi, op), tensors, attrs)
    theirs = _run(paddle.to_tensor, getattr(paddle._C_ops, op), tensors, attrs)
    assert len(ours) == len(theirs)
    tolerance = TOLERANCE[dtype]
    if op == "adamw_" and dtype == "float64":
        # adamw_'s decoupled decay differs from PaddlePaddle's by ~4e-11 with or without amsgrad
        tolerance = {"rtol": 1e-9, "atol": 1e-10}
    for got, want in zip(ours, theirs):
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, **tolerance)


@pytest.mark.parametrize("centered", [False, True])
def test_rmsprop_with_and_without_centering_as_paddles(centered: bool) -> None:
    tensors, _ = _inputs("rmsprop_", "float64", seed=11)
    attrs = (1e-6, 0.8, 0.5, centered, False)
    ours = _run(phi.to_tensor, phi.rmsprop_, tensors, attrs)
    theirs = _run(paddle.to_tensor, paddle._C_ops.rmsprop_, tensors, attrs)
    for got, want in zip(ours, theirs):
        np.testing.assert_allclose(got, want, **TOLERANCE["float64"])


@pytest.mark.parametrize("weight_decay, always_adapt", [(0.0, False), (0.0, True), (0.1, False)])
def test_lamb_trust_ratio_as_paddles(weight_decay: float, always_adapt: bool) -> None:
    tensors, _ = _inputs("lamb_", "float64", seed=12)
    attrs = (weight_decay, 0.9, 0.999, 1e-6, always_adapt, False)
    ours = _run(phi.to_tensor, phi.lamb_, tensors, attrs)
    theirs = _run(paddle.to_tensor, paddle._C_ops.lamb_, tensors, attrs)
    for got, want in zip(ours, theirs):
        np.testing.assert_allclose(got, want, **TOLERANCE["float64"])


@pytest.mark.parametrize("step", [1, 3, 6, 20])
def test_radam_on_both_sides_of_the_rectification_threshold_as_paddles(step: int) -> None:
    tensors, attrs = _inputs("radam_", "float64", seed=13)
    beta2_pow = 0.999 ** (step - 1)
    rho = 0.0
    for t in range(1, step):  # rho's recursion from its start, 1
        b2 = 0.999**t
        rho = (rho if t > 1 else 1.0) * (0.999 - b2) / (1 - b2) + b2 / (1 - b2)
    tensors[3] = np.full(SHAPE, 0.9 ** (step - 1))
    tensors[4] = np.full(SHAPE, beta2_pow)
    tensors[5] = np.full(SHAPE, rho if step > 1 else 1.0)
    ours = _run(phi.to_tensor, phi.radam_, tensors, attrs)
    theirs = _run(paddle.to_tensor, paddle._C_ops.radam_, tensors, attrs)
    for got, want in zip(ours, theirs):
        np.testing.assert_allclose(got, want, **TOLERANCE["float64"])
