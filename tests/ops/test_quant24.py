"""The quantization ops of issue 24 (quant24): fake_quantize_abs_max and its dequantizing,
channel-wise, range and moving-average forms, fake_dequantize_max_abs,
fake_channel_wise_dequantize_max_abs, dequantize_abs_max and dequantize_log. Every registered
dtype against a numpy reference written from PHI's formulas, the registrations against
PaddlePaddle 3.3.1's, 0-D, empty and non-contiguous inputs, NaN, zero scales, the
straight-through gradients, the in-place forms, legacy (PaddleSlim QAT) programs in the
Executor and bad input; also lookup_table_dequant, decayed_adagrad, ftrl and fused_adam_ (the
step of adam_ / adamw_ on each tensor, bit for bit).
tests/ops/test_quant24_paddle.py compares PaddlePaddle 3.3.1's recorded
results."""

from __future__ import annotations

import numpy as np
import pytest

import phiops
import phiops._C_ops as C
import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, NotFoundError
from phiops.runtime.kernels.coverage import paddle_data
from tests.ops.op_testing import cpu_dtypes, op_test

D = DataType
F32 = np.float32
OPS = (
    "fake_quantize_abs_max",
    "fake_quantize_dequantize_abs_max",
    "fake_channel_wise_quantize_abs_max",
    "fake_channel_wise_quantize_dequantize_abs_max",
    "fake_dequantize_max_abs",
    "fake_channel_wise_dequantize_max_abs",
    "fake_quantize_range_abs_max",
    "fake_quantize_moving_average_abs_max",
    "fake_quantize_dequantize_moving_average_abs_max",
    "dequantize_abs_max",
    "dequantize_log",
    "lookup_table_dequant",
    "decayed_adagrad",
    "ftrl",
    "fused_adam_",
)
GRADS = (
    "fake_quantize_dequantize_abs_max_grad",
    "fake_channel_wise_quantize_dequantize_abs_max_grad",
    "fake_quantize_dequantize_moving_average_abs_max_grad",
)


def t(values, dtype=None) -> phiops.Tensor:
    return phi.to_tensor(np.asarray(values, dtype))


def normal(shape: tuple[int, ...], seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).normal(0.0, 1.5, shape).astype(F32)


# -- numpy references (PHI's formulas, in float32) ------------------------------------------------


def ref_quantize(x: np.ndarray, s, bits: int, round_type: int) -> np.ndarray:
    bins = F32((1 << (bits - 1)) - 1)
    s = np.asarray(s, F32)
    with np.errstate(divide="ignore"):
        inv = np.where(s <= F32(1e-30), F32(1) / (s + F32(1e-6)), F32(1) / s).astype(F32)
    if round_type == 0:
        return np.clip(np.rint((bins * inv) * x), -bins - 1, bins).astype(F32)
    v = (bins * inv) * np.clip(x, -s, s)
    whole = np.trunc(v)  # half away from zero, exactly
    return np.where(np.abs(v - whole) >= 0.5, whole + np.sign(v), whole).astype(F32)


def ref_dequantize(q: np.ndarray, s, bits: int) -> np.ndarray:
    return (q * np.asarray(s, F32) / F32((1 << (bits - 1)) - 1)).astype(F32)


def test_registrations_are_paddles() -> None:
    kernels = paddle_data()["kernels"]
    for op in OPS + GRADS:
        kernel = op.rstrip("_")
        assert sorted(d.name.lower() for d in cpu_dtypes(kernel)) == sorted(kernels[kernel]), op


# -- abs max --------------------------------------------------------------------------------------


