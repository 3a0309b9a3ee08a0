"""c_embedding, model parallelism's embedding (issue 30, dist30): PHI's
paddle/phi/kernels/cpu/c_embedding_kernel.cc.

Each rank holds a shard of the vocabulary, the rows ``[start_index, start_index + rows)`` of the
full table, as ``weight``; an id inside the shard picks its row, an id outside it gives a row of
zeros (the ranks' outputs are then summed with c_allreduce_sum). ``vocab_size`` is not read on
CPU, as in PHI's CPU kernel.
"""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import COMPLEX, FLOATING, register_kernel

__all__ = ["c_embedding_kernel", "local_rows"]

# PaddlePaddle 3.3.1's CPU registrations of c_embedding and c_embedding_grad.
C_EMBEDDING_DTYPES = FLOATING + COMPLEX


def ids_of_any_dtype(kernel: Kernel) -> None:
    kernel.input_at(1).set_dtype(DataType.ALL_DTYPE)


def local_rows(xp, x: Array, start_index: int, rows: int) -> tuple[Array, Array]:
    """The ids as rows of the shard (flat int64) and where they fall inside it."""
    local = x.reshape(-1).astype(xp.int64) - start_index
    inside = (local >= 0) & (local < rows)
    return xp.where(inside, local, 0), inside


@register_kernel("c_embedding", dtypes=C_EMBEDDING_DTYPES, configure=ids_of_any_dtype)
def c_embedding_kernel(
    ctx: KernelContext, weight: Array, x: Array, start_index: int, vocab_size: int
) -> Array:
    xp = ctx.xp
    rows, width = weight.shape
    local, inside = local_rows(xp, x, start_index, rows)
    out = xp.take(weight, local, axis=0) if rows else xp.zeros((local.size, width), weight.dtype)
    out[~inside] = 0
    return out.reshape(tuple(x.shape) + (width,))
