"""PaddlePaddle's program serialization (`.json`, base_code version 4, FORMATS.md), both ways.

`load_program_json` reads the one-line form (`save_inference_model`, `jit.save`) and the readable
one; `save_program_json` writes the one-line form, or the readable one with ``readable=True``.
"""

from __future__ import annotations

import gc
import json
import math
import os
from typing import Any, Union

from phiops.runtime.errors import InvalidArgumentError, NotFoundError, UnimplementedError
from phiops.runtime.file_limits import MAX_NUMBER_DIGITS, MAX_PROGRAM_FILE_BYTES, read_file_text
from phiops.runtime.formats.program_verify import verify_program
from phiops.runtime.ir.attributes import Attribute
from phiops.runtime.ir.core import Block, Operation, Program, Value
from phiops.runtime.ir.dialect import get_dialect
from phiops.runtime.ir.plugins import OpPackageDialect, find_dialect, missing_dialect_message
from phiops.runtime.ir.types import (
    NULL_TYPE,
    DenseTensorType,
    NullType,
    SelectedRowsType,
    SimpleDialectType,
    SparseCooTensorType,
    SparseCsrTensorType,
    TensorArrayType,
    Type,
    VectorType,
)

__all__ = ["load_program_json", "save_program_json", "program_from_json", "program_to_json"]

PathLike = Union[str, "os.PathLike[str]"]
VERSION = 4
DIALECT_IDS = {"0": "builtin", "1": "pd_op", "2": "cf"}
DIALECT_NUMBERS = {name: number for number, name in DIALECT_IDS.items()}
_ELEMENT_TAGS = {"bool": "b", "ui8": "u8"}
_ELEMENT_NAMES = {"b": "bool", "u8": "ui8"}
_ATTR_TAGS = {
    "0.a_bool": "bool",
    "0.a_i32": "int32",
    "0.a_i64": "int64",
    "0.a_f32": "float",
    "0.a_f64": "double",
    "0.a_str": "str",
    "0.a_array": "array",
    "1.a_intarray": "intarray",
    "1.a_dtype": "dtype",
    "1.a_place": "place",
    "1.a_layout": "layout",
}
_KIND_TAGS = {kind: tag for tag, kind in _ATTR_TAGS.items()}
_NON_FINITE = {"INF": math.inf, "-INF": -math.inf, "NaN": math.nan}
_PLACES = ("undefined", "cpu", "gpu", "gpu_pinned", "xpu", "ipu", "custom")
# per-result attributes that the file keeps apart from the op's own ("OA"), in the order
# PaddlePaddle writes them
_RESULT_ATTRIBUTES = ("persistable", "stop_gradient")
_PARAMETER_FLAGS = ("is_distributed", "is_parameter", "need_clip")
_PARAMETER_RESULT_FLAGS = ("persistable", "stop_gradient", "trainable")


class _Error(InvalidArgumentError):
    pass


def load_program_json(path: PathLike) -> Program:
    """Read a PaddlePaddle program file (`.json`) into a Program, verified (`verify_program`): a program
    the verifier refuses is an `InvalidArgumentError` naming the file and the op."""
    source = os.fspath(path)
    text = read_file_text(path, MAX_PROGRAM_FILE_BYTES, "MAX_PROGRAM_FILE_BYTES", "program file")
    # the decoded JSON and the program are trees (a Value's uses point back, but nothing needs
    # collecting while they are built): without this, the collector's passes over the growing
    # heap take most of the time of a large program (80,000 ops: ~4 s of ~6)
    collecting = gc.isenabled()
    gc.disable()
    try:
        try:
            data = json.loads(text, parse_int=_bounded_int, parse_constant=_no_constant)
        except RecursionError:
            raise InvalidArgumentError(
                f"{source}: not JSON phiops reads: it nests too deep"
            ) from None
        except json.JSONDecodeError as error:
            raise InvalidArgumentError(f"{source}: not JSON: {error}") from None
        except ValueError as error:
            raise InvalidArgumentError(f"{source}: not JSON phiops reads: {error}") from None
        try:
            program = program_from_json(data)
            verify_program(program)
            return program
        except InvalidArgumentError as error:
            raise InvalidArgumentError(f"{source}: {error}") from None
        except UnimplementedError as error:
            raise UnimplementedError(f"{source}: {error}") from None
        except NotFoundError as error:
            raise NotFoundError(f"{source}: {error}") from None
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as error:
            raise InvalidArgumentError(
                f"{source}: malformed program file ({type(error).__name__}: {error})"
            ) from None
        except RecursionError:
            raise InvalidArgumentError(
                f"{source}: malformed program file: its regions or attributes nest too deep"
            ) from None
    finally:
        if collecting:
            gc.enable()


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise ValueError(
            f"a number of more than {MAX_NUMBER_DIGITS} digits "
            "(phiops.runtime.file_limits.MAX_NUMBER_DIGITS)"
        )
    return int(text)


