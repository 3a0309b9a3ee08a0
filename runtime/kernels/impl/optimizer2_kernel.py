"""PaddlePaddle 3.3.1's other in-place optimizer ops, one step each (issues 24 and 25), with the
formulas of PHI's CPU kernels (paddle/phi/kernels/impl/<op>_kernel_impl.h, cpu/<op>_kernel.cc,
funcs/lamb_functors.h). ``lr`` is ``learning_rate``'s one element; every ``float`` attribute is
first rounded to float32, as PHI stores it, then taken in the parameter's dtype::

    adagrad   moment_out = moment + g^2;  param_out = param - lr * g / (sqrt(moment_out) + epsilon)
    rmsprop   mean_square_out = decay * mean_square + (1 - decay) * g^2
              centered: mean_grad_out = decay * mean_grad + (1 - decay) * g,
                        moment_out = momentum * moment + lr * g / sqrt(mean_square_out - mean_grad_out^2 + epsilon)
              else:     moment_out = momentum * moment + lr * g / sqrt(mean_square_out + epsilon)
              param_out = param - moment_out
    adamax    moment_out = beta1 * moment + (1 - beta1) * g
              inf_norm_out = max(beta2 * inf_norm + epsilon, |g|)
              param_out = param - lr / (1 - beta1_pow) * moment_out / inf_norm_out
              (beta1_pow is advanced by the optimizer, not by the op)
    adadelta  avg_squared_grad_out = rho * avg_squared_grad + (1 - rho) * g^2
              update = -sqrt((avg_squared_update + epsilon) / (avg_squared_grad_out + epsilon)) * g
              avg_squared_update_out = rho * avg_squared_update + (1 - rho) * update^2
              param_out = param + lr * update
    lamb      moment1_out, moment2_out as Adam's; r = (moment1_out / (1 - beta1_pow))
              / (sqrt(moment2_out / (1 - beta2_pow)) + epsilon) + weight_decay * param
              ratio = ||param|| / ||r|| when both are positive (and weight_decay or always_adapt),
              else 1; param_out = param - lr * ratio * r; the beta powers times beta1, beta2
    nadam     momentum_decay_pow_out = 0.96 * momentum_decay_pow, beta2_pow_out = beta2 * beta2_pow
              mu_t = beta1 * (1 - 0.5 * momentum_decay_pow_out^momentum_decay)
              mu_t1 = beta1 * (1 - 0.5 * momentum_decay_pow_out^momentum_decay * 0.96^momentum_decay)
              mu_product_out = mu_product * mu_t;  moments as Adam's
              m_hat = mu_t1 * moment1_out / (1 - mu_product_out * mu_t1) + (1 - mu_t) * g / (1 - mu_product_out)
              param_out = param - lr * m_hat / (sqrt(moment2_out / (1 - beta2_pow_out)) + epsilon)
    radam     beta powers times beta1, beta2; rho_inf = 2 / (1 - beta2) - 1
              rho_out = (rho * (beta2 - beta2_pow_out) + beta2_pow_out) / (1 - beta2_pow_out)
              rho_t = rho_inf - 2 * rho_out[0];  m_hat = moment1_out / (1 - beta1_pow_out)
              rho_t > 5: param_out = param - lr * m_hat * r_t * sqrt(1 - beta2_pow_out) / (sqrt(moment2_out) + epsilon),
                         r_t = sqrt((rho_t - 4)(rho_t - 2) rho_inf / ((rho_inf - 4)(rho_inf - 2) rho_t))
              else:      param_out = param - lr * m_hat
    rprop     per element, with the product grad * prev: > 0 eta = etas[1]; < 0 eta = etas[0] and
              the gradient taken as 0; == 0 eta = 1
              learning_rate_out = clip(learning_rate * eta, *learning_rate_range)
              param_out = param - sign(g) * learning_rate_out;  prev_out = g
    asgd      d_out = d - y + g;  y_out = g;  param_out = param - lr / n * d_out

The kernels return new arrays; the dispatcher writes them into the inputs' storage (the ops are
in place). With ``multi_precision`` and a ``master_param`` the step is taken on the master copy
and ``param_out`` is its cast; otherwise the master output is None. ``lamb_``'s true
``skip_update`` returns every input unchanged.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.kernels.impl.optimizer_functors import first_element
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel

# PaddlePaddle 3.3.1's CPU registrations (runtime/kernels/paddle_3_3_1_cpu.json).
OPTIMIZER2_DTYPES = (DataType.FLOAT32, DataType.FLOAT64)
RPROP_DTYPES = (DataType.BFLOAT16, DataType.FLOAT32, DataType.FLOAT64)


def _keep_dtypes(*indices: int) -> Any:
    """A registration body leaving the inputs at ``indices`` in their own dtypes (the
    learning rate, the beta powers, a bool flag)."""

    def configure(kernel: Kernel) -> None:
        for index in indices:
            kernel.input_at(index).set_dtype(DataType.ALL_DTYPE)

    return configure


def _attribute(xp: ModuleType, value: float, dtype: Any) -> Array:
    """A ``float`` attribute as PHI reads it: float32, then cast to the kernel's type."""
    return xp.asarray(np.float32(value), dtype=dtype)


