"""ieee_results: a kernel runs with numpy's floating-point warnings off, and the caller's own
error state is back afterwards, also when the kernel raises."""

from __future__ import annotations

import numpy as np
import pytest

from phiops.runtime.kernels.floating_point import ieee_results


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


@pytest.mark.parametrize(
    "source, target",
    [("float64", "float32"), ("float32", "int32"), ("float64", "float16"), ("float32", "bool")],
)
def test_cast_that_can_overflow_gives_ieee_results_without_a_warning(source, target) -> None:
    import phiops.generated as phi

    values = np.array([1e300 if source == "float64" else 3e38, np.nan, -np.inf, 1.5], source)
    with np.errstate(all="raise"):
        got = phi.cast(phi.to_tensor(values), target).numpy()
    assert got.dtype == np.dtype(target)
    with np.errstate(all="ignore"):
        expected = values.astype(target)
    if target in ("float32", "float16"):
        np.testing.assert_array_equal(got, expected)
    else:  # C++'s cast of nan and inf to an integer is unspecified: only the finite value
        assert got[3] == expected[3]


@pytest.mark.parametrize(
    "source, target", [("float32", "float64"), ("int32", "int64"), ("int8", "float32")]
)
def test_a_cast_that_keeps_every_value_is_exact(source, target) -> None:
    import phiops.generated as phi

    values = np.array([1, -2, 3, 100], source)
    with np.errstate(all="raise"):
        got = phi.cast(phi.to_tensor(values), target).numpy()
    assert got.dtype == np.dtype(target)
    np.testing.assert_array_equal(got, values.astype(target))
