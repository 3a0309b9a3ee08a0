"""roi_align and roi_pool: every registered dtype against numpy references written bin by bin
from the ops' definitions (RoIAlign's averaged bilinear samples, RoIPool's rounded bins and
their maxima), no boxes, boxes reaching outside the map, non-contiguous inputs, the
registrations against PaddlePaddle 3.3.1's, and bad input. tests/ops/test_detect_paddle.py
compares with PaddlePaddle's recorded results (int32 included)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime import flags
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels import native
from phiops.runtime.kernels.coverage import paddle_data
from tests.ops.op_testing import cpu_dtypes, op_test, sample, tolerance

D = DataType
BOXES = np.array(
    [[0.4, 0.7, 5.2, 4.1], [1.5, 0.0, 3.5, 6.8], [-1.0, 2.2, 9.5, 3.0], [2.0, 2.0, 2.3, 2.4]]
)
COUNTS = np.array([3, 1], np.int32)


def bilinear(image: np.ndarray, y: float, x: float) -> np.ndarray:
    height, width = image.shape[1:]
    if y < -1.0 or y > height or x < -1.0 or x > width:
        return np.zeros(image.shape[0])
    y, x = max(y, 0.0), max(x, 0.0)
    y0, x0 = int(y), int(x)
    if y0 >= height - 1:
        y0 = y1 = height - 1
        y = float(y0)
    else:
        y1 = y0 + 1
    if x0 >= width - 1:
        x0 = x1 = width - 1
        x = float(x0)
    else:
        x1 = x0 + 1
    ly, lx = y - y0, x - x0
    return (
        (1 - ly) * (1 - lx) * image[:, y0, x0]
        + (1 - ly) * lx * image[:, y0, x1]
        + ly * (1 - lx) * image[:, y1, x0]
        + ly * lx * image[:, y1, x1]
    )


def roi_align_reference(x, boxes, counts, ph, pw, scale, ratio, aligned) -> np.ndarray:
    images = np.repeat(np.arange(len(counts)), counts)
    out = np.zeros((len(boxes), x.shape[1], ph, pw))
    offset = 0.5 if aligned else 0.0
    scale = float(np.float32(scale))  # the op's attribute is a C++ float
    for r, box in enumerate(boxes.astype(np.float64)):
        x1, y1, x2, y2 = box * scale - offset
        width, height = x2 - x1, y2 - y1
        if not aligned:
            width, height = max(width, 1.0), max(height, 1.0)
        grid_h = ratio if ratio > 0 else math.ceil(height / ph)
        grid_w = ratio if ratio > 0 else math.ceil(width / pw)
        for i in range(ph):
            for j in range(pw):
                total = np.zeros(x.shape[1])
                for iy in range(grid_h):
                    for ix in range(grid_w):
                        y = y1 + height / ph * (i + (iy + 0.5) / grid_h)
                        xx = x1 + width / pw * (j + (ix + 0.5) / grid_w)
                        total += bilinear(x[images[r]].astype(np.float64), y, xx)
                out[r, :, i, j] = total / (grid_h * grid_w)
    return out


def roi_pool_reference(x, boxes, counts, ph, pw, scale) -> tuple[np.ndarray, np.ndarray]:
    images = np.repeat(np.arange(len(counts)), counts)
    height, width = x.shape[2:]
    out = np.zeros((len(boxes), x.shape[1], ph, pw), x.dtype)
    arg = np.full(out.shape, -1, np.int64)
    for r, box in enumerate(boxes.astype(np.float64)):
        x1, y1, x2, y2 = (int(np.sign(v) * math.floor(abs(v) + 0.5)) for v in box * scale)
        bin_h = max(y2 - y1 + 1, 1) / ph
        bin_w = max(x2 - x1 + 1, 1) / pw
        for i in range(ph):
            for j in range(pw):
                hs = min(max(math.floor(i * bin_h) + y1, 0), height)
                he = min(max(math.ceil((i + 1) * bin_h) + y1, 0), height)
                ws = min(max(math.floor(j * bin_w) + x1, 0), width)
                we = min(max(math.ceil((j + 1) * bin_w) + x1, 0), width)
                if he <= hs or we <= ws:
                    continue
                region = x[images[r], :, hs:he, ws:we].reshape(x.shape[1], -1)
                best = region.argmax(axis=1)
                out[r, :, i, j] = region.max(axis=1)
                arg[r, :, i, j] = (hs + best // (we - ws)) * width + ws + best % (we - ws)
    return out, arg


def _tensors(x, boxes, counts):
    return phi.to_tensor(x), phi.to_tensor(boxes), phi.to_tensor(counts)


@op_test("roi_align", kind="dtypes")
@pytest.mark.parametrize("dtype", [D.FLOAT32, D.FLOAT64], ids=lambda d: d.name.lower())
@pytest.mark.parametrize(
    "pooled, scale, ratio, aligned",
    [((2, 3), 1.0, -1, False), ((3, 2), 0.5, 2, True), ((1, 1), 1.3, 0, False)],
)
def test_roi_align_matches_the_reference_for_each_dtype(dtype, pooled, scale, ratio, aligned):
    assert dtype in cpu_dtypes("roi_align")
    x = sample((2, 3, 7, 8), dtype, seed=31)
    boxes = BOXES.astype(dtype.numpy_dtype)
    out = phi.roi_align(*_tensors(x, boxes, COUNTS), *pooled, scale, ratio, aligned)
    assert out.dtype is dtype
    expected = roi_align_reference(x, boxes, COUNTS, *pooled, scale, ratio, aligned)
    np.testing.assert_allclose(out.numpy(), expected, **tolerance(dtype))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("aligned", [True, False])
@pytest.mark.parametrize("ratio", [-1, 2])
def test_roi_align_compiled_and_numpy_paths_agree(dtype, aligned, ratio) -> None:
    # the extension's roi_align (runtime/kernels/csrc/roi_align.h) computes the numpy path's
    # geometry and weights, and sums the product in its own order: equal to float rounding,
    # NaN (an aligned box without sample points) in the same places
    if not native.NATIVE_BUILT:
        pytest.skip("the native extension is not built here")
    rng = np.random.default_rng(5)
    x = rng.standard_normal((2, 3, 9, 11)).astype(dtype)
    corners = rng.uniform(-6.0, 50.0, (12, 2))
    boxes = np.concatenate([corners, corners + rng.uniform(-2.0, 30.0, (12, 2))], axis=1)
    boxes[0] = [8.0, 8.0, 8.0, 8.0]  # a point: aligned, no sample points
    tensors = _tensors(x, boxes.astype(dtype), np.array([7, 5], np.int32))
    results = []
    for use_native in (True, False):
        # the numpy path's 0 * inf (no sample points) warns
        with flags.flags_guard({"use_native_kernels": use_native}), np.errstate(invalid="ignore"):
            results.append(phi.roi_align(*tensors, 3, 4, 0.5, ratio, aligned).numpy())
    compiled, numpy_path = results
    np.testing.assert_array_equal(np.isnan(compiled), np.isnan(numpy_path))
    assert np.isnan(compiled).any() == (aligned and ratio < 0)
    scale = np.nanmax(np.abs(numpy_path))
    eps = np.finfo(dtype).eps
    np.testing.assert_allclose(compiled, numpy_path, rtol=0, atol=8 * eps * scale)


def test_roi_align_of_int32_truncates_as_phi_does() -> None:
    """An int32 kernel computes in int: a bin of one sample point reads the pixel at the
    truncated position, a bin of several averages with the truncated share 1 / n = 0."""
    assert D.INT32 in cpu_dtypes("roi_align")
    x = np.arange(2 * 1 * 4 * 5, dtype=np.int32).reshape(2, 1, 4, 5)
    boxes = np.array([[0, 0, 2, 2], [1, 1, 4, 3]], np.int32)
    one_point = phi.roi_align(*_tensors(x, boxes, np.array([1, 1], np.int32)), 2, 2, 1.0, 1)
    np.testing.assert_array_equal(one_point.numpy()[:, 0], [[[0, 1], [5, 6]], [[26, 27], [31, 32]]])
    several = phi.roi_align(*_tensors(x, boxes, np.array([1, 1], np.int32)), 1, 1, 1.0, 2)
    np.testing.assert_array_equal(several.numpy(), np.zeros((2, 1, 1, 1)))


@op_test("roi_pool", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("roi_pool"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("pooled, scale", [((2, 3), 1.0), ((3, 3), 0.5), ((4, 1), 1.7)])
def test_roi_pool_matches_the_reference_for_each_dtype(dtype, pooled, scale) -> None:
    x = sample((2, 3, 7, 8), dtype, seed=32, low=-50, high=50)
    boxes = BOXES.astype(np.float64) if dtype is D.INT32 else BOXES
    boxes = (
        np.round(boxes).astype(dtype.numpy_dtype)
        if dtype is D.INT32
        else boxes.astype(dtype.numpy_dtype)
    )
    out = phi.roi_pool(*_tensors(x, boxes, COUNTS), *pooled, scale)
    expected, _ = roi_pool_reference(x, boxes, COUNTS, *pooled, scale)
    assert out.dtype is dtype
    np.testing.assert_array_equal(out.numpy(), expected)


def test_roi_pool_gradient_goes_to_each_bins_maximum() -> None:
    x_np = sample((2, 2, 7, 8), D.FLOAT64, seed=33)
    _, arg = roi_pool_reference(x_np, BOXES, COUNTS, 2, 2, 1.0)
    x = phi.to_tensor(x_np, stop_gradient=False)
    out = phi.roi_pool(x, phi.to_tensor(BOXES), phi.to_tensor(COUNTS), 2, 2, 1.0)
    (x_grad,) = phi.grad(out, [x])
    expected = np.zeros_like(x_np)
    images = np.repeat(np.arange(2), COUNTS)
    for r, c, i, j in np.ndindex(*arg.shape):
        if arg[r, c, i, j] >= 0:
            expected[images[r], c].reshape(-1)[arg[r, c, i, j]] += 1
    np.testing.assert_array_equal(x_grad.numpy(), expected)


def test_registrations_are_paddles() -> None:
    recorded = paddle_data()["kernels"]
    for kernel in ("roi_align", "roi_align_grad", "roi_pool", "roi_pool_grad"):
        ours = sorted(dtype.name.lower() for dtype in cpu_dtypes(kernel))
        assert ours == sorted(recorded[kernel]), kernel


@op_test("roi_align", "roi_pool", kind="edge")
@pytest.mark.parametrize("op", ["roi_align", "roi_pool"])
def test_no_boxes_give_an_empty_result(op: str) -> None:
    x = np.ones((2, 3, 4, 4), np.float32)
    out = getattr(phi, op)(
        *_tensors(x, np.zeros((0, 4), np.float32), np.array([0, 0], np.int32)), 2, 2
    )
    assert out.shape == [0, 3, 2, 2]


def test_boxes_num_may_be_int64_and_an_image_may_have_no_box() -> None:
    x = sample((3, 2, 7, 8), D.FLOAT64, seed=34)
    counts = np.array([2, 0, 2], np.int64)
    out = phi.roi_align(*_tensors(x, BOXES, counts), 2, 2, 1.0, 2, False)
    expected = roi_align_reference(x, BOXES, counts, 2, 2, 1.0, 2, False)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-12, atol=1e-12)


def test_roi_ops_of_non_contiguous_inputs() -> None:
    wide = sample((2, 3, 7, 16), D.FLOAT64, seed=35)
    x = phi.to_tensor(wide)[:, :, :, ::2]
    boxes = phi.to_tensor(np.concatenate([BOXES, BOXES], axis=1))[:, ::2]
    boxes_np = np.concatenate([BOXES, BOXES], axis=1)[:, ::2]
    counts = phi.to_tensor(COUNTS)
    np.testing.assert_allclose(
        phi.roi_align(x, boxes, counts, 2, 2).numpy(),
        roi_align_reference(wide[:, :, :, ::2], boxes_np, COUNTS, 2, 2, 1.0, -1, False),
        rtol=1e-12,
        atol=1e-12,
    )
    np.testing.assert_array_equal(
        phi.roi_pool(x, boxes, counts, 2, 2).numpy(),
        roi_pool_reference(wide[:, :, :, ::2], boxes_np, COUNTS, 2, 2, 1.0)[0],
    )


@pytest.mark.parametrize("op", ["roi_align", "roi_pool"])
@pytest.mark.parametrize(
    "x_shape, boxes_shape, counts, attrs, message",
    [
        ((2, 3, 4), (4, 4), [3, 1], (), "'x' must be a 4-D tensor"),
        ((2, 3, 4, 4), (4, 5), [3, 1], (), "'boxes' must be a 2-D tensor \\[num_boxes, 4\\]"),
        ((2, 3, 4, 4), (4, 4), [[3, 1]], (), "'boxes_num' must be a 1-D tensor"),
        ((2, 3, 4, 4), (4, 4), [3, 1], (0, 1), "'pooled_height' must be positive"),
        ((2, 3, 4, 4), (4, 4), [3, 1], (1, -2), "'pooled_width' must be positive"),
        ((2, 3, 4, 4), (4, 4), [3, 1], (1, 1, 0.0), "'spatial_scale' must be positive"),
        ((2, 3, 4, 4), (4, 4), [3, 2], (), "summing to the number of boxes \\(4\\)"),
        ((2, 3, 4, 4), (4, 4), [4], (), "one count per image of x \\(2\\)"),
        ((2, 3, 4, 4), (4, 4), None, (), "'boxes_num' is required"),
    ],
)
def test_bad_input_is_refused_naming_the_argument(op, x_shape, boxes_shape, counts, attrs, message):
    x = phi.to_tensor(np.zeros(x_shape, np.float32))
    boxes = phi.to_tensor(np.ones(boxes_shape, np.float32))
    boxes_num = None if counts is None else phi.to_tensor(np.array(counts, np.int32))
    with pytest.raises(InvalidArgumentError, match=f"{op}\\(\\).*{message}"):
        getattr(phi, op)(x, boxes, boxes_num, *attrs)


@pytest.mark.parametrize("op", ["roi_align", "roi_pool"])
def test_non_finite_boxes_are_refused(op: str) -> None:
    x = phi.to_tensor(np.zeros((1, 1, 4, 4), np.float32))
    boxes = phi.to_tensor(np.array([[0.0, np.nan, 2.0, 2.0]], np.float32))
    with pytest.raises(InvalidArgumentError, match="'boxes' must hold finite coordinates"):
        getattr(phi, op)(x, boxes, phi.to_tensor(np.array([1], np.int32)))
