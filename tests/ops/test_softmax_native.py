"""softmax along the last axis through the optional compiled kernel (runtime.kernels._native:
each row in one pass, the C library's exp, the sum in double) and through the numpy code
(FLAGS_use_native_kernels off): the same values to a few units of the dtype's epsilon, NaN in
the same places (a NaN in a row, a row of -inf, an inf), other axes on the numpy path."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime import flags
from phiops.runtime.kernels import native

NOT_BUILT = "phiops.runtime.kernels._native is not built (no C compiler when phiops was installed)"
pytestmark = pytest.mark.skipif(
    not (native.NATIVE_BUILT and hasattr(native._native, "softmax_rows")), reason=NOT_BUILT
)


def _softmax(x: np.ndarray, axis: int, use_native: bool) -> np.ndarray:
    with flags.flags_guard({"use_native_kernels": use_native}), np.errstate(all="ignore"):
        return phi.nn.functional.softmax(phi.to_tensor(x), axis).numpy()


def _rows(dtype: str) -> np.ndarray:
    x = (np.random.default_rng(3).standard_normal((3, 40, 37)) * 5).astype(dtype)
    x[0, 3, 5] = np.nan
    x[0, 4, :] = -np.inf
    x[0, 5, 2] = np.inf
    x[0, 6, 1] = -np.inf
    x[0, 7, :] = 1e30
    return x


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_the_native_softmax_agrees_with_the_numpy_path(dtype: str) -> None:
    x = _rows(dtype)
    compiled, numpy_path = _softmax(x, -1, True), _softmax(x, -1, False)
    assert compiled.dtype == np.dtype(dtype) and compiled.shape == x.shape
    nan = np.isnan(numpy_path)
    np.testing.assert_array_equal(np.isnan(compiled), nan)
    assert nan[0, 3].all() and nan[0, 4].all() and nan[0, 5].all()
    eps = np.finfo(dtype).eps
    np.testing.assert_allclose(compiled[~nan], numpy_path[~nan], rtol=8 * eps, atol=2 * eps)
    np.testing.assert_allclose(compiled[~nan].reshape(-1, 37).sum(axis=1), 1, rtol=64 * eps)
    # an -inf gives exactly 0; a row of equal values exactly 1/n
    assert compiled[0, 6, 1] == 0 and (compiled[0, 7] == np.array(1 / 37, dtype)).all()


def test_other_axes_and_non_contiguous_rows() -> None:
    x = _rows("float32")[1:]
    np.testing.assert_array_equal(_softmax(x, 1, True), _softmax(x, 1, False))
    view = x[:, :, ::2]
    eps = np.finfo(np.float32).eps
    np.testing.assert_allclose(
        _softmax(view, -1, True), _softmax(np.array(view), -1, False), rtol=8 * eps, atol=2 * eps
    )
