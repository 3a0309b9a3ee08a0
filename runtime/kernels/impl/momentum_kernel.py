"""momentum_ and merged_momentum_: PaddlePaddle's momentum step (paddle/phi/kernels/impl/
momentum_kernel_impl.h) for one parameter, or for a list of them in one call
(impl/merged_momentum_impl.h)::

    g = rescale_grad * grad  (+ regularization_coeff * param with "l2_decay")
    velocity_out = velocity * mu + g
    param_out = param - (g + velocity_out * mu) * learning_rate   (use_nesterov)
    param_out = param - learning_rate * velocity_out              (otherwise)

Both update in place: the kernel writes into the arrays it receives (the inputs' own storage
unless a dtype transform gave it copies) and returns them, so the dispatcher copies nothing back;
the temporaries are two scratch buffers (of the largest parameter's size for the merged op).
``rescale_grad`` is applied as PHI's GPU kernels apply it; PHI's CPU kernels (but for the merged
op's fast path) ignore it, which only matters for a value other than 1. With
``multi_precision`` and master copies the step is taken on the master copy and ``param_out`` is
its cast. ``momentum_``'s ``master_param_out`` is None without ``multi_precision``;
``merged_momentum_`` returns the master copies it was given (untouched without it).
"""

from __future__ import annotations

from types import ModuleType

from phiops.runtime.common import DataType
from phiops.runtime.kernels.impl.optimizer_functors import first_element, momentum_step_
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel

# PaddlePaddle's CPU registrations (paddle/phi/kernels/cpu/momentum_kernel.cc).
MOMENTUM_DTYPES = (DataType.FLOAT32, DataType.FLOAT64)


def _keep_learning_rate_dtype(kernel: Kernel) -> None:
    kernel.input_at(3).set_dtype(DataType.ALL_DTYPE)


def _step(
    xp: ModuleType,
    param: Array,
    master_param: Array | None,
    grad: Array,
    velocity: Array,
    learning_rate: Array,
    mu: float,
    use_nesterov: bool,
    regularization_method: str,
    regularization_coeff: float,
    rescale_grad: float,
    scratch: Array,
) -> None:
    source = param if master_param is None else master_param
    dtype = source.dtype
    momentum_step_(
        xp,
        source,
        grad.astype(dtype, copy=False),
        velocity,
        first_element(learning_rate, dtype),
        xp.asarray(mu, dtype=dtype),
        use_nesterov,
        (
            xp.asarray(regularization_coeff, dtype=dtype)
            if regularization_method == "l2_decay"
            else None
        ),
        None if rescale_grad == 1 else xp.asarray(rescale_grad, dtype=dtype),
        scratch[0, : source.size].reshape(source.shape),
        scratch[1, : source.size].reshape(source.shape),
    )
    if master_param is not None:
        xp.copyto(param, master_param, casting="unsafe")


@register_kernel("momentum", dtypes=MOMENTUM_DTYPES, configure=_keep_learning_rate_dtype)
def momentum_kernel(
    ctx: KernelContext,
    param: Array,
    grad: Array,
    velocity: Array,
    learning_rate: Array,
    master_param: Array | None,
    mu: float,
    use_nesterov: bool,
    regularization_method: str,
    regularization_coeff: float,
    multi_precision: bool,
    rescale_grad: float,
) -> tuple[Array, Array, Array]:
    xp = ctx.xp
    master = master_param if multi_precision else None
    source = param if master is None else master
    _step(
        xp,
        param,
        master,
        grad,
        velocity,
        learning_rate,
        mu,
        use_nesterov,
        regularization_method,
        regularization_coeff,
        rescale_grad,
        xp.empty((2, source.size), dtype=source.dtype),
    )
    return param, velocity, master


@register_kernel("merged_momentum", dtypes=MOMENTUM_DTYPES, configure=_keep_learning_rate_dtype)
def merged_momentum_kernel(
    ctx: KernelContext,
    param: list[Array],
    grad: list[Array],
    velocity: list[Array],
    learning_rate: list[Array],
    master_param: list[Array] | None,
    mu: float,
    use_nesterov: bool,
    regularization_method: list[str],
    regularization_coeff: list[float],
    multi_precision: bool,
    rescale_grad: float,
) -> tuple[list[Array], list[Array], list[Array]]:
    xp = ctx.xp
    masters = master_param if multi_precision and master_param else None
    sources = param if masters is None else masters
    scratch = xp.empty((2, max(source.size for source in sources)), dtype=sources[0].dtype)
    for index in range(len(param)):
        _step(
            xp,
            param[index],
            None if masters is None else masters[index],
            grad[index],
            velocity[index],
            learning_rate[0] if len(learning_rate) == 1 else learning_rate[index],
            mu,
            use_nesterov,
            regularization_method[index] if regularization_method else "",
            regularization_coeff[index] if regularization_coeff else 0.0,
            rescale_grad,
            scratch,
        )
    return param, velocity, master_param
