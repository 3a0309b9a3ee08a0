"""phiops.distributed's runtime (paddle.distributed): the parallel environment, groups, the
functional collectives on Tensors, DataParallel and the launcher. The communication itself is
runtime/comm's contexts (MPI, NCCL), which the collective ops' kernels call too."""

from __future__ import annotations

from phiops.runtime.comm import CommunicationError
from phiops.runtime.distributed.collective import (
    ReduceOp,
    all_gather,
    all_gather_object,
    all_reduce,
    alltoall,
    barrier,
    broadcast,
    irecv,
    isend,
    recv,
    reduce,
    reduce_scatter,
    scatter,
    send,
    task,
    wait,
)
from phiops.runtime.distributed.data_parallel import DataParallel
from phiops.runtime.distributed.env import (
    ParallelEnv,
    destroy_process_group,
    get_backend,
    get_rank,
    get_world_size,
    init_parallel_env,
    is_available,
    is_initialized,
)
from phiops.runtime.distributed.group import Group, get_group, new_group
from phiops.runtime.distributed.launch import launch

__all__ = [
    "CommunicationError",
    "ReduceOp",
    "Group",
    "ParallelEnv",
    "DataParallel",
    "init_parallel_env",
    "is_initialized",
    "is_available",
    "get_rank",
    "get_world_size",
    "get_backend",
    "new_group",
    "get_group",
    "destroy_process_group",
    "all_reduce",
    "all_gather",
    "all_gather_object",
    "broadcast",
    "reduce",
    "reduce_scatter",
    "alltoall",
    "scatter",
    "send",
    "recv",
    "isend",
    "irecv",
    "barrier",
    "wait",
    "task",
    "launch",
]
