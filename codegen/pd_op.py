"""pd_op's op definitions from PaddlePaddle's own specs (ops/paddle/), for generated/pd_op_dialect.py.

PaddlePaddle generates its `pd_op` dialect from these files; so do we, as a compact table:
operands, attributes (name:kind) and results per op (the row format of
runtime/ir/dialects/table.py). The rules are PaddlePaddle's: tensor arguments are operands;
a Scalar/IntArray argument that op_compat.yaml lets come as a tensor (`tensor_name`,
`tensors_name`, `support_tensor`) is a "mutable attribute" and becomes an operand after the
tensors; every other argument is an attribute; an op with `inplace` also exists as `<op>_`; a sparse
op is named after its kernel (`abs_coo_sp`, see PD_OP_SPARSE_FILES).

These files are from September 2024; PaddlePaddle 3.3.1 is the truth. Its headers list every op
it registers with its operands, results and attribute types (registered_ops_3_3_1.json, written
by tests/tools/dump_pd_op_signatures.py): an op the files lack is defined from them, and an op
whose operands, results or attributes 3.3.1 declares differently takes 3.3.1's (keeping the
files' optional/vector marks and agreeing kinds). What the headers cannot say (attribute kinds
seen only in built programs) ops/paddle/pd_op_corrections.yaml says, with the reason (checked by
tests/tools/check_pd_op_defs.py against 3.3.1).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from phiops.codegen.errors import Diagnostic, SpecError
from phiops.codegen.loader import read_data, read_spec_file
from phiops.codegen.model import Location

__all__ = [
    "PD_OP_DIR",
    "PD_OP_SPEC_FILES",
    "CORRECTIONS",
    "pd_op_rows",
    "pd_op_scalar_dtypes",
    "pd_op_input_files",
    "pd_op_context",
]

PD_OP_DIR = "ops/paddle"
# lowest precedence first: a later file's definition of an op replaces an earlier one, as
# PaddlePaddle lets its static (inconsistent/) definitions win over the shared ones
PD_OP_SPEC_FILES = (
    "dygraph_ops.yaml",
    "dygraph_backward.yaml",
    "legacy_static_ops.yaml",
    "legacy_static_backward.yaml",
    "fused_ops.yaml",
    "fused_backward.yaml",
    "ops.yaml",
    "backward.yaml",
    "inconsistent_static_ops.yaml",
    "inconsistent_static_backward.yaml",
    "inconsistent_update_ops.yaml",
)
# sparse ops: PaddlePaddle names each kernel variant `<kernel func>_sp` (`abs_coo_sp`), or
# `<op>_sp` when there is one (`conv3d_sp`, `batch_norm_sp_`)
PD_OP_SPARSE_FILES = ("sparse_ops.yaml", "sparse_backward.yaml")
COMPAT_FILE = "op_compat.yaml"
# every op PaddlePaddle 3.3.1 registers, from its headers (tests/tools/dump_pd_op_signatures.py):
# defines the ops added after these September-2024 specs
REGISTERED = "registered_ops_3_3_1.json"
CORRECTIONS = "pd_op_corrections.yaml"
# C++ attribute types of the registered ops' Build() -> attribute kinds; others are left to the
# parser's reading of the spelling
_CPP_KINDS = {
    "bool": "bool",
    "int": "int32",
    "int64_t": "int64",
    "float": "float",
    "double": "double",
    "std::string": "str",
    "phi::DataType": "dtype",
    "phi::Place": "place",
    "phi::DataLayout": "layout",
    "std::vector<int>": "array<int32>",
    "std::vector<int64_t>": "array<int64>",
    "std::vector<float>": "array<float>",
    "std::vector<double>": "array<double>",
    "std::vector<std::string>": "array<str>",
    "std::vector<phi::Scalar>": "array<scalar>",
    "std::vector<phi::DataType>": "array<dtype>",
}

_ATTRIBUTE_KINDS = {
    "bool": "bool",
    "int": "int32",
    "int32_t": "int32",
    "int64_t": "int64",
    "float": "float",
    "double": "double",
    "str": "str",
    "std::string": "str",
    "DataType": "dtype",
    "DataLayout": "layout",
    "Place": "place",
    "IntArray": "intarray",
    "Scalar": "scalar",
    "Scalar(int)": "int32",
    "Scalar(int64_t)": "int64",
    "Scalar(float)": "float",
    "Scalar(double)": "double",
    "Scalar(bool)": "bool",
}
_COMPAT_SCALAR_KINDS = {
    "float": "float",
    "double": "double",
    "int": "int32",
    "int64_t": "int64",
    "bool": "bool",
    "std::string": "str",
}
# the dtype of the `full` that PaddlePaddle builds for a Scalar operand given as a number: the
# type in `Scalar(T)`, else the op_compat.yaml data_type, else float32
_SCALAR_OPERAND_DTYPES = {
    "float": "float32",
    "double": "float64",
    "int": "int32",
    "int64_t": "int64",
    "bool": "bool",
}
_ARG = re.compile(
    r"\s*([A-Za-z_][A-Za-z0-9_:]*(?:\([A-Za-z0-9_]+\))?(?:\[\])?)\s+([A-Za-z_][A-Za-z0-9_]*)"
)
_OUTPUT = re.compile(r"\s*(Tensor(?:\[\])?)\s*(?:\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*\))?")
_ATTRIBUTE_ITEM = re.compile(r"[A-Za-z_][A-Za-z0-9_]*:(?:array<)?[a-z0-9]+>?")
_ROW_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\??(?:\[\]|\*)?|\.\.\.")


@dataclass(frozen=True)
class _Arg:
    type: str
    name: str


def pd_op_input_files(root: Path) -> list[Path]:
    base = root / PD_OP_DIR
    names = (*PD_OP_SPEC_FILES, *PD_OP_SPARSE_FILES, COMPAT_FILE, REGISTERED, CORRECTIONS)
    paths = [base / name for name in names]
    return [p for p in paths if p.exists()]


def _load(path: Path, rel: str) -> list:
    text, diagnostics = read_spec_file(path, rel)
    if text is not None:
        data, diagnostics = read_data(text, rel)
    if diagnostics:
        raise SpecError(diagnostics)
    if not isinstance(data, list):
        raise SpecError([Diagnostic(Location(rel, 1, 1), None, "expected a list of ops")])
    return data


def _split_top(text: str) -> list[str]:
    parts, depth, current, quote = [], 0, [], False
    for ch in text:
        if ch == '"':
            quote = not quote
        elif not quote and ch in "([{":
            depth += 1
        elif not quote and ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0 and not quote:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    if "".join(current).strip():
        parts.append("".join(current))
    return parts


def _parse_args(text: str, where: str) -> list[_Arg]:
    text = text.strip()
    if not (text.startswith("(") and text.endswith(")")):
        raise SpecError([Diagnostic(None, None, f"{where}: args must be parenthesised: {text!r}")])
    args = []
    for part in _split_top(text[1:-1]):
        match = _ARG.match(part)
        if match is None:
            raise SpecError([Diagnostic(None, None, f"{where}: cannot read argument {part!r}")])
        args.append(_Arg(match.group(1), match.group(2)))
    return args


def _parse_outputs(text: str, where: str) -> list[_Arg]:
    outputs = []
    parts = _split_top(text)
    for part in parts:
        match = _OUTPUT.match(part)
        if match is None:
            raise SpecError([Diagnostic(None, None, f"{where}: cannot read output {part!r}")])
        outputs.append(_Arg(match.group(1), match.group(2) or "out"))
    return outputs


def _names(value: object) -> set[str]:
    if value is None:
        return set()
    return {n.strip() for n in str(value).split(",") if n.strip()}


def _compat_items(root: Path) -> dict[str, dict]:
    """op name (forward and its backward ops) -> its op_compat.yaml entry."""
    items: dict[str, dict] = {}
    for entry in _load(root / PD_OP_DIR / COMPAT_FILE, f"{PD_OP_DIR}/{COMPAT_FILE}"):
        name = str(entry.get("op", "")).split("(")[0].strip()
        if not name:
            continue
        items[name] = entry
        for backward in _names(entry.get("backward")):
            items.setdefault(backward.split("(")[0].strip(), entry)
    return items


def _compat_scalar_types(compat: dict | None) -> dict[str, str]:
    """Scalar arguments -> the data_type op_compat.yaml gives them."""
    return {
        arg: str(spec["data_type"])
        for arg, spec in ((compat or {}).get("scalar") or {}).items()
        if spec and "data_type" in spec
    }


def _scalar_operand_dtypes(
    entry: dict, compat: dict | None, operands: str, where: str
) -> dict[str, str]:
    """The Scalar operands among ``operands`` (a row's first item) -> their `full`'s dtype."""
    names = {word.rstrip("?") for word in operands.split()}
    compat_types = _compat_scalar_types(compat)
    found = {}
    for arg in _parse_args(str(entry.get("args", "()")), where):
        if arg.name in names and arg.type.startswith("Scalar"):
            spelled = arg.type[7:-1] or compat_types.get(arg.name) or "float"
            found[arg.name] = _SCALAR_OPERAND_DTYPES.get(spelled, "float32")
    return found


def _mutable(compat: dict | None) -> dict[str, str | None]:
    """Scalar/IntArray arguments that may come as tensors -> their compat data_type."""
    found: dict[str, str | None] = {}
    if not compat:
        return found
    for section in ("scalar", "int_array"):
        for arg, spec in (compat.get(section) or {}).items():
            spec = spec or {}
            if spec.get("support_tensor") or "tensor_name" in spec or "tensors_name" in spec:
                found[arg] = None
            elif section == "scalar" and "data_type" in spec:
                found[arg] = str(spec["data_type"])
    return found


def _row(entry: dict, compat: dict | None, where: str) -> tuple[str, str, str]:
    args = _parse_args(str(entry.get("args", "()")), where)
    output = entry.get("output")
    outputs = [] if output is None else _parse_outputs(str(output), where)
    optional = _names(entry.get("optional"))
    compat_args = _mutable(compat)
    operands, mutable, attributes = [], [], []
    for arg in args:
        optional_mark = "?" if arg.name in optional else ""
        if arg.type == "Tensor":
            operands.append(f"{arg.name}{optional_mark}")
        elif arg.type == "Tensor[]":
            operands.append(f"{arg.name}{optional_mark}[]")
        elif (
            arg.name in compat_args
            and compat_args[arg.name] is None
            and arg.type
            in (
                "Scalar",
                "IntArray",
                "Scalar(float)",
                "Scalar(int)",
                "Scalar(int64_t)",
                "Scalar(double)",
                "Scalar(bool)",
            )
        ):
            mutable.append(arg.name)
        else:
            kind = _ATTRIBUTE_KINDS.get(arg.type)
            if kind == "scalar" and compat_args.get(arg.name):
                kind = _COMPAT_SCALAR_KINDS.get(compat_args[arg.name], "scalar")
            if kind is None and arg.type.endswith("[]"):
                element = _ATTRIBUTE_KINDS.get(arg.type[:-2])
                kind = f"array<{element}>" if element else None
            if kind is None:
                raise SpecError(
                    [
                        Diagnostic(
                            None,
                            None,
                            f"{where}: argument {arg.name!r} has unknown type {arg.type!r}",
                        )
                    ]
                )
            attributes.append(f"{arg.name}:{kind}")
    results = [
        f"{o.name}{'?' if o.name in optional else ''}{'[]' if o.type == 'Tensor[]' else ''}"
        for o in outputs
    ]
    return " ".join(operands + mutable), " ".join(attributes), " ".join(results)


def _apply_corrections(rows: dict[str, tuple[str, str, str]], root: Path) -> None:
    rel = f"{PD_OP_DIR}/{CORRECTIONS}"
    for entry in _load(root / PD_OP_DIR / CORRECTIONS, rel):
        name = entry.get("op")
        if not isinstance(name, str) or not entry.get("reason"):
            raise SpecError(
                [
                    Diagnostic(
                        None, None, f"{rel}: every correction needs 'op' and 'reason': {entry!r}"
                    )
                ]
            )
        unknown = set(entry) - {
            "op",
            "reason",
            "operands",
            "attributes",
            "results",
            "set_attributes",
        }
        if unknown:
            raise SpecError(
                [Diagnostic(None, None, f"{rel}: op {name!r}: unknown keys {sorted(unknown)}")]
            )
        old = rows.get(name)
        if old is None and not all(k in entry for k in ("operands", "attributes", "results")):
            raise SpecError(
                [
                    Diagnostic(
                        None,
                        None,
                        f"{rel}: op {name!r} is not in the specs: give operands, attributes and results",
                    )
                ]
            )
        operands, attributes, results = old or ("", "", "")
        operands = str(entry.get("operands", operands))
        attributes = str(entry.get("attributes", attributes))
        results = str(entry.get("results", results))
        patch = entry.get("set_attributes") or {}
        if patch:
            kinds = dict(item.split(":", 1) for item in attributes.split())
            for key, kind in patch.items():
                if key not in kinds:
                    raise SpecError(
                        [
                            Diagnostic(
                                None,
                                None,
                                f"{rel}: op {name!r} has no attribute {key!r} to correct",
                            )
                        ]
                    )
                kinds[key] = str(kind)
            attributes = " ".join(f"{k}:{v}" for k, v in kinds.items())
        for item in attributes.split():
            if not _ATTRIBUTE_ITEM.fullmatch(item):
                raise SpecError(
                    [Diagnostic(None, None, f"{rel}: op {name!r}: malformed attribute {item!r}")]
                )
        for text in (operands, results):
            if any(not _ROW_WORD.fullmatch(w) for w in text.split()):
                raise SpecError(
                    [Diagnostic(None, None, f"{rel}: op {name!r}: malformed list {text!r}")]
                )
        rows[name] = (operands, attributes, results)


def _kernel_funcs(entry: dict) -> list[str]:
    kernel = entry.get("kernel") or {}
    funcs = str(kernel.get("func", "")) if isinstance(kernel, dict) else ""
    return [part.split("{")[0].strip() for part in _split_top(funcs) if part.strip()]


def _sparse_names(name: str, entry: dict) -> list[str]:
    funcs = _kernel_funcs(entry)
    if len(funcs) > 1:
        return [f"{func}_sp" for func in funcs]
    if name.endswith("_"):
        return [f"{name[:-1]}_sp_"]
    return [f"{name}_sp"]


def _registered(root: Path) -> dict[str, dict]:
    rel = f"{PD_OP_DIR}/{REGISTERED}"
    try:
        data = json.loads((root / PD_OP_DIR / REGISTERED).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise SpecError([Diagnostic(None, None, f"{rel}: cannot read: {error}")]) from None
    if not isinstance(data, dict):
        raise SpecError([Diagnostic(None, None, f"{rel}: expected an object of ops")])
    return data


# a spec kind that 3.3.1's C++ type does not spell the same way but agrees with
_AGREEING_KINDS = {
    "intarray": {"array<int64>"},
    "scalar": {"int32", "int64", "float", "double", "bool"},
}


def _values(names: list[str], spec: str) -> str:
    """``names`` (3.3.1's order) with the spec's `?`/`[]` marks; a name the spec lacks may be
    null or a vector (`?*`: the headers do not say)."""
    marks = {}
    for word in spec.split():
        bare = word.replace("[]", "").rstrip("*").rstrip("?")
        marks[bare] = word[len(bare) :]
    return " ".join(name + marks.get(name, "?*") for name in names)


def _reconciled(row: tuple[str, str, str] | None, op: dict) -> tuple[str, str, str]:
    """The row of a 3.3.1-registered op: its operands, results and (where its Build() spells
    them all out) attributes as 3.3.1 declares them, with the spec's marks and kinds kept
    where they agree."""
    operands, attributes, results = row or ("", "", "")
    if "..." not in operands:
        operands = _values(op["operands"], operands)
    if "..." not in results:
        results = _values(op["results"], results)
    declared = op.get("attributes")
    if declared is not None and len(declared) == op.get("attributes_num"):
        ours = dict(item.split(":", 1) for item in attributes.split())
        items = []
        for key, cpp in declared.items():
            theirs = _CPP_KINDS.get(cpp)
            kind = ours.get(key)
            if kind is None or (
                theirs is not None
                and kind != theirs
                and theirs not in _AGREEING_KINDS.get(kind, ())
            ):
                kind = theirs
            if kind is not None:
                items.append(f"{key}:{kind}")
        attributes = " ".join(items)
    return operands, attributes, results


def pd_op_rows(root: Path) -> dict[str, tuple[str, str, str]]:
    """Every pd_op op's row, sorted by name; none for a project without ops/paddle/."""
    return _tables(root)[0]


def pd_op_scalar_dtypes(root: Path) -> dict[str, dict[str, str]]:
    """op -> its Scalar operands -> the dtype of the `full` PaddlePaddle builds for a number
    given there (`concat`'s axis is an int32 tensor, `scale`'s scale a float32 one)."""
    return _tables(root)[1]


def _tables(root: Path) -> tuple[dict[str, tuple[str, str, str]], dict[str, dict[str, str]]]:
    if not (root / PD_OP_DIR).is_dir():
        return {}, {}
    compat = _compat_items(root)
    rows: dict[str, tuple[str, str, str]] = {}
    scalars: dict[str, dict[str, str]] = {}
    for file in PD_OP_SPEC_FILES:
        rel = f"{PD_OP_DIR}/{file}"
        for entry in _load(root / PD_OP_DIR / file, rel):
            name = (
                entry.get("op")
                or entry.get("backward_op")
                or entry.get("api")
                or entry.get("backward_api")
            )
            if not isinstance(name, str):
                raise SpecError(
                    [Diagnostic(None, None, f"{rel}: entry without an op name: {entry!r}")]
                )
            name = name.split("(")[0].strip()
            if not _ROW_WORD.fullmatch(name) or not name.isidentifier():
                raise SpecError(
                    [Diagnostic(None, None, f"{rel}: op name {name!r} is not an identifier")]
                )
            where = f"{rel}: op {name!r}"
            row = _row(entry, compat.get(name), where)
            rows[name] = row
            scalars[name] = _scalar_operand_dtypes(entry, compat.get(name), row[0], where)
            if entry.get("inplace") and not name.endswith("_"):
                rows[name + "_"] = row
                scalars[name + "_"] = scalars[name]
    for file in PD_OP_SPARSE_FILES:
        rel = f"{PD_OP_DIR}/{file}"
        for entry in _load(root / PD_OP_DIR / file, rel):
            name = str(entry.get("op") or entry.get("backward_op") or "").split("(")[0].strip()
            if not name.isidentifier():
                raise SpecError(
                    [Diagnostic(None, None, f"{rel}: op name {name!r} is not an identifier")]
                )
            row = _row(entry, None, f"{rel}: op {name!r}")
            for sparse_name in _sparse_names(name, entry):
                rows[sparse_name] = row
    for name, op in _registered(root).items():
        rows[name] = _reconciled(rows.get(name), op)
    _apply_corrections(rows, root)
    kept = {}
    for name, row in sorted(rows.items()):
        operands = {word.rstrip("?") for word in row[0].split()}
        found = {k: v for k, v in scalars.get(name, {}).items() if k in operands}
        if found:
            kept[name] = found
    return dict(sorted(rows.items())), kept


def pd_op_context(root: Path) -> dict[str, object]:
    """What templates/pd_op_dialect.py.j2 places."""
    files = ", ".join(p.relative_to(root).as_posix() for p in pd_op_input_files(root))
    rows, scalars = _tables(root)
    return {
        "pd_ops": list(rows.items()),
        "pd_op_scalar_dtypes": [
            (name, sorted(dtypes.items())) for name, dtypes in sorted(scalars.items())
        ],
        "pd_op_files": files,
    }