def _no_constant(text: str) -> float:
    raise ValueError(f'{text} is not JSON (the file spells non-finite numbers as "VD")')


def save_program_json(program: Program, path: PathLike, *, readable: bool = False) -> None:
    """Write ``program`` as PaddlePaddle's program file (base_code version 4)."""
    data = program_to_json(program)
    text = json.dumps(
        data, indent=4 if readable else None, separators=None if readable else (",", ":")
    )
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


# -- reading -----------------------------------------------------------------------------------
def program_from_json(data: dict) -> Program:
    if not isinstance(data, dict) or not isinstance(data.get("base_code"), dict):
        raise _Error("expected an object with 'base_code' and 'program' objects")
    base = data["base_code"]
    if base.get("magic") != "pir":
        raise _Error(f"magic is {base.get('magic')!r}, expected 'pir'")
    if base.get("version") != VERSION:
        raise UnimplementedError(
            f"program files of base_code version {base.get('version')} are not supported "
            f"(only version {VERSION})"
        )
    program = Program()
    regions = data["program"]["regions"]
    _read_block(regions[0]["blocks"][0], program.block, {})
    return program


def _read_type(data: dict) -> Type:
    tag = data["#"]
    if tag == "0.t_dtensor":
        element, dims, layout, lod, offset = data["D"]
        return DenseTensorType(
            tuple(dims), _element(element), layout, tuple(tuple(l) for l in lod), offset
        )
    if tag == "NULL":
        return NULL_TYPE
    if tag == "0.t_vec":
        return VectorType(tuple(_read_type(t) for t in data["D"]))
    if tag == "1.t_dense_tensor_array":
        element, dims, layout = data["D"]
        return TensorArrayType(_element(element), tuple(dims), layout)
    if tag == "1.t_selected_rows":
        element, dims, layout, lod, offset = data["D"]
        return SelectedRowsType(
            tuple(dims), _element(element), layout, tuple(tuple(l) for l in lod), offset
        )
    if tag in ("2.t_stack", "2.t_inlet", "2.t_outlet"):
        return SimpleDialectType("cf." + tag[4:])
    if tag == "1.t_sparse_coo_tensor":
        element, dims, non_zero_dims, layout, indices, values = data["D"]
        return SparseCooTensorType(
            tuple(dims),
            _element(element),
            tuple(non_zero_dims),
            layout,
            _read_part(indices),
            _read_part(values),
        )
    if tag == "1.t_sparse_csr_tensor":
        element, dims, layout, crows, cols, values = data["D"]
        return SparseCsrTensorType(
            tuple(dims),
            _element(element),
            layout,
            _read_part(crows),
            _read_part(cols),
            _read_part(values),
        )
    raise UnimplementedError(f"type tag {tag!r} is not supported")


def _read_part(data: dict) -> DenseTensorType:
    """A part (indices, values, ...) of a sparse tensor type: a dense tensor type."""
    part = _read_type(data)
    if not isinstance(part, DenseTensorType):
        raise _Error(f"a sparse tensor type's part must be a 0.t_dtensor, got {data.get('#')!r}")
    return part


def _element(data: dict) -> str:
    tag = data["#"]
    if not tag.startswith("0.t_"):
        raise _Error(f"element type tag {tag!r}")
    name = tag[4:]
    return _ELEMENT_TAGS.get(name, name)


def _read_attr(data: dict) -> Attribute:
    tag = data["#"]
    kind = _ATTR_TAGS.get(tag)
    if kind is None:
        raise UnimplementedError(f"attribute tag {tag!r} is not supported")
    if "VD" in data:
        return Attribute(kind, _NON_FINITE[data["VD"]])
    value = data["D"]
    if kind == "array":
        return Attribute("array", tuple(_read_attr(v) for v in value))
    if kind == "intarray":
        return Attribute("intarray", tuple(value))
    if kind in ("float", "double"):
        return Attribute(kind, float(value))
    if kind == "dtype":
        return Attribute("dtype", "Undefined" if value.startswith("Undefined") else value)
    if kind == "place":
        place_type, device, _ = value
        name = _PLACES[place_type] if place_type < len(_PLACES) else f"place{place_type}"
        return Attribute("place", "cpu" if name == "cpu" else f"{name}:{device}")
    return Attribute(kind, value)


def _read_block(data: dict, block: Block, values: dict[int, Value]) -> None:
    for arg in data["args"]:
        _define(values, arg["#"], block.add_arg(_read_type(arg["TT"])), "block argument")
    for op_data in data["ops"]:
        block.append(_read_op(op_data, values))


