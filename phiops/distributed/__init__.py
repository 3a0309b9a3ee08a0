"""``phiops.distributed`` (``paddle.distributed``): data-parallel training over MPI (CPU) and
NCCL (GPU) (runtime/distributed/, runtime/comm/; docs/distributed.md).

``init_parallel_env``, ``get_rank``, ``get_world_size``, ``ParallelEnv``, ``new_group``,
``get_group``, ``destroy_process_group``, ``is_initialized``, ``is_available``, ``get_backend``;
the collectives on Tensors with PaddlePaddle's signatures (``all_reduce``, ``all_gather``,
``all_gather_object``, ``broadcast``, ``reduce``, ``reduce_scatter``, ``alltoall``, ``scatter``,
``send``, ``recv``, ``isend``, ``irecv``, ``barrier``, ``wait``) returning tasks with ``wait()``;
``ReduceOp``; ``DataParallel``. Start the ranks with ``phiops launch --nproc_per_node N
train.py`` (``python -m phiops.distributed.launch``), ``mpiexec`` or ``mpirun``.

Not in phiops: ``spawn``, ``fleet``, the auto-parallel API (``shard_tensor``, ``ProcessMesh``,
...), ``alltoall_single``, ``gather``, ``broadcast_object_list``, ``scatter_object_list``,
``stream``, ``rpc``.
"""

from __future__ import annotations

import phiops as _phiops

from phiops.runtime.distributed import *  # noqa: F401,F403
from phiops.runtime.distributed import __all__ as _runtime_names

# The subpackage (``python -m phiops.distributed.launch``) loads first, so that the name
# ``launch`` here is then the function, as paddle.distributed.launch is.
from phiops.distributed.launch import launch  # noqa: E402

__all__ = list(_runtime_names)

_phiops._load_api()  # the ops and paddle's Tensor methods, as `import phiops` gives them
