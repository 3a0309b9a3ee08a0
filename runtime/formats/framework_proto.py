"""The message classes of PaddlePaddle 3.3.1's ``framework.proto`` (package
``paddle.framework.proto``), built in code from a ``FileDescriptorProto``: no ``.proto`` file and
no protoc at build or run time.

Only the messages a ``.pdmodel`` file holds are declared (ProgramDesc and what it contains);
field numbers, labels and defaults are PaddlePaddle's, so files it writes parse here and files
written here parse there.
"""

from __future__ import annotations

from typing import Any

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

__all__ = ["ProgramDesc", "ATTR_TYPES", "VAR_TYPES", "PACKAGE"]

PACKAGE = "paddle.framework.proto"
_F = descriptor_pb2.FieldDescriptorProto

ATTR_TYPES = {
    "INT": 0, "FLOAT": 1, "STRING": 2, "INTS": 3, "FLOATS": 4, "STRINGS": 5, "BOOLEAN": 6,
    "BOOLEANS": 7, "BLOCK": 8, "LONG": 9, "BLOCKS": 10, "LONGS": 11, "FLOAT64S": 12, "VAR": 13,
    "VARS": 14, "FLOAT64": 15, "SCALAR": 16, "SCALARS": 17,
}  # fmt: skip

VAR_TYPES = {
    "BOOL": 0, "INT16": 1, "INT32": 2, "INT64": 3, "FP16": 4, "FP32": 5, "FP64": 6,
    "SIZE_T": 19, "UINT8": 20, "INT8": 21, "BF16": 22, "COMPLEX64": 23, "COMPLEX128": 24,
    "FP8_E4M3FN": 32, "FP8_E5M2": 33, "UINT16": 36, "UINT32": 37, "UINT64": 38,
    "DENSE_TENSOR": 7, "SELECTED_ROWS": 8, "FEED_MINIBATCH": 9, "FETCH_LIST": 10,
    "STEP_SCOPES": 11, "LOD_RANK_TABLE": 12, "DENSE_TENSOR_ARRAY": 13, "PLACE_LIST": 14,
    "READER": 15, "RAW": 17, "TUPLE": 18, "STRING": 25, "STRINGS": 26, "VOCAB": 27,
    "FEED_LIST": 28, "PSTRING": 29, "SPARSE_COO": 30, "SPARSE_CSR": 31,
}  # fmt: skip

_SCALAR_TYPES = {"BOOLEAN": 1, "LONG": 2, "FLOAT64": 3, "COMPLEX128": 4}

_SCALARS = {
    "int32": _F.TYPE_INT32,
    "int64": _F.TYPE_INT64,
    "float": _F.TYPE_FLOAT,
    "double": _F.TYPE_DOUBLE,
    "bool": _F.TYPE_BOOL,
    "string": _F.TYPE_STRING,
}
_LABELS = {
    "required": _F.LABEL_REQUIRED,
    "optional": _F.LABEL_OPTIONAL,
    "repeated": _F.LABEL_REPEATED,
}


def _enum(parent: Any, name: str, values: dict[str, int]) -> None:
    enum = parent.enum_type.add(name=name)
    for key, number in values.items():
        enum.value.add(name=key, number=number)


def _message(parent: Any, name: str, fields: list[tuple], nested: bool = True) -> Any:
    """``fields``: (label, type, name, number[, default]); a type that is not a scalar is a
    message or enum named relative to the package (``OpDesc.Var``)."""
    message = (parent.nested_type if nested else parent.message_type).add(name=name)
    for label, kind, field_name, number, *default in fields:
        field = message.field.add(name=field_name, number=number, label=_LABELS[label])
        if kind in _SCALARS:
            field.type = _SCALARS[kind]
        else:
            enum_kind = kind.startswith("enum ")
            field.type = _F.TYPE_ENUM if enum_kind else _F.TYPE_MESSAGE
            field.type_name = f".{PACKAGE}.{kind.removeprefix('enum ')}"
        if default:
            field.default_value = default[0]
    return message


