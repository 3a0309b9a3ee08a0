"""The dtypes PaddlePaddle 3.3.1 registers on CPU that these kernels lacked: integer exp, expm1,
log, log10, log1p and log2 (float32 results); complex log, sqrt, square and pow grads and tanh,
sigmoid and square double grads; integer pow, mean, prod, divide and elementwise_pow grads (bool
and the small integers too for divide and mean). Every case of tests/tools/make_dtype24_fixtures.py
equals 3.3.1's recording (tests/data/dtype24/dtype24.npz); the integer forward kernels, which
eager calls never reach (they cast to float32 first), are checked directly and through a static
program; what 3.3.1 never returns from (a hang, SIGFPE) is refused here."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import phiops
import phiops.generated.backward as grads
from phiops.runtime.common import Backend, CPUPlace, DataLayout, DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels import KERNEL_FACTORY, KernelContext, KernelKey
from tests.tools.make_dtype24_fixtures import UNARY_FLOAT_OUT, as_arrays, cases

D = DataType
RECORDED = np.load(Path(__file__).resolve().parents[1] / "data" / "dtype24" / "dtype24.npz")
CASES = cases(phiops, grads)
CPU = KernelContext(np, CPUPlace())


def _kernel(name: str, dtype: DataType):  # noqa: ANN202
    return KERNEL_FACTORY.select(name, KernelKey(Backend.CPU, DataLayout.ALL_LAYOUT, dtype))


def _equal_to_recording(got: np.ndarray, want: np.ndarray) -> None:
    assert got.dtype == want.dtype and got.shape == want.shape
    if want.dtype.kind in "biu":
        np.testing.assert_array_equal(got, want)
    else:
        # PaddlePaddle's complex128 exp (sigmoid, tanh) is good to about 1e-7 relative on CPU
        rtol = 1e-5 if want.dtype in (np.float32, np.complex64) else 1e-6
        np.testing.assert_allclose(got, want, rtol=rtol, atol=1e-6)


@pytest.mark.parametrize("case", sorted(CASES))
def test_case_equals_paddle_3_3_1(case: str) -> None:
    got = as_arrays(CASES[case]())
    assert len(got) == len([k for k in RECORDED.files if k.startswith(case + "/")])
    for index, array in enumerate(got):
        _equal_to_recording(array, RECORDED[f"{case}/{index}"])


@pytest.mark.parametrize("op", UNARY_FLOAT_OUT)
@pytest.mark.parametrize("dtype", [D.INT32, D.INT64], ids=["int32", "int64"])
def test_integer_kernel_casts_to_float32_first(op: str, dtype: DataType) -> None:
    kernel = _kernel(op, dtype)
    assert kernel.args_def.outputs[0].dtype is D.FLOAT32
    x = np.array([0, 1, 3, -2, 16777217, 2**40 + 1 if dtype is D.INT64 else 9], dtype.numpy_dtype)
    with np.errstate(all="ignore"):
        want = getattr(np, op)(x.astype(np.float32))
    got = kernel.fn(CPU, x)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, want)


def test_a_static_program_runs_the_integer_kernel_of_exp_and_log() -> None:
    phiops.enable_static()
    try:
        main = phiops.static.Program()
        with phiops.static.program_guard(main):
            x = phiops.static.data("x", [2, -1], "int64")
            outs = [phiops.exp(x), phiops.log(x)]
        assert [str(o.dtype) for o in outs] == ["phi.float32", "phi.float32"]
        feed = np.array([[1, 2], [3, 4]], np.int64)
        got = phiops.static.Executor().run(main, feed={"x": feed}, fetch_list=outs)
    finally:
        phiops.disable_static()
    assert got[0].dtype == np.float32
    np.testing.assert_array_equal(got[0], np.exp(feed.astype(np.float32)))
    np.testing.assert_array_equal(got[1], np.log(feed.astype(np.float32)))


def test_integer_divide_grad_truncates_toward_zero_as_cpp() -> None:
    x = np.array([7, -7, 7, -7], np.int64)
    y = np.array([2, 2, -2, -2], np.int64)
    out = np.array([3, -3, -3, 3], np.int64)  # C++'s 7 / 2 etc.
    dout = np.array([7, 7, 7, 7], np.int64)
    x_grad, y_grad = _kernel("divide_grad", D.INT64).fn(CPU, x, y, out, dout, -1)
    assert x_grad.tolist() == [3, 3, -3, -3]  # 7 / y, truncated
    assert y_grad.tolist() == [-10, 10, -10, 10]  # -7 * out / y, truncated


def test_integer_mean_grad_truncates_toward_zero() -> None:
    x = np.zeros((2, 3), np.int32)
    got = _kernel("mean_grad", D.INT32).fn(CPU, x, np.array([8, -8], np.int32), (1,), False, False)
    assert got.dtype == np.int32 and got.tolist() == [[2, 2, 2], [-2, -2, -2]]


def test_integer_pow_grad_with_a_negative_power_is_refused() -> None:
    x = phiops.to_tensor(np.array([1, 2], np.int32))
    out_grad = phiops.to_tensor(np.array([1, 1], np.int32))
    for y in (0.5, 0, -1):
        with pytest.raises(InvalidArgumentError, match=r"pow_grad.*y >= 1"):
            grads.pow_grad(x, out_grad, y)


def test_integer_prod_grad_of_a_zero_is_refused() -> None:
    x = phiops.to_tensor(np.array([[1, 0, 3]], np.int64))
    out = phiops.to_tensor(np.array([0], np.int64))
    with pytest.raises(InvalidArgumentError, match=r"prod_grad.*'x'.*holds 0"):
        grads.prod_grad(x, out, phiops.to_tensor(np.array([1], np.int64)), [1], False, False)


def test_integer_divide_grad_by_zero_is_refused() -> None:
    x = phiops.to_tensor(np.array([1, 2], np.int16))
    y = phiops.to_tensor(np.array([1, 0], np.int16))
    with pytest.raises(InvalidArgumentError, match=r"divide_grad.*'y'.*holds 0"):
        grads.divide_grad(x, y, x, x, -1)


def test_complex_sqrt_grad_through_autograd_is_the_conjugate_derivative() -> None:
    x = np.array([0.5 + 0.3j, -0.2 + 1.1j], np.complex128)
    g = np.array([1 + 2j, 0.5 - 1j], np.complex128)
    xt = phiops.to_tensor(x, stop_gradient=False)
    (got,) = phiops.grad(phiops.sqrt(xt), xt, phiops.to_tensor(g))
    np.testing.assert_allclose(got.numpy(), g * np.conj(0.5 / np.sqrt(x)), rtol=1e-12)
