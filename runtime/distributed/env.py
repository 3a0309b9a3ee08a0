"""The parallel environment: ``init_parallel_env``, ``get_rank``, ``get_world_size``,
``ParallelEnv`` (paddle.distributed's).

The processes are an MPI job (started by ``phiops launch``, ``mpiexec`` or ``mpirun``):
``init_parallel_env`` makes ring 0 over all of them, an MPI context for CPU tensors (and an
NCCL one, made on first use, for GPU tensors), sets ``PADDLE_TRAINER_ID`` and
``PADDLE_TRAINERS_NUM`` as PaddlePaddle's launcher does (DistributedBatchSampler reads them),
and installs a hook that reports an uncaught error to the other ranks, so that they fail naming
this rank instead of waiting. A process started without a launcher is a world of one rank.
"""

from __future__ import annotations

import os
from typing import Any

from phiops.runtime.comm import COMM_CONTEXTS, CommContext, LocalCommContext
from phiops.runtime.comm.mpi import MPICommContext, fail_fast_on_exception, launched_by_mpi
from phiops.runtime.common import Backend
from phiops.runtime.distributed.group import (
    Group,
    forget_groups,
    register_world,
    resolve,
    world_group,
)
from phiops.runtime.errors import UnimplementedError

__all__ = [
    "init_parallel_env",
    "is_initialized",
    "get_rank",
    "get_world_size",
    "get_backend",
    "is_available",
    "ParallelEnv",
    "require_world",
    "destroy_process_group",
]

_STATE: dict[str, Any] = {"initialized": False}


def _nccl_world() -> CommContext:
    from phiops.runtime.comm.nccl import NCCLCommContext

    return NCCLCommContext.world(0)


def init_parallel_env(nccl_config: Any = None) -> Group:
    """Join the job's processes into ring 0 and return its group (every rank calls it once;
    later calls return the same group)."""
    if nccl_config is not None:
        raise UnimplementedError("init_parallel_env: nccl_config is not implemented; pass None")
    if _STATE["initialized"]:
        return world_group()
    if launched_by_mpi():
        context: CommContext = MPICommContext.world(0)
        fail_fast_on_exception()
    else:
        context = LocalCommContext(0)
    COMM_CONTEXTS.clear()
    COMM_CONTEXTS.set(0, Backend.CPU, context)
    COMM_CONTEXTS.set_world_factory(Backend.GPU, _nccl_world)
    os.environ["PADDLE_TRAINER_ID"] = str(context.rank)
    os.environ["PADDLE_TRAINERS_NUM"] = str(context.size)
    os.environ.setdefault("PADDLE_RANK_IN_NODE", str(_local_rank(context.rank)))
    _STATE["initialized"] = True
    _STATE["context"] = context
    return register_world(context.rank, context.size)


def destroy_process_group(group: Group | None = None) -> None:
    """Forget ``group``'s ring; None: every group and the parallel environment itself (a later
    ``init_parallel_env`` starts over)."""
    if group is not None:
        resolve(group, "destroy_process_group")
        forget_groups(group)
        return
    forget_groups()
    COMM_CONTEXTS.clear()
    _STATE.clear()
    _STATE["initialized"] = False


def require_world(where: str) -> CommContext:
    """Ring 0's CPU context, the parallel environment initialised first when it is not."""
    if not _STATE["initialized"]:
        init_parallel_env()
    return _STATE["context"]


def is_initialized() -> bool:
    """Whether ``init_parallel_env`` has run."""
    return bool(_STATE["initialized"])


def _launcher_int(names: tuple[str, ...], default: int) -> int:
    for name in names:
        if name in os.environ:
            return int(os.environ[name])
    return default


def _local_rank(rank: int) -> int:
    return _launcher_int(("MPI_LOCALRANKID", "OMPI_COMM_WORLD_LOCAL_RANK"), rank)


def get_rank(group: Group | None = None) -> int:
    """This process's rank: in the world, or in ``group`` (-1 outside it)."""
    if group is not None:
        return resolve(group, "get_rank").rank
    if _STATE["initialized"]:
        return _STATE["context"].rank
    return _launcher_int(("PADDLE_TRAINER_ID", "PMI_RANK", "OMPI_COMM_WORLD_RANK"), 0)


def get_world_size(group: Group | None = None) -> int:
    """The number of ranks: of the world, or of ``group``."""
    if group is not None:
        return resolve(group, "get_world_size").nranks
    if _STATE["initialized"]:
        return _STATE["context"].size
    return _launcher_int(("PADDLE_TRAINERS_NUM", "PMI_SIZE", "OMPI_COMM_WORLD_SIZE"), 1)


def get_backend(group: Group | None = None) -> str:
    """The communication library of ``group``'s CPU ring: "MPI", or "LOCAL" for one process."""
    resolve(group, "get_backend")
    context = _STATE.get("context")
    return "MPI" if isinstance(context, MPICommContext) else "LOCAL"


def is_available() -> bool:
    """Whether collectives can run in this environment (always: MPI or a world of one)."""
    return True


class ParallelEnv:
    """The process's place in the job, as PaddlePaddle's ParallelEnv reports it."""

    @property
    def rank(self) -> int:
        return get_rank()

    @property
    def world_size(self) -> int:
        return get_world_size()

    @property
    def nranks(self) -> int:
        return get_world_size()

    @property
    def local_rank(self) -> int:
        return _local_rank(get_rank())

    @property
    def local_world_size(self) -> int:
        return _launcher_int(("MPI_LOCALNRANKS", "OMPI_COMM_WORLD_LOCAL_SIZE"), get_world_size())

    @property
    def device_id(self) -> int:
        return _local_rank(get_rank())

    @property
    def dev_id(self) -> int:
        return self.device_id

    @property
    def trainer_endpoints(self) -> list[str]:
        return []

    @property
    def current_endpoint(self) -> str:
        return ""
