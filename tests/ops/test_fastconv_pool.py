"""pool2d's fast paths (issue 26) against a float64 reference that walks each window: the
compiled 2-D pooling kernel (FLAGS_use_native_kernels on) and the numpy shifted views (off),
max and average (exclusive and not), paddings, ceil_mode, SAME/VALID, NCHW and NHWC, an empty
batch; global and adaptive-to-1x1 pooling as a mean or max over the spatial axes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime import flags
from phiops.runtime.common import DataType
from phiops.runtime.kernels import native
from tests.ops.op_testing import sample, tolerance
from tests.ops.test_fastconv_conv import NOT_BUILT, NativeSpy

D = DataType


@pytest.fixture(params=[True, False], ids=["native", "numpy"])
def spy(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[NativeSpy]:
    use_native = request.param
    if use_native and not native.NATIVE_BUILT:
        pytest.skip(NOT_BUILT)
    recorder = NativeSpy(native._native)
    monkeypatch.setattr(native, "_native", recorder)
    with flags.flags_guard({"use_native_kernels": use_native}):
        yield recorder
    if not use_native:
        assert recorder.calls == []


def reference_pool(x, ksize, strides, pads, out_shape, exclusive, kind):
    """x [N, C, H, W] in float64; ``pads`` ((top, bottom), (left, right)); windows clipped to
    the input; a max starts at the lowest finite value; a non-exclusive average divides by the
    window from its unclamped start up to the input's end plus the leading padding."""
    x = x.astype(np.float64)
    h, w = x.shape[2:]
    low = np.finfo(np.float32).min
    out = np.zeros(x.shape[:2] + out_shape)
    for i in range(out_shape[0]):
        for j in range(out_shape[1]):
            ys, xs = i * strides[0] - pads[0][0], j * strides[1] - pads[1][0]
            y0, y1 = max(ys, 0), min(ys + ksize[0], h)
            x0, x1 = max(xs, 0), min(xs + ksize[1], w)
            window = x[:, :, y0:y1, x0:x1]
            if kind == "max":
                out[:, :, i, j] = np.maximum(window.max(axis=(2, 3), initial=low), low)
            else:
                if exclusive:
                    size = (y1 - y0) * (x1 - x0)
                else:
                    ey = min(ys + ksize[0], h + pads[0][0]) - ys
                    ex = min(xs + ksize[1], w + pads[1][0]) - xs
                    size = ey * ex
                out[:, :, i, j] = window.sum(axis=(2, 3)) / size
    return out


def out_size(size, k, stride, before, after, ceil_mode):
    extra = stride - 1 if ceil_mode else 0
    return (size - k + before + after + extra) // stride + 1


# name: (x NCHW shape, kernel, strides, paddings, algorithm, ceil_mode)
CASES = {
    "3x3_s2_p1": ((2, 3, 9, 8), (3, 3), (2, 2), [1, 1], "EXPLICIT", False),
    "2x2_s2": ((1, 4, 8, 6), (2, 2), (2, 2), [0, 0], "EXPLICIT", False),
    "overlapping_s1": ((2, 2, 5, 7), (3, 2), (1, 1), [1, 0], "EXPLICIT", False),
    "asymmetric": ((2, 3, 7, 7), (3, 3), (2, 1), [0, 2, 1, 0], "EXPLICIT", False),
    "ceil_mode": ((2, 3, 8, 7), (3, 3), (2, 2), [1, 1], "EXPLICIT", True),
    "same": ((2, 3, 7, 8), (3, 2), (2, 3), [0, 0], "SAME", False),
    "valid": ((2, 3, 7, 8), (3, 3), (2, 2), [4, 4], "VALID", False),
    "wide_padding": ((1, 2, 3, 3), (2, 2), (1, 1), [1, 1], "EXPLICIT", True),
}


