"""Array modules per backend: numpy for CPU, CuPy for GPU when it is importable."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np

from runtime.common import Backend, CPUPlace, GPUPlace, Place
from runtime.errors import UnimplementedError

__all__ = ["cupy", "gpu_available", "array_module", "module_of", "place_of_array", "to_backend"]

try:  # CuPy is an optional extra; without it GPU kernels are simply not registered.
    import cupy  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - depends on the machine
    cupy = None


def gpu_available() -> bool:
    """True when CuPy is importable and sees at least one GPU."""
    if cupy is None:
        return False
    try:
        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:  # noqa: BLE001 - any CUDA failure means "no usable GPU"
        return False


def array_module(backend: Backend) -> ModuleType:
    """The array module of ``backend`` (numpy for CPU, cupy for GPU), as runtime/backends.py
    registers it."""
    from runtime.backends import get_backend  # runtime.backends imports this module

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