def _source(param: Array, master_param: Array | None, multi_precision: bool) -> Array:
    """The tensor the step is taken on: the master copy with multi_precision, else param."""
    return master_param if multi_precision and master_param is not None else param


def _results(
    param: Array, new: Array, master_param: Array | None, multi_precision: bool
) -> tuple[Array, Array | None]:
    """(param_out, master_param_out) from the stepped values ``new``."""
    if multi_precision and master_param is not None:
        return new.astype(param.dtype), new
    return new.astype(param.dtype, copy=False), None


def _as(array: Array, like: Array) -> Array:
    return array.astype(like.dtype, copy=False)


@register_kernel("adagrad", dtypes=OPTIMIZER2_DTYPES, configure=_keep_dtypes(2, 3))
def adagrad_kernel(
    ctx: KernelContext,
    param: Array,
    grad: Array,
    moment: Array,
    learning_rate: Array,
    master_param: Array | None,
    epsilon: float,
    multi_precision: bool,
) -> tuple[Array, Array, Array]:
    xp = ctx.xp
    source = _source(param, master_param, multi_precision)
    dtype = source.dtype
    g = grad.astype(dtype, copy=False)
    moment_out = moment.astype(dtype, copy=False) + g * g
    rate = first_element(learning_rate, dtype)
    new = source - rate * g / (xp.sqrt(moment_out) + _attribute(xp, epsilon, dtype))
    param_out, master_out = _results(param, new, master_param, multi_precision)
    return param_out, _as(moment_out, moment), master_out


@register_kernel("rmsprop", dtypes=OPTIMIZER2_DTYPES, configure=_keep_dtypes(1, 3, 4, 5))
def rmsprop_kernel(
    ctx: KernelContext,
    param: Array,
    mean_square: Array,
    grad: Array,
    moment: Array,
    learning_rate: Array,
    mean_grad: Array | None,
    master_param: Array | None,
    epsilon: float,
    decay: float,
    momentum: float,
    centered: bool,
    multi_precision: bool,
) -> tuple[Array, Array, Array, Array, Array]:
    xp = ctx.xp
    source = _source(param, master_param, multi_precision)
    dtype = source.dtype
    g = grad.astype(dtype, copy=False)
    rho, eps = _attribute(xp, decay, dtype), _attribute(xp, epsilon, dtype)
    one = xp.ones((), dtype=dtype)
    rate = first_element(learning_rate, dtype)
    mean_square_out = rho * mean_square.astype(dtype, copy=False) + (one - rho) * g * g
    if centered:
        mean_grad_out = rho * mean_grad.astype(dtype, copy=False) + (one - rho) * g
        denominator = xp.sqrt(mean_square_out - mean_grad_out * mean_grad_out + eps)
    else:
        mean_grad_out = None if mean_grad is None else mean_grad.copy()
        denominator = xp.sqrt(mean_square_out + eps)
    moment_out = (
        _attribute(xp, momentum, dtype) * moment.astype(dtype, copy=False) + rate * g / denominator
    )
    param_out, master_out = _results(param, source - moment_out, master_param, multi_precision)
    return (
        param_out,
        _as(moment_out, moment),
        _as(mean_square_out, mean_square),
        None if mean_grad_out is None else _as(mean_grad_out, mean_grad),
        master_out,
    )


