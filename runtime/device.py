"""Array modules per backend: numpy for CPU, CuPy for GPU when it is importable."""

from __future__ import annotations

import functools
from types import ModuleType
from typing import Any

import numpy as np

from phiops.runtime.common import Backend, CPUPlace, GPUPlace, Place
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError

__all__ = [
    "cupy",
    "gpu_available",
    "gpu_count",
    "check_place_available",
    "array_module",
    "module_of",
    "place_of_array",
    "to_backend",
]

try:  # CuPy is an optional extra; without it GPU kernels are simply not registered.
    import cupy  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - depends on the machine
    cupy = None


def gpu_available() -> bool:
    """True when CuPy is importable and sees at least one GPU."""
    return gpu_count() > 0


@functools.lru_cache(maxsize=1)
def gpu_count() -> int:
    """How many GPUs CuPy sees (0 without CuPy or CUDA); asked once per process."""
    if cupy is None:
        return 0
    try:
        return int(cupy.cuda.runtime.getDeviceCount())
    except Exception:  # noqa: BLE001 - any CUDA failure means "no usable GPU"
        return 0


def check_place_available(place: Place, op: str) -> None:
    """InvalidArgumentError naming ``place`` and the places this machine has, when a user asked
    for a GPU that is not there (the CPU fallback flag is about kernels, not about places)."""
    if place.backend is not Backend.GPU:
        return
    count = gpu_count()
    if place.device_id < count:
        return
    if count:
        available = "cpu, " + ", ".join(f"gpu:{i}" for i in range(count))
    elif cupy is None:
        available = "cpu only (CuPy is not installed: install phiops[gpu] for GPUs)"
    else:
        available = "cpu only (CuPy sees no GPU)"
    raise InvalidArgumentError(
        f"{op}(): place gpu:{place.device_id} is not available on this machine; available: "
        f"{available}"
    )


def array_module(backend: Backend) -> ModuleType:
    """The array module of ``backend`` (numpy for CPU, cupy for GPU), as runtime/backends.py
    registers it."""
    from phiops.runtime.backends import get_backend  # runtime.backends imports this module

    return get_backend(backend).load_module()


def module_of(array: Any) -> ModuleType:
    """numpy or cupy, whichever ``array`` belongs to."""
    if cupy is not None and isinstance(array, cupy.ndarray):
        return cupy
    return np


def place_of_array(array: Any) -> Place:
    """The Place of a numpy or CuPy array."""
    if isinstance(array, np.ndarray):
        return CPUPlace()
    if cupy is not None and isinstance(array, cupy.ndarray):
        return GPUPlace(array.device.id)
    raise UnimplementedError(f"arrays of type {type(array).__name__} are not supported")


def to_backend(array: Any, place: Place) -> Any:
    """Copy ``array`` to ``place`` (no copy when it is already there)."""
    if place.backend is Backend.GPU:
        if cupy is None:
            raise UnimplementedError("GPU backend needs CuPy; install phiops[gpu]")
        with cupy.cuda.Device(place.device_id):
            return cupy.asarray(array)
    if isinstance(array, np.ndarray):
        return array
    return cupy.asnumpy(array)
