"""A static program's state on disk and in bytes, PaddlePaddle's ``paddle.static`` API:
``save`` / ``load`` (``PREFIX.pdparams``, ``PREFIX.pdopt``, ``PREFIX.json``),
``load_program_state`` / ``set_program_state``, ``serialize_program`` / ``deserialize_program``,
``serialize_persistables`` / ``deserialize_persistables``, ``save_to_file`` / ``load_from_file``.

A program's *parameters* are its `builtin.parameter` ops (by ``parameter_name``) and its
*optimizer variables* the persistable `pd_op.data` ops an optimizer's ``minimize`` adds (moments,
beta powers, the learning rate), as PaddlePaddle 3.3.1's ``get_pir_parameters`` splits them. Their
values live in a scope (the global scope unless given). ``.pdparams`` and ``.pdopt`` are
PaddlePaddle's pickles of ``{name: numpy array}``, read without running code from the file
(runtime/formats/pdparams.py); ``.json`` is the PIR program (runtime/formats/pir_json.py).

PaddlePaddle 3.3.1 fails on ``serialize_program``/``serialize_persistables`` of a PIR program
(``'Program' object has no attribute 'desc'``); phiops serializes the normalized program as the
``.json`` bytes ``save_inference_model`` writes, and the persistables as the ``.pdiparams``
tensor stream, sorted by name, that ``deserialize_persistables`` reads back.
"""

from __future__ import annotations

import json
import os
import pickle
import warnings
from typing import Any, Sequence

import numpy as np

from phiops.runtime.errors import InvalidArgumentError, NotFoundError, PreconditionNotMetError
from phiops.runtime.formats import pdparams
from phiops.runtime.formats.pdiparams import read_tensor, tensor_to_bytes
from phiops.runtime.formats.pir_json import program_from_json, program_to_json
from phiops.runtime.ir.core import Program, Value
from phiops.runtime.static.compiled import CompiledProgram
from phiops.runtime.formats.inference_model import _persistable
from phiops.runtime.static.io import (
    _as_values,
    _default_scope,
    _owning_program,
    _scope_get,
    normalize_program,
)

__all__ = [
    "save",
    "load",
    "load_program_state",
    "set_program_state",
    "serialize_program",
    "deserialize_program",
    "serialize_persistables",
    "deserialize_persistables",
    "save_to_file",
    "load_from_file",
]


def _program(api: str, program: Any) -> Program:
    if isinstance(program, CompiledProgram):
        program = program.program
    if not isinstance(program, Program):
        raise InvalidArgumentError(
            f"{api}(): argument 'program' must be a Program, got {type(program).__name__}"
        )
    return program


def program_variables(program: Program) -> tuple[dict[str, Value], dict[str, Value]]:
    """(parameters, optimizer variables) of ``program``, name -> Value, in program order: the
    `builtin.parameter` ops, and the persistable `pd_op.data` ops."""
    parameters: dict[str, Value] = {}
    optimizer: dict[str, Value] = {}
    for op in program.walk():
        if op.name == "builtin.parameter" and _persistable(op):
            parameters[op.attributes["parameter_name"].value] = op.results[0]
        elif op.name == "pd_op.data" and "persistable" in op.attributes and _persistable(op):
            optimizer[op.attributes["name"].value] = op.results[0]
    return parameters, optimizer


def _value_of(scope: Any, name: str, api: str) -> np.ndarray:
    value = _scope_get(scope, name)
    if value is None:
        raise PreconditionNotMetError(
            f"{api}(): variable '{name}' has no value in the scope; run the startup program "
            "(Executor.run(startup_program)) first"
        )
    return value


def _prefix(api: str, model_path: Any) -> str:
    if not isinstance(model_path, (str, os.PathLike)):
        raise InvalidArgumentError(
            f"{api}(): argument 'model_path' must be a path, got {type(model_path).__name__}"
        )
    path = os.fspath(model_path)
    if os.path.basename(path) == "":
        raise InvalidArgumentError(
            f"{api}(): argument 'model_path' must be 'dirname/file_prefix', got {path!r} (an "
            "empty file prefix)"
        )
    return path


