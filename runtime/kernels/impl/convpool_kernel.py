"""max_pool3d_with_index: max pooling of an NCDHW x that also returns where each maximum is.

As PHI's MaxPool3dWithIndexFunctor (paddle/phi/kernels/funcs/pooling.cc): windows are clipped
to the input (padding never wins), ``mask`` holds the int32 flat index d * H * W + h * W + w of
the first maximum in row-major window order, and adaptive pooling takes the windows
[floor(i*in/out), ceil((i+1)*in/out)). The 2-D op's helpers do the work for any rank.
"""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.kernels.impl.max_pool_with_index_kernel import (
    MAX_POOL_WITH_INDEX_DTYPES,
    max_positions,
)
from phiops.runtime.kernels.impl.pool_kernel import PoolGeometry, pool
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel


# PaddlePaddle 3.3.1 registers max_pool3d_with_index on CPU for float32 and float64
# (paddle/phi/kernels/cpu/pool_kernel.cc), as the 2-D op.
@register_kernel(
    "max_pool3d_with_index",
    dtypes=MAX_POOL_WITH_INDEX_DTYPES,
    configure=lambda k: k.output_at(1).set_dtype(DataType.INT32),
)
def max_pool3d_with_index_kernel(
    ctx: KernelContext,
    x: Array,
    kernel_size: tuple[int, ...],
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    global_pooling: bool,
    adaptive: bool,
    ceil_mode: bool,
) -> tuple[Array, Array]:
    xp = ctx.xp
    geometry = PoolGeometry(
        x.shape,
        kernel_size,
        strides,
        paddings,
        ceil_mode,
        "NCDHW",
        global_pooling,
        adaptive,
        "EXPLICIT",
    )
    if x.size == 0:  # an empty batch or channel axis: nothing to pool
        shape = tuple(x.shape[:2]) + tuple(geometry.out)
        return xp.zeros(shape, dtype=x.dtype), xp.zeros(shape, dtype="int32")
    geometry.check_scratch(x, True)
    out = pool(xp, x, geometry, "max", True)
    return out, max_positions(xp, x, out, geometry).astype("int32")