@op_test("fake_quantize_abs_max", "fake_quantize_dequantize_abs_max", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("fake_quantize_abs_max"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("bits, round_type", [(8, 0), (8, 1), (4, 0), (4, 1)])
def test_fake_quantize_abs_max_matches_numpy(dtype: DataType, bits: int, round_type: int) -> None:
    x = normal((3, 5), bits + round_type)
    s = np.abs(x).max()
    q, scale = C.fake_quantize_abs_max(t(x), bits, round_type)
    np.testing.assert_array_equal(q.numpy(), ref_quantize(x, s, bits, round_type))
    np.testing.assert_array_equal(scale.numpy(), [s])
    out, scale = C.fake_quantize_dequantize_abs_max(t(x), bits, round_type)
    want = ref_dequantize(ref_quantize(x, s, bits, round_type), s, bits)
    np.testing.assert_allclose(out.numpy(), want, rtol=1.2e-7)
    assert out.dtype == phiops.float32 and list(scale.shape) == [1]


@op_test("fake_quantize_abs_max", "fake_quantize_dequantize_abs_max", kind="edge")
def test_fake_quantize_abs_max_edges() -> None:
    # ties at half a step: round_type 0 to even, 1 away from zero (scale 2, bin_cnt 1)
    ties = np.array([1.0, -1.0, 0.5, -2.0, 2.0], F32)
    np.testing.assert_array_equal(
        C.fake_quantize_abs_max(t(ties), 2, 0)[0].numpy(), [0, -0.0, 0, -1, 1]
    )
    np.testing.assert_array_equal(
        C.fake_quantize_abs_max(t(ties), 2, 1)[0].numpy(), [1, -1, 0, -1, 1]
    )
    # 0-D keeps its shape, the scale has one element
    q, s = C.fake_quantize_abs_max(t(np.float32(-2.5)), 8, 1)
    assert q.shape == [] and float(q) == -127 and s.numpy().tolist() == [2.5]
    # a zero tensor: scale 0 (divided by 1e-6), zeros out
    q, s = C.fake_quantize_dequantize_abs_max(t(np.zeros((2, 3), F32)), 8, 0)
    assert not q.numpy().any() and s.numpy().tolist() == [0.0]
    # NaN: the scale is NaN only when it comes first (std::max_element by |x|)
    q, s = C.fake_quantize_abs_max(t(np.array([1.0, np.nan, -3.0], F32)), 8, 1)
    assert s.numpy().tolist() == [3.0] and np.isnan(q.numpy()[1]) and q.numpy()[2] == -127
    assert np.isnan(C.fake_quantize_abs_max(t(np.array([np.nan, 1.0], F32)), 8, 1)[1].numpy()[0])
    # non-contiguous input
    base = normal((4, 6), 3)
    q, s = C.fake_quantize_abs_max(t(base)[:, ::2], 8, 0)
    np.testing.assert_array_equal(
        q.numpy(), ref_quantize(base[:, ::2], np.abs(base[:, ::2]).max(), 8, 0)
    )
    # bad input
    with pytest.raises(InvalidArgumentError, match="bit_length.*between 1 and 16"):
        C.fake_quantize_abs_max(t(base), 17, 1)
    with pytest.raises(InvalidArgumentError, match="bit_length"):
        C.fake_quantize_dequantize_abs_max(t(base), 0, 1)
    with pytest.raises(InvalidArgumentError, match="'x' is empty"):
        C.fake_quantize_abs_max(t(np.zeros((0, 3), F32)), 8, 1)
    with pytest.raises(NotFoundError, match="fake_quantize_abs_max.*no registration.*INT32"):
        C.fake_quantize_abs_max(t([1, 2], "int32"), 8, 1)


def test_quantize_dequantize_gradients_pass_straight_through() -> None:
    x = t(normal((2, 3), 5))
    x.stop_gradient = False
    upstream = t(np.arange(6, dtype=F32).reshape(2, 3))
    for out in (
        C.fake_quantize_dequantize_abs_max(x, 8, 1)[0],
        C.fake_channel_wise_quantize_dequantize_abs_max(x, 8, 0, 1)[0],
        C.fake_quantize_dequantize_moving_average_abs_max(
            x, t([1.0], F32), t([1.0], F32), t([1.0], F32), 0.9, 8, False, 1
        )[0],
    ):
        (grad,) = phiops.grad([out], [x], grad_outputs=[upstream])
        np.testing.assert_array_equal(grad.numpy(), upstream.numpy())


# -- channel-wise ---------------------------------------------------------------------------------


def ref_channel_scales(x: np.ndarray, axis: int) -> np.ndarray:
    return np.abs(np.moveaxis(x, axis, 0)).reshape(x.shape[axis], -1).max(axis=1)


@op_test(
    "fake_channel_wise_quantize_abs_max",
    "fake_channel_wise_quantize_dequantize_abs_max",
    kind="dtypes",
)
@pytest.mark.parametrize(
    "dtype", cpu_dtypes("fake_channel_wise_quantize_abs_max"), ids=lambda d: d.name.lower()
)
@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("round_type", [0, 1])
def test_fake_channel_wise_quantize_matches_numpy(
    dtype: DataType, axis: int, round_type: int
) -> None:
    x = normal((3, 4, 2), axis + 2 * round_type)
    scales = ref_channel_scales(x, axis)
    shape = [1, 1, 1]
    shape[axis] = -1
    s = scales.reshape(shape)
    q, got = C.fake_channel_wise_quantize_abs_max(t(x), 8, round_type, axis, False)
    np.testing.assert_array_equal(got.numpy(), scales)
    np.testing.assert_array_equal(q.numpy(), ref_quantize(x, s, 8, round_type))
    out, got = C.fake_channel_wise_quantize_dequantize_abs_max(t(x), 8, round_type, axis)
    want = ref_dequantize(ref_quantize(x, s, 8, round_type), s, 8)
    np.testing.assert_allclose(out.numpy(), want, rtol=1.2e-7)


@op_test(
    "fake_channel_wise_quantize_abs_max",
    "fake_channel_wise_quantize_dequantize_abs_max",
    kind="edge",
)
def test_fake_channel_wise_quantize_edges() -> None:
    # 1-D along axis 0: one channel per element
    q, s = C.fake_channel_wise_quantize_abs_max(t(np.array([1.0, -2.0, 0.0], F32)), 8, 1, 0, False)
    assert q.numpy().tolist() == [127, -127, 0] and s.numpy().tolist() == [1, 2, 0]
    # along axis 1 a NaN is skipped (std::max from 0), NaN elements stay NaN
    x = np.array([[np.nan, 1.0], [2.0, -4.0]], F32)
    q, s = C.fake_channel_wise_quantize_abs_max(t(x), 8, 1, 1, False)
    assert s.numpy().tolist() == [2.0, 4.0] and np.isnan(q.numpy()[0, 0])
    # non-contiguous
    base = normal((4, 6), 9)
    q, s = C.fake_channel_wise_quantize_abs_max(t(base)[::2], 8, 0, 1, False)
    np.testing.assert_array_equal(s.numpy(), ref_channel_scales(base[::2], 1))
    with pytest.raises(InvalidArgumentError, match="quant_axis.*0 or 1"):
        C.fake_channel_wise_quantize_abs_max(t(base), 8, 1, 2, False)
    with pytest.raises(InvalidArgumentError, match="quant_axis.*0 or 1"):
        C.fake_channel_wise_quantize_dequantize_abs_max(t(base), 8, 1, -1)
    with pytest.raises(InvalidArgumentError, match="more than quant_axis"):
        C.fake_channel_wise_quantize_abs_max(t(np.float32(1.0)), 8, 1, 0, False)
    with pytest.raises(InvalidArgumentError, match="more than quant_axis"):
        C.fake_channel_wise_quantize_dequantize_abs_max(t(np.ones(3, F32)), 8, 1, 1)
    with pytest.raises(InvalidArgumentError, match="is_test"):
        C.fake_channel_wise_quantize_abs_max(t(base), 8, 1, 0, True)
    with pytest.raises(InvalidArgumentError, match="'x' is empty"):
        C.fake_channel_wise_quantize_abs_max(t(np.zeros((2, 0), F32)), 8, 1, 0, False)


# -- dequantize -----------------------------------------------------------------------------------


@op_test("fake_dequantize_max_abs", kind="dtypes")
@pytest.mark.parametrize(
    "dtype", cpu_dtypes("fake_dequantize_max_abs"), ids=lambda d: d.name.lower()
)
def test_fake_dequantize_max_abs_matches_numpy(dtype: DataType) -> None:
    np_dtype = dtype.numpy_dtype
    x = np.array([[-128, -3, 0], [5, 64, 127]], np_dtype)
    scale = np.array([2.37], np_dtype)
    out = C.fake_dequantize_max_abs(t(x), t(scale), 127.0)
    np.testing.assert_array_equal(out.numpy(), x * scale[0] / np_dtype.type(127))
    assert out.dtype == t(x).dtype


@op_test("fake_dequantize_max_abs", kind="edge")
def test_fake_dequantize_max_abs_edges() -> None:
    out = C.fake_dequantize_max_abs(t(np.float32(-64)), t([2.0], F32), 127.0)
    assert out.shape == [] and float(out) == np.float32(-64) * 2 / np.float32(127)
    assert C.fake_dequantize_max_abs(t(np.zeros((0, 2), F32)), t([2.0], F32), 7.0).shape == [0, 2]
    base = np.arange(12, dtype=F32).reshape(3, 4)
    np.testing.assert_array_equal(
        C.fake_dequantize_max_abs(t(base)[:, ::2], t([3.0], F32), 7.0).numpy(),
        base[:, ::2] * F32(3) / F32(7),
    )
    with pytest.raises(InvalidArgumentError, match="'scale' must hold exactly one element"):
        C.fake_dequantize_max_abs(t(base), t([1.0, 2.0], F32), 7.0)
    with pytest.raises(InvalidArgumentError, match="'scale' must have x's dtype"):
        C.fake_dequantize_max_abs(t(base), t([1.0], "float64"), 7.0)


@op_test("fake_channel_wise_dequantize_max_abs", kind="dtypes")
@pytest.mark.parametrize(
    "dtype", cpu_dtypes("fake_channel_wise_dequantize_max_abs"), ids=lambda d: d.name.lower()
)
def test_fake_channel_wise_dequantize_max_abs_matches_numpy(dtype: DataType) -> None:
    np_dtype = dtype.numpy_dtype
    x = (np.arange(24) * 7 % 255 - 127).astype(np_dtype).reshape(2, 3, 4)
    s0 = np.array([0.5, 1.25, 3.0], np_dtype)
    s1 = np.array([2.7], np_dtype)
    r8, r4 = np_dtype.type(127), np_dtype.type(7)
    out = C.fake_channel_wise_dequantize_max_abs(t(x), [t(s0[:2])], [8], 0, 1)
    np.testing.assert_array_equal(out.numpy(), x * s0[:2].reshape(2, 1, 1) / r8)
    out = C.fake_channel_wise_dequantize_max_abs(t(x), [t(s0)], [8], 1, 1)
    np.testing.assert_array_equal(out.numpy(), x * s0.reshape(1, 3, 1) / r8)
    out = C.fake_channel_wise_dequantize_max_abs(t(x), [t(s0), t(s1)], [8, 4], 0, 1)
    np.testing.assert_allclose(
        out.numpy(), x * s0.reshape(1, 3, 1) * s1[0] / (r8 * r4), rtol=np.finfo(np_dtype).eps
    )
    assert out.dtype == t(x).dtype


@op_test("fake_channel_wise_dequantize_max_abs", kind="edge")
def test_fake_channel_wise_dequantize_max_abs_edges() -> None:
    x = np.arange(24, dtype=F32).reshape(2, 3, 4) - 12
    s0 = np.array([0.5, 1.0, 2.0, 4.0], F32)
    out = C.fake_channel_wise_dequantize_max_abs(t(x), [t(s0), t([3.0], F32)], [8, 8], 0, 2)
    np.testing.assert_allclose(out.numpy(), x * s0 * F32(3) / F32(127 * 127), rtol=1.2e-7)
    out = C.fake_channel_wise_dequantize_max_abs(t(x)[:, :, ::2], [t(s0[:2])], [8], 0, 1)
    np.testing.assert_array_equal(out.numpy(), x[:, :, ::2] * s0[:2].reshape(2, 1, 1) / F32(127))
    with pytest.raises(
        InvalidArgumentError, match="'scales\\[0\\]' must hold one scale per channel"
    ):
        C.fake_channel_wise_dequantize_max_abs(t(x), [t(s0)], [8], 0, 1)
    with pytest.raises(InvalidArgumentError, match="'quant_bits' must hold one number"):
        C.fake_channel_wise_dequantize_max_abs(t(x), [t(s0[:2])], [8, 8], 0, 1)
    with pytest.raises(InvalidArgumentError, match="'scales' must hold 1 or 2"):
        C.fake_channel_wise_dequantize_max_abs(t(x), [t(s0[:2])] * 3, [8, 8, 8], 0, 1)
    with pytest.raises(InvalidArgumentError, match="'x_num_col_dims' must be at least 1"):
        C.fake_channel_wise_dequantize_max_abs(t(x), [t(s0[:2])], [8], 0, 0)
    with pytest.raises(InvalidArgumentError, match="'quant_axis' must be 0 or 1"):
        C.fake_channel_wise_dequantize_max_abs(t(x), [t(s0[:2])], [8], 2, 1)


@op_test("dequantize_abs_max", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("dequantize_abs_max"), ids=lambda d: d.name.lower())
def test_dequantize_abs_max_matches_numpy(dtype: DataType) -> None:
    info = np.iinfo(dtype.numpy_dtype)
    x = np.array([info.min, -3, 0, 5, info.max], dtype.numpy_dtype)
    out = C.dequantize_abs_max(t(x), t([2.37], F32), 127.0)
    assert out.dtype == phiops.float32
    np.testing.assert_array_equal(out.numpy(), F32(2.37) * x.astype(F32) / F32(127))


@op_test("dequantize_abs_max", kind="edge")
def test_dequantize_abs_max_edges() -> None:
    out = C.dequantize_abs_max(t(np.int8(-7)), t([2.0], F32), 7.0)
    assert out.shape == [] and float(out) == -2.0
    assert C.dequantize_abs_max(t(np.zeros((0,), np.int8)), t([2.0], F32), 7.0).shape == [0]
    with pytest.raises(NotFoundError, match="dequantize_abs_max.*no registration.*FLOAT32"):
        C.dequantize_abs_max(t([1.0], F32), t([2.0], F32), 7.0)
    with pytest.raises(InvalidArgumentError, match="'scale' must be a float32"):
        C.dequantize_abs_max(t([1], np.int8), t([2.0], "float64"), 7.0)


@op_test("dequantize_log", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("dequantize_log"), ids=lambda d: d.name.lower())
def test_dequantize_log_matches_numpy(dtype: DataType) -> None:
    table = np.linspace(-3.0, 5.0, 128).astype(F32)
    x = np.arange(-128, 128, dtype=np.int8)
    want = np.where(x < 0, -table[(x.astype(int) + 128) % 128], table[x.astype(int) % 128])
    out = C.dequantize_log(t(x), t(table))
    assert out.dtype == phiops.float32
    np.testing.assert_array_equal(out.numpy(), want)


@op_test("dequantize_log", kind="edge")
def test_dequantize_log_edges() -> None:
    table = np.linspace(0.0, 1.27, 128).astype(F32)
    assert float(C.dequantize_log(t(np.int8(-1)), t(table))) == -table[127]
    assert C.dequantize_log(t(np.zeros((2, 0), np.int8)), t(table)).shape == [2, 0]
    with pytest.raises(InvalidArgumentError, match="'dict' must hold the 128 values"):
        C.dequantize_log(t([1], np.int8), t(table[:100]))
    with pytest.raises(NotFoundError, match="dequantize_log.*no registration.*INT16"):
        C.dequantize_log(t([1], np.int16), t(table))


# -- range and moving average ---------------------------------------------------------------------


@op_test("fake_quantize_range_abs_max", kind="dtypes")
@pytest.mark.parametrize(
    "dtype", cpu_dtypes("fake_quantize_range_abs_max"), ids=lambda d: d.name.lower()
)
def test_fake_quantize_range_abs_max_matches_numpy(dtype: DataType) -> None:
    x = normal((3, 4), 11)
    current = np.abs(x).max()
    for in_scale, step in ((0.5, 3), (40.0, 12)):
        out, scale, window = C.fake_quantize_range_abs_max(
            t(x), t([in_scale], F32), t([step], "int64"), 10, 8, False, 1
        )
        want_scale = max(F32(in_scale), current)
        assert scale.numpy().tolist() == [want_scale]
        np.testing.assert_array_equal(out.numpy(), ref_quantize(x, want_scale, 8, 1))
        want_window = np.zeros(10, F32)
        want_window[step % 10] = current
        np.testing.assert_array_equal(window.numpy(), want_window)
    out, scale, window = C.fake_quantize_range_abs_max(t(x), t([1.25], F32), None, 10, 8, True, 0)
    np.testing.assert_array_equal(out.numpy(), ref_quantize(x, F32(1.25), 8, 0))
    assert scale.numpy().tolist() == [1.25] and window is None


@op_test("fake_quantize_range_abs_max", kind="edge")
def test_fake_quantize_range_abs_max_edges() -> None:
    x = t(normal((2, 3), 12))
    in_scale = t([0.5], F32)
    _, scale, _ = C.fake_quantize_range_abs_max_(x, in_scale, t([0], "int64"), 4, 8, False, 1)
    assert scale is in_scale and in_scale.numpy()[0] == np.abs(x.numpy()).max()
    q, scale, window = C.fake_quantize_range_abs_max(
        t(np.float32(0.0)), t([0.0], F32), t([2], "int64"), 4, 8, False, 1
    )
    assert q.shape == [] and scale.numpy().tolist() == [0.0] and window.shape == [4]
    with pytest.raises(InvalidArgumentError, match="'iter' is None"):
        C.fake_quantize_range_abs_max(x, t([1.0], F32), None, 4, 8, False, 1)
    with pytest.raises(InvalidArgumentError, match="'iter' must be an int64"):
        C.fake_quantize_range_abs_max(x, t([1.0], F32), t([1], "int32"), 4, 8, False, 1)
    with pytest.raises(InvalidArgumentError, match="'window_size' must be at least 1"):
        C.fake_quantize_range_abs_max(x, t([1.0], F32), t([1], "int64"), 0, 8, False, 1)
    with pytest.raises(InvalidArgumentError, match="'iter' must be a step count"):
        C.fake_quantize_range_abs_max(x, t([1.0], F32), t([-1], "int64"), 4, 8, False, 1)


@op_test(
    "fake_quantize_moving_average_abs_max",
    "fake_quantize_dequantize_moving_average_abs_max",
    kind="dtypes",
)
@pytest.mark.parametrize(
    "dtype", cpu_dtypes("fake_quantize_moving_average_abs_max"), ids=lambda d: d.name.lower()
)
@pytest.mark.parametrize("round_type", [0, 1])
def test_fake_quantize_moving_average_matches_numpy(dtype: DataType, round_type: int) -> None:
    x = normal((3, 4), 13 + round_type)
    rate = F32(0.9)
    state = rate * F32(2.0) + F32(1)
    accum = rate * F32(3.0) + np.abs(x).max()
    scale = accum / state
    args = (t([4.0], F32), t([3.0], F32), t([2.0], F32), 0.9, 8, False, round_type)
    q, s, st, acc = C.fake_quantize_moving_average_abs_max(t(x), *args)
    assert (s.numpy().tolist(), st.numpy().tolist(), acc.numpy().tolist()) == (
        [scale],
        [state],
        [accum],
    )
    np.testing.assert_array_equal(q.numpy(), ref_quantize(x, scale, 8, round_type))
    out = C.fake_quantize_dequantize_moving_average_abs_max(t(x), *args)[0]
    want = ref_dequantize(ref_quantize(x, scale, 8, round_type), scale, 8)
    np.testing.assert_allclose(out.numpy(), want, rtol=1.2e-7)


@op_test(
    "fake_quantize_moving_average_abs_max",
    "fake_quantize_dequantize_moving_average_abs_max",
    kind="edge",
)
def test_fake_quantize_moving_average_edges() -> None:
    x = t(normal((2, 3), 14))
    # test mode quantizes with in_scale and hands the state back as it came
    q, s, st, acc = C.fake_quantize_moving_average_abs_max(
        x, t([1.25], F32), None, None, 0.9, 8, True, 0
    )
    np.testing.assert_array_equal(q.numpy(), ref_quantize(x.numpy(), F32(1.25), 8, 0))
    assert s.numpy().tolist() == [1.25] and st is None and acc is None
    # in place: in_scale becomes out_scale
    in_scale = t([4.0], F32)
    _, s, _, _ = C.fake_quantize_dequantize_moving_average_abs_max_(
        x, in_scale, t([0.0], F32), t([0.0], F32), 0.5, 8, False, 1
    )
    assert s is in_scale and in_scale.numpy()[0] == np.abs(x.numpy()).max()
    with pytest.raises(InvalidArgumentError, match="'in_accum' is None, but training"):
        C.fake_quantize_moving_average_abs_max(
            x, t([1.0], F32), None, t([1.0], F32), 0.9, 8, False, 1
        )
    with pytest.raises(InvalidArgumentError, match="'in_state' must have x's dtype"):
        C.fake_quantize_moving_average_abs_max(
            x, t([1.0], F32), t([1.0], F32), t([1.0], "float64"), 0.9, 8, False, 1
        )
    with pytest.raises(InvalidArgumentError, match="'x' is empty"):
        C.fake_quantize_moving_average_abs_max(
            t(np.zeros((0,), F32)), t([1.0], F32), t([1.0], F32), t([1.0], F32), 0.9, 8, False, 1
        )


# -- lookup_table_dequant, decayed_adagrad, ftrl ---------------------------------------------------


def packed_table(rows: int, floats: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A table of [min, max, codes packed 4 to a float32] rows and its codes as integers."""
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, 256, size=(rows, floats * 4)).astype(np.uint8)
    codes[:, 3::4] = rng.integers(1, 0x40, size=(rows, floats))  # finite floats
    table = np.empty((rows, 2 + floats), F32)
    table[:, 0] = rng.uniform(-2.0, 0.0, rows)
    table[:, 1] = rng.uniform(0.5, 3.0, rows)
    table[:, 2:] = codes.view(F32)
    return table, codes.astype(F32)


@op_test("lookup_table_dequant", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("lookup_table_dequant"), ids=lambda d: d.name.lower())
def test_lookup_table_dequant_matches_numpy(dtype: DataType) -> None:
    table, codes = packed_table(5, 3, 1)
    ids = np.array([[4], [0], [2], [4]], np.int64)
    out = C.lookup_table_dequant(t(table), t(ids), -1)
    rows = ids[:, 0]
    scale = (table[rows, 1:2] - table[rows, :1]) / F32(256)
    np.testing.assert_array_equal(out.numpy(), scale * codes[rows] + table[rows, :1])
    assert out.shape == [4, 12] and out.dtype == phiops.float32


@op_test("lookup_table_dequant", kind="edge")
def test_lookup_table_dequant_edges() -> None:
    table, codes = packed_table(3, 1, 2)
    out = C.lookup_table_dequant(t(table), t(np.array([[[1], [2]]], np.int64)), 2)
    assert out.shape == [1, 2, 4] and not out.numpy()[0, 1].any()  # padding_idx gives zeros
    assert C.lookup_table_dequant(t(table), t(np.zeros((0, 1), np.int64)), -1).shape == [0, 4]
    with pytest.raises(InvalidArgumentError, match="'ids' must hold ids in \\[0, 3\\)"):
        C.lookup_table_dequant(t(table), t(np.array([[3]], np.int64)), -1)
    with pytest.raises(InvalidArgumentError, match="'ids' must have a last dimension of 1"):
        C.lookup_table_dequant(t(table), t(np.array([1, 2], np.int64)), -1)
    with pytest.raises(InvalidArgumentError, match="'ids' must be an int64"):
        C.lookup_table_dequant(t(table), t(np.array([[1]], np.int32)), -1)
    with pytest.raises(InvalidArgumentError, match="'w' must hold min, max and at least one"):
        C.lookup_table_dequant(t(table[:, :2]), t(np.array([[1]], np.int64)), -1)


def _optimizer_inputs(seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.normal(size=(3, 4)).astype(F32) for _ in range(4)]


@op_test("decayed_adagrad", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("decayed_adagrad"), ids=lambda d: d.name.lower())
def test_decayed_adagrad_matches_numpy(dtype: DataType) -> None:
    param, grad, moment, _ = _optimizer_inputs(3)
    moment = np.abs(moment)
    lr = np.array([0.05], F32)
    param_out, moment_out = C.decayed_adagrad(t(param), t(grad), t(moment), t(lr), 0.9, 1e-6)
    want_moment = F32(0.9) * moment + (F32(1) - F32(0.9)) * grad * grad
    np.testing.assert_array_equal(moment_out.numpy(), want_moment)
    want_param = param - lr[0] * grad / (np.sqrt(want_moment) + F32(1e-6))
    np.testing.assert_allclose(param_out.numpy(), want_param, rtol=2.4e-7)


@op_test("decayed_adagrad", kind="edge")
def test_decayed_adagrad_edges() -> None:
    zero = np.zeros((2,), F32)
    param_out, moment_out = C.decayed_adagrad(
        t(np.ones(2, F32)), t(zero), t(zero), t([0.1], F32), 0.95, 1e-6
    )
    assert param_out.numpy().tolist() == [1.0, 1.0] and moment_out.numpy().tolist() == [0.0, 0.0]
    scalar = t(np.float32(2.0))
    param_out, _ = C.decayed_adagrad(scalar, scalar, scalar, t([0.5], F32), 0.0, 0.0)
    assert param_out.shape == [] and float(param_out) == 1.5  # 2 - 0.5 * 2 / sqrt(4)
    with pytest.raises(InvalidArgumentError, match="'moment' with dims \\[3\\] must have the dims"):
        C.decayed_adagrad(t(zero), t(zero), t(np.zeros(3, F32)), t([0.1], F32), 0.95, 1e-6)
    with pytest.raises(InvalidArgumentError, match="'learning_rate' must hold exactly one"):
        C.decayed_adagrad(t(zero), t(zero), t(zero), t(zero), 0.95, 1e-6)


def ref_ftrl(param, squared, linear, grad, lr, l1, l2, power):
    l1, l2 = F32(l1) + F32(1e-10), F32(l2) + F32(1e-10)
    new = squared + grad * grad
    # PaddlePaddle's powf: the float64 power rounded to float32
    grow = (lambda a: np.sqrt(a)) if power == -0.5 else (
        lambda a: np.power(a.astype(np.float64), -float(F32(power))).astype(F32)
    )
    linear_out = linear + grad - ((grow(new) - grow(squared)) / lr) * param
    shrunk = (l1 * np.sign(linear_out) - linear_out) / (grow(new) / lr + F32(2) * l2)
    return np.where(np.abs(linear_out) > l1, shrunk, F32(0)), new, linear_out


@op_test("ftrl", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("ftrl"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("l1, l2, power", [(0.0, 0.0, -0.5), (0.1, 0.2, -0.5), (0.05, 0.1, -0.3)])
def test_ftrl_matches_numpy(dtype: DataType, l1: float, l2: float, power: float) -> None:
    param, squared, linear, grad = _optimizer_inputs(4)
    squared = np.abs(squared) + F32(0.1)
    lr = np.array([0.05], F32)
    got = C.ftrl(t(param), t(squared), t(linear), t(grad), t(lr), l1, l2, power)
    for mine, want in zip(got, ref_ftrl(param, squared, linear, grad, lr[0], l1, l2, power)):
        np.testing.assert_allclose(mine.numpy(), want, rtol=1e-6, atol=1e-7)


@op_test("ftrl", kind="edge")
def test_ftrl_edges() -> None:
    # a linear term within l1 sets the parameter to 0
    param_out, _, linear_out = C.ftrl(
        t([1.0], F32), t([1.0], F32), t([0.0], F32), t([0.01], F32), t([0.1], F32), 10.0, 0.0, -0.5
    )
    assert abs(float(linear_out[0])) < 10 and param_out.numpy().tolist() == [0.0]
    scalar = t(np.float32(1.0))
    assert C.ftrl(scalar, scalar, scalar, scalar, t([0.1], F32), 0.0, 0.0, -0.5)[0].shape == []
    empty = t(np.zeros((0, 2), F32))
    assert C.ftrl(empty, empty, empty, empty, t([0.1], F32), 0.0, 0.0, -0.5)[0].shape == [0, 2]
    two = t(np.ones(2, F32))
    with pytest.raises(InvalidArgumentError, match="'grad' with dims \\[3\\] must have the dims"):
        C.ftrl(two, two, two, t(np.ones(3, F32)), t([0.1], F32), 0.0, 0.0, -0.5)
    with pytest.raises(InvalidArgumentError, match="'squared_accumulator' must have param's dtype"):
        C.ftrl(two, t(np.ones(2)), two, two, t([0.1], F32), 0.0, 0.0, -0.5)


# -- fused_adam_ ----------------------------------------------------------------------------------


def _adam_state(dtype: np.dtype, seed: int) -> dict[str, list[np.ndarray]]:
    rng = np.random.default_rng(seed)
    shapes = ((2, 3), (4,), ())
    state = {
        name: [rng.normal(size=shape).astype(dtype) for shape in shapes]
        for name in ("params", "grads", "moments1")
    }
    state["moments2"] = [np.abs(rng.normal(size=shape)).astype(dtype) for shape in shapes]
    state["moments2_max"] = [m + dtype.type(0.5) for m in state["moments2"]]
    state["beta1_pows"] = [np.array([0.9**k], dtype) for k in (1, 4, 9)]
    state["beta2_pows"] = [np.array([0.999**k], dtype) for k in (1, 4, 9)]
    return state


def _tensors(state: dict[str, list[np.ndarray]]) -> dict[str, list[phiops.Tensor]]:
    return {name: [t(a.copy()) for a in arrays] for name, arrays in state.items()}


@op_test("fused_adam_", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("fused_adam"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("use_adamw", [False, True])
@pytest.mark.parametrize("amsgrad", [False, True])
def test_fused_adam_is_adam_per_tensor_bit_for_bit(
    dtype: DataType, use_adamw: bool, amsgrad: bool
) -> None:
    # weight decay 0.25, a float32 value: fused_adam_ reads it as a float32, as PHI does, while
    # phiops's adamw_ takes its coeff as given
    state = _adam_state(dtype.numpy_dtype, 7)
    fused = _tensors(state)
    lr = t(np.array([0.01], dtype.numpy_dtype))
    C.fused_adam_(
        fused["params"], fused["grads"], lr, fused["moments1"], fused["moments2"],
        fused["moments2_max"] if amsgrad else None, fused["beta1_pows"], fused["beta2_pows"],
        None, None, 0.9, 0.999, 1e-8, 4096, 0.25, use_adamw, False, False, amsgrad,
    )  # fmt: skip
    for i in range(3):
        alone = {name: t(arrays[i].copy()) for name, arrays in state.items()}
        head = (alone["params"], alone["grads"], lr, alone["moments1"], alone["moments2"])
        tail = (alone["moments2_max"] if amsgrad else None, alone["beta1_pows"])
        tail += (alone["beta2_pows"], None, None, 0.9, 0.999, 1e-8)
        if use_adamw:
            C.adamw_(*head, *tail, 1.0, 0.25, True, False, 1000, False, False, amsgrad)
        else:
            C.adam_(*head, *tail, False, 1000, False, False, amsgrad)
        for name in ("params", "moments1", "moments2", "beta1_pows", "beta2_pows"):
            np.testing.assert_array_equal(fused[name][i].numpy(), alone[name].numpy(), name)
        if amsgrad:
            np.testing.assert_array_equal(
                fused["moments2_max"][i].numpy(), alone["moments2_max"].numpy()
            )
    # and the Adam step itself, against numpy, for the first parameter
    if not use_adamw and not amsgrad:
        p, g, m1, m2 = (state[n][0] for n in ("params", "grads", "moments1", "moments2"))
        one, b1, b2 = (dtype.numpy_dtype.type(v) for v in (1, 0.9, 0.999))
        b1p, b2p = state["beta1_pows"][0][0], state["beta2_pows"][0][0]
        m1 = b1 * m1 + (one - b1) * g
        m2 = b2 * m2 + (one - b2) * g * g
        lr_t = dtype.numpy_dtype.type(0.01) * np.sqrt(one - b2p) / (one - b1p)
        want = p - lr_t * m1 / (np.sqrt(m2) + dtype.numpy_dtype.type(1e-8) * np.sqrt(one - b2p))
        np.testing.assert_allclose(fused["params"][0].numpy(), want, rtol=1e-6)


@op_test("fused_adam_", kind="edge")
def test_fused_adam_edges() -> None:
    state = _adam_state(np.dtype("float32"), 8)
    lr = t([0.01], F32)
    # skip_update leaves everything as it was; the outputs are the inputs, updated in place
    fused = _tensors(state)
    outs = C.fused_adam_(
        fused["params"], fused["grads"], lr, fused["moments1"], fused["moments2"], None,
        fused["beta1_pows"], fused["beta2_pows"], None, t([True]), 0.9, 0.999, 1e-8, 4096, 0.0,
        False, False, False, False,
    )  # fmt: skip
    assert outs[0][1] is fused["params"][1] and outs[3] is None and outs[6] is None
    for name in ("params", "moments1", "beta1_pows"):
        for mine, given in zip(fused[name], state[name]):
            np.testing.assert_array_equal(mine.numpy(), given)
    # use_global_beta_pow leaves the beta powers; multi_precision steps the master copies
    fused = _tensors(state)
    masters = [t(p.copy()) for p in state["params"]]
    outs = C.fused_adam_(
        fused["params"], fused["grads"], lr, fused["moments1"], fused["moments2"], None,
        fused["beta1_pows"], fused["beta2_pows"], masters, None, 0.9, 0.999, 1e-8, 4096, 0.0,
        False, True, True, False,
    )  # fmt: skip
    np.testing.assert_array_equal(fused["beta1_pows"][2].numpy(), state["beta1_pows"][2])
    np.testing.assert_array_equal(outs[6][0].numpy(), fused["params"][0].numpy())
    assert not np.array_equal(masters[0].numpy(), state["params"][0])
    # bad input
    two = _tensors(state)
    with pytest.raises(InvalidArgumentError, match="'grads' must hold 3 tensors"):
        C.fused_adam_(
            two["params"], two["grads"][:2], lr, two["moments1"], two["moments2"], None,
            two["beta1_pows"], two["beta2_pows"], None, None, 0.9, 0.999, 1e-8, 4096, 0.0,
            False, False, False, False,
        )  # fmt: skip
    with pytest.raises(InvalidArgumentError, match="'moments2_max' is None, but amsgrad"):
        C.fused_adam_(
            two["params"], two["grads"], lr, two["moments1"], two["moments2"], None,
            two["beta1_pows"], two["beta2_pows"], None, None, 0.9, 0.999, 1e-8, 4096, 0.0,
            False, False, False, True,
        )  # fmt: skip
    with pytest.raises(InvalidArgumentError, match="'moments1\\[0\\]' with dims \\[4\\]"):
        C.fused_adam_(
            two["params"], two["grads"], lr, two["moments1"][1:2] * 3, two["moments2"], None,
            two["beta1_pows"], two["beta2_pows"], None, None, 0.9, 0.999, 1e-8, 4096, 0.0,
            False, False, False, False,
        )  # fmt: skip
    with pytest.raises(InvalidArgumentError, match="'params' must hold at least one tensor"):
        C.fused_adam_(
            [], [], lr, [], [], None, [], [], None, None, 0.9, 0.999, 1e-8, 4096, 0.0,
            False, False, False, False,
        )  # fmt: skip
