"""Control flow in static programs (``phi.static.nn``): ``cond`` builds `pd_op.if`, ``while_loop``
builds `pd_op.while`, as PaddlePaddle 3.3.1's ``paddle.static.nn.cond`` / ``while_loop`` build them
(python/paddle/static/nn/control_flow.py and the C++ IfOp / WhileOp builders), so that the same
code prints the same text.

- `pd_op.if`: two regions, one block each, each ending in `cf.yield` of the branch's flattened
  outputs. A result's type is the branches' type, with -1 where their extents differ; it stops the
  gradient only when both yielded values do.
- `pd_op.while`: operands ``cond, inputs...``; the body block has one argument per input (with
  the input's ``stop_gradient``), computes the next values and the next condition and ends in
  `cf.yield(next_cond, next...)`. A loop variable the body returns unchanged is taken out of the
  loop (PaddlePaddle's ``WhileOp::OptimizeUpdate``): the body reads the outer value instead. A
  loop variable whose extents change gets -1 there, on the input, the block argument, the yielded
  value and the result, as PaddlePaddle sets them.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, Sequence

from phiops.runtime.common import DataType, Place
from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.errors import InvalidArgumentError, PreconditionNotMetError
from phiops.runtime.ir.attributes import Attribute
from phiops.runtime.ir.builder import Builder, scoped_attributes_of, to_attribute
from phiops.runtime.ir.core import Block, Operation, Value
from phiops.runtime.ir.types import DenseTensorType, TensorArrayType, Type
from phiops.runtime.static.build import dtype_of_type
from phiops.runtime.static.mode import in_static_mode
from phiops.runtime.static.program import building_block, current_block

__all__ = ["cond", "while_loop", "case", "switch_case", "flatten", "pack_sequence_as"]

_CONSTANTS = (bool, int, float)
_RESULT = object()  # marks a cond output that is a result of the if


def flatten(nest: Any) -> list[Any]:
    """The leaves of a nest of lists, tuples and dicts (dict items in sorted key order), as
    ``paddle.utils.flatten`` orders them."""
    if isinstance(nest, dict):
        return [leaf for key in sorted(nest) for leaf in flatten(nest[key])]
    if isinstance(nest, (list, tuple)):
        return [leaf for item in nest for leaf in flatten(item)]
    return [nest]


def pack_sequence_as(structure: Any, leaves: Sequence[Any]) -> Any:
    """``leaves`` in the nesting of ``structure`` (the inverse of `flatten`)."""
    packed, _ = _pack(structure, list(leaves), 0)
    return packed


def _pack(structure: Any, leaves: list[Any], start: int) -> tuple[Any, int]:
    if isinstance(structure, dict):
        items = {}
        for key in sorted(structure):
            items[key], start = _pack(structure[key], leaves, start)
        return {key: items[key] for key in structure}, start
    if isinstance(structure, (list, tuple)):
        items = []
        for item in structure:
            packed, start = _pack(item, leaves, start)
            items.append(packed)
        return (tuple(items) if isinstance(structure, tuple) else items), start
    return leaves[start], start + 1


def _structure(nest: Any) -> Any:
    """The shape of a nest, leaves replaced by None: two nests match when these are equal."""
    if isinstance(nest, dict):
        return ("dict", tuple((key, _structure(nest[key])) for key in sorted(nest)))
    if isinstance(nest, (list, tuple)):
        return ("sequence", tuple(_structure(item) for item in nest))
    return None


def _require_static(function: str) -> None:
    if not in_static_mode():
        raise PreconditionNotMetError(
            f"{function}() builds a static program: call phi.enable_static() first"
        )


def _describe(value: Any) -> str:
    if isinstance(value, Value):
        type = value.type
        if isinstance(type, DenseTensorType):
            return f"{dtype_of_type(type).name.lower()} {list(type.dims)}"
        return str(type)
    return f"{type(value).__name__} {value!r}"


def _check_predicate(function: str, argument: str, pred: Any) -> None:
    """A predicate is a bool Value of one element (0-d or any extents multiplying to 1)."""
    if not isinstance(pred, Value):
        raise InvalidArgumentError(
            f"{function}(): {argument} must be a bool Value of one element, got "
            f"{type(pred).__name__} {pred!r}"
        )
    type = pred.type
    if not isinstance(type, DenseTensorType) or dtype_of_type(type) is not DataType.BOOL:
        raise InvalidArgumentError(
            f"{function}(): {argument} must be a bool Value of one element, got "
            f"{_describe(pred)}"
        )
    count = 1
    for extent in type.dims:
        count *= extent
    if count != 1:
        raise InvalidArgumentError(
            f"{function}(): {argument} must have one element (shape [] or [1]), got shape "
            f"{list(type.dims)}"
        )


def _constant_value(value: bool | int | float, dtype: DataType | None) -> Value:
    """A Python constant as a Value, as PaddlePaddle's ``to_static_variable``: a 0-d ``full``
    (bool, float64 or int64 unless ``dtype`` says otherwise)."""
    if dtype is None:
        dtype = (
            DataType.BOOL
            if isinstance(value, bool)
            else DataType.FLOAT64 if isinstance(value, float) else DataType.INT64
        )
    return op_api("full")([], value, dtype, Place())


def _unified_type(first: DenseTensorType, second: DenseTensorType) -> DenseTensorType:
    """``first`` with -1 wherever ``second``'s extent differs."""
    if first == second:
        return first
    dims = tuple(a if a == b else -1 for a, b in zip(first.dims, second.dims))
    return DenseTensorType(dims, first.element, first.layout)


