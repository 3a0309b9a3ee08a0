"""batch_norm (and batch_norm_) and layer_norm, as PHI's CPU kernels compute them.

batch_norm normalises over every axis but the channel one. Training (neither ``is_test`` nor
``use_global_stats``; ``is_test`` with ``trainable_statistics`` counts as training) uses the
batch's mean and biased variance, writes ``running = running * momentum + batch * (1 -
momentum)`` into the ``mean`` and ``variance`` arrays (PaddlePaddle's ``view`` pairs: mean_out
is mean) and returns the batch mean and the inverse standard deviation 1/sqrt(var + epsilon) as
``saved_mean``/``saved_variance`` for the backward. Inference uses the running statistics,
leaves them as they are and returns zero saved statistics. ``reserve_space`` is cuDNN's and is
absent. layer_norm normalises each row of x flattened at ``begin_norm_axis`` and returns the
rows' mean and biased variance; on numpy float arrays it runs the compiled row kernel of
`phiops.runtime.kernels.native` when that is built (a pass over memory per row instead of one per step).
"""

from __future__ import annotations

from types import ModuleType

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.native import native_kernels
from phiops.runtime.kernels.registration import register_kernel

# PaddlePaddle's CPU registrations (paddle/phi/kernels/cpu/batch_norm_kernel.cc,
# layer_norm_kernel.cc).
NORM_DTYPES = (DataType.FLOAT32, DataType.FLOAT64)

CHANNEL_LAST_FORMATS = ("NHWC", "NDHWC", "NLC")


def float32_attribute(value: float) -> float:
    """A ``float`` attribute as PHI holds it: rounded to float32 (epsilon=1e-3 is
    0.0010000000474974513 in a float64 kernel, as in PaddlePaddle)."""
    return float(np.float32(value))


