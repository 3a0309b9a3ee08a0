"""Double grad kernels of pool2d, conv2d, conv3d, batch_norm and instance_norm (issue 24,
dgrad24): the backward ops of their grad ops, which ``paddle.grad(..., create_graph=True)`` runs
when it differentiates a first gradient once more. (clip, pad and pad3d's double grads invoke
clip_grad, pad and pad3d: ops/backward.yaml.)

Names follow the specs: ``grad_x_grad`` (ddx) is the gradient flowing into the first grad's
output ``grad_x``, ``grad_out`` (dy) the forward op's upstream gradient. An absent optional
gradient counts as zeros, and a gradient the autograd engine does not want (``ctx.wants``) is
returned as None.

- pool2d_double_grad: average pooling is linear, so its double grad pools ``grad_x_grad`` as the
  forward pooled ``x``; max pooling is rejected as PaddlePaddle 3.3.1 rejects it ("Pool op grad
  grad only supports avgpool", paddle/phi/kernels/impl/pool_grad_kernel_impl.h).
- conv2d_double_grad / conv3d_double_grad: the convolution is bilinear in (input, filter), so
  ``grad_out_grad = conv(ddx, W) + conv(x, ddW)``, ``input_grad = conv_input_grad(ddW, dy)`` and
  ``filter_grad = conv_filter_grad(ddx, dy)``: conv and conv_grad calls
  (runtime/kernels/impl/conv_kernel.py, conv_grad_kernel.py).
- batch_norm_double_grad / instance_norm_double_grad: with x_hat = (x - mean) * r, r the inverse
  standard deviation, M the count of values normalised together, ``mean`` over them and
  ``P(v) = v - mean(v) - x_hat * mean(v * x_hat)``, the first grad with batch statistics is
  ``dx = scale * r * P(dy)``, ``dscale = sum(dy * x_hat)``, ``dbias = sum(dy)``. Differentiating
  ``<ddx, dx> + <ddscale, dscale> + <ddbias, dbias>``:

  * ``grad_out_grad = scale * r * P(ddx) + ddscale * x_hat + ddbias``;
  * ``scale_grad = sum(ddx * r * P(dy))`` (per channel);
  * ``x_grad = ddscale * r * P(dy) - scale * r**2 * (x_hat * (m(ddx*dy) - m(ddx) m(dy)
    - m(ddx*x_hat) m(dy*x_hat)) + m(dy*x_hat) (ddx - m(ddx) - x_hat m(ddx*x_hat))
    + m(ddx*x_hat) (dy - m(dy) - x_hat m(dy*x_hat)))``, ``m`` the mean over a group,
    from ``d r / d x_i = -r**2 x_hat_i / M`` and ``d x_hat_j / d x_i = r (delta_ij - 1/M - x_hat_i
    x_hat_j / M)``.

  batch_norm with its running statistics (``is_test`` or ``use_global_stats``, as batch_norm_grad
  decides) is affine in x: ``grad_out_grad = scale * r * ddx + ddscale * x_hat + ddbias``,
  ``scale_grad = sum(ddx * r * dy)``, ``x_grad = ddscale * r * dy``. batch_norm groups every
  value of a channel, instance_norm every value of one sample's channel (its scale gradient still
  sums over the samples).
"""

from __future__ import annotations

from types import ModuleType

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.impl.conv_grad_kernel import convolve_grad
from phiops.runtime.kernels.impl.conv_kernel import convolve
from phiops.runtime.kernels.impl.group_instance_norm_kernel import as_ncl, from_ncl
from phiops.runtime.kernels.impl.norm_kernel import float32_attribute, uses_global_stats
from phiops.runtime.kernels.impl.pool_kernel import pool2d_kernel
from phiops.runtime.kernels.kernel import Array, KernelContext, swap_wanted_outputs
from phiops.runtime.kernels.registration import register_kernel

# PaddlePaddle 3.3.1's CPU registrations (runtime/kernels/paddle_3_3_1_cpu.json)
REAL = (DataType.FLOAT32, DataType.FLOAT64)


# -- pool2d ---------------------------------------------------------------------------------------


