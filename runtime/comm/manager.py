"""CommContextManager: the rings of this process, by ring id and backend (PHI's registry).

``init_parallel_env`` registers ring 0 (every rank) and ``new_group`` one ring per group; the
collective kernels look up the ring their ``ring_id`` names for the backend their tensor is on
(MPI for CPU arrays, NCCL for GPU ones). A process not started by a launcher that never
initialised anything runs as a world of one rank: ring 0 is then a LocalCommContext, as
PaddlePaddle's collectives return their input in a single process.
"""

from __future__ import annotations

import threading
from typing import Callable

from phiops.runtime.comm.context import CommContext
from phiops.runtime.comm.local import LocalCommContext
from phiops.runtime.common import Backend
from phiops.runtime.errors import AlreadyExistsError, NotFoundError, PreconditionNotMetError

__all__ = ["CommContextManager", "COMM_CONTEXTS", "get_comm_context"]


class CommContextManager:
    """Contexts by (ring id, backend); a backend's world ring may be made on first use by a
    factory that ``set_world_factory`` installs."""

    def __init__(self) -> None:
        self._contexts: dict[tuple[int, Backend], CommContext] = {}
        self._world_factories: dict[Backend, Callable[[], CommContext]] = {}
        self._lock = threading.Lock()

    def set(self, ring_id: int, backend: Backend, context: CommContext) -> None:
        with self._lock:
            if (ring_id, backend) in self._contexts:
                raise AlreadyExistsError(
                    f"ring {ring_id} already has a {backend.name} communication context"
                )
            self._contexts[(ring_id, backend)] = context

    def has(self, ring_id: int, backend: Backend) -> bool:
        return (ring_id, backend) in self._contexts

    def set_world_factory(self, backend: Backend, factory: Callable[[], CommContext]) -> None:
        """Make ring 0 of ``backend`` with ``factory`` the first time a kernel needs it."""
        self._world_factories[backend] = factory

    def get(self, ring_id: int, backend: Backend, where: str) -> CommContext:
        """The context of ``ring_id`` for ``backend``; ``where`` names the caller in errors."""
        context = self._contexts.get((ring_id, backend))
        if context is not None:
            return context
        with self._lock:
            context = self._contexts.get((ring_id, backend))
            if context is None and ring_id == 0:
                factory = self._world_factories.get(backend, _single_process_world)
                context = self._contexts[(0, backend)] = factory()
        if context is None:
            rings = sorted({ring for ring, _ in self._contexts})
            raise NotFoundError(
                f"{where}: no communication ring {ring_id} on {backend.name} (rings: {rings}); "
                "call paddle.distributed.init_parallel_env() and new_group() first"
            )
        return context

    def rings(self) -> list[int]:
        return sorted({ring for ring, _ in self._contexts})

    def clear(self) -> None:
        """Forget every context (tests, and a process that starts over)."""
        with self._lock:
            self._contexts.clear()
            self._world_factories.clear()


def _single_process_world() -> CommContext:
    from phiops.runtime.comm.mpi import launched_by_mpi

    if launched_by_mpi():
        raise PreconditionNotMetError(
            "this process was started by an MPI launcher but the parallel environment is not "
            "initialised: call paddle.distributed.init_parallel_env() before the first collective"
        )
    return LocalCommContext(0)


COMM_CONTEXTS = CommContextManager()


def get_comm_context(ring_id: int, backend: Backend, where: str) -> CommContext:
    """The ring a collective kernel runs on (``where``: the op, for errors)."""
    return COMM_CONTEXTS.get(ring_id, backend, where)
