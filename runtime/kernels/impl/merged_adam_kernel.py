"""merged_adam_: one Adam step for a list of parameters in one call (PaddlePaddle's
``merged_adam_``, paddle/phi/kernels/cpu/adam_kernel.cc ``MergedAdamKernel``).

Parameter ``i`` takes the step of ``adam_`` (runtime/kernels/impl/adam_kernel.py) with
``learning_rate[i]`` (or ``learning_rate[0]`` when the list holds one tensor), its own moments
and beta powers. Unlike ``adam_``, the update is made in place: the kernel writes into the
arrays it receives (the inputs' own storage unless a dtype transform gave it copies) and returns
them, so the dispatcher copies nothing back. With the native kernels
(runtime/kernels/native.py) and arrays of one float dtype, the whole step (scalars, update and
beta powers, parameter after parameter) is one C call, runtime.kernels._native.adam_steps, doing
the numpy path's operations in the same order and dtype (the same bits); otherwise the only
temporary is one scratch buffer of the largest parameter's size, shared by all of them. With
``multi_precision`` and master copies the step is taken on the master copies and each
``param_out`` is its cast; the master copies given are returned as ``master_param_out``
(untouched without ``multi_precision``).
"""

from __future__ import annotations

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.kernels.impl.adam_kernel import ADAM_DTYPES
from phiops.runtime.kernels.impl.optimizer_functors import AdamScalars, adam_step_
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.native import native_kernels
from phiops.runtime.kernels.registration import register_kernel

# learning_rate, beta1_pow and beta2_pow keep their dtypes (the beta powers are updated in
# place in their own dtype, as adam_'s outputs keep their inputs' dtypes).
_UNCAST_INPUTS = (2, 5, 6)


def _keep_state_dtypes(kernel: Kernel) -> None:
    for index in _UNCAST_INPUTS:
        kernel.input_at(index).set_dtype(DataType.ALL_DTYPE)


def _native_takes(
    param: list[Array],
    grad: list[Array],
    moment1: list[Array],
    moment2: list[Array],
    beta1_pow: list[Array],
    beta2_pow: list[Array],
    learning_rate: list[Array],
) -> bool:
    """Whether runtime.kernels._native.adam_steps takes these lists whole: C-contiguous numpy
    arrays all of param[0]'s dtype, the learning rates and beta powers of one element, one
    learning rate or one per parameter."""
    if len(learning_rate) not in (1, len(param)):
        return False
    dtype = param[0].dtype
    for arrays in (param, grad, moment1, moment2):
        for array in arrays:
            if (
                type(array) is not np.ndarray
                or array.dtype != dtype
                or not array.flags.c_contiguous
            ):
                return False
    for arrays in (beta1_pow, beta2_pow, learning_rate):
        for array in arrays:
            if type(array) is not np.ndarray or array.dtype != dtype or array.size != 1:
                return False
    return True


@register_kernel("merged_adam", dtypes=ADAM_DTYPES, configure=_keep_state_dtypes)
def merged_adam_kernel(
    ctx: KernelContext,
    param: list[Array],
    grad: list[Array],
    learning_rate: list[Array],
    moment1: list[Array],
    moment2: list[Array],
    beta1_pow: list[Array],
    beta2_pow: list[Array],
    master_param: list[Array] | None,
    beta1: bool | int | float,
    beta2: bool | int | float,
    epsilon: bool | int | float,
    multi_precision: bool,
    use_global_beta_pow: bool,
) -> tuple[list[Array], list[Array], list[Array], list[Array], list[Array], list[Array]]:
    xp = ctx.xp
    use_master = multi_precision and bool(master_param)
    sources = master_param if use_master else param
    native = None if use_master else native_kernels(param[0])
    if native is not None and _native_takes(
        param, grad, moment1, moment2, beta1_pow, beta2_pow, learning_rate
    ):
        native.adam_steps(
            param,
            grad,
            moment1,
            moment2,
            beta1_pow,
            beta2_pow,
            learning_rate,
            beta1,
            beta2,
            epsilon,
            not use_global_beta_pow,
        )
        return param, moment1, moment2, beta1_pow, beta2_pow, master_param
    scratch = xp.empty(max(source.size for source in sources), dtype=sources[0].dtype)
    shared_rate = learning_rate[0] if len(learning_rate) == 1 else None
    scalars, reused = None, None
    for index, source in enumerate(sources):
        rate = learning_rate[index] if shared_rate is None else shared_rate
        # The parameters of one optimizer share their learning rate and, step after step,
        # their beta powers: on CPU, where reading them is free, their scalars are computed
        # once.
        inputs = (
            (rate, source.dtype, beta1_pow[index].flat[0], beta2_pow[index].flat[0])
            if xp is np
            else None
        )
        if scalars is None or inputs is None or inputs != reused:
            scalars = AdamScalars(
                xp, source.dtype, rate, beta1_pow[index], beta2_pow[index], beta1, beta2, epsilon
            )
            reused = inputs
        adam_step_(
            xp,
            source,
            grad[index].astype(source.dtype, copy=False),
            moment1[index],
            moment2[index],
            scalars,
            scratch[: source.size].reshape(source.shape),
        )
        if use_master:
            xp.copyto(param[index], source, casting="unsafe")
        if not use_global_beta_pow:
            xp.multiply(beta1_pow[index], scalars.beta1, out=beta1_pow[index], casting="unsafe")
            xp.multiply(beta2_pow[index], scalars.beta2, out=beta2_pow[index], casting="unsafe")
    return (
        param,
        moment1,
        moment2,
        beta1_pow,
        beta2_pow,
        master_param,
    )
