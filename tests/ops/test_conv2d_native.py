"""conv2d's input gradient both ways: col2im through the optional compiled kernel
(runtime.kernels._native, FLAGS_use_native_kernels on) and through numpy's strided adds (flag
off), against a float64 reference written as the adjoint of the convolution."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import generated as phi
import generated.backward as phi_backward
from runtime import flags
from runtime.common import DataType
from runtime.kernels import native
from tests.ops.op_testing import sample, tolerance

D = DataType
NOT_BUILT = "runtime.kernels._native is not built (no C compiler when phiops was installed)"

# (input shape, filter shape, strides, paddings, dilations, groups): stride 2, dilation 2,
# asymmetric 4-value paddings, paddings wider than the kernel reaches, grouped and depthwise
GEOMETRIES = {
    "plain": ((2, 3, 6, 7), (4, 3, 3, 3), (1, 1), (1, 1), (1, 1), 1),
    "strided": ((1, 2, 7, 8), (3, 2, 3, 2), (2, 3), (1, 0), (1, 1), 1),
    "dilated": ((1, 2, 7, 7), (2, 2, 3, 3), (1, 1), (2, 1), (2, 2), 1),
    "asymmetric": ((1, 2, 5, 6), (2, 2, 2, 3), (1, 2), (0, 2, 1, 3), (1, 1), 1),
    "grouped": ((2, 4, 5, 5), (6, 2, 3, 3), (1, 1), (1, 1), (1, 1), 2),
}


class Col2imSpy:
    """Stands in for the extension module and counts its col2im calls."""

    def __init__(self, module: Any) -> None:
        self.module = module
        self.calls = 0

    def col2im_2d(self, *args: Any) -> None:
        self.calls += 1
        self.module.col2im_2d(*args)


@pytest.fixture(params=[True, False], ids=["native", "numpy"])
def path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[Col2imSpy]:
    """Run the test with the native kernels on or off; afterwards check which path ran."""
    use_native = request.param
    if use_native and not native.NATIVE_BUILT:
        pytest.skip(NOT_BUILT)
    spy = Col2imSpy(native._native)
    monkeypatch.setattr(native, "_native", spy)
    with flags.flags_guard({"use_native_kernels": use_native}):
        yield spy
    assert bool(spy.calls) == use_native


def paddings4(paddings: tuple[int, ...]) -> tuple[int, int, int, int]:
    """(top, bottom, left, right) from PaddlePaddle's 2- or 4-value form."""
    if len(paddings) == 2:
        return paddings[0], paddings[0], paddings[1], paddings[1]
    return paddings


def reference_input_grad(x_shape, w, out_grad, strides, paddings, dilations, groups):
    """The adjoint of the convolution in float64: every output pixel's gradient times the
    filter, added onto the input pixels its kernel taps read."""
    w, out_grad = w.astype(np.float64), out_grad.astype(np.float64)
    top, _, left, _ = paddings4(paddings)
    n, c, h, width = x_shape
    m, cg, kh, kw = w.shape
    mg = m // groups
    grad = np.zeros(x_shape)
    for ky in range(kh):
        for kx in range(kw):
            for oy in range(out_grad.shape[2]):
                for ox in range(out_grad.shape[3]):
                    iy = oy * strides[0] + ky * dilations[0] - top
                    ix = ox * strides[1] + kx * dilations[1] - left
                    if not (0 <= iy < h and 0 <= ix < width):
                        continue
                    for group in range(groups):
                        rows = slice(group * mg, (group + 1) * mg)
                        cols = slice(group * cg, (group + 1) * cg)
                        grad[:, cols, iy, ix] += out_grad[:, rows, oy, ox] @ w[rows, :, ky, kx]
    return grad


@pytest.mark.parametrize("dtype", [D.FLOAT32, D.FLOAT64], ids=["float32", "float64"])
@pytest.mark.parametrize("geometry", GEOMETRIES.values(), ids=GEOMETRIES.keys())
def test_input_grad_matches_the_adjoint(path, dtype, geometry):
    x_shape, w_shape, strides, paddings, dilations, groups = geometry
    x, w = sample(x_shape, dtype), sample(w_shape, dtype, seed=1)
    args = (list(strides), list(paddings), "EXPLICIT", list(dilations), groups, "NCHW")
    out = phi.conv2d(phi.to_tensor(x), phi.to_tensor(w), *args)
    out_grad = sample(tuple(out.shape), dtype, seed=2)
    x_grad, _ = phi_backward.conv2d_grad(
        phi.to_tensor(x), phi.to_tensor(w), phi.to_tensor(out_grad), *args
    )
    expected = reference_input_grad(x_shape, w, out_grad, strides, paddings, dilations, groups)
    assert x_grad.numpy().dtype == dtype.numpy_dtype
    # sums of terms up to ~30 in size cancel to small values: float32 errors scale with the
    # largest term, not with each result
    atol = tolerance(dtype)["atol"] * max(1.0, float(np.abs(expected).max()))
    np.testing.assert_allclose(x_grad.numpy(), expected, rtol=tolerance(dtype)["rtol"], atol=atol)


def test_conv3d_keeps_the_numpy_col2im(monkeypatch):
    spy = Col2imSpy(native._native)
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
    assert spy.calls == 0


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
