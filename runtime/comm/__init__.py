"""Communication contexts for PHI's collective ops (DESIGN.md section 14).

``CommContext`` is one ring of ranks with the collectives on arrays of one backend: MPI through
mpi4py for CPU (``mpi.py``), NCCL through CuPy for GPU (``nccl.py``), and the ring of a single
process (``local.py``). ``COMM_CONTEXTS`` (``manager.py``) keeps them by ring id and backend,
where the kernels in runtime/kernels/impl/collective_kernel.py find them. This unit sits in the
backends layer so that kernels may call it; mpi4py and CuPy are imported only when a context of
theirs is made.
"""

from __future__ import annotations

from phiops.runtime.comm.context import CommContext, CommunicationError, ReduceOp, Work, reduce_op
from phiops.runtime.comm.local import LocalCommContext
from phiops.runtime.comm.manager import COMM_CONTEXTS, CommContextManager, get_comm_context

__all__ = [
    "CommContext",
    "CommunicationError",
    "ReduceOp",
    "Work",
    "reduce_op",
    "LocalCommContext",
    "COMM_CONTEXTS",
    "CommContextManager",
    "get_comm_context",
]
