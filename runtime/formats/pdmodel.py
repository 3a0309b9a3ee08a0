"""PaddlePaddle's legacy ``.pdmodel`` file: a ``ProgramDesc`` protobuf.

`read_program_desc(path)` parses the protobuf with the message classes of
`phiops.runtime.formats.framework_proto` and returns a `ProgramDesc`
(`phiops.runtime.compat.program_desc`, the objects argument mapping reads): blocks, each with
its variables and its ops. `translate_to_pir` reads one (or takes it) and translates it to PIR
(`phiops.runtime.compat.translate`). Fields a newer PaddlePaddle
added, a version newer than 3.3.1's and enum values this reader does not know are skipped with a
`LegacyProgramWarning`; bytes that are not a ProgramDesc raise `InvalidArgumentError` naming the
file.
"""

from __future__ import annotations

import os
import warnings
from typing import Any, Union

from phiops.runtime.compat.program_desc import BlockDesc, BlockRef, OpDesc, ProgramDesc, VarDesc
from phiops.runtime.compat.translate import translate_program_desc
from phiops.runtime.errors import InvalidArgumentError, NotFoundError
from phiops.runtime.file_limits import MAX_BLOCK_DEPTH, MAX_PROGRAM_FILE_BYTES, read_file_bytes
from phiops.runtime.ir.core import Program

__all__ = [
    "LegacyProgramWarning",
    "read_program_desc",
    "parse_program_desc",
    "as_program_desc",
    "translate_to_pir",
    "KNOWN_VERSION",
]

PathLike = Union[str, "os.PathLike[str]"]
KNOWN_VERSION = 3003001  # what PaddlePaddle 3.3.1 writes (major * 1e6 + minor * 1e3 + patch)

# VarType.Type value -> numpy dtype name of a tensor's elements
_DTYPES = {
    0: "bool", 1: "int16", 2: "int32", 3: "int64", 4: "float16", 5: "float32", 6: "float64",
    20: "uint8", 21: "int8", 22: "bfloat16", 23: "complex64", 24: "complex128",
    32: "float8_e4m3fn", 33: "float8_e5m2", 36: "uint16", 37: "uint32", 38: "uint64",
}  # fmt: skip
_VAR_KINDS = {
    7: "DENSE_TENSOR", 8: "SELECTED_ROWS", 9: "FEED_MINIBATCH", 10: "FETCH_LIST",
    11: "STEP_SCOPES", 12: "LOD_RANK_TABLE", 13: "DENSE_TENSOR_ARRAY", 14: "PLACE_LIST",
    15: "READER", 17: "RAW", 18: "TUPLE", 25: "STRING", 26: "STRINGS", 27: "VOCAB",
    28: "FEED_LIST", 29: "PSTRING", 30: "SPARSE_COO", 31: "SPARSE_CSR",
}  # fmt: skip
# AttrType value -> (name, field holding the value)
_ATTR_FIELDS = {
    0: ("INT", "i"), 1: ("FLOAT", "f"), 2: ("STRING", "s"), 3: ("INTS", "ints"),
    4: ("FLOATS", "floats"), 5: ("STRINGS", "strings"), 6: ("BOOLEAN", "b"),
    7: ("BOOLEANS", "bools"), 8: ("BLOCK", "block_idx"), 9: ("LONG", "l"),
    10: ("BLOCKS", "blocks_idx"), 11: ("LONGS", "longs"), 12: ("FLOAT64S", "float64s"),
    13: ("VAR", "var_name"), 14: ("VARS", "vars_name"), 15: ("FLOAT64", "float64"),
    16: ("SCALAR", "scalar"), 17: ("SCALARS", "scalars"),
}  # fmt: skip


class LegacyProgramWarning(UserWarning):
    """A part of a ``.pdmodel`` this reader does not know was skipped."""


def read_program_desc(path: PathLike) -> ProgramDesc:
    """The ProgramDesc in the ``.pdmodel`` file ``path``."""
    source = os.fspath(path)
    if not os.path.exists(source):
        raise NotFoundError(f"read_program_desc: no file {source}")
    data = read_file_bytes(
        source, MAX_PROGRAM_FILE_BYTES, "MAX_PROGRAM_FILE_BYTES", ".pdmodel file"
    )
    return parse_program_desc(data, source)


