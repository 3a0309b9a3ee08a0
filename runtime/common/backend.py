"""Backend and DataLayout enums of the kernel key, and the backends of custom device types."""

from __future__ import annotations

import enum
import re
import threading

from phiops.runtime.errors import InvalidArgumentError

__all__ = [
    "Backend",
    "DataLayout",
    "CustomBackend",
    "custom_backend",
    "custom_backends",
    "backend_named",
]


class Backend(enum.IntEnum):
    """Device family a kernel runs on; UNDEFINED doubles as ALL_BACKEND in kernel keys.

    CUSTOM (PaddlePaddle's custom-device backend) is the value a backend registered from outside
    phiops takes in runtime/backends.py; which array module serves it is the registry's business.
    A device type registered by a package (``jax``) gets its own ``CustomBackend`` instead, as PHI
    gives each custom device type its own backend value after the built-in ones.
    """

    UNDEFINED = 0
    CPU = 1
    GPU = 2
    CUSTOM = 4

    ALL_BACKEND = 0

    def __repr__(self) -> str:
        return f"Backend.{self.name}"


class CustomBackend(int):
    """The backend of one custom device type (PHI: ``Backend(NUM_BACKENDS + type id)``).

    An int like the ``Backend`` members, so it sits in kernel keys beside them; ``name`` is the
    device type in capitals (``JAX``, as kernel keys print CPU and GPU) and ``device_type`` the
    device type as places spell it (``jax``). One object per device type for the process:
    compare with ``is``.
    """

    name: str
    device_type: str

    def __new__(cls, value: int, device_type: str) -> CustomBackend:
        self = super().__new__(cls, value)
        self.name = device_type.upper()
        self.device_type = device_type
        return self

    @property
    def value(self) -> int:
        return int(self)

    def __repr__(self) -> str:
        return f"CustomBackend({self.device_type!r})"

    def __str__(self) -> str:
        return self.name

    def __reduce__(self) -> tuple:
        return (custom_backend, (self.device_type,))


# PHI's custom device types number from after its built-in backends
_FIRST_CUSTOM_VALUE = 16
_CUSTOM: dict[str, CustomBackend] = {}
_LOCK = threading.Lock()
_DEVICE_TYPE = re.compile(r"[a-z][a-z0-9_]*")
_RESERVED = {"cpu", "gpu", "cuda", "custom", "undefined", "all_backend", "xpu", "npu"}


def custom_backend(device_type: str) -> CustomBackend:
    """The backend of custom device type ``device_type``, made on first use (the same object
    afterwards); InvalidArgumentError for a name that is not lower-case letters, digits and
    underscores, or one of the built-in device names."""
    backend = _CUSTOM.get(device_type)
    if backend is not None:
        return backend
    if not isinstance(device_type, str) or not _DEVICE_TYPE.fullmatch(device_type):
        raise InvalidArgumentError(
            f"custom device type must be lower-case letters, digits and '_' starting with a "
            f"letter, got {device_type!r}"
        )
    if device_type in _RESERVED:
        raise InvalidArgumentError(
            f"custom device type {device_type!r} is a built-in device name; choose another"
        )
    with _LOCK:
        backend = _CUSTOM.get(device_type)
        if backend is None:
            backend = CustomBackend(_FIRST_CUSTOM_VALUE + len(_CUSTOM), device_type)
            _CUSTOM[device_type] = backend
    return backend


def custom_backends() -> dict[str, CustomBackend]:
    """Every custom device type given a backend so far, by device type."""
    return dict(_CUSTOM)


def backend_named(name: str) -> Backend | CustomBackend:
    """The backend called ``name``: a ``Backend`` member (``CPU``, ``GPU``, ``ALL_BACKEND``...)
    or a custom device type's backend (``JAX`` or ``jax``); InvalidArgumentError otherwise."""
    if isinstance(name, (Backend, CustomBackend)):
        return name
    member = Backend.__members__.get(name) if isinstance(name, str) else None
    if member is not None:
        return member
    custom = _CUSTOM.get(name.lower()) if isinstance(name, str) else None
    if custom is not None:
        return custom
    known = [*Backend.__members__, *(b.name for b in _CUSTOM.values())]
    raise InvalidArgumentError(f"unknown backend {name!r}; known: {', '.join(known)}")


class DataLayout(enum.IntEnum):
    """Memory layout; UNDEFINED doubles as ALL_LAYOUT (any layout) in kernel keys."""

    UNDEFINED = 0
    NCHW = 1
    NHWC = 2

    ALL_LAYOUT = 0
    ANY = 0

    def __repr__(self) -> str:
        return f"DataLayout.{self.name}"