def _read_op(data: dict, values: dict[int, Value]) -> Operation:
    if data["#"] == "p":
        return _read_parameter(data, values)
    number, _, op_name = data["#"].partition(".")
    dialect = DIALECT_IDS.get(number)
    if dialect is None and number.isidentifier():
        # an op package's dialect is written by its name (docs/extending.md); reading it
        # imports the package that provides it
        if find_dialect(number) is None:
            raise NotFoundError(missing_dialect_message(f"{number}.{op_name}"))
        dialect = number
    if dialect is None:
        raise _Error(f"op {data['#']!r}: unknown dialect number {number}")
    operands = []
    for ref in data["I"]:
        vid = ref["%"]
        if type(vid) is not int:
            raise _Error(f"op {data['#']!r}: operand id {vid!r} is not an integer")
        if vid == 0:
            operands.append(None)
            continue
        if vid not in values:
            raise _Error(f"op {data['#']!r} uses value {vid} before its definition")
        operands.append(values[vid])
    outputs = data["O"]
    attributes = {a["N"]: _read_attr(a["AT"]) for a in data.get("A", ())}
    attributes.update({a["N"]: _read_attr(a["AT"]) for a in data.get("OA", ())})
    regions = data.get("regions", ())
    op = Operation(
        f"{dialect}.{op_name}",
        operands,
        [_read_type(o["TT"]) for o in outputs],
        attributes,
        num_regions=len(regions),
    )
    for value, out in zip(op.results, outputs):
        _define(values, out["%"], value, f"result of op {data['#']!r}")
    for region, region_data in zip(op.regions, regions):
        for block_data in region_data["blocks"]:
            _read_block(block_data, region.add_block(), values)
    return op


def _read_parameter(data: dict, values: dict[int, Value]) -> Operation:
    *flags, name = data["A"]
    attributes = {
        key: Attribute("array", (Attribute("bool", bool(flag)),))
        for key, flag in zip(_PARAMETER_FLAGS, flags)
    }
    attributes["parameter_name"] = Attribute("str", name)
    for key, flag in zip(_PARAMETER_RESULT_FLAGS, data["OA"]):
        attributes[key] = Attribute("array", (Attribute("bool", bool(flag)),))
    out = data["O"]
    op = Operation("builtin.parameter", (), [_read_type(out["TT"])], attributes)
    _define(values, out["%"], op.results[0], f"parameter {name!r}")
    return op


def _define(values: dict[int, Value], vid: Any, value: Value, what: str) -> None:
    """Record value id ``vid``: an integer other than 0 (a null operand) that no value has."""
    if type(vid) is not int or vid == 0:
        raise _Error(f"{what}: value id {vid!r} is not a non-zero integer")
    if vid in values:
        raise _Error(f"{what}: value id {vid} is defined twice")
    values[vid] = value


# -- writing -----------------------------------------------------------------------------------
def program_to_json(program: Program) -> dict:
    ids: dict[Value, int] = {}
    counters = {"value": 0, "arg": 0, "region": 0, "block": 0}
    block = _write_block(program.block, ids, counters)
    return {
        "base_code": {"magic": "pir", "trainable": True, "version": VERSION},
        "program": {"regions": [{"#": "region_0", "blocks": [block]}]},
    }


def _write_type(type_: Type) -> dict:
    if isinstance(type_, DenseTensorType):
        return {
            "#": "0.t_dtensor",
            "D": [
                _element_tag(type_.element),
                list(type_.dims),
                type_.layout,
                [list(l) for l in type_.lod],
                type_.offset,
            ],
        }
    if isinstance(type_, NullType):
        return {"#": "NULL"}
    if isinstance(type_, VectorType):
        return {"#": "0.t_vec", "D": [_write_type(t) for t in type_.types]}
    if isinstance(type_, TensorArrayType):
        return {
            "#": "1.t_dense_tensor_array",
            "D": [_element_tag(type_.element), list(type_.dims), type_.layout],
        }
    if isinstance(type_, SelectedRowsType):
        return {
            "#": "1.t_selected_rows",
            "D": [
                _element_tag(type_.element),
                list(type_.dims),
                type_.layout,
                [list(l) for l in type_.lod],
                type_.offset,
            ],
        }
    if isinstance(type_, SparseCooTensorType):
        return {
            "#": "1.t_sparse_coo_tensor",
            "D": [
                _element_tag(type_.element),
                list(type_.dims),
                list(type_.non_zero_dims),
                type_.layout,
                _write_type(type_.indices),
                _write_type(type_.values),
            ],
        }
    if isinstance(type_, SparseCsrTensorType):
        return {
            "#": "1.t_sparse_csr_tensor",
            "D": [
                _element_tag(type_.element),
                list(type_.dims),
                type_.layout,
                _write_type(type_.crows),
                _write_type(type_.cols),
                _write_type(type_.values),
            ],
        }
    if isinstance(type_, SimpleDialectType) and type_.name in ("cf.stack", "cf.inlet", "cf.outlet"):
        return {"#": "2.t_" + type_.name[3:]}
    raise UnimplementedError(f"type {type_} cannot be written to a program file")