def channel_view(x: Array, data_format: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(reduction axes, broadcast shape of a per-channel vector) for ``x`` in ``data_format``."""
    channel = x.ndim - 1 if data_format in CHANNEL_LAST_FORMATS else 1
    axes = tuple(a for a in range(x.ndim) if a != channel)
    shape = tuple(x.shape[channel] if a == channel else 1 for a in range(x.ndim))
    return axes, shape


def channel_rows(a: Array, data_format: str) -> Array:
    """``a`` as a matrix whose rows (NCHW: one per sample and channel) or columns (channel
    last: one per channel) hold one channel's contiguous values."""
    if data_format in CHANNEL_LAST_FORMATS:
        return a.reshape(-1, a.shape[-1])
    return a.reshape(a.shape[0] * a.shape[1], a.size // max(a.shape[0] * a.shape[1], 1))


def channel_sums(xp: ModuleType, a: Array, data_format: str) -> Array:
    """Per-channel sums of ``a`` as matrix-vector products with a ones vector: BLAS reads the
    array once, several times faster than numpy's sum over non-adjacent axes."""
    rows = channel_rows(a, data_format)
    if data_format in CHANNEL_LAST_FORMATS:
        return xp.ones(rows.shape[0], a.dtype) @ rows
    return (rows @ xp.ones(rows.shape[1], a.dtype)).reshape(a.shape[0], a.shape[1]).sum(axis=0)


def channel_dots(xp: ModuleType, a: Array, b: Array, data_format: str) -> Array:
    """Per-channel sums of ``a * b`` without the product array (einsum reads both once)."""
    rows_a, rows_b = channel_rows(a, data_format), channel_rows(b, data_format)
    if data_format in CHANNEL_LAST_FORMATS:
        return xp.einsum("ij,ij->j", rows_a, rows_b)
    dots = xp.einsum("ij,ij->i", rows_a, rows_b)
    return dots.reshape(a.shape[0], a.shape[1]).sum(axis=0)


def uses_global_stats(is_test: bool, use_global_stats: bool, trainable_statistics: bool) -> bool:
    """Whether batch_norm normalises with the running statistics (PHI's ``global_stats``)."""
    return (is_test and not trainable_statistics) or use_global_stats


@register_kernel("batch_norm", dtypes=NORM_DTYPES)
def batch_norm_kernel(
    ctx: KernelContext,
    x: Array,
    mean: Array,
    variance: Array,
    scale: Array | None,
    bias: Array | None,
    is_test: bool,
    momentum: float,
    epsilon: float,
    data_format: str,
    use_global_stats: bool,
    trainable_statistics: bool,
) -> tuple[Array, Array, Array, Array, Array, Array]:
    xp = ctx.xp
    _, shape = channel_view(x, data_format)
    dtype = x.dtype.type
    eps = dtype(float32_attribute(epsilon))
    if uses_global_stats(is_test, use_global_stats, trainable_statistics):
        center = mean.astype(x.dtype)
        inv_std = 1 / xp.sqrt(variance.astype(x.dtype) + eps)
        centered = x - center.reshape(shape)
        saved_mean, saved_variance = xp.zeros_like(mean), xp.zeros_like(variance)
    else:
        count = dtype(x.size // mean.size)
        center = channel_sums(xp, x, data_format) / count
        centered = x - center.reshape(shape)
        batch_variance = channel_dots(xp, centered, centered, data_format) / count
        inv_std = 1 / xp.sqrt(batch_variance + eps)
        keep = dtype(float32_attribute(momentum))
        mean[...] = mean * keep + center * (1 - keep)
        variance[...] = variance * keep + batch_variance * (1 - keep)
        saved_mean, saved_variance = center, inv_std
    out = centered
    out *= (inv_std if scale is None else inv_std * scale).reshape(shape)
    if bias is not None:
        out += bias.reshape(shape)
    return out, mean, variance, saved_mean, saved_variance, None


@register_kernel("layer_norm", dtypes=NORM_DTYPES)
def layer_norm_kernel(
    ctx: KernelContext,
    x: Array,
    scale: Array | None,
    bias: Array | None,
    epsilon: float,
    begin_norm_axis: int,
) -> tuple[Array, Array, Array]:
    native = native_kernels(x)
    if native is not None:
        left, right = rows_of(x.shape, begin_norm_axis)
        stats_shape = x.shape[:begin_norm_axis]
        out = np.empty(x.shape, x.dtype)
        mean, variance = np.empty(stats_shape, x.dtype), np.empty(stats_shape, x.dtype)
        native.layer_norm(
            np.ascontiguousarray(x),
            contiguous(scale, x.dtype),
            contiguous(bias, x.dtype),
            float32_attribute(epsilon),
            left,
            right,
            out,
            mean,
            variance,
        )
        return out, mean, variance
    xp = ctx.xp
    rows = x.reshape(rows_of(x.shape, begin_norm_axis))
    right = x.dtype.type(rows.shape[1])
    # row sums as a matrix-vector product: BLAS is about 3x faster than a sum along the rows
    ones = xp.ones(rows.shape[1], x.dtype)
    mean = (rows @ ones) / right
    out = rows - mean[:, None]
    variance = xp.einsum("ij,ij->i", out, out) / right
    out *= (1 / xp.sqrt(variance + x.dtype.type(float32_attribute(epsilon))))[:, None]
    if scale is not None:
        out *= scale.reshape(-1)
    if bias is not None:
        out += bias.reshape(-1)
    stats_shape = x.shape[:begin_norm_axis]
    return out.reshape(x.shape), mean.reshape(stats_shape), variance.reshape(stats_shape)


def contiguous(a: np.ndarray | None, dtype: np.dtype) -> np.ndarray | None:
    """``a`` as a C-contiguous array of ``dtype`` for the native kernels (None stays None)."""
    return None if a is None else np.ascontiguousarray(a, dtype=dtype)


def rows_of(shape: tuple[int, ...], begin_norm_axis: int) -> tuple[int, int]:
    """[left, right]: ``shape`` flattened at ``begin_norm_axis``."""
    left = 1
    for extent in shape[:begin_norm_axis]:
        left *= extent
    right = 1
    for extent in shape[begin_norm_axis:]:
        right *= extent
    return left, right