def parse_program_desc(data: bytes, source: str = "<bytes>") -> ProgramDesc:
    """The ProgramDesc serialized in ``data``; ``source`` names it in errors and warnings."""
    from google.protobuf.message import DecodeError

    from phiops.runtime.formats.framework_proto import ProgramDesc as ProgramDescProto

    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise InvalidArgumentError(
            f"parse_program_desc: expected the bytes of a .pdmodel file, got {type(data).__name__}"
        )
    message = ProgramDescProto()
    try:
        message.MergeFromString(bytes(data))
    except DecodeError as error:
        raise InvalidArgumentError(
            f"{source}: not a PaddlePaddle ProgramDesc (.pdmodel) file, or a corrupt one: {error}"
        ) from None
    reader = _Reader(source)
    reader.skip_unknown(message, "ProgramDesc")
    if not message.blocks:
        raise InvalidArgumentError(f"{source}: the ProgramDesc has no block (is it a .pdmodel?)")
    version = message.version.version
    if version > KNOWN_VERSION:
        reader.warn(
            f"written by a newer PaddlePaddle (program version {version}, this reader knows "
            f"{KNOWN_VERSION}); what it does not know is skipped"
        )
    blocks = tuple(reader.block(block, index) for index, block in enumerate(message.blocks))
    _check_block_tree(blocks, source)
    op_versions = {pair.op_name: pair.op_version.version for pair in message.op_version_map.pair}
    return ProgramDesc(blocks, version, op_versions, source)


def _check_block_tree(blocks: tuple[BlockDesc, ...], source: str) -> None:
    """The blocks form a tree, so that walking it ends: block ``i`` has index ``i``, block 0 no
    parent and every other block an earlier one; an op's BLOCK attribute names a later block
    (no op holds its own block), and sub-blocks nest at most MAX_BLOCK_DEPTH deep."""
    count = len(blocks)
    depth = [0] * count
    for position, block in enumerate(blocks):
        where = f"{source}: block {position}"
        if block.idx != position:
            raise InvalidArgumentError(f"{where} has idx {block.idx}, expected {position}")
        if position == 0:
            if block.parent_idx != -1:
                raise InvalidArgumentError(
                    f"{where} (the global block) has parent_idx {block.parent_idx}, expected -1"
                )
        elif not 0 <= block.parent_idx < position:
            raise InvalidArgumentError(
                f"{where} has parent_idx {block.parent_idx}; a sub-block's parent is an earlier "
                f"block (0 to {position - 1})"
            )
        if not -1 <= block.forward_block_idx < count:
            raise InvalidArgumentError(
                f"{where} has forward_block_idx {block.forward_block_idx}, not a block of the "
                f"program (-1 to {count - 1})"
            )
    for position, block in enumerate(blocks):
        for index, op in enumerate(block.ops):
            for name, value in op.attrs.items():
                refs = value if isinstance(value, tuple) else (value,)
                for ref in refs:
                    if not isinstance(ref, BlockRef):
                        continue
                    if not position < ref.index < count:
                        raise InvalidArgumentError(
                            f"{source}: block {position} op {index} ('{op.type}') attribute "
                            f"'{name}' names block {ref.index}; an op's sub-block is a later "
                            f"block of the program ({position + 1} to {count - 1})"
                        )
                    depth[ref.index] = max(depth[ref.index], depth[position] + 1)
                    if depth[ref.index] > MAX_BLOCK_DEPTH:
                        raise InvalidArgumentError(
                            f"{source}: sub-blocks nest more than {MAX_BLOCK_DEPTH} deep at block "
                            f"{ref.index} (phiops.runtime.file_limits.MAX_BLOCK_DEPTH)"
                        )


