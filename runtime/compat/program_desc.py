"""PaddlePaddle's legacy ``ProgramDesc`` as plain Python objects: blocks, each with its variables
(name, type, dtype, shape, persistable, stop_gradient) and its ops (type, inputs and outputs as
parameter -> argument names, attributes with their legacy types).

These are what the argument-mapping context (opdesc_context.py) and the translation to PIR
(translate.py) read. The ``.pdmodel`` file they come from is read by
`phiops.runtime.formats.pdmodel`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["ProgramDesc", "BlockDesc", "VarDesc", "OpDesc", "BlockRef"]


@dataclass(frozen=True)
class BlockRef:
    """The value of a BLOCK attribute: the index of a block of the same program."""

    index: int


@dataclass(frozen=True)
class VarDesc:
    """A variable: ``kind`` is the VarType (DENSE_TENSOR, FEED_MINIBATCH, ...); ``dtype`` and
    ``shape`` are those of its tensor (None when it holds none; -1 for an unknown dim)."""

    name: str
    kind: str
    dtype: str | None = None
    shape: tuple[int, ...] | None = None
    persistable: bool = False
    stop_gradient: bool = False
    is_parameter: bool = False
    need_check_feed: bool = False


@dataclass(frozen=True)
class OpDesc:
    """An op: ``inputs``/``outputs`` map parameter -> argument (variable) names in file order;
    ``attrs`` maps name -> value and ``attr_types`` name -> legacy AttrType ("INT", "LONG",
    "FLOATS", "BLOCK", ...)."""

    type: str
    inputs: dict[str, tuple[str, ...]]
    outputs: dict[str, tuple[str, ...]]
    attrs: dict[str, Any]
    attr_types: dict[str, str]
    block: int = 0

    def input(self, parameter: str) -> tuple[str, ...]:
        return self.inputs.get(parameter, ())

    def output(self, parameter: str) -> tuple[str, ...]:
        return self.outputs.get(parameter, ())


@dataclass(frozen=True)
class BlockDesc:
    idx: int
    parent_idx: int
    vars: dict[str, VarDesc]
    ops: tuple[OpDesc, ...]
    forward_block_idx: int = -1

    def find_var(self, name: str, program: ProgramDesc | None = None) -> VarDesc | None:
        """The variable ``name`` of this block or, given ``program``, of an enclosing one."""
        block: BlockDesc | None = self
        while block is not None:
            var = block.vars.get(name)
            if var is not None:
                return var
            parent = block.parent_idx
            block = program.blocks[parent] if program is not None and parent >= 0 else None
        return None


@dataclass(frozen=True)
class ProgramDesc:
    blocks: tuple[BlockDesc, ...]
    version: int = 0
    op_versions: dict[str, int] = field(default_factory=dict)
    source: str = "<bytes>"

    @property
    def global_block(self) -> BlockDesc:
        return self.blocks[0]
