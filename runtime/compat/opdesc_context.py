"""An ArgumentMappingContext over a legacy OpDesc read from a ``.pdmodel`` (PaddlePaddle's
``InferShapeArgumentMappingContext`` over a ``framework::OpDesc``)."""

from __future__ import annotations

from typing import Any

from phiops.runtime.compat.program_desc import BlockDesc, OpDesc, ProgramDesc, VarDesc
from phiops.runtime.dispatch.signature import ArgumentMappingContext
from phiops.runtime.errors import NotFoundError

__all__ = ["OpDescContext"]


class OpDescContext(ArgumentMappingContext):
    """What a mapping function may ask of ``op``; variable types come from ``block`` (and the
    blocks enclosing it, given ``program``). An input or output is present when the OpDesc lists
    at least one argument for it."""

    __slots__ = ("op", "block", "program")

    def __init__(self, op: OpDesc, block: BlockDesc, program: ProgramDesc | None = None) -> None:
        self.op = op
        self.block = block
        self.program = program

    def _vars(self, names: tuple[str, ...]) -> list[VarDesc | None]:
        return [self.block.find_var(name, self.program) for name in names]

    def has_input(self, name: str) -> bool:
        return self.input_size(name) > 0

    def has_output(self, name: str) -> bool:
        return self.output_size(name) > 0

    def has_attr(self, name: str) -> bool:
        return name in self.op.attrs

    def attr(self, name: str) -> Any:
        try:
            return self.op.attrs[name]
        except KeyError:
            known = ", ".join(sorted(self.op.attrs)) or "none"
            raise NotFoundError(
                f"legacy op '{self.op.type}' has no attribute '{name}' (it has: {known})"
            ) from None

    def input_size(self, name: str) -> int:
        return len(self.op.input(name))

    def output_size(self, name: str) -> int:
        return len(self.op.output(name))

    def _all_of_kind(self, names: tuple[str, ...], kind: str) -> bool:
        found = self._vars(names)
        return bool(found) and all(v is not None and v.kind == kind for v in found)

    def is_dense_tensor_input(self, name: str) -> bool:
        names = self.op.input(name)
        return len(names) == 1 and self._all_of_kind(names, "DENSE_TENSOR")

    def is_dense_tensor_vector_input(self, name: str) -> bool:
        return self._all_of_kind(self.op.input(name), "DENSE_TENSOR")

    def is_selected_rows_input(self, name: str) -> bool:
        names = self.op.input(name)
        return len(names) == 1 and self._all_of_kind(names, "SELECTED_ROWS")

    def is_dense_tensor_output(self, name: str) -> bool:
        return self._all_of_kind(self.op.output(name), "DENSE_TENSOR")

    def is_selected_rows_output(self, name: str) -> bool:
        return self._all_of_kind(self.op.output(name), "SELECTED_ROWS")

    def __repr__(self) -> str:
        return f"OpDescContext({self.op.type}, inputs={sorted(self.op.inputs)})"
