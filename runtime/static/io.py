"""Saved inference models, PaddlePaddle's static API: `save_inference_model` normalizes a
program and writes it with its parameters, `load_inference_model` reads one back. The files
(``PREFIX.json`` + ``PREFIX.pdiparams``, or a legacy ``PREFIX.pdmodel``) are
`phiops.runtime.formats.inference_model`'s.

Parameters come from and go to a *scope*: a mapping name -> numpy array (a dict) or any object
with ``get(name)`` and ``set(name, array)``, such as the executor's `Scope`.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any, Sequence

import numpy as np

from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.formats.inference_model import (
    FEED_OPS,
    PathLike,
    parameter_names,
    read_inference_model,
    write_inference_model,
)
from phiops.runtime.formats.pir_json import program_from_json, program_to_json
from phiops.runtime.ir.attributes import Attribute
from phiops.runtime.ir.core import Block, Operation, Program, Value
from phiops.runtime.static.passes.config import mark_inference_program

__all__ = ["save_inference_model", "load_inference_model", "normalize_program"]


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
    if op.name in FEED_OPS:
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
        if op is None or op.name not in FEED_OPS:
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


# -- saving and loading ------------------------------------------------------------------------
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
    parameter's array into ``scope`` (default: the global scope). The program is marked for the
    executor's inference passes (``FLAGS_inference_passes``, docs/executor.md)."""
    program, feed_names, fetch_targets, params = read_inference_model(path_prefix)
    target = _default_scope() if scope is None else scope
    for name, array in params.items():
        _scope_set(target, name, array)
    # the executor compiles it with the inference passes (FLAGS_inference_passes)
    mark_inference_program(program)
    return program, feed_names, fetch_targets
