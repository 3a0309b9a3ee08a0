"""Argument mapping: KernelSignature and the context mapping functions read an op through."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

__all__ = ["KernelSignature", "ArgumentMappingContext"]


@dataclass(frozen=True)
class KernelSignature:
    """Which kernel an op maps to, and its inputs, attributes and outputs by name, in order."""

    name: str
    inputs: tuple[str, ...] = ()
    attrs: tuple[str, ...] = ()
    outputs: tuple[str, ...] = ()


class ArgumentMappingContext(ABC):
    """What a mapping function may ask of an op instance (eager call or graph node)."""

    @abstractmethod
    def has_input(self, name: str) -> bool: ...

    @abstractmethod
    def has_attr(self, name: str) -> bool: ...

    @abstractmethod
    def has_output(self, name: str) -> bool: ...

    @abstractmethod
    def attr(self, name: str) -> Any: ...

    @abstractmethod
    def input_size(self, name: str) -> int: ...

    @abstractmethod
    def output_size(self, name: str) -> int: ...

    @abstractmethod
    def is_dense_tensor_input(self, name: str) -> bool: ...
