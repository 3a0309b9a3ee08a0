"""ieee_results: a kernel runs with numpy's floating-point warnings off, and the caller's own
error state is back afterwards, also when the kernel raises."""

from __future__ import annotations

import numpy as np
import pytest

from runtime.kernels.floating_point import ieee_results


@ieee_results
def _overflowing(x: np.ndarray) -> np.ndarray:
    return x * np.float32(1e38)


@ieee_results
def _failing(x: np.ndarray) -> np.ndarray:
    np.divide(x, 0.0)
    raise RuntimeError("kernel failed")


def test_a_quiet_kernel_overflows_to_inf_without_a_warning() -> None:
    with np.errstate(all="raise"):
        result = _overflowing(np.array([10.0], np.float32))
    np.testing.assert_array_equal(result, [np.inf])


def test_the_callers_error_state_is_restored_after_the_kernel_raises() -> None:
    with np.errstate(all="raise"):
        with pytest.raises(RuntimeError, match="kernel failed"):
            _failing(np.ones(2))
        assert np.geterr()["divide"] == "raise"
        with pytest.raises(FloatingPointError):
            np.divide(np.ones(1), 0.0)
