"""Exact gelu through the optional compiled kernel (runtime.kernels._native: the C library's erf,
as PHI's CPU kernel uses std::erf) and through the numpy code (FLAGS_use_native_kernels off,
Cody's rational approximations): both against a float64 reference written from math.erf, and
against each other, over the whole range (0, tiny, huge, +-inf, NaN, -0.0)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime import flags
from phiops.runtime.kernels import native

NOT_BUILT = "phiops.runtime.kernels._native is not built (no C compiler when phiops was installed)"


def _values(dtype: str) -> np.ndarray:
    rng = np.random.default_rng(5)
    special = [0.0, -0.0, 1e-30, -1e-30, 0.46875, -0.46875, 4.0, -4.0, 5.9, -5.9, 30.0, -30.0,
               1e30, -1e30, np.inf, -np.inf, np.nan]  # fmt: skip
    return np.concatenate([rng.standard_normal(500) * 3, special]).astype(dtype).reshape(-1, 1)


def _reference(x: np.ndarray) -> np.ndarray:
    """The formula in float64 Python arithmetic (gelu(-inf) = -inf * 0 is NaN, as PHI's)."""
    flat = [
        v * 0.5 * (1 + math.erf(v * math.sqrt(0.5))) for v in x.astype(np.float64).ravel().tolist()
    ]
    return np.array(flat).reshape(x.shape)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("use_native", [True, False], ids=["native", "numpy"])
def test_gelu_matches_the_erf_reference(dtype: str, use_native: bool) -> None:
    if use_native and not (native.NATIVE_BUILT and hasattr(native._native, "gelu")):
        pytest.skip(NOT_BUILT)
    x = _values(dtype)
    with flags.flags_guard({"use_native_kernels": use_native}):
        out = phi.gelu(phi.to_tensor(x), False).numpy()
    assert out.dtype == np.dtype(dtype)
    expected = _reference(x)
    assert np.array_equal(np.isnan(out), np.isnan(expected))
    # the formula's own rounding: 1 + erf(x / sqrt 2) cancels for negative x, so the error is
    # a few units of the dtype's epsilon times |x|, not relative to the (tiny) result
    eps = np.finfo(dtype).eps
    infinite = np.isinf(expected)
    assert (out[infinite] == expected[infinite]).all()
    finite = np.isfinite(expected)
    error = np.abs(out[finite].astype(np.float64) - expected[finite])
    bound = 4 * eps * np.maximum(np.abs(x[finite].astype(np.float64)), np.finfo(dtype).tiny)
    assert (error <= bound).all(), f"largest error over bound: {(error / bound).max():.2f}"
    assert np.signbit(out[501, 0]) and out[501, 0] == 0  # gelu(-0.0) is -0.0 on both paths


@pytest.mark.skipif(not native.NATIVE_BUILT, reason=NOT_BUILT)
def test_the_native_gelu_runs_on_a_non_contiguous_input() -> None:
    base = np.linspace(-3, 3, 24, dtype=np.float32).reshape(4, 6)
    view = base[:, ::2]
    with flags.flags_guard({"use_native_kernels": True}):
        out = phi.gelu(phi.to_tensor(view), False).numpy()
    with flags.flags_guard({"use_native_kernels": False}):
        numpy_out = phi.gelu(phi.to_tensor(view), False).numpy()
    np.testing.assert_allclose(out, numpy_out, rtol=2e-6, atol=1e-7)


@pytest.mark.skipif(not native.NATIVE_BUILT, reason=NOT_BUILT)
def test_the_extension_refuses_a_wrong_buffer() -> None:
    out = np.empty(3, np.float32)
    with pytest.raises(TypeError, match="format"):
        native._native.gelu(np.zeros(3, np.int32), out, 3)
    with pytest.raises(ValueError, match="elements"):
        native._native.gelu(np.zeros(4, np.float32), out, 4)
