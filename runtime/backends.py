"""The backends kernels run on, registered in one place, each with an explicit priority.

A backend is its ``Backend`` value, the array module that serves it (numpy for CPU, CuPy for GPU)
and a priority. When an op's inputs sit on several backends and the spec names none, the kernel
runs on the backend of highest priority (GPU over CPU, as PaddlePaddle does) and the other inputs
are moved there. A new backend is one ``register_backend`` call here; nothing compares ``Backend``
enum values.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Callable, Iterable

import numpy as np

from phiops.runtime.common import Backend, CPUPlace, Place
from phiops.runtime.errors import AlreadyExistsError, NotFoundError, UnimplementedError

__all__ = [
    "BackendDef",
    "BACKENDS",
    "register_backend",
    "get_backend",
    "backend_priority",
    "place_for_inputs",
]


@dataclass(frozen=True)
class BackendDef:
    """One backend: ``load_module()`` gives its array module or raises UnimplementedError saying
    what to install; among the backends of an op's inputs, the highest ``priority`` wins."""

    backend: Backend
    priority: int
    load_module: Callable[[], ModuleType]


BACKENDS: dict[Backend, BackendDef] = {}


def register_backend(
    backend: Backend, priority: int, load_module: Callable[[], ModuleType]
) -> None:
    """Register ``backend``; AlreadyExistsError if it or its priority is taken."""
    if backend in BACKENDS:
        raise AlreadyExistsError(f"backend {backend.name} is registered twice")
    for other in BACKENDS.values():
        if other.priority == priority:
            raise AlreadyExistsError(
                f"backend {backend.name} would share priority {priority} with {other.backend.name}"
            )
    BACKENDS[backend] = BackendDef(backend, priority, load_module)


def get_backend(backend: Backend) -> BackendDef:
    """The registration of ``backend``; NotFoundError listing the registered ones."""
    try:
        return BACKENDS[backend]
    except KeyError:
        names = ", ".join(b.name for b in BACKENDS)
        raise NotFoundError(
            f"backend {backend.name} is not registered; registered: {names}"
        ) from None


def backend_priority(backend: Backend) -> int:
    return get_backend(backend).priority


def place_for_inputs(places: Iterable[Place]) -> Place:
    """The place an op with inputs on ``places`` runs on: the first place of the backend of
    highest priority; CPUPlace() for an op without tensor inputs."""
    best: Place | None = None
    best_priority = 0
    for place in places:
        priority = BACKENDS[place.backend].priority
        if best is None or priority > best_priority:
            best, best_priority = place, priority
    return CPUPlace() if best is None else best


def _numpy() -> ModuleType:
    return np


def _cupy() -> ModuleType:
    from phiops.runtime.device import cupy

    if cupy is None:
        raise UnimplementedError("GPU backend needs CuPy; install phiops[gpu]")
    return cupy


register_backend(Backend.CPU, priority=0, load_module=_numpy)
register_backend(Backend.GPU, priority=10, load_module=_cupy)
