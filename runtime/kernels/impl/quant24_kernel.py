"""Kernels of the quant24 quantization ops of issue 24 (fake_quantize_abs_max,
fake_quantize_dequantize_abs_max, fake_channel_wise_quantize_abs_max,
fake_channel_wise_quantize_dequantize_abs_max, fake_dequantize_max_abs,
fake_channel_wise_dequantize_max_abs, fake_quantize_range_abs_max,
fake_quantize_moving_average_abs_max, fake_quantize_dequantize_moving_average_abs_max,
dequantize_abs_max, dequantize_log), for the dtypes PaddlePaddle 3.3.1 registers on CPU.

PHI's semantics (paddle/phi/kernels/funcs/fake_quantize_functor.cc, fake_dequantize_functor.cc,
checked against 3.3.1), every step in x's dtype:

- bin_cnt = 2^(bit_length-1) - 1; the scale's inverse is 1 / s, or 1 / (s + 1e-6) for
  s <= 1e-30.
- round_type 0: q = rint(bin_cnt * inv_s * x) (half to even), clamped to [-bin_cnt - 1, bin_cnt];
  any other round_type: x clipped to [-s, s], q = round(bin_cnt * inv_s * x) (half away from
  zero, as Eigen's round). The dequantizing ops give q * s / bin_cnt.
- The abs-max scale is std::max_element by |x|: NaN when the first element is NaN, else the
  largest |x| of the numbers. Channel-wise along axis 1 takes that per contiguous chunk
  [i, j, ...] and the largest of the chunks' scales over i, NaN ignored, from 0.
- An empty x has no scale: 3.3.1 dereferences the end of the array; phiops raises.
- Moving average: state = rate * in_state + 1, accum = rate * in_accum + max|x|,
  scale = accum / state. Range: the scale is max(in_scale, max|x|); the window of scales
  (out_scales) starts as zeros here (unset memory in 3.3.1) with max|x| at slot
  iter % window_size.
- Dequantizing: x * s / max_range (two scales: x * s0[c] * s1 / (range0 * range1)).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType
F32 = (D.FLOAT32,)


def _bin_cnt(bit_length: int) -> int:
    return (1 << (bit_length - 1)) - 1


def _require_elements(x: Array, op: str) -> None:
    if x.size == 0:
        raise InvalidArgumentError(
            f"{op}: argument 'x' is empty, which has no abs-max scale (PaddlePaddle 3.3.1 reads "
            "past its end)"
        )


def _inverse(xp: Any, s: Array) -> Array:
    eps = s.dtype.type(1e-6)
    one = s.dtype.type(1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return xp.where(s <= s.dtype.type(1e-30), one / (s + eps), one / s)


def _round_half_away(xp: Any, v: Array) -> Array:
    whole = xp.trunc(v)
    frac = v - whole  # exact
    return xp.where(xp.abs(frac) >= v.dtype.type(0.5), whole + xp.sign(v), whole)


def _abs_max_rows(xp: Any, rows: Array) -> Array:
    """std::max_element by |x| over each row of a 2-D array: NaN for a NaN first element."""
    a = xp.abs(rows)
    biggest = xp.max(xp.where(xp.isnan(a), a.dtype.type(0), a), axis=1)
    return xp.where(xp.isnan(a[:, 0]), a.dtype.type(np.nan), biggest)


def _quantize(xp: Any, x: Array, s: Array, bin_cnt: int, round_type: int) -> Array:
    """q for x with the scale s (broadcast against x; a [1] scale as 0-D, so a 0-D x stays 0-D)."""
    if s.ndim == 1:
        s = s.reshape(())
    bins = x.dtype.type(bin_cnt)
    factor = bins * _inverse(xp, s)
    with np.errstate(invalid="ignore", over="ignore"):
        if round_type == 0:
            return xp.clip(xp.rint(factor * x), -bins - x.dtype.type(1), bins)
        clipped = xp.where(x < -s, -s, xp.where(x > s, s, x))
        return _round_half_away(xp, factor * clipped)


def _dequantize(x: Array, q: Array, s: Array, bin_cnt: int) -> Array:
    if s.ndim == 1:
        s = s.reshape(())
    with np.errstate(invalid="ignore", over="ignore"):
        return q * s / x.dtype.type(bin_cnt)


def _channel_view(x: Array, quant_axis: int) -> tuple[Array, tuple[int, ...]]:
    """x as [outer, channels, inner] for quant_axis 0 ([1, c, rest]) or 1 ([d0, c, rest])."""
    outer = 1 if quant_axis == 0 else x.shape[0]
    channels = x.shape[quant_axis]
    return x.reshape(outer, channels, -1), (1, channels, 1)


def _channel_scales(xp: Any, view: Array, quant_axis: int) -> Array:
    outer, channels, inner = view.shape
    chunks = _abs_max_rows(xp, view.reshape(outer * channels, inner)).reshape(outer, channels)
    if quant_axis == 0:
        return chunks[0]
    # std::max(out[j], chunk) from 0: a NaN chunk leaves out[j] as it is
    return xp.max(xp.where(xp.isnan(chunks), view.dtype.type(0), chunks), axis=0)


def _abs_max_scale(xp: Any, x: Array) -> Array:
    return _abs_max_rows(xp, x.reshape(1, -1))


# -- abs max ------------------------------------------------------------------------------------


@register_kernel("fake_quantize_abs_max", dtypes=F32)
def fake_quantize_abs_max_kernel(
    ctx: KernelContext, x: Array, bit_length: int, round_type: int
) -> tuple[Array, Array]:
    _require_elements(x, "fake_quantize_abs_max")
    xp = ctx.xp
    scale = _abs_max_scale(xp, x)
    return _quantize(xp, x, scale, _bin_cnt(bit_length), round_type), scale


@register_kernel("fake_quantize_dequantize_abs_max", dtypes=F32)
def fake_quantize_dequantize_abs_max_kernel(
    ctx: KernelContext, x: Array, bit_length: int, round_type: int
) -> tuple[Array, Array]:
    _require_elements(x, "fake_quantize_dequantize_abs_max")
    xp = ctx.xp
    scale = _abs_max_scale(xp, x)
    bins = _bin_cnt(bit_length)
    return _dequantize(x, _quantize(xp, x, scale, bins, round_type), scale, bins), scale


@register_kernel("fake_channel_wise_quantize_abs_max", dtypes=F32)
def fake_channel_wise_quantize_abs_max_kernel(
    ctx: KernelContext, x: Array, bit_length: int, round_type: int, quant_axis: int, is_test: bool
) -> tuple[Array, Array]:
    _require_elements(x, "fake_channel_wise_quantize_abs_max")
    xp = ctx.xp
    view, shape = _channel_view(x, quant_axis)
    scales = _channel_scales(xp, view, quant_axis)
    q = _quantize(xp, view, scales.reshape(shape), _bin_cnt(bit_length), round_type)
    return q.reshape(x.shape), scales


@register_kernel("fake_channel_wise_quantize_dequantize_abs_max", dtypes=F32)
def fake_channel_wise_quantize_dequantize_abs_max_kernel(
    ctx: KernelContext, x: Array, bit_length: int, round_type: int, quant_axis: int
) -> tuple[Array, Array]:
    _require_elements(x, "fake_channel_wise_quantize_dequantize_abs_max")
    xp = ctx.xp
    view, shape = _channel_view(x, quant_axis)
    scales = _channel_scales(xp, view, quant_axis)
    s = scales.reshape(shape)
    bins = _bin_cnt(bit_length)
    out = _dequantize(view, _quantize(xp, view, s, bins, round_type), s, bins)
    return out.reshape(x.shape), scales


# -- range and moving average ---------------------------------------------------------------------


def _one(value: Array) -> Array:
    return value.reshape(1)


def _int64_iter(kernel: Kernel) -> None:
    kernel.input_at(2).set_dtype(D.INT64)


@register_kernel("fake_quantize_range_abs_max", dtypes=F32, configure=_int64_iter)
def fake_quantize_range_abs_max_kernel(
    ctx: KernelContext,
    x: Array,
    in_scale: Array,
    iter: Array | None,
    window_size: int,
    bit_length: int,
    is_test: bool,
    round_type: int,
) -> tuple[Array, Array, Array]:
    xp = ctx.xp
    bins = _bin_cnt(bit_length)
    if is_test:
        scale = _one(in_scale).copy()
        return _quantize(xp, x, scale, bins, round_type), scale, None
    _require_elements(x, "fake_quantize_range_abs_max")
    step = int(iter.reshape(-1)[0])
    if step < 0:
        raise InvalidArgumentError(
            f"fake_quantize_range_abs_max: argument 'iter' must be a step count >= 0, got {step}"
        )
    current = _abs_max_scale(xp, x)
    window = xp.zeros((window_size,), dtype=x.dtype)
    slot = step % window_size
    removed = window[slot].copy()
    window[slot] = current[0]
    scale = _one(in_scale).copy()
    if bool(scale[0] < current[0]):
        scale = current
    elif bool(xp.abs(removed - scale[0]) < 1e-6):
        size = min(step, window_size)
        if size > 0:
            scale = _abs_max_rows(xp, window[:size].reshape(1, size))
    return _quantize(xp, x, scale, bins, round_type), scale, window


def _moving_average(
    xp: Any,
    x: Array,
    in_scale: Array,
    in_accum: Array | None,
    in_state: Array | None,
    moving_rate: float,
    is_test: bool,
    op: str,
) -> tuple[Array, Array | None, Array | None]:
    """(scale, state, accum) as PHI's FindMovingAverageAbsMaxFunctor gives them."""
    if is_test:
        return (
            _one(in_scale).copy(),
            None if in_state is None else _one(in_state).copy(),
            None if in_accum is None else _one(in_accum).copy(),
        )
    _require_elements(x, op)
    rate = x.dtype.type(np.float32(moving_rate))
    state = rate * _one(in_state) + x.dtype.type(1)
    accum = rate * _one(in_accum) + _abs_max_scale(xp, x)
    with np.errstate(invalid="ignore", divide="ignore"):
        return accum / state, state, accum


