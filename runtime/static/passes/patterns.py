"""What the folding and fusion passes ask of a program: the live uses of a value, the constant
operand of an elementwise op, and the producers they fold into (convolutions and matmul) with
the axis of their output channels."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from phiops.runtime.errors import PhiError
from phiops.runtime.ir.core import Block, Operation, Value
from phiops.runtime.ir.types import DenseTensorType
from phiops.runtime.static.executor.metas import dtype_of

__all__ = ["Producer", "Uses", "broadcasts_into", "declared_numpy_dtype", "producer_of"]

_CONVOLUTIONS = ("pd_op.conv2d", "pd_op.depthwise_conv2d")


@dataclass(frozen=True)
class Producer:
    """A convolution or matmul with a constant weight: which operand the weight is, the weight's
    axis of output channels, and the axis of the channels in the op's result."""

    weight_operand: int
    weight_axis: int
    out_axis: int


def producer_of(op: Operation, constants: dict[Value, Any]) -> Producer | None:
    """``op`` as a producer passes fold into, or None: a 2-D convolution (NCHW or NHWC) or a
    matmul of a non-constant by a constant 2-D matrix."""
    if len(op.operands) < 2 or op.operands[1] not in constants or len(op.results) != 1:
        return None
    rank = _rank(op.results[0])
    if rank is None:
        return None
    if op.name in _CONVOLUTIONS:
        layout = op.attributes.get("data_format")
        channels_last = layout is not None and layout.value == "NHWC"
        return Producer(1, 0, rank - 1 if channels_last else 1)
    if op.name == "pd_op.matmul":
        if op.operands[0] in constants or getattr(constants[op.operands[1]], "ndim", 0) != 2:
            return None
        transpose_y = op.attributes.get("transpose_y")
        return Producer(1, 0 if transpose_y is not None and transpose_y.value else 1, rank - 1)
    return None


def _rank(value: Value) -> int | None:
    declared = value.type
    return len(declared.dims) if isinstance(declared, DenseTensorType) else None


def broadcasts_into(value: Value, array: Any) -> bool:
    """Whether ``array`` broadcasts into the declared dims of ``value`` without changing them
    (each of its extents 1, or equal to a known extent of the value)."""
    declared = value.type
    if not isinstance(declared, DenseTensorType) or array.ndim > len(declared.dims):
        return False
    dims = declared.dims[len(declared.dims) - array.ndim :]
    return all(extent == 1 or extent == dim for extent, dim in zip(array.shape, dims))


def declared_numpy_dtype(value: Value) -> Any:
    """The numpy dtype of the dense tensor ``value`` is declared as; None for another type or a
    dtype numpy lacks."""
    if not isinstance(value.type, DenseTensorType):
        return None
    try:
        return dtype_of(value.type.element, "inference passes").numpy_dtype
    except PhiError:  # a dtype numpy lacks
        return None


class Uses:
    """The live readers of values: uses by top-level ops that are not dead, and by ops nested
    in regions (counted as readers that no pass may remove)."""

    def __init__(self, block: Block, dead: frozenset[int], fetched: set[Value]) -> None:
        self.index_of = {op: index for index, op in enumerate(block.ops)}
        self.dead = dead
        self.fetched = fetched

    def only_reader(self, value: Value) -> tuple[int, Operation] | None:
        """The one live top-level op reading ``value`` (once), or None: none, several, a
        nested reader, or a fetched value."""
        if value in self.fetched:
            return None
        readers = []
        for op, _ in value.uses:
            index = self.index_of.get(op)
            if index is None:
                return None
            if index not in self.dead:
                readers.append((index, op))
        return readers[0] if len(readers) == 1 else None

    def unread(self, value: Value) -> bool:
        if value in self.fetched:
            return False
        return all(self.index_of.get(op, -1) in self.dead for op, _ in value.uses)