@register_kernel("adamax", dtypes=OPTIMIZER2_DTYPES, configure=_keep_dtypes(2, 5))
def adamax_kernel(
    ctx: KernelContext,
    param: Array,
    grad: Array,
    learning_rate: Array,
    moment: Array,
    inf_norm: Array,
    beta1_pow: Array,
    master_param: Array | None,
    beta1: float,
    beta2: float,
    epsilon: float,
    multi_precision: bool,
) -> tuple[Array, Array, Array, Array]:
    xp = ctx.xp
    source = _source(param, master_param, multi_precision)
    dtype = source.dtype
    g = grad.astype(dtype, copy=False)
    b1, b2 = _attribute(xp, beta1, dtype), _attribute(xp, beta2, dtype)
    one = xp.ones((), dtype=dtype)
    moment_out = b1 * moment.astype(dtype, copy=False) + (one - b1) * g
    inf_norm_out = xp.maximum(
        b2 * inf_norm.astype(dtype, copy=False) + _attribute(xp, epsilon, dtype), xp.abs(g)
    )
    rate = first_element(learning_rate, dtype) / (one - first_element(beta1_pow, dtype))
    new = source - rate * (moment_out / inf_norm_out)
    param_out, master_out = _results(param, new, master_param, multi_precision)
    return param_out, _as(moment_out, moment), _as(inf_norm_out, inf_norm), master_out


@register_kernel("adadelta", dtypes=OPTIMIZER2_DTYPES, configure=_keep_dtypes(4))
def adadelta_kernel(
    ctx: KernelContext,
    param: Array,
    grad: Array,
    avg_squared_grad: Array,
    avg_squared_update: Array,
    learning_rate: Array,
    master_param: Array | None,
    rho: float,
    epsilon: float,
    multi_precision: bool,
) -> tuple[Array, Array, Array, Array]:
    xp = ctx.xp
    source = _source(param, master_param, multi_precision)
    dtype = source.dtype
    g = grad.astype(dtype, copy=False)
    r, eps = _attribute(xp, rho, dtype), _attribute(xp, epsilon, dtype)
    one = xp.ones((), dtype=dtype)
    squared_update = avg_squared_update.astype(dtype, copy=False)
    grad_out = r * avg_squared_grad.astype(dtype, copy=False) + (one - r) * g * g
    update = -xp.sqrt((squared_update + eps) / (grad_out + eps)) * g
    update_out = r * squared_update + (one - r) * update * update
    new = source + first_element(learning_rate, dtype) * update
    param_out, master_out = _results(param, new, master_param, multi_precision)
    return (
        param_out,
        _as(grad_out, avg_squared_grad),
        _as(update_out, avg_squared_update),
        master_out,
    )


@register_kernel("lamb", dtypes=OPTIMIZER2_DTYPES, configure=_keep_dtypes(2, 5, 6, 8))
def lamb_kernel(
    ctx: KernelContext,
    param: Array,
    grad: Array,
    learning_rate: Array,
    moment1: Array,
    moment2: Array,
    beta1_pow: Array,
    beta2_pow: Array,
    master_param: Array | None,
    skip_update: Array | None,
    weight_decay: float,
    beta1: float,
    beta2: float,
    epsilon: float,
    always_adapt: bool,
    multi_precision: bool,
) -> tuple[Array, Array, Array, Array, Array, Array]:
    xp = ctx.xp
    use_master = multi_precision and master_param is not None
    if skip_update is not None and bool(skip_update.reshape(-1)[0]):
        return (
            param.copy(),
            moment1.copy(),
            moment2.copy(),
            beta1_pow.copy(),
            beta2_pow.copy(),
            master_param.copy() if use_master else None,
        )
    source = _source(param, master_param, multi_precision)
    dtype = source.dtype
    g = grad.astype(dtype, copy=False)
    b1, b2 = _attribute(xp, beta1, dtype), _attribute(xp, beta2, dtype)
    decay = _attribute(xp, weight_decay, dtype)
    one = xp.ones((), dtype=dtype)
    moment1_out = b1 * moment1.astype(dtype, copy=False) + (one - b1) * g
    moment2_out = b2 * moment2.astype(dtype, copy=False) + (one - b2) * g * g
    unbiased1 = moment1_out / (one - first_element(beta1_pow, dtype))
    unbiased2 = moment2_out / (one - first_element(beta2_pow, dtype))
    trust_ratio_div = unbiased1 / (xp.sqrt(unbiased2) + _attribute(xp, epsilon, dtype))
    trust_ratio_div = trust_ratio_div + decay * source
    ratio = one
    if weight_decay != 0 or always_adapt:
        param_norm = xp.sqrt(xp.sum(source * source))
        update_norm = xp.sqrt(xp.sum(trust_ratio_div * trust_ratio_div))
        usable = (param_norm > 0) & (update_norm > 0)
        ratio = xp.where(usable, param_norm / xp.where(usable, update_norm, one), one)
    new = source - first_element(learning_rate, dtype) * ratio * trust_ratio_div
    param_out, master_out = _results(param, new, master_param, multi_precision)
    return (
        param_out,
        _as(moment1_out, moment1),
        _as(moment2_out, moment2),
        _as(beta1_pow * b1.astype(beta1_pow.dtype), beta1_pow),
        _as(beta2_pow * b2.astype(beta2_pow.dtype), beta2_pow),
        master_out,
    )


