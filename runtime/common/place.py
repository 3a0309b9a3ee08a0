"""Place: where a tensor lives (CPU, GPU i, or device i of a custom device type)."""

from __future__ import annotations

from typing import Any, Callable

from phiops.runtime.common.backend import Backend, CustomBackend
from phiops.runtime.errors import InvalidArgumentError

__all__ = [
    "Place",
    "CPUPlace",
    "GPUPlace",
    "CustomPlace",
    "to_place",
    "set_device_type_finder",
]


class Place:
    """A device: ``CPUPlace()``, ``GPUPlace(0)``, ``CustomPlace('jax', 0)``, or the undefined
    place ``Place()``."""

    __slots__ = ("backend", "device_id", "_hash")

    def __init__(self, backend: Backend = Backend.UNDEFINED, device_id: int = 0) -> None:
        self.backend = backend
        self.device_id = device_id
        # Computed once: places are in the dispatch caches' keys (full's, every creation op's).
        self._hash = hash((backend, device_id))

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Place)
            and self.backend == other.backend
            and self.device_id == other.device_id
        )

    def __hash__(self) -> int:
        return self._hash

    @property
    def is_defined(self) -> bool:
        return self.backend is not Backend.UNDEFINED

    def __repr__(self) -> str:
        if self.backend is Backend.CPU:
            return "Place(cpu)"
        if self.backend is Backend.GPU:
            return f"Place(gpu:{self.device_id})"
        if isinstance(self.backend, CustomBackend):
            return f"Place({self.backend.device_type}:{self.device_id})"
        return "Place(undefined)"

    def get_device_id(self) -> int:
        """The device number (PaddlePaddle's ``Place.get_device_id``)."""
        return self.device_id

    def get_device_type(self) -> str:
        """The device type of a custom place (``'jax'``); ``'cpu'``/``'gpu'`` for the others."""
        backend = self.backend
        if isinstance(backend, CustomBackend):
            return backend.device_type
        return "undefined" if backend is Backend.UNDEFINED else backend.name.lower()


def CPUPlace() -> Place:  # noqa: N802 - PaddlePaddle's spelling, used in op specs
    """The host CPU."""
    return _CPU


def GPUPlace(device_id: int = 0) -> Place:  # noqa: N802
    """GPU number ``device_id``."""
    return Place(Backend.GPU, device_id)


def CustomPlace(device_type: str, device_id: int = 0) -> Place:  # noqa: N802
    """Device ``device_id`` of the custom device type ``device_type`` (``CustomPlace('jax', 0)``),
    registered by a package (docs/extending.md); InvalidArgumentError naming the registered
    device types when ``device_type`` is none of them."""
    if not isinstance(device_id, int) or isinstance(device_id, bool) or device_id < 0:
        raise InvalidArgumentError(
            f"CustomPlace: device_id must be an int >= 0, got {type(device_id).__name__} "
            f"{device_id!r}"
        )
    backend = _registered_device_type(device_type)
    if backend is None:
        raise InvalidArgumentError(
            f"CustomPlace: unknown device type {device_type!r}; registered device types: "
            f"{_registered_names()}"
        )
    return Place(backend, device_id)


_CPU = Place(Backend.CPU, 0)
_UNDEFINED = Place()
# which custom device types are registered now (installed by runtime/device.py, which loads
# device packages on first use); without it: none
_FIND_DEVICE_TYPE: list[Callable[[str], CustomBackend | None]] = []
_LIST_DEVICE_TYPES: list[Callable[[], list[str]]] = []


def set_device_type_finder(
    find: Callable[[str], CustomBackend | None], names: Callable[[], list[str]]
) -> None:
    """Install how a device type name becomes a registered custom backend (``find``: None when
    no package registers it) and how the registered ones are listed, for error messages."""
    _FIND_DEVICE_TYPE[:] = [find]
    _LIST_DEVICE_TYPES[:] = [names]


def _registered_device_type(device_type: Any) -> CustomBackend | None:
    if not isinstance(device_type, str):
        return None
    if _FIND_DEVICE_TYPE:
        return _FIND_DEVICE_TYPE[0](device_type)
    return None


def _registered_names() -> str:
    names = _LIST_DEVICE_TYPES[0]() if _LIST_DEVICE_TYPES else []
    return ", ".join(names) if names else "none"


def to_place(value: Any, where: str = "place") -> Place:
    """Normalise a Place, None (undefined), "cpu", "gpu", "gpu:1", or a registered custom device
    type with or without its number ("jax", "jax:1")."""
    if isinstance(value, Place):
        return value
    if value is None:
        return _UNDEFINED
    if isinstance(value, str):
        text = value.strip().lower()
        if text == "cpu":
            return _CPU
        if text in ("gpu", "cuda"):
            return GPUPlace(0)
        for prefix in ("gpu:", "cuda:"):
            if text.startswith(prefix) and text[len(prefix) :].isdigit():
                return GPUPlace(int(text[len(prefix) :]))
        device_type, _, number = text.partition(":")
        if not number or number.isdigit():
            backend = _registered_device_type(device_type)
            if backend is not None:
                return Place(backend, int(number or 0))
    raise InvalidArgumentError(
        f"{where}: expected a Place, 'cpu', 'gpu' or 'gpu:N', got {type(value).__name__} "
        f"{value!r} (or a custom device type as 'TYPE' or 'TYPE:N'; registered: "
        f"{_registered_names()})"
    )
