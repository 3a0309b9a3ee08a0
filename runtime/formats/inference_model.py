"""Saved inference models: the program file and its parameters, read and written together.

PaddlePaddle 3.3.1 writes ``PREFIX.json`` (the program, PIR JSON base_code version 4: pir_json.py)
and ``PREFIX.pdiparams`` (its parameters, a `save_combine` tensor stream in ascending name order:
pdiparams.py). Older models are ``PREFIX.pdmodel`` (a legacy ProgramDesc: pdmodel.py), read,
translated to PIR and lowered for the Executor; their ``.pdiparams`` holds every persistable
variable of the desc, sorted by name, as PaddlePaddle's ``save_inference_model`` writes it in
legacy mode, and their ``feed``/``fetch`` ops give the feed names and fetch targets in ``col``
order, as PaddlePaddle's ``GetFeedTargetNames``.

Parameters are a mapping name -> numpy array; `phiops.runtime.static.io` moves them from and to
a scope.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, Union

import numpy as np

from phiops.runtime.compat.lowering import lower_for_execution
from phiops.runtime.compat.program_desc import ProgramDesc
from phiops.runtime.compat.translate import translate_program_desc
from phiops.runtime.errors import InvalidArgumentError, NotFoundError
from phiops.runtime.formats.pdiparams import load_combine, save_combine
from phiops.runtime.formats.pdmodel import read_program_desc
from phiops.runtime.formats.program_verify import verify_program
from phiops.runtime.formats.pir_json import load_program_json, save_program_json
from phiops.runtime.ir.core import Program, Value
from phiops.runtime.ir.types import DenseTensorType

__all__ = [
    "read_inference_model",
    "write_inference_model",
    "read_legacy_inference_model",
    "parameter_names",
    "persistable_names",
    "FEED_OPS",
    "MODEL_SUFFIX",
    "PARAMS_SUFFIX",
    "LEGACY_MODEL_SUFFIX",
]

PathLike = Union[str, "os.PathLike[str]"]
MODEL_SUFFIX = ".json"
PARAMS_SUFFIX = ".pdiparams"
LEGACY_MODEL_SUFFIX = ".pdmodel"
FEED_OPS = ("pd_op.data", "pd_op.feed")
_NOT_SAVED = ("feed", "fetch")


def parameter_names(program: Program) -> list[str]:
    """The names of the program's `builtin.parameter` ops, sorted as `.pdiparams` stores them."""
    names = {
        op.attributes["parameter_name"].value
        for op in program.walk()
        if op.name == "builtin.parameter"
    }
    return sorted(names)


def _persistable(op: Any) -> bool:
    """False for a `builtin.parameter` marked ``persistable:[false]`` (PaddlePaddle's
    ``*__non_persistable`` buffers, e.g. an nn.LSTM's dropout state): .pdiparams omits those."""
    attr = op.attributes.get("persistable")
    if attr is None or attr.kind != "array" or not attr.value:
        return True
    return bool(getattr(attr.value[0], "value", True))


def _parameter_types(program: Program, persistable: bool = True) -> dict[str, Any]:
    return {
        op.attributes["parameter_name"].value: op.results[0].type
        for op in program.walk()
        if op.name == "builtin.parameter" and _persistable(op) is persistable
    }


def _empty_buffer(declared: Any) -> np.ndarray:
    """A non-persistable parameter's starting value: zeros of its declared type (unknown
    extents 0), as PaddlePaddle's startup program would make it."""
    if not isinstance(declared, DenseTensorType):
        return np.zeros((0,), dtype=np.float32)
    return np.zeros(tuple(max(d, 0) for d in declared.dims), dtype=np.dtype(declared.dtype))


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
            if op.name in FEED_OPS or op.name == "pd_op.fetch"
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
        if os.path.exists(prefix + LEGACY_MODEL_SUFFIX):  # a legacy ProgramDesc model
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
    for name, declared_type in _parameter_types(program, persistable=False).items():
        params[name] = _empty_buffer(declared_type)
    feed_names, fetch_targets = [], []
    for op in program.block.ops:
        if op.name in FEED_OPS:
            feed_names.append(op.attributes["name"].value)
        elif op.name == "pd_op.fetch":
            fetch_targets.extend(v for v in op.operands if v is not None)
    return program, feed_names, fetch_targets, params


def persistable_names(desc: ProgramDesc) -> list[str]:
    """The variables a legacy ``.pdiparams`` holds, in its order: the persistable tensors."""
    return sorted(
        var.name
        for block in desc.blocks
        for var in block.vars.values()
        if var.persistable and var.kind == "DENSE_TENSOR" and var.name not in _NOT_SAVED
    )


def read_legacy_inference_model(
    prefix: str,
) -> tuple[Program, list[str], list[Value], dict[str, np.ndarray]]:
    """``(program, feed_names, fetch_targets, parameters)`` of ``PREFIX.pdmodel`` (translated
    and lowered for the Executor) and ``PREFIX.pdiparams``."""
    model_path, params_path = prefix + LEGACY_MODEL_SUFFIX, prefix + PARAMS_SUFFIX
    desc = read_program_desc(model_path)
    program = lower_for_execution(translate_program_desc(desc))
    try:
        verify_program(program)
    except InvalidArgumentError as error:
        raise InvalidArgumentError(f"{model_path}: {error}") from None
    names = persistable_names(desc)
    params: dict[str, np.ndarray] = {}
    if names:
        if not os.path.exists(params_path):
            raise NotFoundError(
                f"load_inference_model: {model_path} has {len(names)} persistable variable(s) "
                f"but there is no {params_path}"
            )
        params = load_combine(params_path, names)
    feeds: dict[int, str] = {}
    fetches: dict[int, Value] = {}
    for op in program.block.ops:
        if op.name == "pd_op.feed":
            feeds[op.attributes["col"].value] = op.attributes["name"].value
        elif op.name == "pd_op.fetch":
            fetches[op.attributes["col"].value] = op.operands[0]
    feed_names = [feeds[col] for col in sorted(feeds)]
    fetch_targets = [fetches[col] for col in sorted(fetches)]
    return program, feed_names, fetch_targets, params
