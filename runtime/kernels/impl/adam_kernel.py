"""adam_: one Adam step, PaddlePaddle's formula (paddle/phi/kernels/funcs/adam_functors.h)::

    moment1_out = beta1 * moment1 + (1 - beta1) * grad
    moment2_out = beta2 * moment2 + (1 - beta2) * grad * grad
    lr_t = learning_rate * sqrt(1 - beta2_pow) / (1 - beta1_pow)
    param_out = param - lr_t * moment1_out / (sqrt(moment2_out) + epsilon * sqrt(1 - beta2_pow))
    beta1_pow_out = beta1_pow * beta1, beta2_pow_out = beta2_pow * beta2

With ``amsgrad`` (PaddlePaddle 3.3.1) the step divides by the root of the running maximum of
the second moment instead, ``moment2_max_out = max(moment2_max, moment2_out)``; without it
``moment2_max`` is not read and ``moment2_max_out`` is None, and the step is the one above,
computed exactly as before amsgrad existed.

The kernel returns the new values; the dispatcher writes them into the inputs' storage (the op
is in place). As PHI's kernels:
- ``use_global_beta_pow`` leaves the beta powers as they are (another op advances them);
- a true ``skip_update`` returns every input unchanged;
- with ``multi_precision`` and a ``master_param`` the step is taken on the master copy and
  ``param_out`` is its cast; otherwise ``master_param_out`` is None;
- the update is computed in the parameter's dtype; each output keeps its input's dtype.
``lazy_mode`` and ``min_row_size_to_use_multithread`` only concern sparse gradients, which
this dense kernel never receives.
"""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel

# PaddlePaddle's CPU registration (paddle/phi/kernels/cpu/adam_kernel.cc).
ADAM_DTYPES = (DataType.FLOAT32, DataType.FLOAT64)

# learning_rate, moment1, moment2, moment2_max, beta1_pow, beta2_pow and skip_update keep their
# dtypes: the outputs must have their inputs' dtypes, and skip_update is a bool.
_UNCAST_INPUTS = (2, 3, 4, 5, 6, 7, 9)


def _keep_state_dtypes(kernel: Kernel) -> None:
    for index in _UNCAST_INPUTS:
        kernel.input_at(index).set_dtype(DataType.ALL_DTYPE)


def _first(array: Array, dtype: object) -> Array:
    """Element 0 of ``array`` as a 0-D array of ``dtype`` (no device-to-host copy)."""
    return array.reshape(-1)[:1].reshape(()).astype(dtype)


@register_kernel("adam", dtypes=ADAM_DTYPES, configure=_keep_state_dtypes)
def adam_kernel(
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
    lazy_mode: bool,
    min_row_size_to_use_multithread: int,
    multi_precision: bool,
    use_global_beta_pow: bool,
    amsgrad: bool,
) -> tuple[Array, Array, Array, Array, Array, Array, Array]:
    xp = ctx.xp
    use_master = multi_precision and master_param is not None
    if skip_update is not None and bool(skip_update.reshape(-1)[0]):
        return (
            param.copy(),
            moment1.copy(),
            moment2.copy(),
            moment2_max.copy() if amsgrad else None,
            beta1_pow.copy(),
            beta2_pow.copy(),
            master_param.copy() if use_master else None,
        )
    source = master_param if use_master else param
    dtype = source.dtype
    b1 = xp.asarray(beta1, dtype=dtype)
    b2 = xp.asarray(beta2, dtype=dtype)
    one = xp.ones((), dtype=dtype)
    b1_pow = _first(beta1_pow, dtype)
    b2_pow = _first(beta2_pow, dtype)
    g = grad.astype(dtype, copy=False)
    m1 = b1 * moment1.astype(dtype, copy=False) + (one - b1) * g
    m2 = b2 * moment2.astype(dtype, copy=False) + (one - b2) * g * g
    correction = xp.sqrt(one - b2_pow)
    step = _first(learning_rate, dtype) * (correction / (one - b1_pow))
    eps = xp.asarray(epsilon, dtype=dtype) * correction
    m2_max = None
    if amsgrad:
        m2_max = xp.maximum(moment2_max.astype(dtype, copy=False), m2)
        new = source - step * (m1 / (xp.sqrt(m2_max) + eps))
    else:
        new = source - step * (m1 / (xp.sqrt(m2) + eps))
    if use_global_beta_pow:
        beta1_pow_out, beta2_pow_out = beta1_pow.copy(), beta2_pow.copy()
    else:
        beta1_pow_out = (beta1_pow * b1).astype(beta1_pow.dtype, copy=False)
        beta2_pow_out = (beta2_pow * b2).astype(beta2_pow.dtype, copy=False)
    return (
        new.astype(param.dtype, copy=use_master),
        m1.astype(moment1.dtype, copy=False),
        m2.astype(moment2.dtype, copy=False),
        None if m2_max is None else m2_max.astype(moment2_max.dtype, copy=False),
        beta1_pow_out,
        beta2_pow_out,
        new if use_master else None,
    )