@register_kernel("pool2d_double_grad", dtypes=REAL)
def pool2d_double_grad_kernel(
    ctx: KernelContext,
    grad_x_grad: Array,
    kernel_size: tuple[int, ...],
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    ceil_mode: bool,
    exclusive: bool,
    data_format: str,
    pooling_type: str,
    global_pooling: bool,
    adaptive: bool,
    padding_algorithm: str,
) -> Array:
    if pooling_type != "avg":
        raise InvalidArgumentError(
            f"argument 'pooling_type': the double grad of pool2d supports average pooling "
            f"('avg') only, as PaddlePaddle's, got {pooling_type!r}"
        )
    return pool2d_kernel(
        ctx,
        grad_x_grad,
        kernel_size,
        strides,
        paddings,
        ceil_mode,
        exclusive,
        data_format,
        pooling_type,
        global_pooling,
        adaptive,
        padding_algorithm,
    )


# -- conv2d, conv3d -------------------------------------------------------------------------------


def _conv_grad(
    ctx: KernelContext,
    input: Array,
    filter: Array,
    grad_out: Array,
    geometry: tuple,
    want_input: bool,
) -> Array:
    """One of conv_grad's two results (the input's, else the filter's): the other is not
    computed (conv_grad reads what it must compute from the wanted outputs)."""
    previous = swap_wanted_outputs((want_input, not want_input))
    try:
        input_grad, filter_grad = convolve_grad(ctx, input, filter, grad_out, *geometry)
    finally:
        swap_wanted_outputs(previous)
    return input_grad if want_input else filter_grad


def _conv_double_grad(
    ctx: KernelContext,
    input: Array,
    filter: Array,
    grad_out: Array,
    grad_input_grad: Array | None,
    grad_filter_grad: Array | None,
    geometry: tuple,
) -> tuple[Array, Array, Array]:
    """(input_grad, filter_grad, grad_out_grad); ``geometry`` is (strides, paddings,
    padding_algorithm, dilations, groups, data_format)."""
    xp = ctx.xp
    for name, value, like, whose in (
        ("grad_input_grad", grad_input_grad, input, "input's"),
        ("grad_filter_grad", grad_filter_grad, filter, "filter's"),
    ):
        if value is not None and value.shape != like.shape:
            raise InvalidArgumentError(
                f"argument '{name}' must have dims {list(like.shape)} ({whose}), got "
                f"{list(value.shape)}"
            )
    input_grad = filter_grad = grad_out_grad = None
    if ctx.wants(0):
        input_grad = (
            xp.zeros_like(input)
            if grad_filter_grad is None
            else _conv_grad(ctx, input, grad_filter_grad, grad_out, geometry, want_input=True)
        )
    if ctx.wants(1):
        filter_grad = (
            xp.zeros_like(filter)
            if grad_input_grad is None
            else _conv_grad(ctx, grad_input_grad, filter, grad_out, geometry, want_input=False)
        )
    if ctx.wants(2):
        grad_out_grad = xp.zeros_like(grad_out)
        if grad_input_grad is not None:
            grad_out_grad = grad_out_grad + convolve(ctx, grad_input_grad, filter, *geometry)
        if grad_filter_grad is not None:
            grad_out_grad = grad_out_grad + convolve(ctx, input, grad_filter_grad, *geometry)
    return input_grad, filter_grad, grad_out_grad


@register_kernel("conv2d_double_grad", dtypes=REAL)
def conv2d_double_grad_kernel(
    ctx: KernelContext,
    input: Array,
    filter: Array,
    grad_out: Array,
    grad_input_grad: Array | None,
    grad_filter_grad: Array | None,
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    padding_algorithm: str,
    dilations: tuple[int, ...],
    groups: int,
    data_format: str,
) -> tuple[Array, Array, Array]:
    geometry = (strides, paddings, padding_algorithm, dilations, groups, data_format)
    return _conv_double_grad(
        ctx, input, filter, grad_out, grad_input_grad, grad_filter_grad, geometry
    )


@register_kernel("conv3d_double_grad", dtypes=REAL)
def conv3d_double_grad_kernel(
    ctx: KernelContext,
    input: Array,
    filter: Array,
    grad_out: Array,
    grad_input_grad: Array | None,
    grad_filter_grad: Array | None,
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    padding_algorithm: str,
    groups: int,
    dilations: tuple[int, ...],
    data_format: str,
) -> tuple[Array, Array, Array]:
    geometry = (strides, paddings, padding_algorithm, dilations, groups, data_format)
    return _conv_double_grad(
        ctx, input, filter, grad_out, grad_input_grad, grad_filter_grad, geometry
    )


