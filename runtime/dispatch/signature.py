"""Argument mapping: KernelSignature and the context mapping functions read an op through.

A mapping function ``f(ctx: ArgumentMappingContext) -> KernelSignature`` tells which kernel an op
instance runs and which of the op's inputs, attributes and outputs, by the op's own names, become
the kernel's arguments in kernel order (PHI's ``phi/ops/compat``; DESIGN.md §7). An attribute slot
may name a tensor input or tensor list that carries the attribute's value (a Scalar or IntArray
given as a tensor): ``KernelSignature("full", (), ("ShapeTensor", "value"), ("Out",))``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Iterable

__all__ = ["KernelSignature", "ArgumentMappingContext", "grad_var_name", "GRAD_SUFFIX"]

GRAD_SUFFIX = "@GRAD"


def grad_var_name(name: str) -> str:
    """The legacy name of the gradient of ``name``: ``X`` -> ``X@GRAD`` (PaddlePaddle's
    ``GradVarName``)."""
    return name + GRAD_SUFFIX


@dataclass(frozen=True)
class KernelSignature:
    """Which kernel an op maps to, and its inputs, attributes and outputs by name, in order.

    Lists are accepted and stored as tuples, so ``KernelSignature("full", [], ["ShapeTensor",
    "value"], ["Out"])`` is PHI's spelling."""

    name: str
    inputs: tuple[str, ...] = ()
    attrs: tuple[str, ...] = ()
    outputs: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for field_name in ("inputs", "attrs", "outputs"):
            value: Iterable[str] = getattr(self, field_name)
            if not isinstance(value, tuple):
                object.__setattr__(self, field_name, tuple(value))

    @property
    def params(self) -> tuple[str, ...]:
        """The kernel's arguments before its outputs: inputs, then attributes."""
        return self.inputs + self.attrs

    def __str__(self) -> str:
        def names(items: tuple[str, ...]) -> str:
            return "{" + ", ".join(f'"{n}"' for n in items) + "}"

        return (
            f'KernelSignature("{self.name}", {names(self.inputs)}, {names(self.attrs)}, '
            f"{names(self.outputs)})"
        )


class ArgumentMappingContext(ABC):
    """What a mapping function may ask of an op instance (a legacy OpDesc, an eager call).

    Names are the op's own (legacy ``X``, ``ShapeTensor``, ``Out``...). ``has_input`` is true for an
    input that is given and not empty; ``input_size`` counts the tensors of an input (0 when
    absent, 1 for a single tensor, the length of a tensor list)."""

    @abstractmethod
    def has_input(self, name: str) -> bool: ...

    @abstractmethod
    def has_output(self, name: str) -> bool: ...

    @abstractmethod
    def has_attr(self, name: str) -> bool: ...

    @abstractmethod
    def attr(self, name: str) -> Any: ...

    @abstractmethod
    def input_size(self, name: str) -> int: ...

    @abstractmethod
    def output_size(self, name: str) -> int: ...

    @abstractmethod
    def is_dense_tensor_input(self, name: str) -> bool: ...

    @abstractmethod
    def is_dense_tensor_vector_input(self, name: str) -> bool: ...

    @abstractmethod
    def is_selected_rows_input(self, name: str) -> bool: ...

    @abstractmethod
    def is_dense_tensor_output(self, name: str) -> bool: ...

    def is_selected_rows_output(self, name: str) -> bool:
        """Whether output ``name`` is SelectedRows; phiops' own tensors never are."""
        return False

    def is_for_infer_shape(self) -> bool:
        """True when the mapping is asked for shape inference only (PHI then maps some ops to
        ``*_infer`` kernels); False when a kernel will run."""
        return False