def _file() -> descriptor_pb2.FileDescriptorProto:
    proto = descriptor_pb2.FileDescriptorProto(
        name="phiops/paddle/framework.proto", package=PACKAGE, syntax="proto2"
    )
    _enum(proto, "AttrType", ATTR_TYPES)
    _message(proto, "Version", [("optional", "int64", "version", 1, "0")], nested=False)
    _message(
        proto,
        "Complex",
        [("required", "double", "r", 1), ("required", "double", "i", 2)],
        nested=False,
    )
    scalar = _message(
        proto,
        "Scalar",
        [
            ("required", "enum Scalar.Type", "type", 1),
            ("optional", "bool", "b", 2),
            ("optional", "int64", "i", 3),
            ("optional", "double", "r", 4),
            ("optional", "Complex", "c", 5),
        ],
        nested=False,
    )
    _enum(scalar, "Type", _SCALAR_TYPES)
    op = _message(
        proto,
        "OpDesc",
        [
            ("required", "string", "type", 3),
            ("repeated", "OpDesc.Var", "inputs", 1),
            ("repeated", "OpDesc.Var", "outputs", 2),
            ("repeated", "OpDesc.Attr", "attrs", 4),
            ("optional", "bool", "is_target", 5, "false"),
        ],
        nested=False,
    )
    _message(
        op,
        "Attr",
        [
            ("required", "string", "name", 1),
            ("required", "enum AttrType", "type", 2),
            ("optional", "int32", "i", 3),
            ("optional", "float", "f", 4),
            ("optional", "string", "s", 5),
            ("repeated", "int32", "ints", 6),
            ("repeated", "float", "floats", 7),
            ("repeated", "string", "strings", 8),
            ("optional", "bool", "b", 10),
            ("repeated", "bool", "bools", 11),
            ("optional", "int32", "block_idx", 12),
            ("optional", "int64", "l", 13),
            ("repeated", "int32", "blocks_idx", 14),
            ("repeated", "int64", "longs", 15),
            ("repeated", "double", "float64s", 16),
            ("optional", "string", "var_name", 17),
            ("repeated", "string", "vars_name", 18),
            ("optional", "double", "float64", 19),
            ("optional", "Scalar", "scalar", 20),
            ("repeated", "Scalar", "scalars", 21),
        ],
    )
    _message(
        op,
        "Var",
        [("required", "string", "parameter", 1), ("repeated", "string", "arguments", 2)],
    )
    var_type = _message(
        proto,
        "VarType",
        [
            ("required", "enum VarType.Type", "type", 1),
            ("optional", "VarType.TensorDesc", "selected_rows", 2),
            ("optional", "VarType.DenseTensorDesc", "dense_tensor", 3),
            ("optional", "VarType.DenseTensorArrayDesc", "tensor_array", 4),
            ("optional", "VarType.ReaderDesc", "reader", 5),
            ("optional", "VarType.Tuple", "tuple", 7),
            ("optional", "VarType.TensorDesc", "string", 8),
            ("optional", "VarType.TensorDesc", "strings", 9),
            ("optional", "VarType.TensorDesc", "vocab", 10),
            ("optional", "VarType.TensorDesc", "sparse_coo", 11),
            ("optional", "VarType.TensorDesc", "sparse_csr", 12),
        ],
        nested=False,
    )
    _enum(var_type, "Type", VAR_TYPES)
    _message(
        var_type,
        "TensorDesc",
        [("required", "enum VarType.Type", "data_type", 1), ("repeated", "int64", "dims", 2)],
    )
    for name in ("DenseTensorDesc", "DenseTensorArrayDesc"):
        _message(
            var_type,
            name,
            [
                ("required", "VarType.TensorDesc", "tensor", 1),
                ("optional", "int32", "legacy_lod_level", 2, "0"),
            ],
        )
    _message(var_type, "ReaderDesc", [("repeated", "VarType.DenseTensorDesc", "dense_tensor", 1)])
    _message(var_type, "Tuple", [("repeated", "enum VarType.Type", "element_type", 1)])
    var = _message(
        proto,
        "VarDesc",
        [
            ("required", "string", "name", 1),
            ("required", "VarType", "type", 2),
            ("optional", "bool", "persistable", 3, "false"),
            ("optional", "bool", "need_check_feed", 4, "false"),
            ("optional", "bool", "is_parameter", 5, "false"),
            ("optional", "bool", "stop_gradient", 6, "false"),
            ("repeated", "VarDesc.Attr", "attrs", 7),
        ],
        nested=False,
    )
    _message(
        var,
        "Attr",
        [
            ("required", "string", "name", 1),
            ("required", "enum AttrType", "type", 2),
            ("optional", "int32", "i", 3),
            ("optional", "string", "s", 4),
            ("repeated", "int32", "ints", 5),
        ],
    )
    _message(
        proto,
        "BlockDesc",
        [
            ("required", "int32", "idx", 1),
            ("required", "int32", "parent_idx", 2),
            ("repeated", "VarDesc", "vars", 3),
            ("repeated", "OpDesc", "ops", 4),
            ("optional", "int32", "forward_block_idx", 5, "-1"),
        ],
        nested=False,
    )
    _message(proto, "OpVersion", [("required", "int32", "version", 1)], nested=False)
    version_map = _message(
        proto,
        "OpVersionMap",
        [("repeated", "OpVersionMap.OpVersionPair", "pair", 1)],
        nested=False,
    )
    _message(
        version_map,
        "OpVersionPair",
        [("required", "string", "op_name", 1), ("required", "OpVersion", "op_version", 2)],
    )
    _message(
        proto,
        "ProgramDesc",
        [
            ("repeated", "BlockDesc", "blocks", 1),
            ("optional", "Version", "version", 4),
            ("optional", "OpVersionMap", "op_version_map", 5),
        ],
        nested=False,
    )
    return proto


def _build() -> type:
    pool = descriptor_pool.DescriptorPool()
    pool.Add(_file())
    return message_factory.GetMessageClass(pool.FindMessageTypeByName(f"{PACKAGE}.ProgramDesc"))


ProgramDesc: Any = _build()
