"""Saved inference models in PaddlePaddle 3.3.1's files: ``PREFIX.json`` (the program, PIR JSON
base_code version 4) and ``PREFIX.pdiparams`` (its parameters, a `save_combine` tensor stream in
ascending name order).

Parameters come from and go to a *scope*: a mapping name -> numpy array (a dict) or any object
with ``get(name)`` and ``set(name, array)``, such as the executor's `Scope`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, MutableMapping
from typing import Any, Sequence, Union

import numpy as np

from phiops.runtime.errors import InvalidArgumentError, NotFoundError, UnimplementedError
from phiops.runtime.ir.attributes import Attribute
from phiops.runtime.ir.core import Block, Operation, Program, Value
from phiops.runtime.ir.json_io import load_program_json, program_from_json, program_to_json
from phiops.runtime.ir.json_io import save_program_json
from phiops.runtime.ir.types import DenseTensorType
from phiops.runtime.serialization.tensor_stream import load_combine, save_combine

__all__ = [
    "save_inference_model",
    "load_inference_model",
    "normalize_program",
    "read_inference_model",
    "write_inference_model",
    "parameter_names",
]

PathLike = Union[str, "os.PathLike[str]"]
MODEL_SUFFIX = ".json"
PARAMS_SUFFIX = ".pdiparams"
_FEED_OPS = ("pd_op.data", "pd_op.feed")


# -- scope access ------------------------------------------------------------------------------
def _default_scope() -> Any:
    from phiops.runtime.static.scope import global_scope

    return global_scope()


def _scope_get(scope: Any, name: str) -> np.ndarray | None:
    """The array under ``name``; None when the scope has no such variable or it holds nothing."""
    from phiops.runtime.static.scope import Scope

    if isinstance(scope, Scope):
        variable = scope.find_var(name)
        value = variable.get() if variable is not None and variable.is_initialized() else None
    else:
        value = scope.get(name)
    return None if value is None else np.asarray(value)


def _scope_set(scope: Any, name: str, array: np.ndarray) -> None:
    if isinstance(scope, MutableMapping):
        scope[name] = array
    else:
        scope.set(name, array)


# -- program helpers ---------------------------------------------------------------------------
def parameter_names(program: Program) -> list[str]:
    """The names of the program's `builtin.parameter` ops, sorted as `.pdiparams` stores them."""
    names = {
        op.attributes["parameter_name"].value
        for op in program.walk()
        if op.name == "builtin.parameter"
    }
    return sorted(names)


def _parameter_types(program: Program) -> dict[str, Any]:
    return {
        op.attributes["parameter_name"].value: op.results[0].type
        for op in program.walk()
        if op.name == "builtin.parameter"
    }


def _check_array(name: str, array: np.ndarray, declared: Any, where: str) -> None:
    if not isinstance(declared, DenseTensorType):
        return
    if declared.dtype != array.dtype.name:
        raise InvalidArgumentError(
            f"{where}: parameter '{name}' is declared {declared.dtype} in the program but its "
            f"array is {array.dtype.name}"
        )
    dims = declared.dims
    if all(d >= 0 for d in dims) and tuple(dims) != array.shape:
        raise InvalidArgumentError(
            f"{where}: parameter '{name}' is declared with shape {list(dims)} in the program but "
            f"its array has shape {list(array.shape)}"
        )


def _map_values(source: Block, copy: Block, mapping: dict[Value, Value]) -> None:
    for a, b in zip(source.args, copy.args):
        mapping[a] = b
    for op_a, op_b in zip(source.ops, copy.ops):
        for a, b in zip(op_a.results, op_b.results):
            mapping[a] = b
        for region_a, region_b in zip(op_a.regions, op_b.regions):
            for block_a, block_b in zip(region_a.blocks, region_b.blocks):
                _map_values(block_a, block_b, mapping)


