"""The point-to-point ops p_send and p_recv (issue 30, dist30): PHI's
paddle/phi/kernels/gpu/p_send_kernel.cu and p_recv_kernel.cu on runtime/comm's contexts.

Each finds its ring's CommContext for the backend it runs on (MPI for CPU arrays, NCCL for GPU
ones) and calls ``send_with_shape`` / ``recv_with_shape``: the receiver learns the dtype and shape
from the sender, as PHI's kernels do with ``dynamic_shape`` (its CPU kernels raise
"Do not support recv for cpu kernel now"; phiops' run on MPI). p_send returns once the send is
finished and has no output; p_recv returns a new array of the sender's shape.
"""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.comm import get_comm_context
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

__all__ = ["p_send_kernel", "p_recv_kernel"]

_D = DataType
# PaddlePaddle 3.3.1's CPU registrations of p_send and p_recv.
P2P_DTYPES = (
    _D.BOOL, _D.UINT8, _D.INT8, _D.INT16, _D.INT32, _D.INT64, _D.FLOAT16, _D.FLOAT32, _D.FLOAT64,
)


@register_kernel("p_send", dtypes=P2P_DTYPES)
def p_send_kernel(
    ctx: KernelContext, x: Array, ring_id: int, peer: int, dynamic_shape: bool
) -> tuple[()]:
    ring = get_comm_context(ring_id, ctx.backend, "p_send()")
    ring.send_with_shape(x, peer).wait()
    return ()


@register_kernel("p_recv", dtypes=P2P_DTYPES)
def p_recv_kernel(
    ctx: KernelContext, ring_id: int, peer: int, dtype: DataType, dynamic_shape: bool
) -> Array:
    ring = get_comm_context(ring_id, ctx.backend, "p_recv()")
    out, work = ring.recv_with_shape(DataType(dtype).numpy_dtype, peer)
    work.wait()
    return out
