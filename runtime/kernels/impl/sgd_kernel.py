"""sgd_: one step of stochastic gradient descent, ``param_out = param - learning_rate * grad``.

The kernel returns the new values; the dispatcher writes them into the inputs' storage (the op
is in place: ``param -> param_out``, ``master_param -> master_param_out``). As PHI's CPU kernel
(paddle/phi/kernels/cpu/sgd_kernel.cc), ``learning_rate`` is read as float64 and cast to the
parameter dtype. With ``multi_precision`` and a ``master_param``, the step is taken on the master
copy and ``param_out`` is its cast (PHI's GPU kernel); otherwise ``master_param_out`` is None.
"""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel

# PaddlePaddle 3.3.1's CPU registration
SGD_DTYPES = (DataType.BFLOAT16, DataType.FLOAT32, DataType.FLOAT64)


def _learning_rate_in_float64(kernel: Kernel) -> None:
    kernel.input_at(1).set_dtype(DataType.FLOAT64)
    # the float32 master weight keeps its dtype (a bfloat16 parameter's master stays float32)
    kernel.input_at(3).set_dtype(DataType.ALL_DTYPE)


@register_kernel("sgd", dtypes=SGD_DTYPES, configure=_learning_rate_in_float64)
def sgd_kernel(
    ctx: KernelContext,
    param: Array,
    learning_rate: Array,
    grad: Array,
    master_param: Array | None,
    multi_precision: bool,
) -> tuple[Array, Array]:
    if multi_precision and master_param is not None:
        master_out = _step(master_param, learning_rate, grad)
        return master_out.astype(param.dtype), master_out
    return _step(param, learning_rate, grad), None


def _step(param: Array, learning_rate: Array, grad: Array) -> Array:
    rate = learning_rate.reshape(-1)[:1].reshape(()).astype(param.dtype)
    return param - rate * grad.astype(param.dtype, copy=False)