def _yield(block: Block, values: Sequence[Value]) -> None:
    Builder(block).create("cf.yield", list(values), [])


# -- cond --------------------------------------------------------------------------------------


def cond(
    pred: Value,
    true_fn: Callable[[], Any] | None = None,
    false_fn: Callable[[], Any] | None = None,
    name: str | None = None,
) -> Any:
    """``true_fn()`` if ``pred`` else ``false_fn()``, as a `pd_op.if`: each function is called
    once, building its branch. They return the same nest (lists, tuples, dicts) of Values (of
    the same dtypes and ranks; extents may differ and become -1) or Python numbers (equal ones
    stay numbers, others become 0-d Values) or None in both, or both return None (or are None
    themselves)."""
    _require_static("cond")
    _check_predicate("cond", "argument 'pred'", pred)
    for argument, fn in (("true_fn", true_fn), ("false_fn", false_fn)):
        if fn is not None and not callable(fn):
            raise InvalidArgumentError(
                f"cond(): argument '{argument}' must be callable or None, got "
                f"{type(fn).__name__}"
            )
    true_block, false_block = Block(), Block()
    with building_block(true_block):
        true_out = None if true_fn is None else true_fn()
    with building_block(false_block):
        false_out = None if false_fn is None else false_fn()
    if true_out is None and false_out is None:
        _append_if(pred, true_block, false_block, [], [])
        return None
    for returned, other, this in (
        (true_out, false_out, "true_fn"),
        (false_out, true_out, "false_fn"),
    ):
        if returned is None:
            raise InvalidArgumentError(
                f"cond(): {this} returns None while the other branch returns "
                f"{type(other).__name__}: both must return the same nest of values, or None"
            )
    true_leaves, false_leaves = flatten(true_out), flatten(false_out)
    if len(true_leaves) != len(false_leaves):
        raise InvalidArgumentError(
            f"cond(): true_fn returns {len(true_leaves)} value(s), false_fn returns "
            f"{len(false_leaves)}: both branches must return the same number of values"
        )
    if _structure(true_out) != _structure(false_out):
        raise InvalidArgumentError(
            "cond(): true_fn and false_fn return their values in different nestings "
            "(lists, tuples, dicts): they must match"
        )
    outputs: list[Any] = []  # per leaf: a constant kept as it is, or _RESULT (a result of the if)
    true_values: list[Value] = []
    false_values: list[Value] = []
    for index, (on_true, on_false) in enumerate(zip(true_leaves, false_leaves)):
        pair = _unify_constants(index, on_true, on_false, true_block, false_block)
        if pair is None:
            outputs.append(on_true)
            continue
        on_true, on_false = pair
        _check_branch_types(index, on_true, on_false)
        outputs.append(_RESULT)
        true_values.append(on_true)
        false_values.append(on_false)
    op = _append_if(pred, true_block, false_block, true_values, false_values)
    results = iter(op.results)
    return pack_sequence_as(
        true_out, [next(results) if leaf is _RESULT else leaf for leaf in outputs]
    )


