"""The compiled direct convolution (runtime/kernels/csrc/conv_direct.h, issue 26): float32
channels-first convolutions with groups 1, 4 output channels by 8-24 pixels per register tile,
against a float64 reference over output-channel counts that are not multiples of 4, row widths
that end inside a vector, strides, dilations and asymmetric paddings; row ranges (threads)
giving the same bits as one call; which convolutions conv2d hands it; its argument checks."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime import flags
from phiops.runtime.kernels import native
from phiops.runtime.kernels.impl import conv_kernel
from tests.ops.test_fastconv_conv import NativeSpy, direct_runs, reference_conv

pytestmark = pytest.mark.skipif(
    not direct_runs(), reason="the direct convolution needs the extension and AVX2 + FMA"
)


def out_size(size: int, k: int, stride: int, dilation: int, pads: tuple[int, int]) -> int:
    return (size + sum(pads) - dilation * (k - 1) - 1) // stride + 1


def run_direct(x, w, strides, pads, dilations, r0=None, r1=None, out=None):
    n, c, h, width = x.shape
    m, _, kh, kw = w.shape
    oh = out_size(h, kh, strides[0], dilations[0], pads[0])
    ow = out_size(width, kw, strides[1], dilations[1], pads[1])
    if out is None:
        out = np.full((n, m, oh, ow), np.nan, np.float32)
    rows = n * ((m + 3) // 4)
    native._native.conv_direct_2d(
        x, w, n, c, m, h, width, kh, kw, oh, ow, *strides, *dilations, pads[0][0], pads[1][0],
        0 if r0 is None else r0, rows if r1 is None else r1, out,
    )  # fmt: skip
    return out


def geometries():
    """A seeded spread of geometries: kernels square and not, every stride and dilation up to
    3 and 2, paddings asymmetric, output rows from 1 to 41 pixels (every tile width and tail)."""
    rng = np.random.default_rng(26)
    kernels = [(3, 3), (1, 7), (7, 1), (5, 2), (2, 2), (1, 3)]
    for index, (m, kernel) in enumerate(itertools.product([1, 3, 4, 5, 8, 13, 16], kernels)):
        strides = (int(rng.integers(1, 4)), int(rng.integers(1, 4)))
        dilations = (int(rng.integers(1, 3)), int(rng.integers(1, 3)))
        pads = tuple((int(rng.integers(0, 3)), int(rng.integers(0, 3))) for _ in range(2))
        width = int(rng.integers(1, 42)) * strides[1] + dilations[1] * (kernel[1] - 1)
        height = int(rng.integers(1, 6)) * strides[0] + dilations[0] * (kernel[0] - 1)
        n, c = 1 + index % 2, int(rng.integers(1, 7))
        yield (n, c, height, width), (m, c) + kernel, strides, pads, dilations


CASES = list(geometries())


@pytest.mark.parametrize("case", CASES, ids=[f"g{i}" for i in range(len(CASES))])
def test_direct_matches_the_float64_reference(case):
    x_shape, w_shape, strides, pads, dilations = case
    rng = np.random.default_rng(sum(x_shape) + sum(w_shape))
    x = rng.standard_normal(x_shape).astype(np.float32)
    w = rng.standard_normal(w_shape).astype(np.float32)
    got = run_direct(x, w, strides, pads, dilations)
    expected = reference_conv(x, w, strides, pads, dilations, 1)
    assert got.shape == expected.shape
    scale = max(1.0, float(np.abs(expected).max()))
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5 * scale)


def test_row_ranges_write_their_rows_only_and_split_calls_agree_bit_for_bit():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((3, 5, 9, 30)).astype(np.float32)
    w = rng.standard_normal((11, 5, 3, 3)).astype(np.float32)  # 3 blocks of 4 per image
    whole = run_direct(x, w, (1, 1), ((1, 1), (1, 1)), (1, 1))
    rows = 3 * 3
    for cut in range(rows + 1):
        out = np.full_like(whole, np.nan)
        run_direct(x, w, (1, 1), ((1, 1), (1, 1)), (1, 1), 0, cut, out)
        done = np.isfinite(out).all(axis=(2, 3))
        # row r covers image r // 3, output channels 4 * (r % 3) ... (the last block has 3)
        expected_done = np.zeros((3, 11), bool)
        for r in range(cut):
            expected_done[r // 3, 4 * (r % 3) : 4 * (r % 3) + 4] = True
        assert (done == expected_done).all(), cut
        run_direct(x, w, (1, 1), ((1, 1), (1, 1)), (1, 1), cut, rows, out)
        assert np.array_equal(out, whole)


def conv2d(x, w, strides=(1, 1), paddings=(1, 1), groups=1, data_format="NCHW"):
    return phi.conv2d(
        phi.to_tensor(x), phi.to_tensor(w), list(strides), list(paddings), "EXPLICIT", [1, 1],
        groups, data_format,
    ).numpy()  # fmt: skip


@pytest.mark.parametrize(
    "x_shape, w_shape, dtype, groups, data_format, direct",
    [
        ((1, 8, 12, 12), (16, 8, 3, 3), np.float32, 1, "NCHW", True),
        ((2, 3, 12, 9), (5, 3, 3, 3), np.float32, 1, "NCHW", True),
        ((1, 4, 12, 12), (17, 4, 3, 3), np.float32, 1, "NCHW", False),  # 17 outputs, sums of 36
        ((1, 16, 12, 12), (24, 16, 3, 3), np.float32, 1, "NCHW", True),  # 24, sums of 144
        ((1, 32, 12, 12), (24, 32, 3, 3), np.float32, 1, "NCHW", False),  # 24, sums of 288
        ((1, 16, 12, 12), (33, 16, 3, 3), np.float32, 1, "NCHW", False),  # beyond 32 outputs
        ((1, 8, 12, 1), (4, 8, 3, 3), np.float32, 1, "NCHW", False),  # rows of 1 pixel
        ((1, 8, 12, 12), (4, 8, 3, 3), np.float64, 1, "NCHW", False),  # float64: GEMM
        ((1, 8, 12, 12), (4, 4, 3, 3), np.float32, 2, "NCHW", False),  # grouped
        ((1, 12, 12, 8), (4, 8, 3, 3), np.float32, 1, "NHWC", False),  # channels last
    ],
)
def test_conv2d_hands_the_direct_kernel_few_output_channels(
    monkeypatch, x_shape, w_shape, dtype, groups, data_format, direct
):
    spy = NativeSpy(native._native)
    monkeypatch.setattr(native, "_native", spy)
    rng = np.random.default_rng(2)
    x = rng.standard_normal(x_shape).astype(dtype)
    w = rng.standard_normal(w_shape).astype(dtype)
    out = conv2d(x, w, groups=groups, data_format=data_format)
    assert ("conv_direct_2d" in spy.calls) is direct, spy.calls
    x_first = x.transpose(0, 3, 1, 2) if data_format == "NHWC" else x
    expected = reference_conv(x_first, w, (1, 1), ((1, 1), (1, 1)), (1, 1), groups)
    if data_format == "NHWC":
        out = out.transpose(0, 3, 1, 2)
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-4)


def test_without_avx2_or_with_native_kernels_off_conv2d_keeps_im2col(monkeypatch):
    rng = np.random.default_rng(3)
    x = rng.standard_normal((1, 6, 10, 10)).astype(np.float32)
    w = rng.standard_normal((8, 6, 3, 3)).astype(np.float32)
    expected = reference_conv(x, w, (1, 1), ((1, 1), (1, 1)), (1, 1), 1)
    spy = NativeSpy(native._native)
    monkeypatch.setattr(native, "_native", spy)
    monkeypatch.setattr(conv_kernel, "_direct_available", False)  # a CPU without AVX2 + FMA
    np.testing.assert_allclose(conv2d(x, w), expected, rtol=1e-5, atol=1e-4)
    assert spy.calls == ["im2col_folded_2d"]
    monkeypatch.setattr(conv_kernel, "_direct_available", None)
    spy.calls.clear()
    with flags.flags_guard({"use_native_kernels": False}):
        np.testing.assert_allclose(conv2d(x, w), expected, rtol=1e-5, atol=1e-4)
    assert spy.calls == []


def test_the_extension_rejects_bad_direct_calls():
    module = native._native
    x = np.zeros((2, 3, 4, 4), np.float32)
    w = np.zeros((5, 3, 3, 3), np.float32)
    out = np.zeros((2, 5, 4, 4), np.float32)
    geometry = (4, 4, 3, 3, 4, 4, 1, 1, 1, 1, 1, 1)
    with pytest.raises(ValueError, match=r"rows \[0, 5\) outside \[0, 4\)"):
        module.conv_direct_2d(x, w, 2, 3, 5, *geometry, 0, 5, out)
    with pytest.raises(TypeError, match="x: expected buffer format 'f', got 'd'"):
        module.conv_direct_2d(x.astype(np.float64), w, 2, 3, 5, *geometry, 0, 4, out)
    with pytest.raises(ValueError, match="filter: expected 135 elements, got 27"):
        module.conv_direct_2d(x, w[:1].copy(), 2, 3, 5, *geometry, 0, 4, out)
    with pytest.raises(ValueError, match="negative paddings"):
        module.conv_direct_2d(x, w, 2, 3, 5, *geometry[:10], -1, 1, 0, 4, out)
    with pytest.raises(ValueError, match="out: expected 320 elements, got 160"):
        module.conv_direct_2d(x, w, 2, 3, 5, 4, 4, 3, 3, 4, 8, 1, 1, 1, 1, 1, 1, 0, 4, out)
    with pytest.raises(ValueError, match="strides or dilations below 1"):
        module.conv_direct_2d(x, w, 2, 3, 5, *geometry[:6], 0, 1, 1, 1, 1, 1, 0, 4, out)
    readonly = out.copy()
    readonly.flags.writeable = False
    with pytest.raises((BufferError, ValueError, TypeError)):
        module.conv_direct_2d(x, w, 2, 3, 5, *geometry, 0, 4, readonly)
