"""hardswish through the optional compiled kernel (runtime.kernels._native: PHI's
HardSwishFunctor in one pass) and through the numpy code (FLAGS_use_native_kernels off): the same
operations in the same order, so the same bits, over the whole range (the clip points, +-0,
huge, +-inf, NaN)."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime import flags
from phiops.runtime.kernels import native

NOT_BUILT = "phiops.runtime.kernels._native is not built (no C compiler when phiops was installed)"
pytestmark = pytest.mark.skipif(
    not (native.NATIVE_BUILT and hasattr(native._native, "hardswish")), reason=NOT_BUILT
)


def _hardswish(x: np.ndarray, use_native: bool) -> np.ndarray:
    with flags.flags_guard({"use_native_kernels": use_native}), np.errstate(all="ignore"):
        return phi.hardswish(phi.to_tensor(x)).numpy()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_the_native_hardswish_gives_the_numpy_paths_bits(dtype: str) -> None:
    rng = np.random.default_rng(3)
    special = [0.0, -0.0, -3.0, 3.0, -2.9999998, 2.9999998, 6.0, -6.0, 1e-40, 1e30, -1e30,
               np.inf, -np.inf, np.nan]  # fmt: skip
    x = np.concatenate([rng.standard_normal(600) * 5, special]).astype(dtype).reshape(-1, 2)
    compiled, numpy_path = _hardswish(x, True), _hardswish(x, False)
    assert compiled.dtype == np.dtype(dtype) and compiled.shape == x.shape
    assert compiled.tobytes() == numpy_path.tobytes()
    # the formula itself: x * min(max(x + 3, 0), 6) / 6, so about x for x >= 3, 0 for x <= -3
    # (-0.0 below it), -0.0 for -0.0, NaN for -inf (-inf * 0) and NaN
    assert (
        compiled[-3, 1] == pytest.approx(x[-3, 1], rel=1e-6)
        and compiled[-6, 1] == 3
        and compiled[-6, 0] == 0
    )
    assert np.signbit(compiled[-7, 1]) and np.signbit(compiled[-4, 1]) and compiled[-4, 1] == 0
    assert np.isnan(compiled[-1]).all()


def test_the_native_hardswish_runs_on_a_non_contiguous_input() -> None:
    base = np.linspace(-7, 7, 48, dtype=np.float32).reshape(6, 8)
    view = base[:, ::2]
    np.testing.assert_array_equal(_hardswish(view, True), _hardswish(np.array(view), False))