def _clone(program: Program) -> tuple[Program, dict[Value, Value]]:
    """A copy through the file form (everything a saved model keeps) and old value -> new."""
    copy = program_from_json(program_to_json(program))
    mapping: dict[Value, Value] = {}
    _map_values(program.block, copy.block, mapping)
    return copy, mapping


def _owning_program(values: Sequence[Value]) -> Program:
    modules = set()
    for value in values:
        node: Any = value.define_op or value.owner  # a block argument's owner is its block
        while node is not None and not (
            isinstance(node, Operation) and node.name == "builtin.module"
        ):
            node = node.parent
        modules.add(node)
    if len(modules) != 1 or None in modules:
        raise InvalidArgumentError(
            "save_inference_model: feed_vars and fetch_vars must belong to one program; pass "
            "program= explicitly"
        )
    program = Program.__new__(Program)
    program.module = modules.pop()
    return program


def _as_values(values: Any, argument: str) -> list[Value]:
    items = list(values) if isinstance(values, (list, tuple)) else [values]
    for item in items:
        if not isinstance(item, Value):
            raise InvalidArgumentError(
                f"save_inference_model: {argument} must be a Value or a list of Values, got "
                f"{type(item).__name__}"
            )
    return items


def _detach(op: Operation) -> None:
    for value in op.operands:
        if value is not None:
            value.uses = [(user, i) for user, i in value.uses if user is not op]


def _operands_within(op: Operation) -> list[Value]:
    found = [v for v in op.operands if v is not None]
    for region in op.regions:
        for block in region.blocks:
            for inner in block.walk():
                found.extend(v for v in inner.operands if v is not None)
    return found


def _prune(block: Block, feeds: list[Value], targets: list[Value]) -> None:
    """Keep only the ops that the targets need (PaddlePaddle's `pir_prune_with_input`)."""
    needed = set(targets)
    feed_set = set(feeds)
    kept: list[Operation] = []
    for op in reversed(block.ops):
        if any(r in needed for r in op.results):
            needed.update(_operands_within(op))
            kept.append(op)
            continue
        fed = [r for r in op.results if r in feed_set]
        if fed:
            name = op.attributes.get("name")
            raise InvalidArgumentError(
                f"save_inference_model: the feed var of '{op.name}'"
                + (f" ('{name.value}')" if name is not None else "")
                + " is not used to compute fetch_vars; remove it from feed_vars"
            )
        _detach(op)
    block.ops = list(reversed(kept))


def _named(value: Value) -> str | None:
    op = value.define_op
    if op is None:
        return None
    if op.name in _FEED_OPS:
        return op.attributes["name"].value
    if op.name == "builtin.parameter":
        return op.attributes["parameter_name"].value
    return None


def _fetch_source(value: Value) -> Value:
    """PaddlePaddle fetches x for a `scale(x, 1.0)` that ends a program, when x has a name."""
    op = value.define_op
    if op is not None and op.name == "pd_op.scale" and op.operands[1] is not None:
        full = op.operands[1].define_op
        factor = full.attributes.get("value") if full is not None else None
        if full is not None and full.name == "pd_op.full" and factor is not None:
            if factor.value == 1.0 and _named(op.operands[0]) is not None:
                return op.operands[0]
    return value


def _stop_gradient(value: Value) -> bool:
    op = value.define_op
    flags = op.attributes.get("stop_gradient") if op is not None else None
    if flags is None or flags.kind != "array" or value.index >= len(flags.value):
        return True
    return bool(flags.value[value.index].value)


