"""``phiops.distributed`` (``paddle.distributed``): empty so far. phiops has no distributed
training: PaddlePaddle's ``init_parallel_env``, ``get_rank``, ``get_world_size``, ParallelEnv,
``new_group``, the collectives (``all_reduce``, ``all_gather``, ``broadcast``, ``reduce``,
``scatter``, ``reduce_scatter``, ``alltoall``, ``send``, ``recv``, ``barrier``), ReduceOp,
DataParallel, ``launch``, ``spawn``, ``fleet`` and the auto-parallel API are all missing, as are
the collective ops themselves.
"""

from __future__ import annotations

__all__: list[str] = []
