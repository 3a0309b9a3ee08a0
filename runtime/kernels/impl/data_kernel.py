"""PHI's ``data`` kernel (paddle/phi/kernels/data_kernel.h, DataKernel).

In a static program ``pd_op.data`` runs no kernel: the executor places the feed given by the
op's ``name`` in its slot (runtime/static/executor/steps/builtin.py). Called eagerly,
PaddlePaddle 3.3.1's kernel computes nothing and its tensor holds no memory (an op reading it
fails: "Tensor holds no memory"); a phiops tensor always holds an array, so the eager kernel
gives zeros of the shape and dtype, deterministic where uninitialised memory would not be.
"""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import ALL_TYPES, register_kernel


# PaddlePaddle 3.3.1 registers data on CPU for every dtype (float8_e4m3fn too, which phiops lacks).
@register_kernel("data", dtypes=ALL_TYPES)
def data_kernel(ctx: KernelContext, name: str, shape: tuple[int, ...], dtype: DataType) -> Array:
    return ctx.xp.zeros(shape, dtype=dtype.numpy_dtype)
