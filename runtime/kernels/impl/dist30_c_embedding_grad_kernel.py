"""c_embedding_grad (issue 30, dist30): PHI's paddle/phi/kernels/cpu/c_embedding_grad_kernel.cc.
Each row of ``out_grad`` whose id falls inside this rank's shard is added to that row of the
shard's gradient (repeated ids add up); ids outside the shard contribute nothing."""

from __future__ import annotations

from phiops.runtime.backends import scatter_at
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.impl.dist30_c_embedding_kernel import (
    C_EMBEDDING_DTYPES,
    ids_of_any_dtype,
    local_rows,
)
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

__all__ = ["c_embedding_grad_kernel"]


@register_kernel("c_embedding_grad", dtypes=C_EMBEDDING_DTYPES, configure=ids_of_any_dtype)
def c_embedding_grad_kernel(
    ctx: KernelContext, weight: Array, x: Array, out_grad: Array, start_index: int
) -> Array:
    xp = ctx.xp
    rows, width = weight.shape
    if tuple(out_grad.shape) != tuple(x.shape) + (width,):
        raise InvalidArgumentError(
            f"c_embedding_grad(): argument 'out_grad' must have x's shape and the shard's width, "
            f"{list(x.shape) + [width]}, got {list(out_grad.shape)}"
        )
    grad = xp.zeros((rows, width), dtype=out_grad.dtype)
    local, inside = local_rows(xp, x, start_index, rows)
    scatter_at("add", grad, local[inside], out_grad.reshape(-1, width)[inside])
    return grad
