"""fused_adam_: one Adam or AdamW step for each tensor of a list of parameters (PaddlePaddle
3.3.1's multi-tensor Adam, paddle/phi/kernels/cpu/fused_adam_kernel.cc). As PHI's CPU kernel,
parameter ``i`` takes exactly the step of ``adam_`` (``adamw_`` with lr_ratio 1, coeff
weight_decay and with_decay when use_adamw) with the shared learning rate, its own moments and
beta powers, and the shared skip_update: this kernel calls theirs
(runtime/kernels/impl/adam_kernel.py, adamw_kernel.py), so the bits are theirs. chunk_size only
splits GPU launches in PaddlePaddle. Without multi_precision, master copies given come back
unchanged, as do moments2_max without amsgrad. weight_decay is taken as the float32 it is in PHI (float64 parameters decay by
float32(0.01), not 0.01, as 3.3.1's fused_adam_ and adamw_ do)."""

from __future__ import annotations

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.kernels.impl.adam_kernel import ADAM_DTYPES, adam_kernel
from phiops.runtime.kernels.impl.adamw_kernel import adamw_kernel
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel

# learning_rate, moments1, moments2, moments2_max, beta1_pows, beta2_pows and skip_update keep
# their dtypes, as adam_'s do
_UNCAST_INPUTS = (2, 3, 4, 5, 6, 7, 9)


def _keep_state_dtypes(kernel: Kernel) -> None:
    for index in _UNCAST_INPUTS:
        kernel.input_at(index).set_dtype(DataType.ALL_DTYPE)


def _unchanged(arrays: list[Array] | None) -> list[Array] | None:
    """An optional list the step does not use comes back as it was (an output for every input
    given, as the op is in place)."""
    return None if not arrays else [array.copy() for array in arrays]


@register_kernel("fused_adam", dtypes=ADAM_DTYPES, configure=_keep_state_dtypes)
def fused_adam_kernel(
    ctx: KernelContext,
    params: list[Array],
    grads: list[Array],
    learning_rate: Array,
    moments1: list[Array],
    moments2: list[Array],
    moments2_max: list[Array] | None,
    beta1_pows: list[Array],
    beta2_pows: list[Array],
    master_params: list[Array] | None,
    skip_update: Array | None,
    beta1: bool | int | float,
    beta2: bool | int | float,
    epsilon: bool | int | float,
    chunk_size: int,
    weight_decay: float,
    use_adamw: bool,
    multi_precision: bool,
    use_global_beta_pow: bool,
    amsgrad: bool,
) -> tuple[
    list[Array], list[Array], list[Array], list[Array], list[Array], list[Array], list[Array]
]:
    # weight_decay is a float attribute: PHI reads it as a float32 even for float64 parameters
    decay = float(np.float32(weight_decay))
    results = []
    for i, param in enumerate(params):
        master = master_params[i] if master_params else None
        state = (
            param,
            grads[i],
            learning_rate,
            moments1[i],
            moments2[i],
            moments2_max[i] if amsgrad else None,
            beta1_pows[i],
            beta2_pows[i],
            master,
            skip_update,
            beta1,
            beta2,
            epsilon,
        )
        common = (False, 1000, multi_precision, use_global_beta_pow, amsgrad)
        if use_adamw:
            step = adamw_kernel(ctx, *state, 1.0, decay, True, *common)
        else:
            step = adam_kernel(ctx, *state, *common)
        results.append(step)
    columns = [list(column) for column in zip(*results)]
    params_out, moments1_out, moments2_out, moments2_max_out = columns[:4]
    beta1_pows_out, beta2_pows_out, master_out = columns[4:]
    if master_params:
        master_out = [
            stepped if stepped is not None else given.copy()
            for stepped, given in zip(master_out, master_params)
        ]
    return (
        params_out,
        moments1_out,
        moments2_out,
        moments2_max_out if amsgrad else _unchanged(moments2_max),
        beta1_pows_out,
        beta2_pows_out,
        master_out if master_params else None,
    )