# -- batch_norm, instance_norm --------------------------------------------------------------------


def _mean(a: Array, axes: tuple[int, ...]) -> Array:
    count = 1
    for axis in axes:
        count *= a.shape[axis]
    return a.sum(axis=axes, keepdims=True) / a.dtype.type(max(count, 1))


def _project(x_hat: Array, v: Array, axes: tuple[int, ...]) -> Array:
    """``P(v) = v - mean(v) - x_hat * mean(v * x_hat)`` over each group."""
    return v - _mean(v, axes) - x_hat * _mean(v * x_hat, axes)


def _norm_double_grad(
    xp: ModuleType,
    x_hat: Array,
    inv_std: Array,
    scale: Array,
    dy: Array,
    ddx: Array | None,
    ddscale: Array | None,
    ddbias: Array | None,
    axes: tuple[int, ...],
    batch_stats: bool,
) -> tuple[Array, Array, Array]:
    """(x_grad, scale_grad per element (to be summed per channel), grad_out_grad) for [N, C, L]
    arrays normalised over ``axes`` (the module docstring has the formulas); ``inv_std`` and the
    scale-shaped arrays broadcast against [N, C, L]."""
    zero = xp.zeros_like(x_hat)
    ddx = zero if ddx is None else ddx
    grad_out_grad = scale * inv_std * (_project(x_hat, ddx, axes) if batch_stats else ddx)
    if ddscale is not None:
        grad_out_grad = grad_out_grad + ddscale * x_hat
    if ddbias is not None:
        grad_out_grad = grad_out_grad + ddbias
    if not batch_stats:
        scale_terms = ddx * inv_std * dy
        x_grad = zero if ddscale is None else ddscale * inv_std * dy
        return x_grad, scale_terms, grad_out_grad
    projected_dy = _project(x_hat, dy, axes)
    scale_terms = ddx * inv_std * projected_dy
    m_a, m_b = _mean(ddx, axes), _mean(dy, axes)
    m_ax, m_bx = _mean(ddx * x_hat, axes), _mean(dy * x_hat, axes)
    m_ab = _mean(ddx * dy, axes)
    x_grad = -scale * inv_std * inv_std * (
        x_hat * (m_ab - m_a * m_b - m_ax * m_bx)
        + m_bx * (ddx - m_a - x_hat * m_ax)
        + m_ax * (dy - m_b - x_hat * m_bx)
    )
    if ddscale is not None:
        x_grad = x_grad + ddscale * inv_std * projected_dy
    return x_grad, scale_terms, grad_out_grad


def _channel(vector: Array | None, dtype: object) -> Array | None:
    """A per-channel vector [C] as [1, C, 1] in ``dtype``."""
    return None if vector is None else vector.astype(dtype, copy=False).reshape(1, -1, 1)


def _check_channels(name: str, vector: Array | None, channels: int) -> None:
    if vector is not None and vector.size != channels:
        raise InvalidArgumentError(
            f"argument '{name}' must hold one value per channel ({channels}), got dims "
            f"{list(vector.shape)}"
        )


def _check_like_x(name: str, value: Array | None, x: Array) -> None:
    if value is not None and value.shape != x.shape:
        raise InvalidArgumentError(
            f"argument '{name}' must have dims {list(x.shape)} (x's), got {list(value.shape)}"
        )


