"""conv2d's forward and gradients both ways: im2col and col2im through the optional
compiled kernels (runtime.kernels._native, FLAGS_use_native_kernels on) and through numpy's
padded strided windows (flag off), against float64 references written tap by tap."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import phiops.generated as phi
import phiops.generated.backward as phi_backward
from phiops.runtime import flags
from phiops.runtime.common import DataType
from phiops.runtime.kernels import native
from tests.ops.op_testing import sample, tolerance

D = DataType
NOT_BUILT = "phiops.runtime.kernels._native is not built (no C compiler when phiops was installed)"

# (input shape, filter shape, strides, paddings, dilations, groups): stride 2, dilation 2,
# asymmetric 4-value paddings, paddings wider than the kernel reaches, grouped and depthwise
GEOMETRIES = {
    "plain": ((2, 3, 6, 7), (4, 3, 3, 3), (1, 1), (1, 1), (1, 1), 1),
    "strided": ((1, 2, 7, 8), (3, 2, 3, 2), (2, 3), (1, 0), (1, 1), 1),
    "dilated": ((1, 2, 7, 7), (2, 2, 3, 3), (1, 1), (2, 1), (2, 2), 1),
    "asymmetric": ((1, 2, 5, 6), (2, 2, 2, 3), (1, 2), (0, 2, 1, 3), (1, 1), 1),
    "grouped": ((2, 4, 5, 5), (6, 2, 3, 3), (1, 1), (1, 1), (1, 1), 2),
}


class ColumnsSpy:
    """Stands in for the extension module and records which of its conv kernels ran."""

    def __init__(self, module: Any) -> None:
        self.module = module
        self.calls: list[str] = []

    def im2col_2d(self, *args: Any) -> None:
        self.calls.append("im2col_2d")
        self.module.im2col_2d(*args)

    def col2im_2d(self, *args: Any) -> None:
        self.calls.append("col2im_2d")
        self.module.col2im_2d(*args)


@pytest.fixture(params=[True, False], ids=["native", "numpy"])
def path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[ColumnsSpy]:
    """Run the test with the native kernels on or off; afterwards check which path ran."""
    use_native = request.param
    if use_native and not native.NATIVE_BUILT:
        pytest.skip(NOT_BUILT)
    spy = ColumnsSpy(native._native)
    monkeypatch.setattr(native, "_native", spy)
    with flags.flags_guard({"use_native_kernels": use_native}):
        yield spy
    assert bool(spy.calls) == use_native


def paddings4(paddings: tuple[int, ...]) -> tuple[int, int, int, int]:
    """(top, bottom, left, right) from PaddlePaddle's 2- or 4-value form."""
    if len(paddings) == 2:
        return paddings[0], paddings[0], paddings[1], paddings[1]
    return paddings


def taps(x_shape, w_shape, out_shape, strides, paddings, dilations, groups):
    """(ky, kx, oy, ox, iy, ix, output channels, input channels) for every kernel tap of every
    output pixel that reads a pixel inside the input, per group."""
    top, _, left, _ = paddings4(paddings)
    m, cg, kh, kw = w_shape
    mg = m // groups
    for ky in range(kh):
        for kx in range(kw):
            for oy in range(out_shape[2]):
                for ox in range(out_shape[3]):
                    iy = oy * strides[0] + ky * dilations[0] - top
                    ix = ox * strides[1] + kx * dilations[1] - left
                    if 0 <= iy < x_shape[2] and 0 <= ix < x_shape[3]:
                        for group in range(groups):
                            rows = slice(group * mg, (group + 1) * mg)
                            cols = slice(group * cg, (group + 1) * cg)
                            yield ky, kx, oy, ox, iy, ix, rows, cols


def reference_output(x, w, out_shape, strides, paddings, dilations, groups):
    """The convolution in float64, one kernel tap of one output pixel at a time."""
    x, w = x.astype(np.float64), w.astype(np.float64)
    out = np.zeros(out_shape)
    for ky, kx, oy, ox, iy, ix, rows, cols in taps(
        x.shape, w.shape, out_shape, strides, paddings, dilations, groups
    ):
        out[:, rows, oy, ox] += x[:, cols, iy, ix] @ w[rows, :, ky, kx].T
    return out