def normalize_program(program: Program, feed_vars: Any, fetch_vars: Any) -> Program:
    """The program `save_inference_model` writes: a copy pruned to what ``fetch_vars`` need,
    `is_test` set, and a `pd_op.fetch` per fetch var (PaddlePaddle's `normalize_program`)."""
    feeds = _as_values(feed_vars, "feed_vars")
    fetches = _as_values(fetch_vars, "fetch_vars")
    if not program.block.ops:
        raise InvalidArgumentError("save_inference_model: the program has no operation")
    copy, mapping = _clone(program)
    try:
        feeds = [mapping[v] for v in feeds]
        fetches = [mapping[v] for v in fetches]
    except KeyError:
        raise InvalidArgumentError(
            "save_inference_model: a feed or fetch var is not a value of the program"
        ) from None
    for value in feeds:
        op = value.define_op
        if op is None or op.name not in _FEED_OPS:
            raise UnimplementedError(
                "save_inference_model: feed_vars must be results of pd_op.data (a feed var "
                f"computed by {op.name if op else 'a block argument'} is not supported)"
            )
    block = copy.block
    for op in [op for op in block.ops if op.name == "pd_op.fetch"]:
        _detach(op)
        block.ops.remove(op)
    _prune(block, feeds, fetches)
    for op in copy.walk():
        if "is_test" in op.attributes:
            op.attributes["is_test"] = Attribute("bool", True)
    for col, value in enumerate(fetches):
        source = _fetch_source(value)
        name = _named(source) if source is not value else None
        attributes = {  # in PaddlePaddle's order, which its files keep
            "name": Attribute("str", name or f"fetch_name_{col}"),
            "col": Attribute("int32", col),
            "persistable": Attribute("array", (Attribute("bool", True),)),
            "stop_gradient": Attribute("array", (Attribute("bool", _stop_gradient(source)),)),
        }
        block.append(Operation("pd_op.fetch", [source], [source.type], attributes))
    return copy


# -- files -------------------------------------------------------------------------------------
def _normalize_prefix(path_prefix: PathLike, api: str) -> str:
    prefix = os.path.normpath(os.fspath(path_prefix))
    if os.path.basename(prefix) in ("", ".", "..") or os.fspath(path_prefix).endswith(os.sep):
        raise InvalidArgumentError(
            f"{api}: path_prefix must be a directory plus a model name such as 'out/model', "
            f"got {os.fspath(path_prefix)!r}"
        )
    return prefix


def write_inference_model(
    path_prefix: PathLike, program: Program, params: Mapping[str, np.ndarray]
) -> None:
    """Write ``program`` as ``PREFIX.json`` and the arrays of its parameters, taken from
    ``params`` (name -> array), as ``PREFIX.pdiparams``. As PaddlePaddle, no `.pdiparams` is
    written for a program without parameters."""
    prefix = _normalize_prefix(path_prefix, "save_inference_model")
    model_path, params_path = prefix + MODEL_SUFFIX, prefix + PARAMS_SUFFIX
    for path in (model_path, params_path):
        if os.path.isdir(path):
            raise InvalidArgumentError(f"save_inference_model: '{path}' is a directory")
    declared = _parameter_types(program)
    arrays = {}
    for name in sorted(declared):
        array = params.get(name)
        if array is None:
            raise NotFoundError(
                f"save_inference_model: parameter '{name}' of the program has no value in the "
                "scope (run the startup program first)"
            )
        array = np.asarray(array)
        _check_array(name, array, declared[name], "save_inference_model")
        arrays[name] = array
    directory = os.path.dirname(prefix)
    if directory:
        os.makedirs(directory, exist_ok=True)
    save_program_json(program, model_path)
    if arrays:
        save_combine(params_path, arrays)


def _check_named_ops(program: Program, where: str) -> None:
    """Every feed/data op has its str ``name``, every parameter its ``parameter_name``, every
    fetch an operand: what reading the model relies on, checked once with the op named."""
    for index, op in enumerate(program.walk()):
        key = (
            "name"
            if op.name in _FEED_OPS or op.name == "pd_op.fetch"
            else "parameter_name" if op.name == "builtin.parameter" else None
        )
        if key is not None:
            attr = op.attributes.get(key)
            if attr is None or attr.kind != "str":
                raise InvalidArgumentError(
                    f"{where}: op {index} ('{op.name}') has no str attribute '{key}'"
                )
        if op.name == "builtin.parameter" and len(op.results) != 1:
            raise InvalidArgumentError(f"{where}: op {index} ('{op.name}') has no result")
        if op.name == "pd_op.fetch" and (not op.operands or op.operands[0] is None):
            raise InvalidArgumentError(f"{where}: op {index} ('{op.name}') fetches no value")


