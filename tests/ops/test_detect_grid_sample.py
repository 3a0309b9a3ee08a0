"""grid_sample: every registered dtype against a numpy reference written point by point from
PHI's definition (unnormalise, pad, interpolate), 4-D and 5-D inputs, each mode and padding
mode, empty and non-contiguous inputs, the registrations against PaddlePaddle 3.3.1's, and bad
input. tests/ops/test_detect_paddle.py compares with PaddlePaddle's recorded results."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.coverage import paddle_data
from tests.ops.op_testing import cpu_dtypes, op_test, sample, tolerance

D = DataType


def position(g: float, size: int, align_corners: bool, padding_mode: str) -> float:
    """The pixel position of normalised coordinate ``g`` along a dim of ``size``."""
    p = (g + 1) * (size - 1) / 2 if align_corners else (g + 1) * size / 2 - 0.5
    if padding_mode == "border":
        return min(max(p, 0.0), size - 1.0)
    if padding_mode == "reflection":
        if align_corners:
            if size == 1:
                return 0.0
            span = 2.0 * (size - 1)
            extra = math.fmod(abs(p), span)
            return min(extra, span - extra)
        span = 2.0 * size
        extra = math.fmod(abs(p + 0.5), span)
        return min(max(min(extra, span - extra) - 0.5, 0.0), size - 1.0)
    return p


def grid_sample_reference(
    x: np.ndarray, grid: np.ndarray, mode: str, padding_mode: str, align_corners: bool
) -> np.ndarray:
    n, c = x.shape[:2]
    spatial = x.shape[2:]
    out_spatial = grid.shape[1:-1]
    out = np.zeros((n, c) + out_spatial, np.float64)

    def read(b: int, point: tuple[int, ...]) -> np.ndarray:
        if all(0 <= i < size for i, size in zip(point, spatial)):
            return x[(b, slice(None)) + point].astype(np.float64)
        return np.zeros(c)

    for b in range(n):
        for where in itertools.product(*(range(e) for e in out_spatial)):
            coords = grid[(b,) + where][::-1]  # (x, y[, z]) -> outermost first
            pos = [
                position(float(g), size, align_corners, padding_mode)
                for g, size in zip(coords, spatial)
            ]
            if mode == "nearest":
                # half to even, as PaddlePaddle 3.3.1's CPU kernel rounds
                value = read(b, tuple(int(np.rint(p)) for p in pos))
            else:
                value = np.zeros(c)
                lows = [math.floor(p) for p in pos]
                for picks in itertools.product((0, 1), repeat=len(pos)):
                    weight = 1.0
                    for p, low, pick in zip(pos, lows, picks):
                        weight *= (p - low) if pick else (low + 1 - p)
                    value = value + weight * read(b, tuple(l + k for l, k in zip(lows, picks)))
            out[(b, slice(None)) + where] = value
    return out


MODES = [
    (mode, padding, align)
    for mode in ("bilinear", "nearest")
    for padding in ("zeros", "border", "reflection")
    for align in (True, False)
]


@op_test("grid_sample", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("grid_sample"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("mode, padding_mode, align_corners", MODES)
def test_grid_sample_matches_the_reference_for_each_dtype(
    dtype: DataType, mode: str, padding_mode: str, align_corners: bool
) -> None:
    x = sample((2, 3, 4, 5), dtype, seed=21)
    grid = sample((2, 3, 6, 2), dtype, seed=22, low=-1.5, high=1.5)
    out = phi.grid_sample(phi.to_tensor(x), phi.to_tensor(grid), mode, padding_mode, align_corners)
    assert out.dtype is dtype
    expected = grid_sample_reference(x, grid, mode, padding_mode, align_corners)
    np.testing.assert_allclose(out.numpy(), expected, **tolerance(dtype))


@pytest.mark.parametrize("mode, padding_mode, align_corners", MODES)
def test_grid_sample_of_a_5d_input_matches_the_reference(
    mode: str, padding_mode: str, align_corners: bool
) -> None:
    x = sample((1, 2, 3, 4, 3), D.FLOAT64, seed=23)
    grid = sample((1, 2, 3, 2, 3), D.FLOAT64, seed=24, low=-1.5, high=1.5)
    out = phi.grid_sample(phi.to_tensor(x), phi.to_tensor(grid), mode, padding_mode, align_corners)
    assert out.shape == [1, 2, 2, 3, 2]
    expected = grid_sample_reference(x, grid, mode, padding_mode, align_corners)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-12, atol=1e-12)


def test_registrations_are_paddles() -> None:
    recorded = paddle_data()["kernels"]
    for kernel in ("grid_sample", "grid_sample_grad"):
        ours = sorted(dtype.name.lower() for dtype in cpu_dtypes(kernel))
        assert ours == sorted(recorded[kernel]), kernel


def test_the_identity_grid_reproduces_the_input() -> None:
    x = sample((1, 2, 3, 4), D.FLOAT64, seed=25)
    ys, xs = np.meshgrid(np.linspace(-1, 1, 3), np.linspace(-1, 1, 4), indexing="ij")
    grid = np.stack([xs, ys], -1)[None]
    for mode in ("bilinear", "nearest"):
        out = phi.grid_sample(phi.to_tensor(x), phi.to_tensor(grid), mode, "zeros", True)
        np.testing.assert_allclose(out.numpy(), x, rtol=1e-12, atol=1e-12)


def test_nearest_rounds_halves_to_even() -> None:
    x = phi.to_tensor(np.arange(1, 10, dtype=np.float64).reshape(1, 1, 1, 9))
    positions = np.array([0.5, 1.5, 2.5, 3.5, 8.5, -0.4, -0.6])
    grid = np.stack([positions / 4 - 1, np.zeros(7)], -1).reshape(1, 1, 7, 2)
    out = phi.grid_sample(x, phi.to_tensor(grid), "nearest", "zeros", True)
    # pixels 0, 2, 2, 4, 8, 0 (-0.4 rounds inside) and outside (-0.6 rounds to -1)
    np.testing.assert_array_equal(out.numpy().ravel(), [1, 3, 3, 5, 9, 1, 0])


@op_test("grid_sample", kind="edge")
def test_grid_sample_of_empty_inputs_is_empty() -> None:
    x = phi.to_tensor(np.zeros((2, 3, 4, 5), np.float32))
    out = phi.grid_sample(x, phi.to_tensor(np.zeros((2, 0, 6, 2), np.float32)))
    assert out.shape == [2, 3, 0, 6]
    out = phi.grid_sample(
        phi.to_tensor(np.zeros((0, 3, 4, 5), np.float32)),
        phi.to_tensor(np.zeros((0, 2, 2, 2), np.float32)),
    )
    assert out.shape == [0, 3, 2, 2]


def test_grid_sample_of_a_size_one_input_reflects_to_its_one_pixel() -> None:
    x = phi.to_tensor(np.full((1, 1, 1, 1), 7.0))
    grid = phi.to_tensor(np.array([[[[-3.0, 0.4], [2.5, -1.0]]]]))
    out = phi.grid_sample(x, grid, "bilinear", "reflection", True)
    np.testing.assert_array_equal(out.numpy().ravel(), [7.0, 7.0])


def test_grid_sample_of_non_contiguous_inputs() -> None:
    wide = sample((1, 2, 4, 10), D.FLOAT64, seed=26)
    grid_wide = sample((1, 3, 3, 4), D.FLOAT64, seed=27, low=-1, high=1)
    x = phi.to_tensor(wide)[:, :, :, ::2]
    grid = phi.to_tensor(grid_wide)[:, :, :, 1:3]
    out = phi.grid_sample(x, grid, "bilinear", "border", False)
    expected = grid_sample_reference(
        wide[:, :, :, ::2], grid_wide[:, :, :, 1:3], "bilinear", "border", False
    )
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-12, atol=1e-12)


def test_grid_sample_gradient_of_nearest_reaches_x_only() -> None:
    x = phi.to_tensor(sample((1, 1, 2, 3), D.FLOAT64, seed=28), stop_gradient=False)
    grid = phi.to_tensor(
        np.array([[[[-1.0, -1.0], [-1.0, -1.0], [1.0, 1.0]]]]), stop_gradient=False
    )
    out = phi.grid_sample(x, grid, "nearest", "zeros", True)
    x_grad, grid_grad = phi.grad(out, [x, grid])
    np.testing.assert_array_equal(x_grad.numpy(), [[[[2, 0, 0], [0, 0, 1]]]])
    np.testing.assert_array_equal(grid_grad.numpy(), np.zeros((1, 1, 3, 2)))


@pytest.mark.parametrize(
    "x_shape, grid_shape, kwargs, message",
    [
        ((2, 3, 4), (2, 3, 4, 2), {}, "'x' must be a 4-D .* or 5-D"),
        ((2, 3, 4, 5), (2, 3, 4), {}, "'grid' must have x's rank 4"),
        ((2, 3, 4, 5), (2, 3, 4, 3), {}, "'grid' must hold 2 coordinates"),
        ((1, 3, 4, 5, 6), (1, 3, 4, 5, 2), {}, "'grid' must hold 3 coordinates"),
        ((2, 3, 4, 5), (3, 3, 4, 2), {}, "the same batch size"),
        ((2, 3, 4, 5), (2, 3, 4, 2), {"mode": "bicubic"}, "'mode' must be one of"),
        ((2, 3, 4, 5), (2, 3, 4, 2), {"padding_mode": "wrap"}, "'padding_mode' must be one of"),
    ],
)
def test_bad_input_is_refused_naming_the_argument(x_shape, grid_shape, kwargs, message) -> None:
    x = phi.to_tensor(np.zeros(x_shape, np.float32))
    grid = phi.to_tensor(np.zeros(grid_shape, np.float32))
    with pytest.raises(InvalidArgumentError, match="grid_sample\\(\\).*" + message):
        phi.grid_sample(x, grid, **kwargs)


def test_integer_input_has_no_kernel() -> None:
    x = phi.to_tensor(np.zeros((1, 1, 2, 2), np.int32))
    grid = phi.to_tensor(np.zeros((1, 1, 1, 2), np.int32))
    with pytest.raises(Exception, match="grid_sample"):
        phi.grid_sample(x, grid)
