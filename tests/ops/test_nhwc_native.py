"""The compiled channels-last (NHWC) kernels, pool2d_nhwc and depthwise_conv2d_nhwc
(runtime/kernels/csrc/channels_last.h), over seeded random geometries: strides 1-3, asymmetric
paddings 0-3, kernels 1-7, dilations (depthwise), channel counts that leave vector tails (1, 3,
7, 33, 67), float32 and float64, max and average pooling (exclusive or not), NaN and -0.0 in the
input. Each result is checked bit for bit against the channels-first compiled kernel's (the
same taps in the same order), against a Python walk of the windows in (ky, kx) order, and by
value against the numpy channels-last path (FLAGS_use_native_kernels off), split between
threads or not."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime import flags
from phiops.runtime.kernels import native
from tests.ops.test_fastconv_conv import NOT_BUILT, NativeSpy, taps_in_order

DTYPES = [np.float32, np.float64]
CHANNELS = (1, 3, 7, 33, 67)
# input values with ties of -0.0 and +0.0 and a few NaNs, beside ordinary ones
SPECIAL_VALUES = np.array([-0.0, 0.0, -1.5, 2.0, np.nan])


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> Iterator[NativeSpy]:
    """The extension (when built) with its calls recorded."""
    if not native.NATIVE_BUILT:
        pytest.skip(NOT_BUILT)
    recorder = NativeSpy(native._native)
    monkeypatch.setattr(native, "_native", recorder)
    with flags.flags_guard({"use_native_kernels": True}):
        yield recorder


def bits_equal(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def to_last(x: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(x.transpose(0, 2, 3, 1))


def to_first(x: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(x.transpose(0, 3, 1, 2))


def random_input(rng: np.random.Generator, shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    """Normal values with about a quarter replaced by -0.0, +0.0, -1.5, 2.0 or NaN."""
    x = rng.standard_normal(shape)
    special = rng.random(shape) < 0.25
    x[special] = rng.choice(SPECIAL_VALUES, size=int(special.sum()), p=[0.3, 0.3, 0.15, 0.2, 0.05])
    return x.astype(dtype)


def pool_geometries(seed: int, count: int) -> list[dict[str, Any]]:
    """Seeded random 2-D pooling geometries (paddings below the kernel, as PHI's windows need)."""
    rng = np.random.default_rng(seed)
    cases = []
    for _ in range(count):
        kernel = [int(rng.integers(1, 8)), int(rng.integers(1, 8))]
        pads = [
            int(rng.integers(0, min(k, 4))) for k in (kernel[0], kernel[0], kernel[1], kernel[1])
        ]
        cases.append(
            {
                "shape": (
                    int(rng.integers(1, 3)),
                    int(rng.choice(CHANNELS)),
                    int(rng.integers(kernel[0], 13)),
                    int(rng.integers(kernel[1], 13)),
                ),
                "kernel": kernel,
                "strides": [int(rng.integers(1, 4)), int(rng.integers(1, 4))],
                "paddings": pads,
                "ceil_mode": bool(rng.integers(0, 2)),
            }
        )
    return cases


def run_pool(x: np.ndarray, case: dict[str, Any], fmt: str, kind: str, exclusive: bool):
    return phi.pool2d(
        phi.to_tensor(x),
        case["kernel"],
        case["strides"],
        case["paddings"],
        case["ceil_mode"],
        exclusive,
        fmt,
        kind,
        False,
        False,
        "EXPLICIT",
    ).numpy()


def pool_walk(x, case, out_hw, kind, exclusive):
    """pool2d of NCHW ``x`` as the compiled kernels define it, walked in Python window by
    window in x's dtype (all images and channels at once): each window clipped to the input and
    taken in (ky, kx) order; a max from the lowest finite value keeping a value when it is NaN
    or greater (the first of equal values stays), an average summed from +0.0 and divided by
    the clipped window's size (exclusive) or the window from its start up to the input's end
    plus the leading padding."""
    n, c, h, w = x.shape
    (kh, kw), (sy, sx) = case["kernel"], case["strides"]
    py, px = case["paddings"][0], case["paddings"][2]
    out = np.empty((n, c) + out_hw, x.dtype)
    for oy, ox in np.ndindex(*out_hw):
        ys, xs = oy * sy - py, ox * sx - px
        y0, y1, x0, x1 = max(ys, 0), min(ys + kh, h), max(xs, 0), min(xs + kw, w)
        start = np.finfo(x.dtype).min if kind == "max" else 0
        acc = np.full((n, c), start, x.dtype)
        for iy in range(y0, y1):
            for ix in range(x0, x1):
                v = x[:, :, iy, ix]
                if kind == "avg":
                    acc = acc + v
                else:
                    acc = np.where((acc != acc) | (acc >= v), acc, v)
        if kind == "avg":
            if exclusive:
                size = max(y1 - y0, 0) * max(x1 - x0, 0)
            else:
                size = (min(ys + kh, h + py) - ys) * (min(xs + kw, w + px) - xs)
            acc = acc / x.dtype.type(size)
        out[:, :, oy, ox] = acc
    return out


POOL_KINDS = [("max", True), ("avg", True), ("avg", False)]
POOL_KIND_IDS = ["max", "avg", "avg_inclusive"]


@pytest.mark.parametrize("dtype", DTYPES, ids=["float32", "float64"])
@pytest.mark.parametrize("kind,exclusive", POOL_KINDS, ids=POOL_KIND_IDS)
def test_pool2d_nhwc_equals_the_channels_first_kernel_bit_for_bit(spy, kind, exclusive, dtype):
    rng = np.random.default_rng(11)
    for case in pool_geometries(seed=3, count=40):
        x = random_input(rng, case["shape"], dtype)
        spy.calls.clear()
        got = run_pool(to_last(x), case, "NHWC", kind, exclusive)
        assert spy.calls == ["pool2d_nhwc"]
        expected = run_pool(x, case, "NCHW", kind, exclusive)
        assert spy.calls == ["pool2d_nhwc", "pool2d"]
        assert bits_equal(to_first(got), expected), case


@pytest.mark.parametrize("dtype", DTYPES, ids=["float32", "float64"])
@pytest.mark.parametrize("kind,exclusive", POOL_KINDS, ids=POOL_KIND_IDS)
def test_pool2d_nhwc_equals_the_window_walk_bit_for_bit(spy, kind, exclusive, dtype):
    """-0.0 before +0.0 keeps -0.0, a NaN anywhere in a window gives NaN; the sums in (ky, kx)
    order and the divisors as PHI's: a reversed tap order or another divisor fails here."""
    rng = np.random.default_rng(5)
    for case in pool_geometries(seed=4, count=12):
        x = random_input(rng, case["shape"], dtype)
        got = to_first(run_pool(to_last(x), case, "NHWC", kind, exclusive))
        expected = pool_walk(x, case, got.shape[2:], kind, exclusive)
        assert bits_equal(got, expected), case


@pytest.mark.parametrize("dtype", DTYPES, ids=["float32", "float64"])
@pytest.mark.parametrize("kind,exclusive", POOL_KINDS, ids=POOL_KIND_IDS)
def test_pool2d_nhwc_gives_the_numpy_paths_values(kind, exclusive, dtype):
    """The numpy path (the extension off) combines the same taps with maximum and +: the same
    values (it may differ in the sign of a zero, which == does not see)."""
    rng = np.random.default_rng(6)
    for case in pool_geometries(seed=5, count=25):
        x = random_input(rng, case["shape"], dtype)
        # ceil_mode can leave a window past the input: 0 / 0 in both paths, which numpy warns of
        with np.errstate(invalid="ignore"):
            got = run_pool(to_last(x), case, "NHWC", kind, exclusive)
            with flags.flags_guard({"use_native_kernels": False}):
                expected = run_pool(to_last(x), case, "NHWC", kind, exclusive)
        assert got.dtype == expected.dtype and got.shape == expected.shape
        assert np.array_equal(got, expected, equal_nan=True), case


@pytest.mark.parametrize("threads", [2, 3])
def test_pool2d_nhwc_split_between_threads_gives_the_same_bits(monkeypatch, threads):
    if not native.NATIVE_BUILT:
        pytest.skip(NOT_BUILT)
    rng = np.random.default_rng(8)
    case = {"shape": (2, 33, 11, 9), "kernel": [3, 3], "strides": [2, 1], "paddings": [1, 0, 2, 1]}
    case["ceil_mode"] = True
    x = to_last(random_input(rng, case["shape"], np.float32))
    with flags.flags_guard({"intra_op_threads": 1}):
        expected = [run_pool(x, case, "NHWC", kind, exclusive) for kind, exclusive in POOL_KINDS]
    monkeypatch.setattr(native, "PARALLEL_MIN_WORK", 0)  # split even this small call
    with flags.flags_guard({"intra_op_threads": threads}):
        got = [run_pool(x, case, "NHWC", kind, exclusive) for kind, exclusive in POOL_KINDS]
    assert all(bits_equal(a, b) for a, b in zip(got, expected))


@pytest.mark.parametrize("kind", ["max", "avg"])
@pytest.mark.parametrize("how", ["global", "adaptive_1x1"])
def test_whole_input_nhwc_pooling_runs_the_compiled_kernel(spy, how, kind):
    x = random_input(np.random.default_rng(2), (2, 7, 6, 5), np.float32)
    args = (False, True, "NHWC", kind, how == "global", how == "adaptive_1x1", "EXPLICIT")
    got = phi.pool2d(phi.to_tensor(to_last(x)), [1, 1], [1, 1], [0, 0], *args).numpy()
    assert spy.calls == ["pool2d_nhwc"]
    x_first = phi.to_tensor(x)
    expected = phi.pool2d(x_first, [1, 1], [1, 1], [0, 0], *args[:2], "NCHW", *args[3:]).numpy()
    assert bits_equal(to_first(got), expected)


def test_adaptive_nhwc_pooling_keeps_the_numpy_path(spy):
    x = random_input(np.random.default_rng(2), (1, 5, 7, 6), np.float32)
    args = (False, True, "NHWC", "avg", False, True, "EXPLICIT")
    out = phi.pool2d(phi.to_tensor(to_last(x)), [3, 2], [1, 1], [0, 0], *args).numpy()
    assert out.shape == (1, 3, 2, 5)
    assert spy.calls == []


def depthwise_geometries(seed: int, count: int) -> list[dict[str, Any]]:
    """Seeded random depthwise convolutions: kernels 1-7, strides 1-3, dilations 1-2,
    asymmetric paddings 0-3, channel multipliers 1-3."""
    rng = np.random.default_rng(seed)
    cases = []
    for _ in range(count):
        kernel = (int(rng.integers(1, 8)), int(rng.integers(1, 8)))
        dilations = [int(rng.integers(1, 3)), int(rng.integers(1, 3))]
        c = int(rng.choice(CHANNELS[1:]))  # groups == C > 1
        cases.append(
            {
                "shape": (
                    int(rng.integers(1, 3)),
                    c,
                    int(rng.integers(dilations[0] * (kernel[0] - 1) + 1, 14)),
                    int(rng.integers(dilations[1] * (kernel[1] - 1) + 1, 14)),
                ),
                "filter": (c * int(rng.choice([1, 1, 2, 3])), 1) + kernel,
                "strides": [int(rng.integers(1, 4)), int(rng.integers(1, 4))],
                "paddings": [int(rng.integers(0, 4)) for _ in range(4)],
                "dilations": dilations,
            }
        )
    return cases


def run_depthwise(x: np.ndarray, w: np.ndarray, case: dict[str, Any], fmt: str) -> np.ndarray:
    c = x.shape[-1] if fmt == "NHWC" else x.shape[1]
    return phi.depthwise_conv2d(
        phi.to_tensor(x),
        phi.to_tensor(w),
        case["strides"],
        case["paddings"],
        "EXPLICIT",
        c,
        case["dilations"],
        fmt,
    ).numpy()


@pytest.mark.parametrize("dtype", DTYPES, ids=["float32", "float64"])
def test_depthwise_nhwc_equals_the_channels_first_kernel_bit_for_bit(spy, dtype):
    """The same products summed in the same order as the channels-first kernel: the same
    bits, which a reversed tap order would not give."""
    rng = np.random.default_rng(12)
    for case in depthwise_geometries(seed=6, count=40):
        x = rng.standard_normal(case["shape"]).astype(dtype)
        w = rng.standard_normal(case["filter"]).astype(dtype)
        spy.calls.clear()
        got = run_depthwise(to_last(x), w, case, "NHWC")
        assert spy.calls == ["depthwise_conv2d_nhwc"]
        expected = run_depthwise(x, w, case, "NCHW")
        assert spy.calls == ["depthwise_conv2d_nhwc", "depthwise_conv2d"]
        assert bits_equal(to_first(got), expected), case


def test_depthwise_nhwc_sums_the_taps_in_order_bit_for_bit(spy):
    rng = np.random.default_rng(13)
    for case in depthwise_geometries(seed=7, count=12):
        x = rng.standard_normal(case["shape"]).astype(np.float32)
        w = rng.standard_normal(case["filter"]).astype(np.float32)
        got = to_first(run_depthwise(to_last(x), w, case, "NHWC"))
        p = case["paddings"]
        pads = ((p[0], p[1]), (p[2], p[3]))
        mult = case["filter"][0] // case["shape"][1]
        expected = taps_in_order(x, w, case["strides"], pads, case["dilations"], mult)
        assert bits_equal(got, expected), case


@pytest.mark.parametrize("dtype", DTYPES, ids=["float32", "float64"])
def test_depthwise_nhwc_gives_the_numpy_paths_bits(dtype):
    """The numpy channels-last path adds each tap's product (a padding tap's product is a zero,
    which changes no sum): the same bits for finite weights."""
    rng = np.random.default_rng(14)
    for case in depthwise_geometries(seed=8, count=25):
        x = rng.standard_normal(case["shape"]).astype(dtype)
        w = rng.standard_normal(case["filter"]).astype(dtype)
        got = run_depthwise(to_last(x), w, case, "NHWC")
        with flags.flags_guard({"use_native_kernels": False}):
            expected = run_depthwise(to_last(x), w, case, "NHWC")
        assert bits_equal(got, expected), case


@pytest.mark.parametrize("threads", [2, 3])
def test_depthwise_nhwc_split_between_threads_gives_the_same_bits(monkeypatch, threads):
    if not native.NATIVE_BUILT:
        pytest.skip(NOT_BUILT)
    rng = np.random.default_rng(9)
    case = {"strides": [2, 1], "paddings": [1, 2, 0, 1], "dilations": [1, 2]}
    x = to_last(rng.standard_normal((2, 33, 11, 9)).astype(np.float32))
    w = rng.standard_normal((66, 1, 3, 3)).astype(np.float32)
    with flags.flags_guard({"intra_op_threads": 1}):
        expected = run_depthwise(x, w, case, "NHWC")
    monkeypatch.setattr(native, "PARALLEL_MIN_WORK", 0)  # split even this small call
    with flags.flags_guard({"intra_op_threads": threads}):
        got = run_depthwise(x, w, case, "NHWC")
    assert bits_equal(got, expected)