def _dump(arrays: dict[str, np.ndarray], path: str, protocol: int) -> None:
    saved = pdparams._slice_big_arrays(dict(arrays), protocol)
    with open(path, "wb") as f:
        pickle.dump(saved, f, protocol=protocol)


def save(program: Program, model_path: Any, protocol: int = 4, **configs: Any) -> None:
    """Save ``program``'s parameters (``PREFIX.pdparams``), optimizer variables
    (``PREFIX.pdopt``) and the program itself (``PREFIX.json``), as PaddlePaddle 3.3.1's
    ``paddle.static.save``; the values come from the global scope. ``protocol`` is pickle's
    (2, 3 or 4; ``pickle_protocol`` is its deprecated name)."""
    program = _program("save", program)
    prefix = _prefix("save", model_path)
    unknown = sorted(set(configs) - {"pickle_protocol"})
    if unknown:
        raise InvalidArgumentError(f"save(): unknown argument {unknown[0]!r}")
    if "pickle_protocol" in configs:
        warnings.warn(
            "'pickle_protocol' is a deprecated argument. Please use 'protocol' instead.",
            stacklevel=2,
        )
        protocol = configs["pickle_protocol"]
    if isinstance(protocol, bool) or not isinstance(protocol, int) or not 2 <= protocol <= 4:
        raise InvalidArgumentError(
            f"save(): argument 'protocol' must be an int in [2, 4], got {protocol!r}"
        )
    scope = _default_scope()
    parameters, optimizer = program_variables(program)
    directory = os.path.dirname(prefix)
    if directory:
        os.makedirs(directory, exist_ok=True)
    _dump({n: _value_of(scope, n, "save") for n in parameters}, prefix + ".pdparams", protocol)
    _dump({n: _value_of(scope, n, "save") for n in optimizer}, prefix + ".pdopt", protocol)
    with open(prefix + ".json", "w", encoding="utf-8") as f:
        json.dump(program_to_json(program), f)


def _strip_suffix(path: str) -> str:
    for suffix in (".pdparams", ".pdopt", ".pdmodel", ".json"):
        if path.endswith(suffix):
            return path[: -len(suffix)]
    return path


def _read_state(api: str, path: str) -> dict[str, np.ndarray]:
    if not os.path.isfile(path):
        raise NotFoundError(f"{api}(): no such file {path!r}")
    state = pdparams.load(path, return_numpy=True)
    if not isinstance(state, dict) or not all(
        isinstance(k, str) and isinstance(v, np.ndarray) for k, v in state.items()
    ):
        raise InvalidArgumentError(
            f"{api}(): {path!r} does not hold a dict of variable name -> array (a "
            "paddle.static.save file)"
        )
    return state


def load_program_state(model_path: Any, var_list: Sequence[Value] | None = None) -> dict:
    """The variables ``save`` wrote under ``model_path`` (a prefix, or one of its files):
    ``PREFIX.pdparams`` and, where it exists, ``PREFIX.pdopt``, as {name: numpy array}.
    ``var_list`` (files of ``save_vars``) is not needed for these files and is ignored, as
    PaddlePaddle ignores it when ``PREFIX.pdparams`` exists."""
    prefix = _strip_suffix(_prefix("load_program_state", model_path))
    state = _read_state("load_program_state", prefix + ".pdparams")
    if os.path.isfile(prefix + ".pdopt"):
        state.update(_read_state("load_program_state", prefix + ".pdopt"))
    return state