@register_kernel("fake_quantize_moving_average_abs_max", dtypes=F32)
def fake_quantize_moving_average_abs_max_kernel(
    ctx: KernelContext,
    x: Array,
    in_scale: Array,
    in_accum: Array | None,
    in_state: Array | None,
    moving_rate: float,
    bit_length: int,
    is_test: bool,
    round_type: int,
) -> tuple[Array, Array, Array, Array]:
    xp = ctx.xp
    scale, state, accum = _moving_average(
        xp,
        x,
        in_scale,
        in_accum,
        in_state,
        moving_rate,
        is_test,
        "fake_quantize_moving_average_abs_max",
    )
    return _quantize(xp, x, scale, _bin_cnt(bit_length), round_type), scale, state, accum


@register_kernel("fake_quantize_dequantize_moving_average_abs_max", dtypes=F32)
def fake_quantize_dequantize_moving_average_abs_max_kernel(
    ctx: KernelContext,
    x: Array,
    in_scale: Array,
    in_accum: Array | None,
    in_state: Array | None,
    moving_rate: float,
    bit_length: int,
    is_test: bool,
    round_type: int,
) -> tuple[Array, Array, Array, Array]:
    xp = ctx.xp
    scale, state, accum = _moving_average(
        xp,
        x,
        in_scale,
        in_accum,
        in_state,
        moving_rate,
        is_test,
        "fake_quantize_dequantize_moving_average_abs_max",
    )
    bins = _bin_cnt(bit_length)
    out = _dequantize(x, _quantize(xp, x, scale, bins, round_type), scale, bins)
    return out, scale, state, accum