def read_inference_model(
    path_prefix: PathLike,
) -> tuple[Program, list[str], list[Value], dict[str, np.ndarray]]:
    """``(program, feed_names, fetch_targets, parameters)`` of a saved model; parameters maps
    each `builtin.parameter` name to its array from ``PREFIX.pdiparams``. Without
    ``PREFIX.json``, a legacy ``PREFIX.pdmodel`` is read and translated to PIR."""
    prefix = _normalize_prefix(path_prefix, "load_inference_model")
    model_path, params_path = prefix + MODEL_SUFFIX, prefix + PARAMS_SUFFIX
    if not os.path.exists(model_path):
        if os.path.exists(prefix + ".pdmodel"):  # a legacy ProgramDesc model (issue 12)
            from phiops.runtime.compat.legacy import read_legacy_inference_model

            return read_legacy_inference_model(prefix)
        raise NotFoundError(
            f"load_inference_model: no model file {model_path} (nor a legacy {prefix}.pdmodel)"
        )
    program = load_program_json(model_path)
    _check_named_ops(program, model_path)
    declared = _parameter_types(program)
    params: dict[str, np.ndarray] = {}
    if declared:
        if not os.path.exists(params_path):
            raise NotFoundError(
                f"load_inference_model: {model_path} has {len(declared)} parameter(s) but there "
                f"is no {params_path}"
            )
        params = load_combine(params_path, list(declared))
        for name, array in params.items():
            _check_array(name, array, declared[name], params_path)
    feed_names, fetch_targets = [], []
    for op in program.block.ops:
        if op.name in _FEED_OPS:
            feed_names.append(op.attributes["name"].value)
        elif op.name == "pd_op.fetch":
            fetch_targets.extend(v for v in op.operands if v is not None)
    return program, feed_names, fetch_targets, params


def save_inference_model(
    path_prefix: PathLike,
    feed_vars: Any,
    fetch_vars: Any,
    executor: Any,
    program: Program | None = None,
    *,
    scope: Any = None,
) -> None:
    """Save the part of ``program`` that computes ``fetch_vars`` from ``feed_vars`` as
    ``PREFIX.json`` + ``PREFIX.pdiparams``, which `paddle.static.load_inference_model` reads.

    ``program`` defaults to the program the vars belong to; parameter values come from
    ``scope`` (default: the global scope). ``executor`` is accepted for PaddlePaddle's
    signature; the files do not depend on it."""
    feeds = _as_values(feed_vars, "feed_vars")
    fetches = _as_values(fetch_vars, "fetch_vars")
    if program is None:
        program = _owning_program(feeds + fetches)
    normalized = normalize_program(program, feeds, fetches)
    source = _default_scope() if scope is None else scope
    names = parameter_names(normalized)
    params = {name: value for name in names if (value := _scope_get(source, name)) is not None}
    write_inference_model(path_prefix, normalized, params)


def load_inference_model(
    path_prefix: PathLike, executor: Any, *, scope: Any = None
) -> tuple[Program, list[str], list[Value]]:
    """Load a model saved by `paddle.jit.save`, `paddle.static.save_inference_model` or
    `save_inference_model`: returns ``(program, feed_names, fetch_targets)`` and puts every
    parameter's array into ``scope`` (default: the global scope)."""
    program, feed_names, fetch_targets, params = read_inference_model(path_prefix)
    target = _default_scope() if scope is None else scope
    for name, array in params.items():
        _scope_set(target, name, array)
    return program, feed_names, fetch_targets