def _set(api: str, scope: Any, name: str, array: np.ndarray, declared: Value | None) -> None:
    variable = scope.find_var(name)
    if variable is not None and variable.is_initialized():
        current = np.asarray(variable.get())
        if current.shape != array.shape:
            raise InvalidArgumentError(
                f"{api}(): variable '{name}' has shape {list(current.shape)} in the program's "
                f"scope, but the loaded value has shape {list(array.shape)}"
            )
        if current.dtype != array.dtype:
            raise InvalidArgumentError(
                f"{api}(): variable '{name}' has dtype {current.dtype} in the program's scope, "
                f"but the loaded value has dtype {array.dtype}"
            )
    elif declared is not None:
        shape = getattr(declared.type, "dims", None)
        if shape is not None and (
            len(shape) != array.ndim
            or any(d >= 0 and d != a for d, a in zip(shape, array.shape))
        ):
            raise InvalidArgumentError(
                f"{api}(): variable '{name}' is declared with shape {list(shape)} in the "
                f"program, but the loaded value has shape {list(array.shape)}"
            )
    scope.set(name, np.array(array, copy=True))


def set_program_state(program: Program, state_dict: dict) -> None:
    """Set ``program``'s parameters and optimizer variables in the global scope from
    ``state_dict`` (name -> array, as ``load_program_state`` returns); a shape or dtype unlike
    the scope's is an InvalidArgumentError, and names the program lacks are warned about, as in
    PaddlePaddle."""
    program = _program("set_program_state", program)
    if not isinstance(state_dict, dict):
        raise InvalidArgumentError(
            f"set_program_state(): argument 'state_dict' must be a dict of name -> array, got "
            f"{type(state_dict).__name__}"
        )
    scope = _default_scope()
    parameters, optimizer = program_variables(program)
    declared = {**parameters, **optimizer}
    used = set()
    for name, value in declared.items():
        if name in state_dict:
            given = state_dict[name]
            array = given.numpy() if hasattr(given, "numpy") else np.asarray(given)
            _set("set_program_state", scope, name, array, value)
            used.add(name)
    unused = [name for name in state_dict if name not in used]
    if unused:
        warnings.warn(
            "This list is not set, Because of Parameter not found in program. There are: "
            + " ".join(map(str, unused)),
            stacklevel=2,
        )


def load(
    program: Program,
    model_path: Any,
    executor: Any = None,
    var_list: Sequence[Value] | None = None,
) -> None:
    """Load into the global scope the parameters (``PREFIX.pdparams``) and optimizer variables
    (``PREFIX.pdopt``) ``save`` wrote for ``program``: every persistable variable of the program
    must be in the files (NotFoundError naming the one missing), with the program's shape and
    dtype."""
    program = _program("load", program)
    prefix = _strip_suffix(_prefix("load", model_path))
    scope = _default_scope()
    parameters, optimizer = program_variables(program)
    for names, path in ((parameters, prefix + ".pdparams"), (optimizer, prefix + ".pdopt")):
        if not names:
            continue
        state = _read_state("load", path)
        for name, value in names.items():
            if name not in state:
                raise NotFoundError(f"load(): cannot find '{name}' in {path!r}")
            _set("load", scope, name, state[name], value)


def _feeds_and_fetches(api: str, feed_vars: Any, fetch_vars: Any, kwargs: dict) -> Program:
    unknown = sorted(set(kwargs) - {"program", "legacy_format"})
    if unknown:
        raise InvalidArgumentError(f"{api}(): unknown argument {unknown[0]!r}")
    if kwargs.get("legacy_format"):
        raise InvalidArgumentError(
            f"{api}(): legacy_format=True (a ProgramDesc protobuf) is not written by phiops; "
            "it serializes PIR programs"
        )
    feeds = _as_values(feed_vars, "feed_vars")
    fetches = _as_values(fetch_vars, "fetch_vars")
    program = kwargs.get("program")
    program = _owning_program(feeds + fetches) if program is None else _program(api, program)
    return normalize_program(program, feeds, fetches)