@register_kernel("batch_norm_double_grad", dtypes=REAL)
def batch_norm_double_grad_kernel(
    ctx: KernelContext,
    x: Array,
    scale: Array | None,
    out_mean: Array | None,
    out_variance: Array | None,
    saved_mean: Array,
    saved_variance: Array,
    grad_out: Array,
    grad_x_grad: Array | None,
    grad_scale_grad: Array | None,
    grad_bias_grad: Array | None,
    momentum: float,
    epsilon: float,
    data_format: str,
    is_test: bool,
    use_global_stats: bool,
    trainable_statistics: bool,
) -> tuple[Array, Array, Array]:
    xp = ctx.xp
    _check_like_x("grad_out", grad_out, x)
    _check_like_x("grad_x_grad", grad_x_grad, x)
    ncl = as_ncl(xp, x, data_format)
    channels = ncl.shape[1]
    for name, vector in (
        ("scale", scale),
        ("saved_mean", saved_mean),
        ("saved_variance", saved_variance),
        ("out_mean", out_mean),
        ("out_variance", out_variance),
        ("grad_scale_grad", grad_scale_grad),
        ("grad_bias_grad", grad_bias_grad),
    ):
        _check_channels(name, vector, channels)
    global_stats = uses_global_stats(is_test, use_global_stats, trainable_statistics)
    if global_stats:
        if out_mean is None or out_variance is None:
            raise InvalidArgumentError(
                "arguments 'out_mean' and 'out_variance' are required when batch_norm used its "
                "running statistics (is_test or use_global_stats)"
            )
        center = _channel(out_mean, x.dtype)
        eps = x.dtype.type(float32_attribute(epsilon))
        inv_std = 1 / xp.sqrt(_channel(out_variance, x.dtype) + eps)
    else:
        center = _channel(saved_mean, x.dtype)
        inv_std = _channel(saved_variance, x.dtype)
    x_hat = (ncl - center) * inv_std
    ones = xp.ones((1, channels, 1), x.dtype)
    x_grad, scale_terms, grad_out_grad = _norm_double_grad(
        xp,
        x_hat,
        inv_std,
        ones if scale is None else _channel(scale, x.dtype),
        as_ncl(xp, grad_out, data_format),
        None if grad_x_grad is None else as_ncl(xp, grad_x_grad, data_format),
        _channel(grad_scale_grad, x.dtype),
        _channel(grad_bias_grad, x.dtype),
        (0, 2),
        not global_stats,
    )
    scale_grad = None
    if scale is not None and ctx.wants(1):
        scale_grad = scale_terms.sum(axis=(0, 2)).astype(scale.dtype, copy=False)
    return (
        from_ncl(xp, x_grad, x.shape, data_format) if ctx.wants(0) else None,
        scale_grad,
        from_ncl(xp, grad_out_grad, x.shape, data_format) if ctx.wants(2) else None,
    )


@register_kernel("instance_norm_double_grad", dtypes=REAL)
def instance_norm_double_grad_kernel(
    ctx: KernelContext,
    x: Array,
    fwd_scale: Array | None,
    saved_mean: Array,
    saved_variance: Array,
    grad_y: Array,
    grad_x_grad: Array | None,
    grad_scale_grad: Array | None,
    grad_bias_grad: Array | None,
    epsilon: float,
) -> tuple[Array, Array, Array]:
    xp = ctx.xp
    _check_like_x("grad_y", grad_y, x)
    _check_like_x("grad_x_grad", grad_x_grad, x)
    ncl = as_ncl(xp, x, "NCHW")
    n, channels = ncl.shape[:2]
    for name, vector in (
        ("fwd_scale", fwd_scale),
        ("grad_scale_grad", grad_scale_grad),
        ("grad_bias_grad", grad_bias_grad),
    ):
        _check_channels(name, vector, channels)
    for name, vector in (("saved_mean", saved_mean), ("saved_variance", saved_variance)):
        if vector.size != n * channels:
            raise InvalidArgumentError(
                f"argument '{name}' must hold one value per sample and channel ({n * channels}), "
                f"got dims {list(vector.shape)}"
            )
    center = saved_mean.astype(x.dtype, copy=False).reshape(n, channels, 1)
    inv_std = saved_variance.astype(x.dtype, copy=False).reshape(n, channels, 1)
    x_hat = (ncl - center) * inv_std
    ones = xp.ones((1, channels, 1), x.dtype)
    x_grad, scale_terms, grad_y_grad = _norm_double_grad(
        xp,
        x_hat,
        inv_std,
        ones if fwd_scale is None else _channel(fwd_scale, x.dtype),
        as_ncl(xp, grad_y, "NCHW"),
        None if grad_x_grad is None else as_ncl(xp, grad_x_grad, "NCHW"),
        _channel(grad_scale_grad, x.dtype),
        _channel(grad_bias_grad, x.dtype),
        (2,),
        True,
    )
    scale_grad = None
    if ctx.wants(1):
        # the gradient of the scale of ones an absent fwd_scale stands for, as PaddlePaddle's
        scale_dtype = x.dtype if fwd_scale is None else fwd_scale.dtype
        scale_grad = scale_terms.sum(axis=(0, 2)).astype(scale_dtype, copy=False)
    return (
        x_grad.reshape(x.shape) if ctx.wants(0) else None,
        scale_grad,
        grad_y_grad.reshape(x.shape) if ctx.wants(2) else None,
    )