def reference_grads(x, w, out_grad, strides, paddings, dilations, groups):
    """The input and filter gradients in float64: each output pixel's gradient times the filter
    added onto the input pixels its kernel taps read, and times those pixels onto the taps."""
    x, w, out_grad = x.astype(np.float64), w.astype(np.float64), out_grad.astype(np.float64)
    x_grad, w_grad = np.zeros(x.shape), np.zeros(w.shape)
    for ky, kx, oy, ox, iy, ix, rows, cols in taps(
        x.shape, w.shape, out_grad.shape, strides, paddings, dilations, groups
    ):
        x_grad[:, cols, iy, ix] += out_grad[:, rows, oy, ox] @ w[rows, :, ky, kx]
        w_grad[rows, :, ky, kx] += out_grad[:, rows, oy, ox].T @ x[:, cols, iy, ix]
    return x_grad, w_grad


def assert_close(got: np.ndarray, expected: np.ndarray, dtype: DataType) -> None:
    assert got.dtype == dtype.numpy_dtype
    # sums of terms up to ~30 in size cancel to small values: float32 errors scale with the
    # largest term, not with each result
    atol = tolerance(dtype)["atol"] * max(1.0, float(np.abs(expected).max()))
    np.testing.assert_allclose(got, expected, rtol=tolerance(dtype)["rtol"], atol=atol)


@pytest.mark.parametrize("dtype", [D.FLOAT32, D.FLOAT64], ids=["float32", "float64"])
@pytest.mark.parametrize("geometry", GEOMETRIES.values(), ids=GEOMETRIES.keys())
def test_output_and_gradients_match_the_references(path, dtype, geometry):
    x_shape, w_shape, strides, paddings, dilations, groups = geometry
    x, w = sample(x_shape, dtype), sample(w_shape, dtype, seed=1)
    args = (list(strides), list(paddings), "EXPLICIT", list(dilations), groups, "NCHW")
    out = phi.conv2d(phi.to_tensor(x), phi.to_tensor(w), *args)
    out_grad = sample(tuple(out.shape), dtype, seed=2)
    x_grad, w_grad = phi_backward.conv2d_grad(
        phi.to_tensor(x), phi.to_tensor(w), phi.to_tensor(out_grad), *args
    )
    geometry_args = (strides, paddings, dilations, groups)
    expected_x_grad, expected_w_grad = reference_grads(x, w, out_grad, *geometry_args)
    assert_close(out.numpy(), reference_output(x, w, tuple(out.shape), *geometry_args), dtype)
    assert_close(x_grad.numpy(), expected_x_grad, dtype)
    assert_close(w_grad.numpy(), expected_w_grad, dtype)


def test_conv3d_keeps_the_numpy_columns(monkeypatch):
    spy = ColumnsSpy(native._native)
    monkeypatch.setattr(native, "_native", spy)
    x, w = sample((1, 2, 3, 4, 4), D.FLOAT64), sample((2, 2, 2, 2, 2), D.FLOAT64, seed=1)
    x_grad, _ = phi_backward.conv3d_grad(
        phi.to_tensor(x),
        phi.to_tensor(w),
        phi.to_tensor(np.ones((1, 2, 2, 3, 3))),
        [1, 1, 1],
        [0, 0, 0],
        "EXPLICIT",
        1,
        [1, 1, 1],
        "NCDHW",
    )
    assert x_grad.shape == [1, 2, 3, 4, 4]
    assert spy.calls == []


def test_the_extension_rejects_a_bad_col2im_call():
    if not native.NATIVE_BUILT:
        pytest.skip(NOT_BUILT)
    cols, out = np.zeros((2, 3, 3, 4, 4), np.float32), np.empty((2, 6, 6), np.float32)
    geometry = (6, 6, 3, 3, 4, 4, 1, 1, 1, 1, 0, 0)
    with pytest.raises(ValueError, match="cols: expected 144 elements, got 288"):
        native._native.col2im_2d(cols, 1, *geometry, out)
    with pytest.raises(TypeError, match="out: expected buffer format 'f', got 'd'"):
        native._native.col2im_2d(cols, 2, *geometry, out.astype(np.float64))
    with pytest.raises(ValueError, match="strides or dilations below 1"):
        native._native.col2im_2d(cols, 2, *geometry[:6], 0, 1, 1, 1, 0, 0, out)
    with pytest.raises(ValueError, match="cols: expected 288 elements, got 144"):
        native._native.im2col_2d(out, 2, *geometry, cols[:1])
