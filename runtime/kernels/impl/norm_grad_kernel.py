"""batch_norm_grad and layer_norm_grad.

With x_hat = (x - mean) * inv_std over the N elements normalised together and g = out_grad *
scale: ``scale_grad = sum(out_grad * x_hat)``, ``bias_grad = sum(out_grad)`` and
``x_grad = inv_std * (g - mean(g) - x_hat * mean(g * x_hat))`` when the statistics came from
the batch; ``x_grad = g * inv_std`` when batch_norm used its running statistics (they are
constants then). A gradient of an absent scale or bias is absent, and so is one the autograd
engine does not want (``ctx.wants``). layer_norm_grad runs the compiled row kernel of
`phiops.runtime.kernels.native` on numpy float arrays when that is built.
"""

from __future__ import annotations

import numpy as np

from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.impl.norm_kernel import (
    NORM_DTYPES,
    channel_dots,
    channel_sums,
    channel_view,
    contiguous,
    float32_attribute,
    rows_of,
    uses_global_stats,
)
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.native import native_kernels
from phiops.runtime.kernels.registration import register_kernel


@register_kernel("batch_norm_grad", dtypes=NORM_DTYPES)
def batch_norm_grad_kernel(
    ctx: KernelContext,
    x: Array,
    scale: Array | None,
    bias: Array | None,
    mean_out: Array | None,
    variance_out: Array | None,
    saved_mean: Array,
    saved_variance: Array,
    reserve_space: Array | None,
    out_grad: Array,
    momentum: float,
    epsilon: float,
    data_format: str,
    is_test: bool,
    use_global_stats: bool,
    trainable_statistics: bool,
) -> tuple[Array, Array, Array]:
    xp = ctx.xp
    _, shape = channel_view(x, data_format)
    global_stats = uses_global_stats(is_test, use_global_stats, trainable_statistics)
    if global_stats:
        center = mean_out.astype(x.dtype)
        inv_std = 1 / xp.sqrt(
            variance_out.astype(x.dtype) + x.dtype.type(float32_attribute(epsilon))
        )
    else:
        center, inv_std = saved_mean.astype(x.dtype), saved_variance.astype(x.dtype)
    centered = x - center.reshape(shape)
    bias_grad = channel_sums(xp, out_grad, data_format)
    # sum(out_grad * x_hat) per channel, with x_hat = centered * inv_std
    centered_dot = channel_dots(xp, out_grad, centered, data_format)
    scale_grad = centered_dot * inv_std
    factor = inv_std if scale is None else inv_std * scale
    if global_stats:
        x_grad = out_grad * factor.reshape(shape)
    else:
        # factor * (out_grad - mean(out_grad) - x_hat * mean(out_grad * x_hat)), reusing
        # ``centered`` for every full-size step
        count = x.dtype.type(x.size // center.size)
        x_grad = centered
        x_grad *= (inv_std * inv_std * centered_dot / count).reshape(shape)
        xp.subtract(out_grad, x_grad, out=x_grad)
        x_grad -= (bias_grad / count).reshape(shape)
        x_grad *= factor.reshape(shape)
    return (
        x_grad if ctx.wants(0) else None,
        None if scale is None or not ctx.wants(1) else scale_grad.astype(scale.dtype, copy=False),
        None if bias is None or not ctx.wants(2) else bias_grad.astype(bias.dtype, copy=False),
    )


def _check_layer_norm_grad_inputs(
    x: Array,
    scale: Array | None,
    mean: Array,
    variance: Array,
    out_grad: Array,
    left: int,
    right: int,
) -> None:
    """The arrays layer_norm_grad reads must be of layer_norm's shapes (its InferMeta sees only
    x, scale and bias): out_grad x's, mean and variance one value per row, scale one per column."""
    if tuple(out_grad.shape) != tuple(x.shape):
        raise InvalidArgumentError(
            f"argument 'out_grad' must have dims {list(x.shape)} (x's), got "
            f"{list(out_grad.shape)}"
        )
    for name, array, count, per in (
        ("mean", mean, left, "row"),
        ("variance", variance, left, "row"),
        ("scale", scale, right, "column"),
    ):
        if array is not None and array.size != count:
            raise InvalidArgumentError(
                f"argument '{name}' must hold {count} values (one per normalized {per}), got "
                f"dims {list(array.shape)}"
            )


@register_kernel("layer_norm_grad", dtypes=NORM_DTYPES)
def layer_norm_grad_kernel(
    ctx: KernelContext,
    x: Array,
    scale: Array | None,
    bias: Array | None,
    mean: Array,
    variance: Array,
    out_grad: Array,
    epsilon: float,
    begin_norm_axis: int,
) -> tuple[Array, Array, Array]:
    left, right = rows_of(x.shape, begin_norm_axis)
    _check_layer_norm_grad_inputs(x, scale, mean, variance, out_grad, left, right)
    native = native_kernels(x)
    if native is not None:
        dtype = x.dtype
        x_grad = np.empty(x.shape, dtype) if ctx.wants(0) else None
        scale_grad = None if scale is None or not ctx.wants(1) else np.empty(scale.shape, dtype)
        bias_grad = None if bias is None or not ctx.wants(2) else np.empty(bias.shape, dtype)
        native.layer_norm_grad(
            np.ascontiguousarray(x),
            contiguous(scale, dtype),
            contiguous(mean, dtype),
            contiguous(variance, dtype),
            contiguous(out_grad, dtype),
            float32_attribute(epsilon),
            left,
            right,
            x_grad,
            scale_grad,
            bias_grad,
        )
        return x_grad, scale_grad, bias_grad
    xp = ctx.xp
    dy = out_grad.reshape(left, right)
    variance, mean = variance.reshape(-1), mean.reshape(-1)
    inv_std = 1 / xp.sqrt(variance.astype(x.dtype) + x.dtype.type(float32_attribute(epsilon)))
    centered = x.reshape(left, right) - mean.astype(x.dtype)[:, None]
    weights = xp.ones(right, x.dtype) if scale is None else scale.reshape(-1)
    width = x.dtype.type(right)
    # With x_hat = centered * inv_std and g = dy * scale, row by row:
    # x_grad = inv_std * (g - mean(g) - x_hat * mean(g * x_hat)). The row and column sums are
    # matrix-vector products (BLAS reads each array once), so the only full-size
    # temporaries are ``centered``, ``products`` and x_grad itself.
    products = dy * centered
    g_mean = (dy @ weights) / width
    gx_mean = (products @ weights) * inv_std / width
    scale_grad = bias_grad = None
    if scale is not None and ctx.wants(1):
        scale_grad = (inv_std @ products).reshape(scale.shape)
    if bias is not None and ctx.wants(2):
        bias_grad = (xp.ones(left, x.dtype) @ dy).reshape(bias.shape)
    if not ctx.wants(0):
        return None, scale_grad, bias_grad
    x_grad = xp.multiply(dy, weights, out=products)
    centered *= (gx_mean * inv_std)[:, None]
    x_grad -= centered
    x_grad -= g_mean[:, None]
    x_grad *= inv_std[:, None]
    return x_grad.reshape(x.shape), scale_grad, bias_grad
