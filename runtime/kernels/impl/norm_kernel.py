"""batch_norm (and batch_norm_) and layer_norm, as PHI's CPU kernels compute them.

batch_norm normalises over every axis but the channel one. Training (neither ``is_test`` nor
``use_global_stats``; ``is_test`` with ``trainable_statistics`` counts as training) uses the
batch's mean and biased variance, writes ``running = running * momentum + batch * (1 -
momentum)`` into the ``mean`` and ``variance`` arrays (PaddlePaddle's ``view`` pairs: mean_out
is mean) and returns the batch mean and the inverse standard deviation 1/sqrt(var + epsilon) as
``saved_mean``/``saved_variance`` for the backward. Inference uses the running statistics,
leaves them as they are and returns zero saved statistics. ``reserve_space`` is cuDNN's and is
absent. layer_norm normalises each row of x flattened at ``begin_norm_axis`` and returns the
rows' mean and biased variance.
"""

from __future__ import annotations

from runtime.common import DataType
from runtime.kernels.kernel import Array, KernelContext
from runtime.kernels.registration import register_kernel

# PaddlePaddle's CPU registrations (paddle/phi/kernels/cpu/batch_norm_kernel.cc,
# layer_norm_kernel.cc).
NORM_DTYPES = (DataType.FLOAT32, DataType.FLOAT64)

CHANNEL_LAST_FORMATS = ("NHWC", "NDHWC", "NLC")


def channel_view(x: Array, data_format: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(reduction axes, broadcast shape of a per-channel vector) for ``x`` in ``data_format``."""
    channel = x.ndim - 1 if data_format in CHANNEL_LAST_FORMATS else 1
    axes = tuple(a for a in range(x.ndim) if a != channel)
    shape = tuple(x.shape[channel] if a == channel else 1 for a in range(x.ndim))
    return axes, shape


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
    axes, shape = channel_view(x, data_format)
    dtype = x.dtype.type
    eps = dtype(epsilon)
    if uses_global_stats(is_test, use_global_stats, trainable_statistics):
        center, inv_std = mean.astype(x.dtype), 1 / xp.sqrt(variance.astype(x.dtype) + eps)
        saved_mean, saved_variance = xp.zeros_like(mean), xp.zeros_like(variance)
    else:
        center = x.mean(axis=axes)
        batch_variance = xp.square(x - center.reshape(shape)).mean(axis=axes)
        inv_std = 1 / xp.sqrt(batch_variance + eps)
        keep = dtype(momentum)
        mean[...] = mean * keep + center * (1 - keep)
        variance[...] = variance * keep + batch_variance * (1 - keep)
        saved_mean, saved_variance = center, inv_std
    factor = inv_std if scale is None else inv_std * scale
    shift = -center * factor if bias is None else bias - center * factor
    out = x * factor.reshape(shape) + shift.reshape(shape)
    return out.astype(x.dtype, copy=False), mean, variance, saved_mean, saved_variance, None


@register_kernel("layer_norm", dtypes=NORM_DTYPES)
def layer_norm_kernel(
    ctx: KernelContext,
    x: Array,
    scale: Array | None,
    bias: Array | None,
    epsilon: float,
    begin_norm_axis: int,
) -> tuple[Array, Array, Array]:
    xp = ctx.xp
    rows = x.reshape(rows_of(x.shape, begin_norm_axis))
    mean = rows.mean(axis=1)
    centered = rows - mean[:, None]
    variance = xp.square(centered).mean(axis=1)
    out = centered * (1 / xp.sqrt(variance + x.dtype.type(epsilon)))[:, None]
    if scale is not None:
        out = out * scale.reshape(-1)
    if bias is not None:
        out = out + bias.reshape(-1)
    return out.reshape(x.shape), mean, variance


def rows_of(shape: tuple[int, ...], begin_norm_axis: int) -> tuple[int, int]:
    """[left, right]: ``shape`` flattened at ``begin_norm_axis``."""
    left = 1
    for extent in shape[:begin_norm_axis]:
        left *= extent
    right = 1
    for extent in shape[begin_norm_axis:]:
        right *= extent
    return left, right