class _Reader:
    """Converts messages, warning once per kind of thing it skips."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.warned: set[str] = set()

    def warn(self, text: str) -> None:
        if text not in self.warned:
            self.warned.add(text)
            warnings.warn(f"{self.source}: {text}", LegacyProgramWarning, stacklevel=4)

    def skip_unknown(self, message: Any, where: str) -> None:
        from google.protobuf.unknown_fields import UnknownFieldSet

        numbers = sorted({item.field_number for item in UnknownFieldSet(message)})
        if numbers:
            self.warn(f"{where} has field(s) {numbers} this reader does not know; skipped")

    def require(self, message: Any, names: tuple[str, ...], where: str) -> None:
        for name in names:
            if not message.HasField(name):
                raise InvalidArgumentError(
                    f"{self.source}: {where} lacks its required field '{name}' (corrupt file?)"
                )

    def block(self, message: Any, position: int) -> BlockDesc:
        where = f"block {position}"
        self.require(message, ("idx", "parent_idx"), where)
        self.skip_unknown(message, "BlockDesc")
        variables: dict[str, VarDesc] = {}
        for var in message.vars:
            desc = self.var(var, where)
            if desc is not None:
                variables[desc.name] = desc
        ops = tuple(self.op(op, message.idx, f"{where} op {i}") for i, op in enumerate(message.ops))
        return BlockDesc(message.idx, message.parent_idx, variables, ops, message.forward_block_idx)

    def var(self, message: Any, where: str) -> VarDesc | None:
        self.require(message, ("name",), f"{where}: a variable")
        where = f"{where} variable '{message.name}'"
        self.skip_unknown(message, "VarDesc")
        if not message.HasField("type") or not message.type.HasField("type"):
            self.warn(f"{where} has a variable type this reader does not know; variable skipped")
            return None
        var_type = message.type
        kind = _VAR_KINDS.get(var_type.type)
        if kind is None:
            kind = _DTYPES.get(var_type.type, f"TYPE_{var_type.type}")
        dtype = shape = None
        tensor = None
        if var_type.HasField("dense_tensor"):
            tensor = var_type.dense_tensor.tensor
        elif var_type.HasField("tensor_array"):
            tensor = var_type.tensor_array.tensor
        elif var_type.HasField("selected_rows"):
            tensor = var_type.selected_rows
        if tensor is not None:
            if tensor.HasField("data_type"):
                dtype = _DTYPES.get(tensor.data_type)
            if dtype is None:
                self.warn(f"{where} has an element type this reader does not know")
            shape = tuple(int(d) for d in tensor.dims)
        return VarDesc(
            message.name,
            kind,
            dtype,
            shape,
            message.persistable,
            message.stop_gradient,
            message.is_parameter,
            message.need_check_feed,
        )

    def op(self, message: Any, block: int, where: str) -> OpDesc:
        self.require(message, ("type",), where)
        where = f"{where} ('{message.type}')"
        self.skip_unknown(message, "OpDesc")
        inputs = {var.parameter: tuple(var.arguments) for var in message.inputs}
        outputs = {var.parameter: tuple(var.arguments) for var in message.outputs}
        attrs: dict[str, Any] = {}
        attr_types: dict[str, str] = {}
        for attr in message.attrs:
            if not attr.HasField("type") or attr.type not in _ATTR_FIELDS:
                self.warn(f"{where} attribute '{attr.name}' has a type this reader does not know")
                continue
            kind, name = _ATTR_FIELDS[attr.type]
            attrs[attr.name] = self.attr_value(kind, getattr(attr, name))
            attr_types[attr.name] = kind
        return OpDesc(message.type, inputs, outputs, attrs, attr_types, block)

    def attr_value(self, kind: str, value: Any) -> Any:
        if kind == "BLOCK":
            return BlockRef(value)
        if kind == "BLOCKS":
            return tuple(BlockRef(i) for i in value)
        if kind == "SCALAR":
            return _scalar(value)
        if kind == "SCALARS":
            return tuple(_scalar(item) for item in value)
        if kind in ("INTS", "FLOATS", "STRINGS", "BOOLEANS", "LONGS", "FLOAT64S", "VARS"):
            return tuple(value)
        return value


def _scalar(message: Any) -> Any:
    kind = message.type
    if kind == 1:
        return bool(message.b)
    if kind == 2:
        return int(message.i)
    if kind == 3:
        return float(message.r)
    return complex(message.c.r, message.c.i)


def as_program_desc(source: Any) -> ProgramDesc:
    """A `ProgramDesc` from itself, the bytes of a ``.pdmodel`` or its path."""
    if isinstance(source, ProgramDesc):
        return source
    if isinstance(source, (bytes, bytearray, memoryview)):
        return parse_program_desc(bytes(source))
    if isinstance(source, (str, os.PathLike)):
        return read_program_desc(source)
    raise InvalidArgumentError(
        "translate_to_pir: expected a ProgramDesc (runtime.compat.program_desc), the bytes of a "
        f".pdmodel file or its path, got {type(source).__name__}"
    )


def translate_to_pir(source: Any) -> Program:
    """The PIR program PaddlePaddle 3.3.1's ``paddle.pir.translate_to_pir`` builds for a legacy
    ``ProgramDesc`` (`phiops.runtime.compat.program_desc.ProgramDesc`, the bytes of a ``.pdmodel``
    file or its path): its printed text is PaddlePaddle's."""
    return translate_program_desc(as_program_desc(source))