@register_kernel("nadam", dtypes=OPTIMIZER2_DTYPES, configure=_keep_dtypes(2))
def nadam_kernel(
    ctx: KernelContext,
    param: Array,
    grad: Array,
    learning_rate: Array,
    momentum_decay_pow: Array,
    beta2_pow: Array,
    mu_product: Array,
    moment1: Array,
    moment2: Array,
    master_param: Array | None,
    beta1: float,
    beta2: float,
    epsilon: float,
    momentum_decay: float,
    multi_precision: bool,
) -> tuple[Array, Array, Array, Array, Array, Array, Array]:
    xp = ctx.xp
    source = _source(param, master_param, multi_precision)
    dtype = source.dtype
    g = grad.astype(dtype, copy=False)
    b1, b2 = _attribute(xp, beta1, dtype), _attribute(xp, beta2, dtype)
    decay = _attribute(xp, momentum_decay, dtype)
    one, half, base = (xp.asarray(v, dtype=dtype) for v in (1.0, 0.5, 0.96))
    decay_pow_out = momentum_decay_pow.astype(dtype, copy=False) * base
    beta2_pow_out = beta2_pow.astype(dtype, copy=False) * b2
    decayed = xp.power(decay_pow_out, decay)
    mu_t = b1 * (one - half * decayed)
    mu_t1 = b1 * (one - half * decayed * xp.power(base, decay))
    mu_product_out = mu_product.astype(dtype, copy=False) * mu_t
    moment1_out = b1 * moment1.astype(dtype, copy=False) + (one - b1) * g
    moment2_out = b2 * moment2.astype(dtype, copy=False) + (one - b2) * g * g
    moment1_hat = mu_t1 * moment1_out / (one - mu_product_out * mu_t1) + (one - mu_t) * g / (
        one - mu_product_out
    )
    moment2_hat = moment2_out / (one - beta2_pow_out)
    new = source - first_element(learning_rate, dtype) * moment1_hat / (
        xp.sqrt(moment2_hat) + _attribute(xp, epsilon, dtype)
    )
    param_out, master_out = _results(param, new, master_param, multi_precision)
    return (
        param_out,
        _as(decay_pow_out, momentum_decay_pow),
        _as(beta2_pow_out, beta2_pow),
        _as(mu_product_out, mu_product),
        _as(moment1_out, moment1),
        _as(moment2_out, moment2),
        master_out,
    )


