"""Adam's step both ways: the optional compiled kernel (runtime.kernels._native.adam_step,
FLAGS_use_native_kernels on) and the numpy functor (flag off) give the same bits, for adam_,
merged_adam_ and the optimizers on top of them; arrays the C code cannot take (another dtype,
non-contiguous) take the numpy path."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime import flags
from phiops.runtime.kernels import native
from phiops.runtime.kernels.impl.optimizer_functors import AdamScalars, adam_step_
from phiops.runtime.optimizer import Adam, AdamW

NOT_BUILT = "phiops.runtime.kernels._native is not built (no C compiler when phiops was installed)"
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


# merged_adam_'s whole step in one C call (runtime.kernels._native.adam_steps)

MERGED_SHAPES = [(64, 13), (13,), (13, 10), (10,)]


class StepsSpy:
    def __init__(self, module: Any) -> None:
        self.module, self.calls = module, {"adam_step": 0, "adam_steps": 0}

    def adam_step(self, *args: Any) -> None:
        self.calls["adam_step"] += 1
        self.module.adam_step(*args)

    def adam_steps(self, *args: Any) -> None:
        self.calls["adam_steps"] += 1
        self.module.adam_steps(*args)


def _merged(
    use_native: bool,
    dtype: str,
    state_dtype: str,
    shared_rate: bool,
    global_pow: bool,
    grad_dtype: str | None = None,
) -> list[np.ndarray]:
    """Three merged_adam_ calls on MERGED_SHAPES; every output array afterwards."""
    rng = np.random.default_rng(7)
    count = len(MERGED_SHAPES)

    def tensors(make: Any, kind: str) -> list[Any]:
        return [phi.to_tensor(make(s).astype(kind)) for s in MERGED_SHAPES]

    params = tensors(rng.standard_normal, dtype)
    moment1 = tensors(rng.standard_normal, dtype)
    moment2 = tensors(lambda s: np.abs(rng.standard_normal(s)), dtype)
    # distinct powers per parameter (as after steps taken at different times)
    beta1_pow = [phi.to_tensor(np.array([0.9 ** (k + 1)], state_dtype)) for k in range(count)]
    beta2_pow = [phi.to_tensor(np.array([0.999 ** (k + 1)], state_dtype)) for k in range(count)]
    rates = [0.01] if shared_rate else [0.01 * (k + 1) for k in range(count)]
    rate = [phi.to_tensor(np.array([r], state_dtype)) for r in rates]
    with flags.flags_guard({"use_native_kernels": use_native}):
        for _ in range(3):
            grads = tensors(rng.standard_normal, grad_dtype or dtype)
            phi.merged_adam_(
                params,
                grads,
                rate,
                moment1,
                moment2,
                beta1_pow,
                beta2_pow,
                None,
                0.9,
                0.999,
                1e-7,
                False,
                global_pow,
            )
    return [t.numpy().copy() for t in params + moment1 + moment2 + beta1_pow + beta2_pow]


def _merged_both_ways(monkeypatch: Any, **kwargs: Any) -> tuple[dict[str, int], list, list]:
    spy = StepsSpy(native._native)
    monkeypatch.setattr(native, "_native", spy)
    with_c = _merged(True, **kwargs)
    calls = dict(spy.calls)
    without = _merged(False, **kwargs)
    assert spy.calls == calls  # flag off: no C call
    return calls, with_c, without


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shared_rate", [True, False], ids=["one-rate", "rate-each"])
@pytest.mark.parametrize("global_pow", [False, True], ids=["own-pows", "global-pow"])
def test_merged_adam_takes_one_c_call_with_the_same_bits(
    dtype: str, shared_rate: bool, global_pow: bool, monkeypatch: Any
) -> None:
    if not native.NATIVE_BUILT:
        pytest.skip(NOT_BUILT)
    calls, with_c, without = _merged_both_ways(
        monkeypatch, dtype=dtype, state_dtype=dtype, shared_rate=shared_rate, global_pow=global_pow
    )
    assert calls == {"adam_step": 0, "adam_steps": 3}
    for a, b in zip(with_c, without):
        assert a.dtype == np.dtype(dtype)
        np.testing.assert_array_equal(a, b)
    pows = with_c[-2 * len(MERGED_SHAPES) :]
    if global_pow:  # untouched
        assert pows[0][0] == np.array(0.9, dtype)
    else:  # three updates, in the powers' dtype
        assert pows[0][0] == np.array(0.9, dtype) * np.array(0.9, dtype) ** 3


@pytest.mark.parametrize(
    "dtype, state_dtype, grad_dtype, c_calls",
    [
        # the learning rate and beta powers keep their dtype (merged_adam_kernel's
        # _keep_state_dtypes): one differing from the parameters' takes the numpy path
        ("float64", "float32", "float64", 0),
        ("float32", "float64", "float32", 0),
        # the dispatcher casts gradients to the kernel's dtype first: C again
        ("float32", "float32", "float64", 3),
    ],
    ids=["float64-param-float32-state", "float32-param-float64-state", "float64-grad"],
)
def test_merged_adam_with_mixed_dtypes(
    dtype: str, state_dtype: str, grad_dtype: str, c_calls: int, monkeypatch: Any
) -> None:
    if not native.NATIVE_BUILT:
        pytest.skip(NOT_BUILT)
    calls, with_c, without = _merged_both_ways(
        monkeypatch,
        dtype=dtype,
        state_dtype=state_dtype,
        shared_rate=True,
        global_pow=False,
        grad_dtype=grad_dtype,
    )
    assert calls == {"adam_step": 0 if c_calls else 3 * len(MERGED_SHAPES), "adam_steps": c_calls}
    for a, b in zip(with_c, without):
        np.testing.assert_array_equal(a, b)


def _steps_args(count: int = 2) -> list[Any]:
    def arrays(size: int) -> list[np.ndarray]:
        return [np.zeros(size, np.float32) for _ in range(count)]

    return [arrays(4), arrays(4), arrays(4), arrays(4), arrays(1), arrays(1), arrays(1)]


def test_the_c_merged_step_checks_its_arguments() -> None:
    if not native.NATIVE_BUILT:
        pytest.skip(NOT_BUILT)
    steps = native._native.adam_steps
    args = _steps_args()
    args[3] = args[3][:1]
    with pytest.raises(ValueError, match=r"moments2: expected 2 buffers, got 1"):
        steps(*args, 0.9, 0.999, 1e-8, True)
    args = _steps_args()
    args[6] = args[6] + args[6]
    with pytest.raises(ValueError, match=r"learning_rates: expected 2 buffers \(or 1\), got 4"):
        steps(*args, 0.9, 0.999, 1e-8, True)
    args = _steps_args()
    args[1][1] = np.zeros(3, np.float32)
    with pytest.raises(ValueError, match=r"grads\[1\]: expected 4 elements, got 3"):
        steps(*args, 0.9, 0.999, 1e-8, True)
    args = _steps_args()
    args[5][0] = np.zeros(2, np.float32)
    with pytest.raises(ValueError, match=r"beta2_pows\[0\]: expected 1 elements, got 2"):
        steps(*args, 0.9, 0.999, 1e-8, True)
    args = _steps_args()
    args[2][1] = np.zeros(4)
    with pytest.raises(TypeError, match=r"moments1\[1\]: expected buffer format 'f', got 'd'"):
        steps(*args, 0.9, 0.999, 1e-8, True)
    args = _steps_args()
    args[0] = tuple(args[0])
    with pytest.raises(TypeError, match="must be list"):
        steps(*args, 0.9, 0.999, 1e-8, True)
    # a failed check writes nothing: the first parameter's arrays are untouched
    args = _steps_args()
    args[1][0][:] = 1
    args[1][1] = np.zeros(3, np.float32)
    with pytest.raises(ValueError):
        steps(*args, 0.9, 0.999, 1e-8, True)
    assert not args[0][0].any() and not args[2][0].any() and not args[4][0].any()
