"""KernelKey: (backend, layout, dtype), the second-level key of the KernelFactory."""

from __future__ import annotations

from typing import NamedTuple

from phiops.runtime.common import Backend, DataLayout, DataType

__all__ = ["KernelKey"]


class KernelKey(NamedTuple):
    backend: Backend
    layout: DataLayout
    dtype: DataType

    def __str__(self) -> str:
        return f"({self.backend.name}, {self.layout.name}, {self.dtype.name})"