# -- dequantize ---------------------------------------------------------------------------------


@register_kernel("fake_dequantize_max_abs", dtypes=(D.FLOAT32, D.FLOAT64))
def fake_dequantize_max_abs_kernel(
    ctx: KernelContext, x: Array, scale: Array, max_range: float
) -> Array:
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        return x * scale.reshape(-1)[0] / x.dtype.type(np.float32(max_range))


@register_kernel("fake_channel_wise_dequantize_max_abs", dtypes=(D.FLOAT32, D.FLOAT64))
def fake_channel_wise_dequantize_max_abs_kernel(
    ctx: KernelContext,
    x: Array,
    scales: list[Array],
    quant_bits: tuple[int, ...],
    quant_axis: int,
    x_num_col_dims: int,
) -> Array:
    ranges = [float(2 ** (bits - 1) - 1) for bits in quant_bits]
    one = x.dtype.type
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        if len(scales) == 1:
            outer = 1 if quant_axis == 0 else x.shape[0]
            view = x.reshape(outer, x.shape[quant_axis], -1)
            out = view * scales[0].reshape(1, -1, 1) / one(ranges[0])
        else:
            outer = int(np.prod(x.shape[:x_num_col_dims], dtype=np.int64))
            view = x.reshape(outer, x.shape[x_num_col_dims], -1)
            out = (
                view
                * scales[0].reshape(1, -1, 1)
                * scales[1].reshape(-1)[0]
                / one(ranges[0] * ranges[1])
            )
    return out.reshape(x.shape)


def _float32_output(kernel: Kernel) -> None:
    """A float32 out, and the float32 second input (scale, dict) taken as it comes, where the
    kernel's dtype (x's, an integer) would cast it."""
    kernel.output_at(0).set_dtype(D.FLOAT32)
    kernel.input_at(1).set_dtype(D.FLOAT32)


@register_kernel("dequantize_abs_max", dtypes=(D.INT8, D.INT16), configure=_float32_output)
def dequantize_abs_max_kernel(
    ctx: KernelContext, x: Array, scale: Array, max_range: float
) -> Array:
    s = scale.reshape(-1)[0].astype(np.float32)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        return s * x.astype(np.float32) / np.float32(max_range)


@register_kernel("dequantize_log", dtypes=(D.INT8,), configure=_float32_output)
def dequantize_log_kernel(ctx: KernelContext, x: Array, dict: Array) -> Array:
    xp = ctx.xp
    table = dict.reshape(-1)
    codes = x.astype(np.int16)
    negative = codes < 0
    looked_up = table[xp.where(negative, codes + 128, codes)]
    return xp.where(negative, -looked_up, looked_up).astype(np.float32)
