"""group_norm and instance_norm, as PHI's CPU kernels.

Both normalise x moved to [N, C, L] (channels first) over groups of rows: group_norm over
[N, groups, C/groups * L], instance_norm over [N * C, L], with the biased variance; then scale
and bias per channel. group_norm returns the groups' mean and variance [N, groups];
instance_norm the mean and inverse standard deviation 1/sqrt(var + epsilon) [N * C].
"""

from __future__ import annotations

from typing import Any

from phiops.runtime.common import DataType
from phiops.runtime.kernels.impl.norm_kernel import CHANNEL_LAST_FORMATS, float32_attribute
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

# PaddlePaddle's CPU registrations (paddle/phi/kernels/cpu/group_norm_kernel.cc,
# instance_norm_kernel.cc).
GROUP_INSTANCE_NORM_DTYPES = (DataType.FLOAT32, DataType.FLOAT64)


def as_ncl(xp: Any, x: Array, data_format: str) -> Array:
    """``x`` as a contiguous [N, C, L]."""
    if data_format in CHANNEL_LAST_FORMATS:
        x = xp.moveaxis(x.reshape(x.shape[0], -1, x.shape[-1]), -1, 1)
    return xp.ascontiguousarray(x).reshape(x.shape[0], x.shape[1], -1)


def from_ncl(xp: Any, y: Array, shape: tuple[int, ...], data_format: str) -> Array:
    """[N, C, L] back to ``shape`` in ``data_format``."""
    if data_format in CHANNEL_LAST_FORMATS:
        return xp.ascontiguousarray(xp.moveaxis(y, 1, -1)).reshape(shape)
    return y.reshape(shape)


def normalize_rows(xp: Any, rows: Array, epsilon: float) -> tuple[Array, Array, Array]:
    """(normalised rows, mean, variance) of a 2-D array, row by row."""
    width = rows.dtype.type(rows.shape[1])
    mean = rows.sum(axis=1) / width
    centered = rows - mean[:, None]
    variance = xp.einsum("ij,ij->i", centered, centered) / width
    centered *= (1 / xp.sqrt(variance + rows.dtype.type(float32_attribute(epsilon))))[:, None]
    return centered, mean, variance


def affine(y: Array, scale: Array | None, bias: Array | None) -> Array:
    """y [N, C, L] * scale[c] + bias[c]."""
    if scale is not None:
        y *= scale.reshape(1, -1, 1)
    if bias is not None:
        y += bias.reshape(1, -1, 1)
    return y


@register_kernel("group_norm", dtypes=GROUP_INSTANCE_NORM_DTYPES)
def group_norm_kernel(
    ctx: KernelContext,
    x: Array,
    scale: Array | None,
    bias: Array | None,
    epsilon: float,
    groups: int,
    data_format: str,
) -> tuple[Array, Array, Array]:
    xp = ctx.xp
    ncl = as_ncl(xp, x, data_format)
    n, c, _ = ncl.shape
    normalized, mean, variance = normalize_rows(xp, ncl.reshape(n * groups, -1), epsilon)
    y = affine(normalized.reshape(ncl.shape), scale, bias)
    return (
        from_ncl(xp, y, x.shape, data_format),
        mean.reshape(n, groups),
        variance.reshape(n, groups),
    )


@register_kernel("instance_norm", dtypes=GROUP_INSTANCE_NORM_DTYPES)
def instance_norm_kernel(
    ctx: KernelContext,
    x: Array,
    scale: Array | None,
    bias: Array | None,
    epsilon: float,
) -> tuple[Array, Array, Array]:
    xp = ctx.xp
    ncl = as_ncl(xp, x, "NCHW")
    normalized, mean, variance = normalize_rows(xp, ncl.reshape(-1, ncl.shape[2]), epsilon)
    y = affine(normalized.reshape(ncl.shape), scale, bias)
    inv_std = 1 / xp.sqrt(variance + x.dtype.type(float32_attribute(epsilon)))
    return y.reshape(x.shape), mean, inv_std
