"""The IR: Program -> Block -> Operation -> Value, with uses and order kept."""

from __future__ import annotations

import re
from typing import Iterator, Sequence

from phiops.runtime.ir.attributes import Attribute
from phiops.runtime.ir.types import NULL_TYPE, Type

__all__ = ["Value", "OpResult", "BlockArgument", "Operation", "Region", "Block", "Program"]

_KWARG_NAME = re.compile(r"[A-Za-z0-9_]+")


class Value:
    """An SSA value: an op result or a block argument. ``uses`` lists (operation, operand index)."""

    __slots__ = ("type", "uses")

    def __init__(self, type: Type) -> None:
        self.type = type
        self.uses: list[tuple[Operation, int]] = []

    @property
    def define_op(self) -> Operation | None:
        return None

    def replace_all_uses_with(self, other: Value) -> None:
        for op, index in self.uses:
            op.operands[index] = other
            other.uses.append((op, index))
        self.uses = []


class OpResult(Value):
    __slots__ = ("owner", "index")

    def __init__(self, type: Type, owner: Operation, index: int) -> None:
        super().__init__(type)
        self.owner = owner
        self.index = index

    @property
    def define_op(self) -> Operation:
        return self.owner

    @property
    def stop_gradient(self) -> bool:
        """Entry ``index`` of the owner's `stop_gradient` array attribute (True when absent)."""
        stop = self.owner.attributes.get("stop_gradient")
        if stop is not None and stop.kind == "array" and self.index < len(stop.value):
            return bool(stop.value[self.index].value)
        return True

    @stop_gradient.setter
    def stop_gradient(self, flag: bool) -> None:
        stop = self.owner.attributes.get("stop_gradient")
        flags = [True] * len(self.owner.results)
        if stop is not None and stop.kind == "array":
            for position, item in enumerate(stop.value[: len(flags)]):
                flags[position] = bool(item.value)
        flags[self.index] = bool(flag)
        self.owner.attributes["stop_gradient"] = Attribute(
            "array", tuple(Attribute("bool", f) for f in flags)
        )

    def __repr__(self) -> str:
        return (
            f"Value(define_op_name={self.owner.name}, index={self.index}, "
            f"dtype={self.type}, stop_gradient={self.stop_gradient})"
        )


class BlockArgument(Value):
    __slots__ = ("owner", "index", "attributes")

    def __init__(self, type: Type, owner: Block, index: int) -> None:
        super().__init__(type)
        self.owner = owner
        self.index = index
        self.attributes: dict[str, Attribute] = {}

    @property
    def stop_gradient(self) -> bool:
        """The argument's plain-bool `stop_gradient` attribute (True when absent)."""
        stop = self.attributes.get("stop_gradient")
        return True if stop is None else bool(stop.value)

    @stop_gradient.setter
    def stop_gradient(self, flag: bool) -> None:
        self.attributes["stop_gradient"] = Attribute("bool", bool(flag))

    def __repr__(self) -> str:
        return f"BlockArgument(index={self.index}, dtype={self.type})"


class Operation:
    """``name`` is "dialect.op"; operands may hold None (an absent optional input)."""

    __slots__ = (
        "name",
        "operands",
        "results",
        "attributes",
        "regions",
        "parent",
        "id",
        "__weakref__",
    )

    def __init__(
        self,
        name: str,
        operands: Sequence[Value | None] = (),
        result_types: Sequence[Type] = (),
        attributes: dict[str, Attribute] | None = None,
        num_regions: int = 0,
        id: int | None = None,
    ) -> None:
        self.name = name
        self.operands: list[Value | None] = list(operands)
        for index, value in enumerate(self.operands):
            if value is not None:
                value.uses.append((self, index))
        self.results = [OpResult(t, self, i) for i, t in enumerate(result_types)]
        self.attributes: dict[str, Attribute] = dict(attributes or {})
        self.regions = [Region(self) for _ in range(num_regions)]
        self.parent: Block | None = None
        self.id = id

    @property
    def dialect(self) -> str:
        return self.name.split(".", 1)[0]

    def result(self, index: int = 0) -> OpResult:
        return self.results[index]

    def operand_types(self) -> list[Type]:
        return [NULL_TYPE if v is None else v.type for v in self.operands]

    def __str__(self) -> str:
        from phiops.runtime.ir.printer import print_operation

        return f"Operation({print_operation(self)})"

    __repr__ = __str__


class Region:
    __slots__ = ("blocks", "parent")

    def __init__(self, parent: Operation | None = None) -> None:
        self.blocks: list[Block] = []
        self.parent = parent

    def add_block(self) -> Block:
        block = Block(self)
        self.blocks.append(block)
        return block


class Block:
    """Operations in order, positional arguments and keyword arguments."""

    __slots__ = ("ops", "args", "kwargs", "parent")

    def __init__(self, parent: Region | None = None) -> None:
        self.ops: list[Operation] = []
        self.args: list[BlockArgument] = []
        self.kwargs: dict[str, BlockArgument] = {}
        self.parent = parent

    def add_arg(self, type: Type) -> BlockArgument:
        arg = BlockArgument(type, self, len(self.args))
        self.args.append(arg)
        return arg

    def add_kwarg(self, name: str, type: Type) -> BlockArgument:
        """A keyword argument, printed `%kwarg_<name>`: ``name`` is letters, digits and `_`."""
        from phiops.runtime.errors import AlreadyExistsError, InvalidArgumentError

        if not _KWARG_NAME.fullmatch(name):
            raise InvalidArgumentError(
                f"block keyword argument name {name!r} must be letters, digits and '_' "
                "(it is printed as %kwarg_<name>)"
            )
        if name in self.kwargs:
            raise AlreadyExistsError(f"block already has a keyword argument {name!r}")
        arg = BlockArgument(type, self, -1)
        self.kwargs[name] = arg
        return arg

    def append(self, op: Operation) -> Operation:
        op.parent = self
        self.ops.append(op)
        return op

    def insert(self, index: int, op: Operation) -> Operation:
        op.parent = self
        self.ops.insert(index, op)
        return op

    def walk(self) -> Iterator[Operation]:
        """Every operation in textual order, nested ones included."""
        for op in self.ops:
            yield op
            for region in op.regions:
                for block in region.blocks:
                    yield from block.walk()

    def __str__(self) -> str:
        from phiops.runtime.ir.printer import print_block

        return print_block(self)


class Program:
    """One top-level block (the body of the unprinted `builtin.module`)."""

    __slots__ = ("module",)

    def __init__(self) -> None:
        self.module = Operation("builtin.module", num_regions=1)
        self.module.regions[0].add_block()

    @property
    def block(self) -> Block:
        return self.module.regions[0].blocks[0]

    def global_block(self) -> Block:
        return self.block

    def walk(self) -> Iterator[Operation]:
        return self.block.walk()

    def value(self, name: str) -> Value:
        """The value printed as ``name`` (e.g. "%15", "%arg_0", "%stack_0")."""
        from phiops.runtime.errors import NotFoundError
        from phiops.runtime.ir.printer import Namer

        namer = Namer()
        namer.name_block(self.block)
        for value, printed in namer.names.items():
            if printed == name:
                return value
        raise NotFoundError(f"program has no value printed as {name!r}")

    def __str__(self) -> str:
        from phiops.runtime.ir.printer import print_program

        return print_program(self)

    def __eq__(self, other: object) -> bool:
        from phiops.runtime.ir.printer import structural_key

        return isinstance(other, Program) and structural_key(self) == structural_key(other)

    __hash__ = None  # type: ignore[assignment]
