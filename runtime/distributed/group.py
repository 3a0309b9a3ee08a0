"""Process groups: ``Group``, ``new_group``, ``get_group`` (paddle.distributed's), one ring each.

A group is a ring id (0 for every rank) and the global ranks in it. Its communication contexts
live in runtime/comm's ``COMM_CONTEXTS`` under that ring id, one per backend; the collectives
and the ops' ``ring_id`` find them there.
"""

from __future__ import annotations

import datetime
from typing import Any

from phiops.runtime.comm import COMM_CONTEXTS
from phiops.runtime.common import Backend
from phiops.runtime.errors import InvalidArgumentError, NotFoundError, UnimplementedError

__all__ = ["Group", "new_group", "get_group", "forget_groups"]


class Group:
    """The ranks of one communication ring (PaddlePaddle's ``Group``): ``rank`` is this
    process's rank in it (-1 outside it), ``ranks`` the global ranks, ``id`` the ring id."""

    def __init__(
        self,
        rank_in_group: int,
        id: int,  # noqa: A002 - PaddlePaddle's name
        ranks: list[int],
        pg: Any = None,
        name: str | None = None,
    ) -> None:
        self._rank_in_group = rank_in_group
        self._id = id
        self._ranks = list(ranks)
        self._pg = pg
        self._name = name

    @property
    def rank(self) -> int:
        return self._rank_in_group

    @property
    def ranks(self) -> list[int]:
        return list(self._ranks)

    @property
    def nranks(self) -> int:
        return len(self._ranks)

    @property
    def world_size(self) -> int:
        return len(self._ranks)

    @property
    def id(self) -> int:  # noqa: A003 - PaddlePaddle's name
        return self._id

    @property
    def name(self) -> str | None:
        return self._name

    @property
    def backend(self) -> str:
        return "mpi"

    @property
    def process_group(self) -> Any:
        return self._pg

    def is_member(self) -> bool:
        return self._rank_in_group >= 0

    def get_group_rank(self, rank: int) -> int:
        """The rank within this group of global ``rank`` (-1 when it is not in the group)."""
        return self._ranks.index(rank) if rank in self._ranks else -1

    def get_global_rank(self, rank: int) -> int:
        """The global rank of the group's ``rank``."""
        if not 0 <= rank < len(self._ranks):
            raise InvalidArgumentError(
                f"Group.get_global_rank: rank must be in [0, {len(self._ranks)}), got {rank}"
            )
        return self._ranks[rank]

    def __repr__(self) -> str:
        return f"Group(id={self._id}, rank={self._rank_in_group}, ranks={self._ranks})"


_GROUPS: dict[int, Group] = {}


def register_world(rank: int, size: int) -> Group:
    """Record ring 0, every rank (init_parallel_env's group)."""
    group = Group(rank, 0, list(range(size)), name="_default_pg")
    _GROUPS.clear()
    _GROUPS[0] = group
    return group


def world_group() -> Group:
    """Ring 0: the initialised world, or a world of this process alone."""
    if 0 not in _GROUPS:
        return Group(0, 0, [0], name="_default_pg")
    return _GROUPS[0]


def resolve(group: Group | None, where: str) -> Group:
    if group is None:
        return world_group()
    if not isinstance(group, Group):
        raise InvalidArgumentError(f"{where}: group must be a Group or None, got {group!r}")
    return group


def new_group(
    ranks: list[int] | None = None,
    backend: str | None = None,
    timeout: datetime.timedelta = datetime.timedelta(seconds=1800),
    nccl_comm_init_option: int = 0,
    nccl_config: Any = None,
) -> Group:
    """A group of the global ``ranks`` (all ranks when None), with a ring of its own. Every rank
    calls it, members or not, in the same order. ``backend``: None, "mpi" or "nccl" (the backend
    follows the tensors: MPI for CPU tensors, NCCL for GPU ones)."""
    from phiops.runtime.distributed.env import require_world

    if backend not in (None, "mpi", "nccl", "gloo"):
        raise InvalidArgumentError(
            f"new_group: backend must be None, 'mpi', 'nccl' or 'gloo', got {backend!r}"
        )
    if nccl_config is not None or nccl_comm_init_option:
        raise UnimplementedError("new_group: nccl_config and nccl_comm_init_option are not implemented")
    world = world_group()
    members = list(range(world.nranks)) if ranks is None else list(ranks)
    if not all(isinstance(r, int) and 0 <= r < world.nranks for r in members) or len(set(members)) != len(members):
        raise InvalidArgumentError(
            f"new_group: ranks must be distinct ranks in [0, {world.nranks}), got {ranks!r}"
        )
    members.sort()
    ring_id = max(_GROUPS, default=0) + 1
    world_context = require_world("new_group")
    seconds = timeout.total_seconds() if isinstance(timeout, datetime.timedelta) else None
    context = world_context.split(members, ring_id)
    if context is not None:
        if seconds is not None and seconds != 1800 and hasattr(context, "timeout"):
            context.timeout = seconds  # else the world's (PHIOPS_COMM_TIMEOUT)
        COMM_CONTEXTS.set(ring_id, Backend.CPU, context)
    rank = members.index(world.rank) if world.rank in members else -1
    group = Group(rank, ring_id, members, name=f"_pg_{ring_id}")
    _GROUPS[ring_id] = group
    return group


def get_group(id: int = 0) -> Group:  # noqa: A002 - PaddlePaddle's name
    """The group of ring ``id``."""
    if id == 0:
        return world_group()
    if id not in _GROUPS:
        raise NotFoundError(f"get_group: no group with id {id} (groups: {sorted(_GROUPS)})")
    return _GROUPS[id]


def forget_groups(group: Group | None = None) -> None:
    """Forget ``group``, or every group when None."""
    if group is None:
        _GROUPS.clear()
    else:
        _GROUPS.pop(group.id, None)