def serialize_program(feed_vars: Any, fetch_vars: Any, **kwargs: Any) -> bytes:
    """The program computing ``fetch_vars`` from ``feed_vars`` (``program=`` or the program
    they belong to), normalized as ``save_inference_model`` saves it, as the bytes of its
    ``.json``."""
    program = _feeds_and_fetches("serialize_program", feed_vars, fetch_vars, kwargs)
    return json.dumps(program_to_json(program)).encode("utf-8")


def deserialize_program(data: bytes) -> Program:
    """The Program ``serialize_program`` serialized (a PIR ``.json``'s bytes)."""
    if not isinstance(data, (bytes, bytearray)):
        raise InvalidArgumentError(
            f"deserialize_program(): argument 'data' must be bytes, got {type(data).__name__}"
        )
    try:
        parsed = json.loads(bytes(data).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise InvalidArgumentError(
            f"deserialize_program(): data is not a serialized program (PIR .json): {error}"
        ) from None
    return program_from_json(parsed)


def serialize_persistables(feed_vars: Any, fetch_vars: Any, executor: Any, **kwargs: Any) -> bytes:
    """The values of the parameters the program computing ``fetch_vars`` from ``feed_vars``
    reads, from the global scope: ``.pdiparams`` tensors sorted by name, each preceded here by
    its name (a length and UTF-8 bytes) so that the bytes say which is which."""
    program = _feeds_and_fetches("serialize_persistables", feed_vars, fetch_vars, kwargs)
    scope = _default_scope()
    parameters, optimizer = program_variables(program)
    chunks = []
    for name in sorted({**parameters, **optimizer}):
        encoded = name.encode("utf-8")
        array = _value_of(scope, name, "serialize_persistables")
        chunks.append(len(encoded).to_bytes(4, "little") + encoded + tensor_to_bytes(array))
    return _MAGIC + len(chunks).to_bytes(4, "little") + b"".join(chunks)


_MAGIC = b"phiops-persistables-1\n"


def deserialize_persistables(program: Program, data: bytes, executor: Any) -> Program:
    """Set the values ``serialize_persistables`` serialized into the global scope, for the
    variables of ``program`` (each one's shape checked against the program's); returns
    ``program``."""
    program = _program("deserialize_persistables", program)
    if not isinstance(data, (bytes, bytearray)) or not bytes(data).startswith(_MAGIC):
        raise InvalidArgumentError(
            "deserialize_persistables(): data is not what serialize_persistables returns"
        )
    data = bytes(data)
    source = "<serialized persistables>"
    offset = len(_MAGIC)
    values: dict[str, np.ndarray] = {}
    try:
        count = int.from_bytes(data[offset : offset + 4], "little")
        offset += 4
        for _ in range(count):
            size = int.from_bytes(data[offset : offset + 4], "little")
            name = data[offset + 4 : offset + 4 + size].decode("utf-8")
            array, offset = read_tensor(data, offset + 4 + size, source)
            values[name] = array
    except (UnicodeDecodeError, ValueError, IndexError) as error:
        raise InvalidArgumentError(
            f"deserialize_persistables(): data is truncated or corrupt: {error}"
        ) from None
    if offset != len(data):
        raise InvalidArgumentError(
            f"deserialize_persistables(): {len(data) - offset} bytes left after the last tensor"
        )
    parameters, optimizer = program_variables(program)
    declared = {**parameters, **optimizer}
    scope = _default_scope()
    for name, array in values.items():
        _set("deserialize_persistables", scope, name, array, declared.get(name))
    return program


def save_to_file(path: Any, content: bytes) -> None:
    """Write ``content`` (bytes) to ``path``."""
    if not isinstance(content, (bytes, bytearray)):
        raise InvalidArgumentError(
            f"save_to_file(): argument 'content' must be bytes, got {type(content).__name__}"
        )
    with open(os.fspath(path), "wb") as f:
        f.write(content)


def load_from_file(path: Any) -> bytes:
    """The bytes of the file ``path``."""
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise NotFoundError(f"load_from_file(): no such file {path!r}")
    with open(path, "rb") as f:
        return f.read()
