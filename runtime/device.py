"""Places and devices, as the backend registry (runtime/backends.py) knows them.

A thin place-level API over the registry: which GPUs this machine has, whether a place a user
asked for exists, and (re-exported for the callers that think in places) the array module of a
backend, the module and place of an array, and copying an array to a place. It knows no array
module itself.
"""

from __future__ import annotations

from phiops.runtime.backends import (
    array_module,
    backend_available,
    device_count,
    is_array,
    module_of,
    place_of_array,
    to_backend,
    to_numpy,
    unavailable_reason,
)
from phiops.runtime.common import Backend, Place
from phiops.runtime.errors import InvalidArgumentError

__all__ = [
    "gpu_available",
    "gpu_count",
    "check_place_available",
    "backend_available",
    "array_module",
    "is_array",
    "module_of",
    "place_of_array",
    "to_backend",
    "to_numpy",
]


def gpu_available() -> bool:
    """True when the GPU backend loads and sees at least one GPU."""
    return gpu_count() > 0


def gpu_count() -> int:
    """How many GPUs the GPU backend sees (0 without it); asked once per process."""
    return device_count(Backend.GPU)


def check_place_available(place: Place, op: str) -> None:
    """InvalidArgumentError naming ``place`` and the places this machine has, when a user asked
    for a device that is not there (the CPU fallback flag is about kernels, not about places)."""
    if not place.is_defined:
        return
    backend = place.backend
    count = device_count(backend)
    if place.device_id < count:
        return
    name = backend.name.lower()
    if count:
        available = "cpu, " + ", ".join(f"{name}:{i}" for i in range(count))
    else:
        available = f"cpu only ({unavailable_reason(backend)})"
    raise InvalidArgumentError(
        f"{op}(): place {name}:{place.device_id} is not available on this machine; available: "
        f"{available}"
    )
