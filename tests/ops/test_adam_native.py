"""Adam's step both ways: the optional compiled kernel (runtime.kernels._native.adam_step,
FLAGS_use_native_kernels on) and the numpy functor (flag off) give the same bits, for adam_,
merged_adam_ and the optimizers on top of them; arrays the C code cannot take (another dtype,
non-contiguous) take the numpy path."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import generated as phi
from runtime import flags
from runtime.kernels import native
from runtime.kernels.impl.optimizer_functors import AdamScalars, adam_step_
from runtime.optimizer import Adam, AdamW

NOT_BUILT = "runtime.kernels._native is not built (no C compiler when phiops was installed)"
SHAPES = [(64, 33), (33,), (5, 7), (1,)]


def _train(kind: Any, use_native: bool, multi: bool, dtype: str) -> list[np.ndarray]:
    rng = np.random.default_rng(4)
    params = [
        phi.to_tensor(rng.standard_normal(s).astype(dtype), stop_gradient=False) for s in SHAPES
    ]
    with flags.flags_guard({"use_native_kernels": use_native}):
        optimizer = kind(learning_rate=0.01, parameters=params, use_multi_tensor=multi)
        for _ in range(4):
            phi.add_n([phi.sum(p * p * p) for p in params]).backward()
            optimizer.step()
            optimizer.clear_grad()
    return [p.numpy().copy() for p in params]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("kind", [Adam, AdamW])
@pytest.mark.parametrize("multi", [True, False], ids=["merged_adam_", "adam_"])
def test_native_and_numpy_steps_give_the_same_bits(kind: Any, multi: bool, dtype: str) -> None:
    if not native.NATIVE_BUILT:
        pytest.skip(NOT_BUILT)
    with_c = _train(kind, True, multi, dtype)
    without = _train(kind, False, multi, dtype)
    for a, b in zip(with_c, without):
        assert a.dtype == np.dtype(dtype)
        np.testing.assert_array_equal(a, b)


def _scalars(dtype: Any) -> AdamScalars:
    one = np.ones(1, dtype)
    return AdamScalars(np, dtype, one * 0.01, one * 0.9, one * 0.999, 0.9, 0.999, 1e-8)


class Spy:
    def __init__(self, module: Any) -> None:
        self.module, self.calls = module, 0

    def adam_step(self, *args: Any) -> None:
        self.calls += 1
        self.module.adam_step(*args)


@pytest.mark.parametrize(
    "make, runs_in_c",
    [
        (lambda a: a, True),
        (lambda a: np.asfortranarray(a), False),  # not C-contiguous
        (lambda a: a.astype(np.float16), False),  # a dtype the C code does not take
    ],
    ids=["contiguous-float32", "fortran-order", "float16"],
)
def test_only_arrays_the_c_code_takes_reach_it(make: Any, runs_in_c: bool, monkeypatch) -> None:
    if not native.NATIVE_BUILT:
        pytest.skip(NOT_BUILT)
    spy = Spy(native._native)
    monkeypatch.setattr(native, "_native", spy)
    rng = np.random.default_rng(1)
    base = [rng.standard_normal((6, 5)).astype(np.float32) for _ in range(4)]
    base[3] = np.abs(base[3])  # moment2 >= 0
    arrays = [make(a.copy()) for a in base]
    expected = [make(a.copy()) for a in base]
    with flags.flags_guard({"use_native_kernels": True}):
        adam_step_(np, *arrays, _scalars(arrays[0].dtype), None)
    with flags.flags_guard({"use_native_kernels": False}):
        adam_step_(np, *expected, _scalars(expected[0].dtype), None)
    assert spy.calls == (1 if runs_in_c else 0)
    for got, want in zip(arrays, expected):
        np.testing.assert_array_equal(got, want)


def test_the_c_step_checks_its_buffers() -> None:
    if not native.NATIVE_BUILT:
        pytest.skip(NOT_BUILT)
    param, grad = np.zeros(4, np.float32), np.zeros(3, np.float32)
    with pytest.raises(ValueError, match="grad: expected 4 elements, got 3"):
        native._native.adam_step(param, grad, param.copy(), param.copy(), *[0.5] * 6)
    with pytest.raises(TypeError, match="moment1: expected buffer format 'f'"):
        native._native.adam_step(param, param, np.zeros(4), param.copy(), *[0.5] * 6)