def _unify_constants(
    index: int, on_true: Any, on_false: Any, true_block: Block, false_block: Block
) -> tuple[Value, Value] | None:
    """The two Values output ``index`` yields; None when both branches return the same Python
    constant (then it is no result of the if). Different constants of one type, and a constant
    beside a Value, become Values in their branches, as in PaddlePaddle."""
    if isinstance(on_true, Value) and isinstance(on_false, Value):
        return on_true, on_false
    if on_true is None and on_false is None:
        return None  # None in both branches stays None, as in PaddlePaddle
    pair = (on_true, on_false)
    if all(isinstance(v, _CONSTANTS) for v in pair) and type(on_true) is type(on_false):
        if on_true == on_false:
            return None
        dtype = None
    elif any(isinstance(v, Value) for v in pair) and all(
        isinstance(v, (Value, *_CONSTANTS)) for v in pair
    ):
        dtype = dtype_of_type(next(v for v in pair if isinstance(v, Value)).type)
    else:
        raise InvalidArgumentError(
            f"cond(): output {index}: true_fn returns {_describe(on_true)} and false_fn "
            f"{_describe(on_false)}; a branch output must be a Value or a bool/int/float"
        )
    values = []
    for value, block in ((on_true, true_block), (on_false, false_block)):
        if not isinstance(value, Value):
            with building_block(block):
                value = _constant_value(value, dtype)
        values.append(value)
    return values[0], values[1]


def _check_branch_types(index: int, on_true: Value, on_false: Value) -> None:
    first, second = on_true.type, on_false.type
    if not isinstance(first, DenseTensorType) or not isinstance(second, DenseTensorType):
        if first != second:
            raise InvalidArgumentError(
                f"cond(): output {index} is {first} in true_fn but {second} in false_fn"
            )
        return
    if first.element != second.element or len(first.dims) != len(second.dims):
        what = "dtype" if first.element != second.element else "rank"
        raise InvalidArgumentError(
            f"cond(): output {index} is {_describe(on_true)} in true_fn but "
            f"{_describe(on_false)} in false_fn: the branches must return the same {what}"
        )


def _append_if(
    pred: Value,
    true_block: Block,
    false_block: Block,
    true_values: list[Value],
    false_values: list[Value],
) -> Operation:
    types: list[Type] = []
    stop: list[bool] = []
    for on_true, on_false in zip(true_values, false_values):
        first, second = on_true.type, on_false.type
        types.append(_unified_type(first, second) if isinstance(first, DenseTensorType) else first)
        stop.append(on_true.stop_gradient and on_false.stop_gradient)
    if true_values:
        _yield(true_block, true_values)
        _yield(false_block, false_values)
    attributes = _scoped(current_block())
    if stop:
        attributes["stop_gradient"] = _bools(stop)
    op = Operation("pd_op.if", [pred], types, attributes, num_regions=2)
    for region, block in zip(op.regions, (true_block, false_block)):
        block.parent = region
        region.blocks.append(block)
    return current_block().append(op)


def _scoped(block: Block) -> dict[str, Attribute]:
    """The attributes a ``scoped_attributes`` block gives an op created in ``block`` (a Layer's
    ``struct_name``)."""
    return {key: to_attribute(value) for key, value in scoped_attributes_of(block).items()}


def _bools(flags: Sequence[bool]) -> Attribute:
    return Attribute("array", tuple(Attribute("bool", bool(f)) for f in flags))


# -- while_loop --------------------------------------------------------------------------------


