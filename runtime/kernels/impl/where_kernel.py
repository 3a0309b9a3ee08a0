"""where: pick from x where condition is true, from y elsewhere."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType

# PaddlePaddle's CPU registration (paddle/phi/kernels/cpu/where_kernel.cc).
WHERE_DTYPES = (D.BOOL, D.INT32, D.INT64, D.FLOAT32, D.FLOAT64, D.COMPLEX64, D.COMPLEX128)


def _condition_keeps_its_dtype(kernel: Kernel) -> None:
    """``condition`` is bool whatever the kernel dtype: it must not be cast to it."""
    kernel.input_at(0).set_dtype(DataType.ALL_DTYPE)


@register_kernel("where", dtypes=WHERE_DTYPES, configure=_condition_keeps_its_dtype)
def where_kernel(ctx: KernelContext, condition: Array, x: Array, y: Array) -> Array:
    """x where ``condition`` is true, else y; the three broadcast together."""
    return ctx.xp.where(condition, x, y)
