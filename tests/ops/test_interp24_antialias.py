"""interp_antialias, interp_antialias_grad and F.interpolate(antialias=True) against
PaddlePaddle 3.3.1's recording (tests/tools/make_interp24_fixtures.py), and against a numpy
reference of PIL's antialiased resampling written here from its definition."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import phiops as paddle
from phiops import _C_ops
from phiops.runtime.errors import InvalidArgumentError
from tests.ops.op_testing import cpu_dtypes, op_test
from tests.tools.make_interp24_fixtures import cases, run

RECORDED = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "interp24" / "paddle_3_3_1.json").read_text()
)
CASES = cases()
# float16 and bfloat16 keep 11 and 8 significant bits; PHI rounds the gradient after every
# addition where phiops rounds once per pass
TOLERANCE = {"float16": 4e-3, "bfloat16": 3e-2, "float32": 2e-6, "float64": 1e-12, "uint8": 0}


def assert_matches(got: dict, expected: dict, dtype: str) -> None:
    assert got["shape"] == expected["shape"]
    assert got["dtype"] == expected["dtype"]
    tol = TOLERANCE[dtype]
    np.testing.assert_allclose(got["out"], expected["out"], rtol=tol, atol=tol)
    assert ("grad" in got) == ("grad" in expected)
    if "grad" in expected:
        np.testing.assert_allclose(got["grad"], expected["grad"], rtol=4 * tol, atol=4 * tol)


@op_test("interp_antialias", kind="dtypes")
@pytest.mark.parametrize("key", sorted(CASES))
def test_interpolate_antialias_equals_paddles_recording(key: str) -> None:
    assert_matches(run(paddle, CASES[key]), RECORDED[key], CASES[key]["dtype"])


def test_the_recording_covers_every_registered_dtype() -> None:
    recorded = {case["dtype"] for case in CASES.values()}
    for op in ("interp_antialias", "interp_antialias_grad"):
        assert {d.name.lower() for d in cpu_dtypes(op)} <= recorded
    graded = {case["dtype"] for case in CASES.values() if case["grad"]}
    assert {d.name.lower() for d in cpu_dtypes("interp_antialias_grad")} <= graded


def _pil_reference(x: np.ndarray, out_hw: tuple[int, int], triangle: bool) -> np.ndarray:
    """PIL's resampling in float64 from its definition: per dim, output pixel i centred at
    (i + 0.5) * in/out, filter stretched by max(in/out, 1), weights normalised."""

    def kernel(t: np.ndarray) -> np.ndarray:
        t = np.abs(t)
        if triangle:
            return np.clip(1 - t, 0, None)
        a = -0.5
        return np.where(
            t < 1,
            (a + 2) * t**3 - (a + 3) * t**2 + 1,
            np.where(t < 2, a * t**3 - 5 * a * t**2 + 8 * a * t - 4 * a, 0),
        )

    def matrix(n_in: int, n_out: int) -> np.ndarray:
        ratio = n_in / n_out
        stretch = max(ratio, 1.0)
        centres = (np.arange(n_out) + 0.5) * ratio
        pixels = np.arange(n_in) + 0.5
        weights = kernel((pixels[None, :] - centres[:, None]) / stretch)
        return weights / weights.sum(axis=1, keepdims=True)

    rows, cols = matrix(x.shape[2], out_hw[0]), matrix(x.shape[3], out_hw[1])
    return np.einsum("oh,nchw,pw->ncop", rows, x, cols)


@op_test("interp_antialias", kind="edge")
@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
def test_downsampling_is_pils_filter(mode: str) -> None:
    x = np.random.default_rng(0).standard_normal((1, 2, 12, 9))
    out = paddle.nn.functional.interpolate(
        paddle.to_tensor(x), size=[5, 4], mode=mode, antialias=True
    )
    # PHI passes the ratio on as a float32, even for float64 x
    expected = _pil_reference(x, (5, 4), mode == "bilinear")
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-6, atol=1e-6)


@op_test("interp_antialias", kind="edge")
def test_bilinear_upsampling_equals_plain_bilinear() -> None:
    x = np.random.default_rng(1).standard_normal((1, 2, 4, 5))
    F = paddle.nn.functional
    plain = F.interpolate(paddle.to_tensor(x), size=[7, 9], mode="bilinear")
    smooth = F.interpolate(paddle.to_tensor(x), size=[7, 9], mode="bilinear", antialias=True)
    np.testing.assert_allclose(smooth.numpy(), plain.numpy(), rtol=1e-6, atol=1e-6)


@op_test("interp_antialias", kind="edge")
def test_antialias_with_nearest_is_paddles_value_error() -> None:
    x = paddle.to_tensor(np.ones((1, 1, 4, 4), "float32"))
    with pytest.raises(ValueError, match="only supported for bilinear and bicubic modes"):
        paddle.nn.functional.interpolate(x, size=[2, 2], mode="nearest", antialias=True)
    with pytest.raises(InvalidArgumentError, match="'antialias' must be a bool"):
        paddle.nn.functional.interpolate(x, size=[2, 2], mode="bilinear", antialias=1)


def _op(x, method: str = "bilinear", data_format: str = "NCHW", out_hw=(2, 2)):
    return _C_ops.interp_antialias(
        x, None, None, None, data_format, 0, out_hw[0], out_hw[1], [], method, False, 0
    )


@op_test("interp_antialias", kind="edge")
def test_the_op_refuses_other_methods_and_ranks() -> None:
    x4 = paddle.to_tensor(np.ones((1, 1, 4, 4), "float32"))
    with pytest.raises(InvalidArgumentError, match=r"interp_antialias.*'interp_method'"):
        _op(x4, "nearest")
    x3 = paddle.to_tensor(np.ones((1, 1, 4), "float32"))
    with pytest.raises(InvalidArgumentError, match=r"interp_antialias.*4-D"):
        _op(x3)


@op_test("interp_antialias", kind="edge")
def test_an_unchanged_size_passes_values_and_gradients_through() -> None:
    values = np.arange(12.0).reshape(1, 1, 3, 4)
    x = paddle.to_tensor(values, stop_gradient=False)
    out = _op(x, "bicubic", out_hw=(3, 4))
    np.testing.assert_array_equal(out.numpy(), values)
    out.backward(paddle.to_tensor(values * 2))
    np.testing.assert_array_equal(x.grad.numpy(), values * 2)
