"""Place: where a tensor lives (CPU or GPU i)."""

from __future__ import annotations

from typing import Any

from phiops.runtime.common.backend import Backend
from phiops.runtime.errors import InvalidArgumentError

__all__ = ["Place", "CPUPlace", "GPUPlace", "to_place"]


class Place:
    """A device: ``CPUPlace()``, ``GPUPlace(0)``, or the undefined place ``Place()``."""

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
        return "Place(undefined)"


def CPUPlace() -> Place:  # noqa: N802 - PaddlePaddle's spelling, used in op specs
    """The host CPU."""
    return _CPU


def GPUPlace(device_id: int = 0) -> Place:  # noqa: N802
    """GPU number ``device_id``."""
    return Place(Backend.GPU, device_id)


_CPU = Place(Backend.CPU, 0)
_UNDEFINED = Place()


def to_place(value: Any, where: str = "place") -> Place:
    """Normalise a Place, None (undefined), "cpu", "gpu" or "gpu:1"."""
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
    raise InvalidArgumentError(
        f"{where}: expected a Place, 'cpu', 'gpu' or 'gpu:N', got {type(value).__name__} {value!r}"
    )