def while_loop(
    cond: Callable[..., Value],
    body: Callable[..., Any],
    loop_vars: Sequence[Any],
    is_test: bool = False,
    name: str | None = None,
) -> Any:
    """Repeat ``body`` while ``cond`` holds, as a `pd_op.while`: ``cond(*loop_vars)`` returns a
    one-element bool Value; ``body(*loop_vars)`` returns the next values in the nesting of
    ``loop_vars`` (a single value for a single loop variable), each of its loop variable's dtype
    and rank. Returns the values after the last iteration, nested as ``loop_vars``."""
    _require_static("while_loop")
    for argument, fn in (("cond", cond), ("body", body)):
        if not callable(fn):
            raise InvalidArgumentError(
                f"while_loop(): argument '{argument}' must be callable, got {type(fn).__name__}"
            )
    if not isinstance(loop_vars, (list, tuple)) or not loop_vars:
        raise InvalidArgumentError(
            "while_loop(): argument 'loop_vars' must be a non-empty list or tuple, got "
            f"{loop_vars!r}"
        )
    pre_cond = cond(*loop_vars)
    _check_predicate("while_loop", "the value cond returns", pre_cond)
    leaves = flatten(loop_vars)
    variables = [i for i, leaf in enumerate(leaves) if isinstance(leaf, Value)]
    body_block = Block()
    args = []
    for position in variables:
        arg = body_block.add_arg(leaves[position].type)
        arg.stop_gradient = leaves[position].stop_gradient
        args.append(arg)
    arg_of = dict(zip(variables, args))
    inner = pack_sequence_as(loop_vars, [arg_of.get(i, leaf) for i, leaf in enumerate(leaves)])
    with building_block(body_block):
        next_vars = body(*inner)
        if not isinstance(next_vars, (list, tuple)):
            next_vars = [next_vars]
        next_leaves = flatten(next_vars)
        if len(next_leaves) != len(leaves) or _structure(list(next_vars)) != _structure(
            list(loop_vars)
        ):
            raise InvalidArgumentError(
                f"while_loop(): body returns {len(next_leaves)} value(s) in "
                f"{len(next_vars)} item(s), but loop_vars has {len(leaves)} in "
                f"{len(loop_vars)}: body must return the nesting of loop_vars"
            )
        for position in variables:
            next_leaves[position] = _next_value(position, leaves[position], next_leaves[position])
        next_cond = cond(*pack_sequence_as(loop_vars, next_leaves))
        _check_predicate("while_loop", "the value cond returns in the body", next_cond)
        next_cond.stop_gradient = True
    # loop variables the body returns unchanged leave the loop (WhileOp::OptimizeUpdate)
    kept = [k for k, position in enumerate(variables) if next_leaves[position] is not args[k]]
    for k, position in enumerate(variables):
        if k not in kept:
            args[k].replace_all_uses_with(leaves[position])
    body_block.args = [args[k] for k in kept]
    for index, arg in enumerate(body_block.args):
        arg.index = index
    inputs = [leaves[variables[k]] for k in kept]
    yielded = [next_leaves[variables[k]] for k in kept]
    for value, arg, out in zip(inputs, body_block.args, yielded):
        if isinstance(value.type, DenseTensorType) and out.type != arg.type:
            unified = _unified_type(arg.type, out.type)
            value.type = arg.type = out.type = unified
    _yield(body_block, [next_cond, *yielded])
    op = Operation(
        "pd_op.while",
        [pre_cond, *inputs],
        [v.type for v in inputs],
        {
            **_scoped(current_block()),
            "stop_gradient": _bools([v.stop_gradient for v in inputs]),
        },
        num_regions=1,
    )
    body_block.parent = op.regions[0]
    op.regions[0].blocks.append(body_block)
    current_block().append(op)
    result_of = {variables[k]: result for k, result in zip(kept, op.results)}
    outputs = [
        result_of.get(i, leaf if isinstance(leaf, Value) else next_leaves[i])
        for i, leaf in enumerate(leaves)
    ]
    return pack_sequence_as(loop_vars, outputs)


def _next_value(position: int, current: Value, next_value: Any) -> Value:
    """The value the body yields for loop variable ``position``: a Value of the loop variable's
    dtype and rank (a Python number becomes a 0-d Value, as PaddlePaddle's
    ``to_static_variable`` makes it)."""
    if isinstance(next_value, _CONSTANTS):
        next_value = _constant_value(next_value, None)
    if not isinstance(next_value, Value):
        raise InvalidArgumentError(
            f"while_loop(): body returns {_describe(next_value)} for loop variable {position}, "
            f"a Value ({_describe(current)}); a loop variable stays a Value"
        )
    first, second = current.type, next_value.type
    if isinstance(first, DenseTensorType) and isinstance(second, DenseTensorType):
        if first.element != second.element or len(first.dims) != len(second.dims):
            what = "dtype" if first.element != second.element else "rank"
            raise InvalidArgumentError(
                f"while_loop(): loop variable {position} is {_describe(current)}, but body "
                f"returns {_describe(next_value)} for it: a loop variable keeps its {what} "
                "between iterations"
            )
    elif isinstance(first, TensorArrayType) and isinstance(second, TensorArrayType):
        if first.element != second.element:
            raise InvalidArgumentError(
                f"while_loop(): loop variable {position} is a tensor array of {first.element}, "
                f"but body returns one of {second.element}: a loop variable keeps its dtype"
            )
    elif first != second:
        raise InvalidArgumentError(
            f"while_loop(): loop variable {position} is {first}, but body returns {second}"
        )
    return next_value


def _check_branch(function: str, what: str, fn: Any) -> None:
    if not callable(fn):
        raise InvalidArgumentError(f"{function}(): {what} must be callable, got {fn!r}")


