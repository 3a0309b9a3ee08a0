"""group_norm_grad and instance_norm_grad.

Per normalised row (a group of one sample, or one channel of one sample) with x_hat its
normalised values and g = y_grad * scale[c]: ``x_grad = inv_std * (g - mean(g) - x_hat *
mean(g * x_hat))``; per channel ``scale_grad = sum(y_grad * x_hat)`` and ``bias_grad =
sum(y_grad)`` over samples and positions.
"""

from __future__ import annotations

from typing import Any

from phiops.runtime.kernels.impl.group_instance_norm_kernel import (
    GROUP_INSTANCE_NORM_DTYPES,
    as_ncl,
    from_ncl,
)
from phiops.runtime.kernels.impl.norm_kernel import float32_attribute
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel


def rows_grad(
    xp: Any, x_hat: Array, dy: Array, scale: Array | None, inv_std: Array, rows: int
) -> tuple[Array, Array, Array]:
    """(x_grad [N, C, L], scale_grad [C], bias_grad [C]) from x_hat and dy [N, C, L], the
    normalised rows being ``rows`` equal slices of the flattened array."""
    g = dy if scale is None else dy * scale.reshape(1, -1, 1)
    g_rows, x_rows = g.reshape(rows, -1), x_hat.reshape(rows, -1)
    width = x_hat.dtype.type(g_rows.shape[1])
    g_mean = g_rows.sum(axis=1) / width
    gx_mean = xp.einsum("ij,ij->i", g_rows, x_rows) / width
    x_grad = g_rows - x_rows * gx_mean[:, None]
    x_grad -= g_mean[:, None]
    x_grad *= inv_std[:, None]
    scale_grad = xp.einsum("ncl,ncl->c", dy, x_hat)
    bias_grad = dy.sum(axis=2).sum(axis=0)
    return x_grad.reshape(dy.shape), scale_grad, bias_grad


@register_kernel("group_norm_grad", dtypes=GROUP_INSTANCE_NORM_DTYPES)
def group_norm_grad_kernel(
    ctx: KernelContext,
    x: Array,
    scale: Array | None,
    bias: Array | None,
    y: Array,
    mean: Array,
    variance: Array,
    y_grad: Array,
    epsilon: float,
    groups: int,
    data_format: str,
) -> tuple[Array, Array, Array]:
    xp = ctx.xp
    ncl = as_ncl(xp, x, data_format)
    n = ncl.shape[0]
    rows = n * groups
    inv_std = 1 / xp.sqrt(variance.reshape(-1) + x.dtype.type(float32_attribute(epsilon)))
    x_hat = (ncl.reshape(rows, -1) - mean.reshape(-1, 1)) * inv_std[:, None]
    x_grad, scale_grad, bias_grad = rows_grad(
        xp, x_hat.reshape(ncl.shape), as_ncl(xp, y_grad, data_format), scale, inv_std, rows
    )
    return (
        from_ncl(xp, x_grad, x.shape, data_format),
        None if scale is None else scale_grad,
        None if bias is None else bias_grad,
    )


@register_kernel("instance_norm_grad", dtypes=GROUP_INSTANCE_NORM_DTYPES)
def instance_norm_grad_kernel(
    ctx: KernelContext,
    x: Array,
    scale: Array | None,
    saved_mean: Array,
    saved_variance: Array,
    y_grad: Array,
    epsilon: float,
) -> tuple[Array, Array, Array]:
    xp = ctx.xp
    ncl = as_ncl(xp, x, "NCHW")
    rows = ncl.shape[0] * ncl.shape[1]
    x_hat = (ncl.reshape(rows, -1) - saved_mean[:, None]) * saved_variance[:, None]
    x_grad, scale_grad, bias_grad = rows_grad(
        xp, x_hat.reshape(ncl.shape), as_ncl(xp, y_grad, "NCHW"), scale, saved_variance, rows
    )
    return x_grad.reshape(x.shape), None if scale is None else scale_grad, bias_grad
