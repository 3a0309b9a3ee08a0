"""adamw_: one AdamW step (paddle/phi/kernels/cpu/adamw_kernel.cc): with ``with_decay`` the
parameter first decays, ``param -= learning_rate * lr_ratio * coeff * param``, then takes
``adam_``'s step (runtime/kernels/impl/adam_kernel.py); without it, or with a true
``skip_update``, the op is ``adam_``.

The update is made in place, with the operations of the fused ``merged_adam_`` path
(runtime/kernels/impl/optimizer_functors.py), so that the per-parameter AdamW and the
multi-tensor one give the same bits; the only temporary is one scratch buffer. With
``multi_precision`` and a ``master_param`` the step is taken on the master copy and
``param_out`` is its cast; otherwise ``master_param_out`` is None.
"""

from __future__ import annotations

from types import ModuleType

from phiops.runtime.common import DataType
from phiops.runtime.kernels.impl.adam_kernel import ADAM_DTYPES, adam_kernel
from phiops.runtime.kernels.impl.optimizer_functors import (
    AdamScalars,
    adam_step_,
    decay_factor,
    decay_step_,
)
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel

# learning_rate, beta1_pow, beta2_pow and skip_update keep their dtypes (the beta powers are
# updated in place in their own); the moments arrive in the parameter's dtype, as a copy when
# theirs differs, which the dispatcher writes back into them.
_UNCAST_INPUTS = (2, 6, 7, 9)


def _keep_state_dtypes(kernel: Kernel) -> None:
    for index in _UNCAST_INPUTS:
        kernel.input_at(index).set_dtype(DataType.ALL_DTYPE)


@register_kernel("adamw", dtypes=ADAM_DTYPES, configure=_keep_state_dtypes)
def adamw_kernel(
    ctx: KernelContext,
    param: Array,
    grad: Array,
    learning_rate: Array,
    moment1: Array,
    moment2: Array,
    moment2_max: Array | None,
    beta1_pow: Array,
    beta2_pow: Array,
    master_param: Array | None,
    skip_update: Array | None,
    beta1: bool | int | float,
    beta2: bool | int | float,
    epsilon: bool | int | float,
    lr_ratio: float,
    coeff: float,
    with_decay: bool,
    lazy_mode: bool,
    min_row_size_to_use_multithread: int,
    multi_precision: bool,
    use_global_beta_pow: bool,
    amsgrad: bool,
) -> tuple[Array, Array, Array, Array, Array, Array, Array]:
    skip = skip_update is not None and bool(skip_update.reshape(-1)[0])
    if skip or not with_decay:
        return adam_kernel(
            ctx,
            param,
            grad,
            learning_rate,
            moment1,
            moment2,
            moment2_max,
            beta1_pow,
            beta2_pow,
            master_param,
            skip_update,
            beta1,
            beta2,
            epsilon,
            lazy_mode,
            min_row_size_to_use_multithread,
            multi_precision,
            use_global_beta_pow,
            amsgrad,
        )
    xp = ctx.xp
    use_master = multi_precision and master_param is not None
    source = master_param if use_master else param
    dtype = source.dtype
    scratch = xp.empty_like(source)
    decay_step_(xp, source, decay_factor(xp, learning_rate, lr_ratio, coeff, dtype), scratch)
    scalars = AdamScalars(xp, dtype, learning_rate, beta1_pow, beta2_pow, beta1, beta2, epsilon)
    moment2_max_out = None
    if amsgrad:
        moment2_max_out = _amsgrad_step_(
            xp, source, grad.astype(dtype, copy=False), moment1, moment2, moment2_max, scalars
        )
    else:
        adam_step_(
            xp,
            source,
            grad.astype(dtype, copy=False),
            moment1,
            moment2,
            scalars,
            scratch,
        )
    if use_master:
        xp.copyto(param, source, casting="unsafe")
    if not use_global_beta_pow:
        xp.multiply(beta1_pow, scalars.beta1, out=beta1_pow, casting="unsafe")
        xp.multiply(beta2_pow, scalars.beta2, out=beta2_pow, casting="unsafe")
    return (
        param,
        moment1,
        moment2,
        moment2_max_out,
        beta1_pow,
        beta2_pow,
        master_param if use_master else None,
    )


def _amsgrad_step_(
    xp: ModuleType,
    param: Array,
    grad: Array,
    moment1: Array,
    moment2: Array,
    moment2_max: Array,
    scalars: AdamScalars,
) -> Array:
    """Adam's step with AMSGrad on ``param`` and the moments, in place: the root of
    ``max(moment2_max, moment2_out)`` in the denominator; returns the new maximum, in
    ``moment2_max``'s dtype."""
    xp.multiply(moment1, scalars.beta1, out=moment1)
    moment1 += scalars.grad_weight1 * grad
    xp.multiply(moment2, scalars.beta2, out=moment2)
    moment2 += scalars.grad_weight2 * grad * grad
    maximum = xp.maximum(moment2_max.astype(param.dtype, copy=False), moment2)
    param -= scalars.step * (moment1 / (xp.sqrt(maximum) + scalars.epsilon))
    return maximum.astype(moment2_max.dtype, copy=False)