def case(
    pred_fn_pairs: Sequence[tuple[Value, Callable[[], Any]]],
    default: Callable[[], Any] | None = None,
    name: str | None = None,
) -> Any:
    """The function of the first pair whose predicate is true, else ``default`` (PaddlePaddle's
    ``paddle.static.nn.case``): nested `pd_op.if`s, the first pair outermost. Without
    ``default`` the last pair's function is the default (its predicate unused)."""
    _require_static("case")
    if not isinstance(pred_fn_pairs, (list, tuple)):
        raise InvalidArgumentError(
            f"case(): argument 'pred_fn_pairs' must be a list or tuple of (pred, fn) tuples, got "
            f"{type(pred_fn_pairs).__name__}"
        )
    if not pred_fn_pairs:
        raise InvalidArgumentError("case(): argument 'pred_fn_pairs' must not be empty")
    for position, pair in enumerate(pred_fn_pairs):
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise InvalidArgumentError(
                f"case(): pred_fn_pairs[{position}] must be a (pred, fn) tuple, got "
                f"{_describe(pair) if isinstance(pair, Value) else repr(pair)}"
            )
        _check_predicate("case", f"the predicate of pred_fn_pairs[{position}]", pair[0])
        _check_branch("case", f"the function of pred_fn_pairs[{position}]", pair[1])
    pairs = list(pred_fn_pairs)
    if default is None:
        default = pairs.pop()[1]
    else:
        _check_branch("case", "argument 'default'", default)
    build = default
    for pred, fn in reversed(pairs):
        build = functools.partial(cond, pred, fn, build)
    return build()


def switch_case(
    branch_index: Value,
    branch_fns: Any,
    default: Callable[[], Any] | None = None,
    name: str | None = None,
) -> Any:
    """The function of ``branch_fns`` keyed by ``branch_index`` (an int Value of one element),
    else ``default`` (PaddlePaddle's ``paddle.static.nn.switch_case``). ``branch_fns`` is a dict
    {int: fn}, a list of (int, fn) tuples, or a list of functions keyed 0, 1, ...; without
    ``default`` the function of the largest key is the default. Built as PaddlePaddle builds
    it: the index cast to int64, an ``equal`` with each key, nested `pd_op.if`s, the last key
    (in the given order; sorted when there is no default) outermost."""
    _require_static("switch_case")
    if not isinstance(branch_index, Value):
        raise InvalidArgumentError(
            f"switch_case(): argument 'branch_index' must be an int Value, got "
            f"{type(branch_index).__name__} {branch_index!r}"
        )
    dtype = dtype_of_type(branch_index.type)
    if dtype not in (DataType.UINT8, DataType.INT32, DataType.INT64):
        raise InvalidArgumentError(
            f"switch_case(): argument 'branch_index' must be uint8, int32 or int64, got "
            f"{_describe(branch_index)}"
        )
    if dtype is not DataType.INT64:
        branch_index = op_api("cast")(branch_index, DataType.INT64)
    if not isinstance(branch_fns, (list, tuple, dict)):
        raise InvalidArgumentError(
            f"switch_case(): argument 'branch_fns' must be a dict, list or tuple, got "
            f"{type(branch_fns).__name__}"
        )
    items = list(branch_fns.items()) if isinstance(branch_fns, dict) else list(branch_fns)
    if not items:
        raise InvalidArgumentError("switch_case(): argument 'branch_fns' must not be empty")
    if all(callable(fn) for fn in items):
        items = list(enumerate(items))
    seen: set[int] = set()
    for pair in items:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise InvalidArgumentError(
                f"switch_case(): each element of 'branch_fns' must be an (int, fn) tuple, got "
                f"{pair!r}"
            )
        key, fn = pair
        if isinstance(key, bool) or not isinstance(key, int):
            raise InvalidArgumentError(
                f"switch_case(): the keys of 'branch_fns' must be ints, got "
                f"{type(key).__name__} {key!r}"
            )
        if key in seen:
            raise InvalidArgumentError(
                f"switch_case(): the key {key} appears more than once in 'branch_fns'"
            )
        seen.add(key)
        _check_branch("switch_case", f"the function of key {key}", fn)
    if default is None:
        items.sort(key=lambda pair: pair[0])
        default = items.pop()[1]
    else:
        _check_branch("switch_case", "argument 'default'", default)
    full, equal = op_api("full"), op_api("equal")
    build = default
    for key, fn in items:
        pred = equal(branch_index, full([1], key, DataType.INT64, Place()))
        build = functools.partial(cond, pred, fn, build)
    return build()
