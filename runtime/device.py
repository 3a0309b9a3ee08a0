"""Places and devices, as the backend registry (runtime/backends.py) knows them.

A thin place-level API over the registry: which GPUs this machine has, whether a place a user
asked for exists, the default place (``set_device``), and (re-exported for the callers that think
in places) the array module of a backend, the module and place of an array, and copying an array
to a place. It knows no array module itself.

It also registers the custom device types that other packages define (docs/extending.md). A
package declares a ``CustomDevice`` in the ``phiops.devices`` entry-point group, under the device
type's name:

    [project.entry-points."phiops.devices"]
    jax = "jax_device:DEVICE"

The first time a device type that phiops does not know is named (``set_device('jax')``,
``CustomPlace('jax', 0)``, ``to(place='jax')``), the entry point of that name is loaded and its
device registered: a ``CustomBackend`` for the type, a backend with the array module, priority and
host copies the package gave, the xp-generic kernels the device takes, then the device's own.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from importlib.metadata import entry_points
from types import ModuleType
from typing import Any, Callable

import numpy as np

from phiops.runtime.backends import (
    BACKENDS,
    array_module,
    backend_available,
    default_place,
    device_count,
    is_array,
    module_of,
    place_of_array,
    register_backend,
    set_default_place,
    to_backend,
    to_numpy,
    unavailable_reason,
    unregister_backend,
)
from phiops.runtime.common import Backend, CustomBackend, Place, custom_backend, to_place
from phiops.runtime.common.place import set_device_type_finder
from phiops.runtime.errors import AlreadyExistsError, InvalidArgumentError, NotFoundError

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
    "ENTRY_POINT_GROUP",
    "CustomDevice",
    "register_custom_device",
    "unregister_custom_device",
    "custom_device_types",
    "registered_custom_devices",
    "set_device",
    "get_device",
    "default_place",
]

ENTRY_POINT_GROUP = "phiops.devices"


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


# --- custom devices ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CustomDevice:
    """A device type defined by a package: what phiops needs to run kernels on it.

    ``device_type`` is the name users give it (``'jax'``: ``set_device('jax')``,
    ``CustomPlace('jax', 0)``), ``priority`` decides where an op with inputs on several
    backends runs (CPU 0, GPU 10: the highest wins; no two backends share one),
    ``load_module()`` gives the array module its kernels see as ``ctx.xp`` (numpy's API over the
    device's arrays; raise UnimplementedError saying what to install when it cannot load),
    ``array_types(module)`` the classes of its arrays, ``to_host(array)`` a numpy copy of one,
    ``from_host(module, array, device_id)`` a host array on device ``device_id``,
    ``device_count(module)`` and ``device_of(array)`` its devices, ``takes_kernel(name)``
    whether phiops's xp-generic kernel ``name`` runs on it (others fall back to CPU under
    FLAGS_enable_api_kernel_fallback), ``register_kernels(backend_name)`` registers the
    device's own kernels (``register_kernel(..., backends=(backend_name,))``), and ``scatter``,
    ``writable`` (False where arrays are immutable: an in-place op's result becomes the
    tensor's new array), ``returns_scalars`` and ``missing_hint`` (why it is not available; by
    default the UnimplementedError of ``load_module``) are the BackendDef fields of the same
    names. A field left None takes the
    BackendDef default (runtime/backends.py: numpy-like, one device, every kernel).
    """

    device_type: str
    priority: int
    load_module: Callable[[], ModuleType]
    array_types: Callable[[ModuleType], tuple[type, ...]] | None = None
    to_host: Callable[[Any], np.ndarray] | None = None
    from_host: Callable[[ModuleType, Any, int], Any] | None = None
    device_count: Callable[[ModuleType], int] | None = None
    device_of: Callable[[Any], int] | None = None
    takes_kernel: Callable[[str], bool] | None = None
    register_kernels: Callable[[str], None] | None = None
    scatter: Callable[[ModuleType, str, Any, Any, Any], None] | None = None
    writable: bool = True
    returns_scalars: bool = False
    missing_hint: str = ""


_BACKEND_FIELDS = (
    "array_types",
    "to_host",
    "from_host",
    "device_count",
    "device_of",
    "takes_kernel",
    "scatter",
)
_LOCK = threading.RLock()
_REGISTERED: dict[str, CustomDevice] = {}


def register_custom_device(device: CustomDevice) -> CustomBackend:
    """Register ``device``: its backend (InvalidArgumentError for a bad device type,
    AlreadyExistsError when it is registered or its priority is taken), the xp-generic kernels
    it takes, then its own kernels. Returns its backend."""
    if not isinstance(device, CustomDevice):
        raise InvalidArgumentError(
            f"register_custom_device: expected a CustomDevice, got {type(device).__name__}"
        )
    if not isinstance(device.priority, int) or isinstance(device.priority, bool):
        raise InvalidArgumentError(
            f"register_custom_device({device.device_type!r}): priority must be an int, got "
            f"{device.priority!r}"
        )
    backend = custom_backend(device.device_type)
    with _LOCK:
        if backend in BACKENDS:
            raise AlreadyExistsError(f"device type {device.device_type!r} is registered twice")
        fields: dict[str, Any] = {
            "returns_scalars": device.returns_scalars,
            "writable": device.writable,
            "missing_hint": device.missing_hint,
            "no_device_hint": f"device type {device.device_type!r} sees no device",
        }
        for name in _BACKEND_FIELDS:
            value = getattr(device, name)
            if value is not None:  # else the registry's default (BackendDef)
                fields[name] = value
        register_backend(backend, device.priority, device.load_module, **fields)  # type: ignore[arg-type]
        _REGISTERED[device.device_type] = device
        try:
            if device.register_kernels is not None and backend_available(backend):
                device.register_kernels(backend.name)
        except BaseException:
            unregister_custom_device(device.device_type)
            raise
    return backend


def unregister_custom_device(device_type: str) -> None:
    """Forget device type ``device_type`` and every kernel registered for it (NotFoundError
    when it is not registered); the default place goes back to CPU if it was on it."""
    with _LOCK:
        device = _REGISTERED.pop(device_type, None)
        if device is None:
            raise NotFoundError(
                f"device type {device_type!r} is not registered; registered: "
                f"{', '.join(sorted(_REGISTERED)) or 'none'}"
            )
        unregister_backend(custom_backend(device_type))


def registered_custom_devices() -> dict[str, CustomDevice]:
    """The custom devices registered now, by device type."""
    return dict(_REGISTERED)


def custom_device_types() -> list[str]:
    """Every custom device type that can be used: those registered and those that installed
    packages declare in the ``phiops.devices`` entry points (PaddlePaddle's
    ``paddle.device.get_all_custom_device_type``), sorted."""
    names = set(_REGISTERED)
    names.update(entry.name for entry in entry_points(group=ENTRY_POINT_GROUP))
    return sorted(names)


def _find_device_type(name: str) -> CustomBackend | None:
    """The backend of the custom device type ``name``, registering it from its package's entry
    point on first use; None when no package declares it."""
    device = _REGISTERED.get(name)
    if device is not None:
        return custom_backend(name)
    with _LOCK:
        if name in _REGISTERED:
            return custom_backend(name)
        for entry in entry_points(group=ENTRY_POINT_GROUP):
            if entry.name != name:
                continue
            declared = entry.load()
            if callable(declared) and not isinstance(declared, CustomDevice):
                declared = declared()
            if not isinstance(declared, CustomDevice) or declared.device_type != name:
                raise InvalidArgumentError(
                    f"entry point {entry.name!r} = {entry.value!r} of group "
                    f"{ENTRY_POINT_GROUP!r} must give a CustomDevice with device_type "
                    f"{name!r}, got {declared!r}"
                )
            return register_custom_device(declared)
    return None


set_device_type_finder(_find_device_type, custom_device_types)


def set_device(device: Any) -> Place:
    """Make ``device`` (``'cpu'``, ``'gpu'``, ``'gpu:N'``, a registered custom device type
    ``'jax'``/``'jax:N'``, or a Place) the default place of ops without tensor inputs; returns
    the Place. InvalidArgumentError for an unknown name or a device this machine lacks."""
    place = to_place(device, "set_device")
    if not place.is_defined:
        raise InvalidArgumentError(f"set_device: expected a device, got {device!r}")
    check_place_available(place, "set_device")
    set_default_place(place)
    return place


def get_device() -> str:
    """The default device as PaddlePaddle spells it: ``'cpu'``, ``'gpu:0'``, ``'jax:0'``."""
    place = default_place()
    if place.backend is Backend.CPU:
        return "cpu"
    backend = place.backend
    name = backend.device_type if isinstance(backend, CustomBackend) else backend.name.lower()
    return f"{name}:{place.device_id}"