@register_kernel("radam", dtypes=OPTIMIZER2_DTYPES, configure=_keep_dtypes(2))
def radam_kernel(
    ctx: KernelContext,
    param: Array,
    grad: Array,
    learning_rate: Array,
    beta1_pow: Array,
    beta2_pow: Array,
    rho: Array,
    moment1: Array,
    moment2: Array,
    master_param: Array | None,
    beta1: float,
    beta2: float,
    epsilon: float,
    multi_precision: bool,
) -> tuple[Array, Array, Array, Array, Array, Array, Array]:
    xp = ctx.xp
    source = _source(param, master_param, multi_precision)
    if source.size == 0:  # the powers and rho are per element: there are none to read
        state = (beta1_pow, beta2_pow, rho, moment1, moment2)
        return (param.copy(), *(t.copy() for t in state), None)
    dtype = source.dtype
    g = grad.astype(dtype, copy=False)
    b1, b2 = _attribute(xp, beta1, dtype), _attribute(xp, beta2, dtype)
    one, two = xp.ones((), dtype=dtype), xp.asarray(2, dtype=dtype)
    rho_inf = two / (one - b2) - one
    beta1_pow_out = beta1_pow.astype(dtype, copy=False) * b1
    beta2_pow_out = beta2_pow.astype(dtype, copy=False) * b2
    rho_out = (rho.astype(dtype, copy=False) * (b2 - beta2_pow_out) + beta2_pow_out) / (
        one - beta2_pow_out
    )
    moment1_out = b1 * moment1.astype(dtype, copy=False) + (one - b1) * g
    moment2_out = b2 * moment2.astype(dtype, copy=False) + (one - b2) * g * g
    moment1_hat = moment1_out / (one - first_element(beta1_pow_out, dtype))
    rate = first_element(learning_rate, dtype)
    rho_t = rho_inf - two * first_element(rho_out, dtype)
    # PHI branches on the host on rho_t > 5; both branches here, chosen by where (no copy back)
    four = xp.asarray(4, dtype=dtype)
    rectified = xp.sqrt(
        xp.abs(
            ((rho_t - four) * (rho_t - two) * rho_inf)
            / ((rho_inf - four) * (rho_inf - two) * rho_t)
        )
    )
    adaptive = xp.sqrt(one - first_element(beta2_pow_out, dtype)) / (
        xp.sqrt(moment2_out) + _attribute(xp, epsilon, dtype)
    )
    with np.errstate(invalid="ignore", divide="ignore"):
        step = xp.where(rho_t > 5, rate * moment1_hat * rectified * adaptive, rate * moment1_hat)
    param_out, master_out = _results(param, source - step, master_param, multi_precision)
    return (
        param_out,
        _as(beta1_pow_out, beta1_pow),
        _as(beta2_pow_out, beta2_pow),
        _as(rho_out, rho),
        _as(moment1_out, moment1),
        _as(moment2_out, moment2),
        master_out,
    )


@register_kernel("rprop", dtypes=RPROP_DTYPES)
def rprop_kernel(
    ctx: KernelContext,
    param: Array,
    grad: Array,
    prev: Array,
    learning_rate: Array,
    master_param: Array | None,
    learning_rate_range: Array,
    etas: Array,
    multi_precision: bool,
) -> tuple[Array, Array, Array, Array]:
    xp = ctx.xp
    source = _source(param, master_param, multi_precision)
    dtype = source.dtype
    zero, one = xp.zeros((), dtype=dtype), xp.ones((), dtype=dtype)
    g = grad.astype(dtype, copy=False)
    product = g * prev.astype(dtype, copy=False)
    bounds = learning_rate_range.reshape(-1).astype(dtype, copy=False)
    factors = etas.reshape(-1).astype(dtype, copy=False)
    eta = xp.where(product > zero, factors[1], xp.where(product < zero, factors[0], one))
    g = xp.where(product < zero, zero, g)
    rates = learning_rate.astype(dtype, copy=False) * eta
    rates = xp.where(rates > bounds[1], bounds[1], xp.where(rates < bounds[0], bounds[0], rates))
    new = source - xp.sign(g) * rates
    param_out, master_out = _results(param, new, master_param, multi_precision)
    return param_out, _as(g, prev), _as(rates, learning_rate), master_out


@register_kernel("asgd", dtypes=OPTIMIZER2_DTYPES)
def asgd_kernel(
    ctx: KernelContext,
    param: Array,
    grad: Array,
    learning_rate: Array,
    d: Array,
    y: Array,
    n: Array,
    master_param: Array | None,
    multi_precision: bool,
) -> tuple[Array, Array, Array, Array]:
    source = _source(param, master_param, multi_precision)
    dtype = source.dtype
    g = grad.astype(dtype, copy=False)
    d_out = d.astype(dtype, copy=False) - y.astype(dtype, copy=False) + g
    rate = first_element(learning_rate, dtype) / first_element(n, dtype)
    new = source - rate * d_out
    param_out, master_out = _results(param, new, master_param, multi_precision)
    return param_out, _as(d_out, d), _as(g, y), master_out