def resolved(case: tuple[Any, ...]) -> tuple[tuple[tuple[int, int], ...], tuple[int, int]]:
    x_shape, ksize, strides, paddings, algorithm, ceil_mode = case
    if algorithm == "VALID":
        pads = ((0, 0), (0, 0))
    elif algorithm == "SAME":
        pairs = []
        for size, k, s in zip(x_shape[2:], ksize, strides):
            total = max((-(-size // s) - 1) * s + k - size, 0)
            pairs.append((total // 2, total - total // 2))
        pads = tuple(pairs)
    elif len(paddings) == 2:
        pads = ((paddings[0],) * 2, (paddings[1],) * 2)
    else:
        pads = ((paddings[0], paddings[1]), (paddings[2], paddings[3]))
    out = tuple(
        out_size(size, k, s, b, a, ceil_mode)
        for size, k, s, (b, a) in zip(x_shape[2:], ksize, strides, pads)
    )
    return pads, out


def run_pool(x, ksize, strides, paddings, ceil_mode, exclusive, fmt, kind, global_, adaptive, alg):
    if fmt == "NHWC":
        x = np.ascontiguousarray(x.transpose(0, 2, 3, 1))
    out = phi.pool2d(
        phi.to_tensor(x),
        list(ksize),
        list(strides),
        list(paddings),
        ceil_mode,
        exclusive,
        fmt,
        kind,
        global_,
        adaptive,
        alg,
    ).numpy()
    return out.transpose(0, 3, 1, 2) if fmt == "NHWC" else out


def assert_close(got, expected, dtype):
    assert got.dtype == dtype.numpy_dtype
    assert got.shape == expected.shape
    np.testing.assert_allclose(got, expected, **tolerance(dtype))


@pytest.mark.parametrize("data_format", ["NCHW", "NHWC"])
@pytest.mark.parametrize("dtype", [D.FLOAT32, D.FLOAT64], ids=["float32", "float64"])
@pytest.mark.parametrize(
    "kind,exclusive", [("max", True), ("avg", True), ("avg", False)], ids=["max", "avg", "avg_incl"]
)
@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_pool2d_matches_the_float64_reference(spy, case, kind, exclusive, dtype, data_format):
    x_shape, ksize, strides, paddings, algorithm, ceil_mode = case
    x = sample(x_shape, dtype)
    out = run_pool(
        x,
        ksize,
        strides,
        paddings,
        ceil_mode,
        exclusive,
        data_format,
        kind,
        False,
        False,
        algorithm,
    )
    pads, out_shape = resolved(case)
    assert_close(out, reference_pool(x, ksize, strides, pads, out_shape, exclusive, kind), dtype)
    if flags.flag_value("use_native_kernels"):
        assert spy.calls == ["pool2d_nhwc" if data_format == "NHWC" else "pool2d"]


@pytest.mark.parametrize("kind", ["max", "avg"])
def test_max_pool_of_a_nan_is_nan_and_an_all_padding_window_is_the_lowest_value(spy, kind):
    x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    x[0, 0, 1, 1] = np.nan
    out = run_pool(x, (2, 2), (2, 2), [0, 0], False, True, "NCHW", kind, False, False, "EXPLICIT")
    assert np.isnan(out[0, 0, 0, 0]) and not np.isnan(out[0, 0, 1]).any()
    # padding 2 with a 2x2 window at stride 3: the first window lies in the padding only
    out = run_pool(x, (2, 2), (3, 3), [2, 2], False, True, "NCHW", "max", False, False, "EXPLICIT")
    assert out[0, 0, 0, 0] == np.finfo(np.float32).min


@pytest.mark.parametrize("data_format", ["NCHW", "NHWC"])
@pytest.mark.parametrize("kind", ["max", "avg"])
@pytest.mark.parametrize("how", ["global", "adaptive_1x1", "kernel_is_input"])
def test_one_window_over_the_whole_input_is_a_reduction(spy, how, kind, data_format):
    x = sample((2, 5, 6, 7), D.FLOAT32)
    ksize = (1, 1) if how == "adaptive_1x1" else (6, 7) if how == "kernel_is_input" else (3, 3)
    out = run_pool(
        x, ksize, (1, 1), [0, 0], False, True, data_format, kind,
        how == "global", how == "adaptive_1x1", "EXPLICIT",
    )  # fmt: skip
    x64 = x.astype(np.float64)
    expected = x64.max(axis=(2, 3)) if kind == "max" else x64.mean(axis=(2, 3))
    assert_close(out, expected[:, :, None, None], D.FLOAT32)
    # the compiled kernel's one window (a small plane), or numpy's reduction
    name = "pool2d_nhwc" if data_format == "NHWC" else "pool2d"
    assert spy.calls == ([name] if flags.flag_value("use_native_kernels") else [])


@pytest.mark.parametrize("kind", ["max", "avg"])
def test_a_large_whole_input_window_is_numpys_reduction(spy, kind):
    x = sample((2, 3, 20, 20), D.FLOAT32)  # 400 elements a plane: pairwise sums
    out = run_pool(x, (1, 1), (1, 1), [0, 0], False, True, "NCHW", kind, False, True, "EXPLICIT")
    x64 = x.astype(np.float64)
    expected = x64.max(axis=(2, 3)) if kind == "max" else x64.mean(axis=(2, 3))
    assert_close(out, expected[:, :, None, None], D.FLOAT32)
    assert spy.calls == []


@pytest.mark.parametrize("kind", ["max", "avg"])
def test_an_empty_batch_pools_to_an_empty_output(spy, kind):
    for ksize, global_, adaptive in (
        ((3, 3), False, False),
        ((1, 1), False, True),
        ((2, 2), True, False),
    ):
        x = np.zeros((0, 3, 6, 6), np.float32)
        out = run_pool(
            x, ksize, (2, 2), [1, 1], False, True, "NCHW", kind, global_, adaptive, "EXPLICIT"
        )
        assert out.shape[:2] == (0, 3) and out.dtype == np.float32


def test_float16_keeps_the_numpy_path(spy):
    x = sample((1, 2, 6, 6), D.FLOAT16)
    out = run_pool(x, (3, 3), (2, 2), [1, 1], False, True, "NCHW", "avg", False, False, "EXPLICIT")
    pads, out_shape = resolved(((1, 2, 6, 6), (3, 3), (2, 2), [1, 1], "EXPLICIT", False))
    expected = reference_pool(x, (3, 3), (2, 2), pads, out_shape, True, "avg")
    assert_close(out, expected, D.FLOAT16)
    assert spy.calls == []


@pytest.mark.parametrize("threads", [2, 3])
def test_splitting_between_threads_gives_the_same_values(monkeypatch, threads):
    if not native.NATIVE_BUILT:
        pytest.skip(NOT_BUILT)
    monkeypatch.setattr(native, "PARALLEL_MIN_WORK", 0)
    x_shape, ksize, strides, paddings, algorithm, ceil_mode = CASES["ceil_mode"]
    x = sample(x_shape, D.FLOAT32)
    pads, out_shape = resolved(CASES["ceil_mode"])
    with flags.flags_guard({"intra_op_threads": threads}):
        for kind in ("max", "avg"):
            out = run_pool(
                x, ksize, strides, paddings, ceil_mode, False, "NCHW", kind, False, False, algorithm
            )
            expected = reference_pool(x, ksize, strides, pads, out_shape, False, kind)
            assert_close(out, expected, D.FLOAT32)


def first_max_in_order(x, kernel, strides, pads, out_shape):
    """Max pooling as the compiled kernel defines it, walked in Python: from the lowest finite
    value, the window's pixels in (ky, kx) order, each kept when it is NaN or greater (so the
    first of equal values stays: -0.0 before +0.0 keeps -0.0), the window clipped to the input."""
    n, c, h, w = x.shape
    low = np.finfo(x.dtype).min
    out = np.empty((n, c) + out_shape, x.dtype)
    for b, ch, oy, ox in np.ndindex(n, c, *out_shape):
        best = x.dtype.type(low)
        for ky in range(kernel[0]):
            for kx in range(kernel[1]):
                iy, ix = oy * strides[0] + ky - pads[0], ox * strides[1] + kx - pads[1]
                if 0 <= iy < h and 0 <= ix < w:
                    v = x[b, ch, iy, ix]
                    if not (best != best or best >= v):
                        best = v
        out[b, ch, oy, ox] = best
    return out


@pytest.mark.parametrize(
    "shape, kernel, strides, pads",
    [
        ((1, 3, 7, 9), (3, 3), (1, 1), (1, 1)),
        ((2, 2, 9, 8), (3, 3), (2, 2), (0, 0)),
        ((1, 2, 8, 11), (3, 2), (2, 3), (1, 1)),
        ((1, 1, 5, 5), (5, 5), (1, 1), (2, 2)),
    ],
)
def test_max_pooling_keeps_the_first_of_equal_values_bit_for_bit(shape, kernel, strides, pads):
    """The compiled max pooling gives exactly the window walk in (ky, kx) order: ties of -0.0
    and +0.0 resolved to the first, NaN wherever a window has one."""
    if not native.NATIVE_BUILT:
        pytest.skip(NOT_BUILT)
    rng = np.random.default_rng(9)
    x = rng.choice(
        np.array([-0.0, 0.0, -1.0, 1.0, np.nan], np.float32),
        size=shape,
        p=[0.3, 0.3, 0.15, 0.2, 0.05],
    )
    out_shape = tuple(
        (size + 2 * p - k) // s + 1 for size, k, s, p in zip(shape[2:], kernel, strides, pads)
    )
    expected = first_max_in_order(x, kernel, strides, pads, out_shape)
    got = np.empty_like(expected)
    module = native._native
    planes = shape[0] * shape[1]
    args = (
        *shape[2:],
        *kernel,
        *out_shape,
        *strides,
        *pads,
        True,
        False,
        float(np.finfo(np.float32).min),
    )
    module.pool2d(x, planes, *args, 0, planes, got)
    assert np.array_equal(got, expected, equal_nan=True)
    assert np.array_equal(np.signbit(got), np.signbit(expected))
