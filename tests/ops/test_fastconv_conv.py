"""conv2d's and depthwise_conv2d's fast paths (issue 26) against float64 references, with the
compiled kernels (runtime.kernels._native, FLAGS_use_native_kernels on) and without them: 1x1
convolutions as GEMMs on the input (strided, grouped, the batch folded in), KxK convolutions
through the compiled im2col with the batch folded into the columns (channels first) or the
channels-last im2col, float32 channels-first convolutions with few output channels by the
direct kernel (where the CPU runs it; tests/ops/test_conv_direct.py tests it further),
depthwise convolutions as a direct kernel; every padding mode, both data formats, dilations,
groups, an empty batch; split between threads or not."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import phiops.generated as phi
import phiops.generated.backward as phi_backward
from phiops.runtime import flags
from phiops.runtime.common import DataType
from phiops.runtime.kernels import native
from phiops.runtime.kernels.impl import conv_kernel
from tests.ops.op_testing import sample, tolerance

D = DataType
NOT_BUILT = "phiops.runtime.kernels._native is not built (no C compiler when phiops was installed)"
FAST_FUNCTIONS = ("im2col_2d", "im2col_folded_2d", "im2col_nhwc_2d", "depthwise_conv2d", "pool2d")


class NativeSpy:
    """Stands in for the extension module and records which of its kernels ran."""

    def __init__(self, module: Any) -> None:
        self.module = module
        self.calls: list[str] = []

    def __getattr__(self, name: str) -> Any:
        function = getattr(self.module, name)

        def record(*args: Any) -> Any:
            if name != "conv_direct_available":  # asked once per process: not a kernel run
                self.calls.append(name)
            return function(*args)

        return record


@pytest.fixture(params=[True, False], ids=["native", "numpy"])
def spy(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[NativeSpy]:
    """Run the test with the compiled kernels on (when built) or off; the spy records calls."""
    use_native = request.param
    if use_native and not native.NATIVE_BUILT:
        pytest.skip(NOT_BUILT)
    recorder = NativeSpy(native._native)
    monkeypatch.setattr(native, "_native", recorder)
    with flags.flags_guard({"use_native_kernels": use_native}):
        yield recorder
    if not use_native:
        assert recorder.calls == []


def explicit_pads(
    spatial: tuple[int, int],
    kernel: tuple[int, int],
    strides: tuple[int, int],
    dilations: tuple[int, int],
    paddings: list[int],
    algorithm: str,
) -> list[tuple[int, int]]:
    """(before, after) per spatial dim as PaddlePaddle's conv2d resolves them (written here from
    its documentation: SAME pads to ceil(size / stride) outputs, the extra pixel after)."""
    if algorithm == "VALID":
        return [(0, 0), (0, 0)]
    if algorithm == "SAME":
        pads = []
        for size, k, s in zip(spatial, kernel, strides):
            out = -(-size // s)
            total = max((out - 1) * s + k - size, 0)
            pads.append((total // 2, total - total // 2))
        return pads
    if len(paddings) == 2:
        return [(paddings[0], paddings[0]), (paddings[1], paddings[1])]
    return [(paddings[0], paddings[1]), (paddings[2], paddings[3])]


def reference_conv(x, w, strides, pads, dilations, groups):
    """The convolution of NCHW ``x`` in float64, one kernel tap of one group at a time."""
    x, w = x.astype(np.float64), w.astype(np.float64)
    n, c, h, width = x.shape
    m, cg, kh, kw = w.shape
    padded = np.zeros((n, c, h + sum(pads[0]), width + sum(pads[1])))
    padded[:, :, pads[0][0] : pads[0][0] + h, pads[1][0] : pads[1][0] + width] = x
    oh = (padded.shape[2] - dilations[0] * (kh - 1) - 1) // strides[0] + 1
    ow = (padded.shape[3] - dilations[1] * (kw - 1) - 1) // strides[1] + 1
    out = np.zeros((n, m, oh, ow))
    mg = m // groups
    for group in range(groups):
        for ky in range(kh):
            for kx in range(kw):
                y0, x0 = ky * dilations[0], kx * dilations[1]
                window = padded[
                    :,
                    group * cg : (group + 1) * cg,
                    y0 : y0 + strides[0] * (oh - 1) + 1 : strides[0],
                    x0 : x0 + strides[1] * (ow - 1) + 1 : strides[1],
                ]
                taps = w[group * mg : (group + 1) * mg, :, ky, kx]
                out[:, group * mg : (group + 1) * mg] += np.einsum("nchw,mc->nmhw", window, taps)
    return out


def assert_close(got: np.ndarray, expected: np.ndarray, dtype: DataType) -> None:
    assert got.dtype == dtype.numpy_dtype
    assert got.shape == expected.shape
    atol = tolerance(dtype)["atol"] * max(1.0, float(np.abs(expected).max(initial=0)))
    np.testing.assert_allclose(got, expected, rtol=tolerance(dtype)["rtol"], atol=atol)


# name: (x NCHW shape, filter shape, strides, paddings, algorithm, dilations, groups, the
# compiled kernel that runs it channels first / channels last, or None: no compiled kernel)
CASES = {
    "1x1": ((1, 6, 5, 7), (8, 6, 1, 1), (1, 1), [0, 0], "EXPLICIT", (1, 1), 1, None, None),
    "1x1_batch_folded": ((3, 6, 4, 5), (8, 6, 1, 1), (1, 1), [0, 0], "EXPLICIT", (1, 1), 1, None, None),
    "1x1_batch_large_planes": ((2, 3, 17, 16), (5, 3, 1, 1), (1, 1), [0, 0], "EXPLICIT", (1, 1), 1, None, None),
    "1x1_strided": ((2, 6, 7, 8), (4, 6, 1, 1), (2, 3), [0, 0], "EXPLICIT", (1, 1), 1, None, None),
    "1x1_grouped": ((2, 6, 5, 5), (9, 2, 1, 1), (1, 1), [0, 0], "EXPLICIT", (1, 1), 3, None, None),
    "1x1_dilation_ignored": ((1, 4, 5, 5), (3, 4, 1, 1), (1, 1), [0, 0], "VALID", (2, 2), 1, None, None),
    "1x1_padded": ((2, 4, 5, 5), (3, 4, 1, 1), (1, 1), [1, 1], "EXPLICIT", (1, 1), 1, "im2col_folded_2d", "im2col_nhwc_2d"),
    "3x3": ((2, 3, 6, 7), (4, 3, 3, 3), (1, 1), [1, 1], "EXPLICIT", (1, 1), 1, "im2col_folded_2d", "im2col_nhwc_2d"),
    "3x3_batch_large_planes": ((2, 2, 17, 16), (3, 2, 3, 3), (1, 1), [1, 1], "EXPLICIT", (1, 1), 1, "im2col_2d", "im2col_nhwc_2d"),
    "3x3_batch1": ((1, 3, 6, 7), (4, 3, 3, 3), (1, 1), [1, 1], "EXPLICIT", (1, 1), 1, "im2col_folded_2d", "im2col_nhwc_2d"),
    "strided": ((2, 2, 7, 8), (3, 2, 3, 2), (2, 3), [1, 0], "EXPLICIT", (1, 1), 1, "im2col_folded_2d", "im2col_nhwc_2d"),
    "dilated": ((2, 2, 7, 7), (2, 2, 3, 3), (1, 1), [2, 1], "EXPLICIT", (2, 2), 1, "im2col_folded_2d", "im2col_nhwc_2d"),
    "asymmetric": ((2, 2, 5, 6), (2, 2, 2, 3), (1, 2), [0, 2, 1, 3], "EXPLICIT", (1, 1), 1, "im2col_folded_2d", "im2col_nhwc_2d"),
    "same": ((2, 3, 7, 6), (4, 3, 3, 2), (2, 2), [0, 0], "SAME", (1, 1), 1, "im2col_folded_2d", "im2col_nhwc_2d"),
    "valid": ((2, 3, 7, 6), (4, 3, 3, 3), (1, 2), [5, 5], "VALID", (1, 1), 1, "im2col_folded_2d", "im2col_nhwc_2d"),
    "grouped": ((2, 4, 5, 5), (6, 2, 3, 3), (1, 1), [1, 1], "EXPLICIT", (1, 1), 2, "im2col_folded_2d", None),
    "depthwise": ((2, 5, 6, 7), (5, 1, 3, 3), (1, 1), [1, 1], "EXPLICIT", (1, 1), 5, "depthwise_conv2d", "depthwise_conv2d_nhwc"),
    "depthwise_strided": ((2, 4, 9, 8), (4, 1, 3, 3), (2, 2), [1, 1], "EXPLICIT", (1, 1), 4, "depthwise_conv2d", "depthwise_conv2d_nhwc"),
    "depthwise_multiplier": ((2, 3, 6, 6), (6, 1, 3, 2), (1, 2), [1, 0, 2, 1], "EXPLICIT", (1, 1), 3, "depthwise_conv2d", "depthwise_conv2d_nhwc"),
    "depthwise_dilated": ((1, 4, 8, 8), (4, 1, 3, 3), (1, 1), [2, 2], "EXPLICIT", (2, 2), 4, "depthwise_conv2d", "depthwise_conv2d_nhwc"),
    "depthwise_same": ((2, 4, 7, 8), (4, 1, 5, 5), (2, 2), [0, 0], "SAME", (1, 1), 4, "depthwise_conv2d", "depthwise_conv2d_nhwc"),
    "depthwise_valid": ((2, 4, 7, 8), (4, 1, 3, 3), (1, 1), [3, 3], "VALID", (1, 1), 4, "depthwise_conv2d", "depthwise_conv2d_nhwc"),
    # many tiny planes (MobileNet's last layers), and a kernel wider than the 16 columns whose
    # spans the compiled kernel works out once per call (DEPTHWISE_SPANS): per plane instead
    "depthwise_tiny_planes": ((1, 40, 2, 2), (40, 1, 3, 3), (1, 1), [1, 1], "EXPLICIT", (1, 1), 40, "depthwise_conv2d", "depthwise_conv2d_nhwc"),
    "depthwise_wide": ((1, 3, 4, 21), (3, 1, 1, 17), (1, 2), [0, 8], "EXPLICIT", (1, 1), 3, "depthwise_conv2d", "depthwise_conv2d_nhwc"),
    "empty_batch": ((0, 3, 6, 7), (4, 3, 3, 3), (1, 1), [1, 1], "EXPLICIT", (1, 1), 1, None, None),
    "empty_batch_1x1": ((0, 3, 6, 7), (4, 3, 1, 1), (1, 1), [0, 0], "EXPLICIT", (1, 1), 1, None, None),
    "empty_batch_depthwise": ((0, 3, 6, 7), (3, 1, 3, 3), (1, 1), [1, 1], "EXPLICIT", (1, 1), 3, None, None),
}  # fmt: skip


def run_case(case: tuple[Any, ...], dtype: DataType, data_format: str, op: str) -> np.ndarray:
    x_shape, w_shape, strides, paddings, algorithm, dilations, groups = case[:7]
    x, w = sample(x_shape, dtype), sample(w_shape, dtype, seed=1)
    if data_format == "NHWC":
        x = np.ascontiguousarray(x.transpose(0, 2, 3, 1))
    args: tuple[Any, ...] = (list(strides), list(paddings), algorithm)
    if op == "depthwise_conv2d":
        args += (groups, list(dilations), data_format)
    else:
        args += (list(dilations), groups, data_format)
    out = getattr(phi, op)(phi.to_tensor(x), phi.to_tensor(w), *args).numpy()
    return out.transpose(0, 3, 1, 2) if data_format == "NHWC" else out


def expected_of(case: tuple[Any, ...], dtype: DataType) -> np.ndarray:
    x_shape, w_shape, strides, paddings, algorithm, dilations, groups = case[:7]
    x, w = sample(x_shape, dtype), sample(w_shape, dtype, seed=1)
    if algorithm == "SAME":
        dilations = (1, 1)  # PHI: SAME padding runs without dilation
    pads = explicit_pads(x_shape[2:], w_shape[2:], strides, dilations, paddings, algorithm)
    return reference_conv(x, w, strides, pads, dilations, groups)


def direct_runs() -> bool:
    """Whether the compiled direct convolution runs on this machine (AVX2 and FMA)."""
    return native.NATIVE_BUILT and bool(native._native.conv_direct_available())


def expected_kernel(case: tuple[Any, ...], dtype: DataType, data_format: str, out_width: int):
    """The compiled kernel the case takes: the direct one for a float32 channels-first KxK
    convolution (groups 1) with at most DIRECT_MAX_CHANNELS outputs, rows of at least
    DIRECT_MIN_WIDTH pixels, where the CPU runs it; else the one the case names."""
    kernel = case[7] if data_format == "NCHW" else case[8]
    if (
        kernel in ("im2col_folded_2d", "im2col_2d")
        and dtype == D.FLOAT32
        and case[6] == 1
        and case[1][0] <= conv_kernel.DIRECT_MAX_CHANNELS
        and out_width >= conv_kernel.DIRECT_MIN_WIDTH
        and direct_runs()
    ):
        return "conv_direct_2d"
    return kernel


@pytest.mark.parametrize("direct", [True, False], ids=["direct", "im2col"])
@pytest.mark.parametrize("data_format", ["NCHW", "NHWC"])
@pytest.mark.parametrize("dtype", [D.FLOAT32, D.FLOAT64], ids=["float32", "float64"])
@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_conv2d_matches_the_float64_reference(spy, monkeypatch, case, dtype, data_format, direct):
    if not direct:  # the im2col + GEMM paths, which the direct kernel would take over
        monkeypatch.setattr(conv_kernel, "DIRECT_MAX_CHANNELS", 0)
        monkeypatch.setattr(conv_kernel, "DIRECT_MID_CHANNELS", 0)
    out = run_case(case, dtype, data_format, "conv2d")
    expected = expected_of(case, dtype)
    assert_close(out, expected, dtype)
    kernel = case[7] if data_format == "NCHW" else case[8]
    if direct:
        kernel = expected_kernel(case, dtype, data_format, expected.shape[3])
    if flags.flag_value("use_native_kernels"):
        # the path the case is meant to take ran (and no other compiled conv kernel)
        assert spy.calls == ([kernel] if kernel else []), spy.calls


@pytest.mark.parametrize("data_format", ["NCHW", "NHWC"])
@pytest.mark.parametrize(
    "name", [name for name in CASES if name.startswith(("depthwise", "empty_batch_depthwise"))]
)
def test_depthwise_conv2d_op_matches_the_float64_reference(spy, name, data_format):
    case = CASES[name]
    out = run_case(case, D.FLOAT32, data_format, "depthwise_conv2d")
    assert_close(out, expected_of(case, D.FLOAT32), D.FLOAT32)


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("name", ["3x3", "strided", "depthwise_multiplier", "grouped"])
@pytest.mark.parametrize("data_format", ["NCHW", "NHWC"])
def test_splitting_between_threads_gives_the_same_values(monkeypatch, name, threads, data_format):
    if not native.NATIVE_BUILT:
        pytest.skip(NOT_BUILT)
    monkeypatch.setattr(native, "PARALLEL_MIN_WORK", 0)  # split even these small calls
    case = CASES[name]
    with flags.flags_guard({"intra_op_threads": threads}):
        out = run_case(case, D.FLOAT32, data_format, "conv2d")
    assert_close(out, expected_of(case, D.FLOAT32), D.FLOAT32)


def test_parallel_rows_covers_every_row_once(monkeypatch):
    monkeypatch.setattr(native, "PARALLEL_MIN_WORK", 10)
    for threads, rows, work in ((2, 7, 100), (3, 2, 100), (4, 9, 5), (1, 5, 100)):
        seen: list[tuple[int, int]] = []
        with flags.flags_guard({"intra_op_threads": threads}):
            native.parallel_rows(lambda r0, r1: seen.append((r0, r1)), rows, work)
        covered = sorted(r for r0, r1 in seen for r in range(r0, r1))
        assert covered == list(range(rows))
        expected_ranges = min(threads, rows) if work >= 10 else 1
        assert len(seen) == expected_ranges


def test_intra_op_threads_flag_defaults_to_the_cores():
    assert flags.flag_value("intra_op_threads") == -1
    assert native.intra_op_threads() >= 1
    with flags.flags_guard({"intra_op_threads": 1}):
        assert native.intra_op_threads() == 1


def test_automatic_threads_stay_on_one_thread_while_the_machine_is_busy(monkeypatch):
    cores = native._cores()
    for load, busy in ((cores + 8.0, True), (0.5, False)):
        monkeypatch.setattr(native.os, "getloadavg", lambda: (load, load, load))
        monkeypatch.setattr(native, "_busy_checked", float("-inf"))  # forget the last reading
        assert native.machine_busy() is busy
        with flags.flags_guard({"intra_op_threads": -1}):
            assert native.intra_op_threads() == (1 if busy else cores)
        with flags.flags_guard({"intra_op_threads": 2}):  # an explicit count is kept
            assert native.intra_op_threads() == 2


def test_a_module_without_the_fast_kernels_falls_back(monkeypatch):
    """An extension built from older sources (only im2col_2d and col2im_2d) still serves
    conv2d: the fast paths that need the missing functions give way to the older ones."""
    if not native.NATIVE_BUILT:
        pytest.skip(NOT_BUILT)

    class Old:
        im2col_2d = staticmethod(native._native.im2col_2d)
        col2im_2d = staticmethod(native._native.col2im_2d)

    monkeypatch.setattr(native, "_native", Old())
    for name in ("3x3", "depthwise", "grouped"):
        case = CASES[name]
        assert_close(
            run_case(case, D.FLOAT32, "NCHW", "conv2d"), expected_of(case, D.FLOAT32), D.FLOAT32
        )


def test_gradients_still_match_after_a_fast_forward():
    """The backward kernels keep their path: conv2d_grad of a depthwise and a 1x1 convolution
    against finite sums written here (the adjoint of reference_conv)."""
    for name in ("depthwise_multiplier", "1x1_strided"):
        x_shape, w_shape, strides, paddings, algorithm, dilations, groups = CASES[name][:7]
        x, w = sample(x_shape, D.FLOAT64), sample(w_shape, D.FLOAT64, seed=1)
        args = (list(strides), list(paddings), algorithm, list(dilations), groups, "NCHW")
        out = phi.conv2d(phi.to_tensor(x), phi.to_tensor(w), *args)
        g = sample(tuple(out.shape), D.FLOAT64, seed=2)
        x_grad, w_grad = phi_backward.conv2d_grad(
            phi.to_tensor(x), phi.to_tensor(w), phi.to_tensor(g), *args
        )
        pads = explicit_pads(x_shape[2:], w_shape[2:], strides, dilations, paddings, algorithm)
        eps = 1e-6
        # directional derivatives: <g, d out> = <x_grad, dx> + <w_grad, dw>
        dx, dw = sample(x_shape, D.FLOAT64, seed=3), sample(w_shape, D.FLOAT64, seed=4)
        plus = reference_conv(x + eps * dx, w + eps * dw, strides, pads, dilations, groups)
        minus = reference_conv(x - eps * dx, w - eps * dw, strides, pads, dilations, groups)
        numeric = float(np.sum(g * (plus - minus)) / (2 * eps))
        analytic = float(np.sum(x_grad.numpy() * dx) + np.sum(w_grad.numpy() * dw))
        assert numeric == pytest.approx(analytic, rel=1e-6)


def test_the_extension_rejects_bad_fast_calls():
    if not native.NATIVE_BUILT:
        pytest.skip(NOT_BUILT)
    module = native._native
    x = np.zeros((2, 3, 4, 4), np.float32)
    geometry = (4, 4, 3, 3, 4, 4, 1, 1, 1, 1, 1, 1)
    cols = np.zeros((3 * 9, 2 * 16), np.float32)
    with pytest.raises(ValueError, match=r"rows \[0, 4\) outside \[0, 3\)"):
        module.im2col_folded_2d(x, 2, 3, *geometry, 0, 4, cols)
    with pytest.raises(ValueError, match="cols: expected 864 elements, got 432"):
        module.im2col_folded_2d(x, 2, 3, *geometry, 0, 3, cols[:, :16].copy())
    with pytest.raises(TypeError, match="cols: expected buffer format 'f', got 'd'"):
        module.im2col_folded_2d(x, 2, 3, *geometry, 0, 3, cols.astype(np.float64))
    with pytest.raises(ValueError, match="strides or dilations below 1"):
        module.im2col_nhwc_2d(x, 2, 3, *geometry[:6], 0, 1, 1, 1, 1, 1, 0, 1, cols)
    out = np.empty((2, 3, 4, 4), np.float32)
    with pytest.raises(ValueError, match="filter: expected 27 elements, got 9"):
        module.depthwise_conv2d(x, np.zeros(9, np.float32), 2, 3, 1, *geometry, 0, 6, out)
    with pytest.raises(ValueError, match="mult below 1"):
        module.depthwise_conv2d(x, np.zeros(27, np.float32), 2, 3, 0, *geometry, 0, 6, out)
    with pytest.raises(ValueError, match=r"rows \[-1, 6\) outside \[0, 6\)"):
        module.pool2d(x, 6, 4, 4, 3, 3, 4, 4, 1, 1, 1, 1, True, False, 0.0, -1, 6, out)


def reference_conv_nd(x, w, strides, pads, dilations, groups):
    """The convolution of channels-first ``x`` of any rank in float64, tap by tap per group."""
    x, w = x.astype(np.float64), w.astype(np.float64)
    n, c = x.shape[:2]
    m, cg = w.shape[:2]
    kernel = w.shape[2:]
    padded = np.pad(x, ((0, 0), (0, 0)) + tuple(pads))
    out_shape = tuple(
        (size - d * (k - 1) - 1) // s + 1
        for size, k, s, d in zip(padded.shape[2:], kernel, strides, dilations)
    )
    out = np.zeros((n, m) + out_shape)
    mg = m // groups
    for group in range(groups):
        for tap in itertools.product(*(range(k) for k in kernel)):
            window = tuple(
                slice(t * d, t * d + s * (o - 1) + 1, s)
                for t, d, s, o in zip(tap, dilations, strides, out_shape)
            )
            part = padded[(slice(None), slice(group * cg, (group + 1) * cg)) + window]
            taps = w[(slice(group * mg, (group + 1) * mg), slice(None)) + tap]
            out[:, group * mg : (group + 1) * mg] += np.einsum("nc...,mc->nm...", part, taps)
    return out


# conv3d reaches the rank-generic fast paths: 1x1x1 as GEMMs, groups == C as shifted-view sums,
# a batch of small volumes folded through as_strided windows
CASES_3D = {
    "1x1x1": ((2, 4, 3, 4, 5), (6, 4, 1, 1, 1), (1, 1, 1), (0, 0, 0), (1, 1, 1), 1),
    "1x1x1_strided": ((2, 4, 5, 4, 5), (3, 4, 1, 1, 1), (2, 1, 2), (0, 0, 0), (1, 1, 1), 1),
    "1x1x1_grouped": ((1, 4, 3, 3, 3), (6, 2, 1, 1, 1), (1, 1, 1), (0, 0, 0), (1, 1, 1), 2),
    "3x3x3_batch_folded": ((2, 4, 4, 4, 5), (4, 2, 3, 3, 2), (1, 2, 1), (1, 1, 0), (1, 1, 2), 2),
    "depthwise": ((2, 3, 4, 5, 5), (3, 1, 2, 3, 3), (1, 2, 1), (1, 1, 0), (1, 1, 2), 3),
    "depthwise_multiplier": ((1, 2, 4, 4, 4), (4, 1, 3, 3, 3), (2, 2, 2), (1, 1, 1), (1, 1, 1), 2),
}


@pytest.mark.parametrize("data_format", ["NCDHW", "NDHWC"])
@pytest.mark.parametrize("case", CASES_3D.values(), ids=CASES_3D.keys())
def test_conv3d_fast_paths_match_the_float64_reference(spy, case, data_format):
    x_shape, w_shape, strides, paddings, dilations, groups = case
    x, w = sample(x_shape, D.FLOAT32), sample(w_shape, D.FLOAT32, seed=1)
    xin = np.ascontiguousarray(np.moveaxis(x, 1, -1)) if data_format == "NDHWC" else x
    out = phi.conv3d(
        phi.to_tensor(xin),
        phi.to_tensor(w),
        list(strides),
        list(paddings),
        "EXPLICIT",
        groups,
        list(dilations),
        data_format,
    ).numpy()
    if data_format == "NDHWC":
        out = np.moveaxis(out, -1, 1)
    pads = [(p, p) for p in paddings]
    expected = reference_conv_nd(x, w, strides, pads, dilations, groups)
    assert_close(out, expected, D.FLOAT32)
    assert spy.calls == []  # the compiled kernels are 2-D only


def taps_in_order(x, w, strides, pads, dilations, mult):
    """Depthwise convolution in float32 numpy, as the compiled kernels sum it: from 0, the taps
    in (ky, kx) order, each product rounded and added (taps outside the input skipped)."""
    n, c, h, width = x.shape
    m, _, kh, kw = w.shape
    oh = (h + sum(pads[0]) - dilations[0] * (kh - 1) - 1) // strides[0] + 1
    ow = (width + sum(pads[1]) - dilations[1] * (kw - 1) - 1) // strides[1] + 1
    out = np.zeros((n, m, oh, ow), np.float32)
    source = x[:, np.arange(m) // mult]
    for ky in range(kh):
        for kx in range(kw):
            iy = np.arange(oh) * strides[0] + ky * dilations[0] - pads[0][0]
            ix = np.arange(ow) * strides[1] + kx * dilations[1] - pads[1][0]
            rows, cols = (iy >= 0) & (iy < h), (ix >= 0) & (ix < width)
            window = source[:, :, iy[rows]][:, :, :, ix[cols]]
            product = window * w[:, 0, ky, kx].reshape(1, m, 1, 1)
            out[:, :, np.flatnonzero(rows)[:, None], np.flatnonzero(cols)] += product
    return out


@pytest.mark.parametrize(
    "x_shape, w_shape, strides, pads, dilations",
    [
        ((1, 40, 2, 2), (40, 1, 3, 3), (1, 1), ((1, 1), (1, 1)), (1, 1)),  # pixel-major
        ((2, 24, 9, 11), (48, 1, 3, 3), (2, 2), ((1, 1), (1, 1)), (1, 1)),  # strided, mult 2
        ((1, 16, 7, 7), (16, 1, 5, 3), (1, 1), ((2, 0), (1, 2)), (2, 1)),  # dilated, asymmetric
        ((1, 8, 20, 20), (8, 1, 3, 3), (1, 1), ((1, 1), (1, 1)), (1, 1)),  # plane by plane
    ],
)
def test_depthwise_kernels_sum_the_taps_in_order_bit_for_bit(
    x_shape, w_shape, strides, pads, dilations
):
    """Both compiled depthwise loops (pixel-major for small or strided planes, plane by plane
    otherwise) give exactly the float32 sums of the taps in (ky, kx) order."""
    if not native.NATIVE_BUILT:
        pytest.skip(NOT_BUILT)
    rng = np.random.default_rng(7)
    x = rng.standard_normal(x_shape).astype(np.float32)
    w = rng.standard_normal(w_shape).astype(np.float32)
    n, c, h, width = x_shape
    m, _, kh, kw = w_shape
    expected = taps_in_order(x, w, strides, pads, dilations, m // c)
    out = np.full(expected.shape, np.nan, np.float32)
    geometry = (h, width, kh, kw, *expected.shape[2:], *strides, *dilations, pads[0][0], pads[1][0])
    for r0, r1 in ((0, n * m), (0, 5), (5, n * m)):  # a split writes its rows only
        native._native.depthwise_conv2d(x, w, n, c, m // c, *geometry, r0, r1, out)
    assert np.array_equal(out, expected)