def _element_tag(element: str) -> dict:
    return {"#": "0.t_" + _ELEMENT_NAMES.get(element, element)}


def _write_attr(attr: Attribute) -> dict:
    kind, value = attr.kind, attr.value
    tag = _KIND_TAGS.get(kind)
    if tag is None:
        raise UnimplementedError(f"attribute kind {kind!r} cannot be written to a program file")
    if kind in ("float", "double"):
        if math.isnan(value):
            return {"#": tag, "VD": "NaN"}
        if math.isinf(value):
            return {"#": tag, "VD": "INF" if value > 0 else "-INF"}
        return {"#": tag, "D": value}
    if kind == "array":
        return {"#": tag, "D": [_write_attr(v) for v in value]}
    if kind == "intarray":
        return {"#": tag, "D": list(value)}
    if kind == "dtype":
        return {"#": tag, "D": "Undefined(ALL_DTYPE)" if value == "Undefined" else value}
    if kind == "place":
        name, _, device = value.partition(":")
        return {"#": tag, "D": [_PLACES.index(name), int(device or 0), ""]}
    return {"#": tag, "D": value}


def _write_block(block: Block, ids: dict[Value, int], counters: dict[str, int]) -> dict:
    if block.kwargs:
        raise UnimplementedError(
            "writing a block with keyword arguments to a program file is not implemented "
            "(PaddlePaddle's file format, FORMATS.md, has no form for them)"
        )
    name = f"block_{counters['block']}"
    counters["block"] += 1
    args = []
    for arg in block.args:
        counters["arg"] += 1
        ids[arg] = -counters["arg"]
        args.append({"#": ids[arg], "TT": _write_type(arg.type)})
    return {"#": name, "args": args, "ops": [_write_op(op, ids, counters) for op in block.ops]}


def _new_id(value: Value, ids: dict[Value, int], counters: dict[str, int]) -> int:
    counters["value"] += 1
    ids[value] = counters["value"]
    return ids[value]


def _flag(attributes: dict, key: str) -> int | None:
    attr = attributes.get(key)
    if attr is None or attr.kind != "array" or len(attr.value) != 1:
        return None
    return int(bool(attr.value[0].value))


def _write_op(op: Operation, ids: dict[Value, int], counters: dict[str, int]) -> dict[str, Any]:
    attrs = op.attributes
    if op.name == "builtin.parameter" and len(op.results) == 1:
        flags = [_flag(attrs, k) for k in _PARAMETER_FLAGS + _PARAMETER_RESULT_FLAGS]
        name = attrs.get("parameter_name")
        if None not in flags and name is not None and len(attrs) == 7:
            return {
                "#": "p",
                "A": [*flags[:3], name.value],
                "DA": [],
                "O": {
                    "%": _new_id(op.results[0], ids, counters),
                    "TT": _write_type(op.results[0].type),
                },
                "OA": flags[3:],
                "QA": [],
            }
    dialect, _, name = op.name.partition(".")
    number = DIALECT_NUMBERS.get(dialect)
    if number is None and isinstance(get_dialect(dialect), OpPackageDialect):
        number = dialect  # an op package's dialect: written by its name
    elif number is None:
        raise UnimplementedError(
            f"op {op.name}: dialect '{dialect}' has no number in program files"
        )
    inputs = []
    for value in op.operands:
        if value is None:
            inputs.append({"%": 0})
        elif value not in ids:
            raise InvalidArgumentError(f"op {op.name} uses a value before its definition")
        else:
            inputs.append({"%": ids[value]})
    outputs = [{"%": _new_id(v, ids, counters), "TT": _write_type(v.type)} for v in op.results]
    data: dict[str, Any] = {
        "#": f"{number}.{name}",
        "A": [
            {"AT": _write_attr(a), "N": k}
            for k, a in attrs.items()
            if k not in _RESULT_ATTRIBUTES and k != "op_callstack"
        ],
        "I": inputs,
        "O": outputs,
        "OA": [{"AT": _write_attr(attrs[k]), "N": k} for k in _RESULT_ATTRIBUTES if k in attrs],
    }
    if op.regions:
        regions = []
        for region in op.regions:
            counters["region"] += 1
            regions.append(
                {
                    "#": f"region_{counters['region']}",
                    "blocks": [_write_block(b, ids, counters) for b in region.blocks],
                }
            )
        data["regions"] = regions
    return data
