"""Control-flow steps: `pd_op.if` and `pd_op.while`, whose blocks are planned with the program
and run as steps of their own in the same slots, and the `cf` stack ops through which a forward
loop or branch hands its values to the backward one."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from phiops.runtime.common import Backend, DataLayout, DataType, Place
from phiops.runtime.tensor.dense_tensor import DenseTensorMeta
from phiops.runtime.device import to_backend
from phiops.runtime.errors import InvalidArgumentError, PreconditionNotMetError
from phiops.runtime.ir.core import Block, Operation, Value
from phiops.runtime.ir.types import DenseTensorType
from phiops.runtime.static.executor.builder import PlanBuilder
from phiops.runtime.static.executor.metas import has_unknown_dims
from phiops.runtime.static.executor.steps.step import OpStep, RegionSteps

__all__ = ["CONTROL_FLOW_STEPS"]


def _compile_region(
    builder: PlanBuilder, block: Block, outer: str
) -> tuple[RegionSteps, list[Value]]:
    """The steps of a region's block and the values its `cf.yield` yields (none without
    one); its ops are named in errors as ``op (results) in <the op holding the region>``."""
    saved = builder.ops
    builder.ops = []
    yielded: list[Value] = []
    try:
        for position, op in enumerate(block.ops):
            if op.name == "cf.yield":
                if position != len(block.ops) - 1:
                    raise InvalidArgumentError(f"{outer}: cf.yield is not the last op of its block")
                yielded = list(op.operands)
                continue
            results = ", ".join(builder.numbering.get(v, "?") for v in op.results)
            where = f"{op.name} ({results}) in {outer}" if results else f"{op.name} in {outer}"
            first = len(builder.ops)
            builder.compile_op_steps(op, where)
            for step in builder.ops[first:]:
                step.label = where
        return RegionSteps(builder.ops), yielded
    finally:
        builder.ops = saved


def _check_predicate(builder: PlanBuilder, value: Value, where: str, what: str) -> None:
    """A condition is a bool tensor of one element (0-d, [1], [1, 1] ...)."""
    meta = builder.meta_of[value]
    count = 1
    for extent in meta.dims if isinstance(meta, DenseTensorMeta) else ():
        count *= extent
    if (
        not isinstance(meta, DenseTensorMeta)
        or meta.dtype is not DataType.BOOL
        or count not in (1, -1)
    ):
        got = (
            f"{meta.dtype.name.lower()} {list(meta.dims)}"
            if isinstance(meta, DenseTensorMeta)
            else str(value.type)
        )
        raise InvalidArgumentError(
            f"{where}: {what} {builder.numbering.get(value, '?')} must be a bool tensor of one "
            f"element, got {got}"
        )


def compile_if(builder: PlanBuilder, op: Operation, where: str) -> None:
    """`pd_op.if`: both branches are planned now; running, the step runs the branch the
    condition selects and its yielded arrays become the results."""
    pred = op.operands[0]
    _check_predicate(builder, pred, where, "the condition")
    start = builder.num_slots
    true_steps, true_values = _compile_region(builder, op.regions[0].blocks[0], where)
    false_steps, false_values = _compile_region(builder, op.regions[1].blocks[0], where)
    nested = tuple(range(start, builder.num_slots))
    for branch, values in (("true", true_values), ("false", false_values)):
        if len(values) != len(op.results):
            raise InvalidArgumentError(
                f"{where}: the {branch} branch yields {len(values)} value(s), the op has "
                f"{len(op.results)} result(s)"
            )
    for index, (value, on_true, on_false) in enumerate(zip(op.results, true_values, false_values)):
        meta = _joined_meta(builder.meta_of[on_true], builder.meta_of[on_false], where, index)
        builder.check_declared(value, meta, where)
        builder.meta_of[value] = meta
    out_slots = tuple(builder.new_slot(v) for v in op.results)
    step = _if_step(
        builder.slot_of[pred],
        (true_steps, tuple(builder.slot_of[v] for v in true_values)),
        (false_steps, tuple(builder.slot_of[v] for v in false_values)),
        out_slots,
        nested,
        where,
    )
    builder.ops.append(OpStep(step, out_slots))


def compile_while(builder: PlanBuilder, op: Operation, where: str) -> None:
    """`pd_op.while`: the body is planned once, for the inputs' metas (-1 where the body's
    arguments declare an extent unknown); a value the body yields must fit its argument's
    meta, else the carried value would change between iterations, which is an error naming
    it. Running, the step copies the inputs into the arguments and runs the body while the
    condition holds."""
    cond, inputs = op.operands[0], op.operands[1:]
    body = op.regions[0].blocks[0]
    if not len(body.args) == len(inputs) == len(op.results):
        raise InvalidArgumentError(
            f"{where}: {len(inputs)} input(s), {len(body.args)} block argument(s) and "
            f"{len(op.results)} result(s) must be as many"
        )
    _check_predicate(builder, cond, where, "the condition")
    start = builder.num_slots
    loose = False
    for arg, value in zip(body.args, inputs):
        builder.meta_of[arg] = _with_unknown_dims(builder.meta_of[value], arg.type)
        loose = loose or builder.meta_of[arg] != builder.meta_of[value]
        builder.check_declared(arg, builder.meta_of[arg], where)
        builder.new_slot(arg)
    builder.loose_extents += loose
    try:
        steps, yielded = _compile_region(builder, body, where)
    finally:
        builder.loose_extents -= loose
    nested = tuple(range(start, builder.num_slots))
    if len(yielded) != len(inputs) + 1:
        raise InvalidArgumentError(
            f"{where}: the body yields {len(yielded)} value(s), it must yield the next "
            f"condition and {len(inputs)} loop value(s)"
        )
    _check_predicate(builder, yielded[0], where, "the next condition")
    runtime_checks = []
    for k, (arg, value) in enumerate(zip(body.args, yielded[1:])):
        entry, meta = builder.meta_of[arg], builder.meta_of[value]
        if not _carried_fits(meta, entry):
            raise InvalidArgumentError(
                f"{where}: loop value {k} ({builder.numbering.get(arg, '?')}) is "
                f"{_meta_text(entry)} on entry, but the body yields {_meta_text(meta)} for "
                f"it ({builder.numbering.get(value, '?')}): a carried value keeps its dtype and "
                "shape between iterations, unless the program declares an extent unknown (-1)"
            )
        if has_unknown_dims(meta) and not has_unknown_dims(entry):
            runtime_checks.append((k, tuple(entry.dims), builder.numbering.get(arg, "?")))
    for value, arg in zip(op.results, body.args):
        builder.check_declared(value, builder.meta_of[arg], where)
        builder.meta_of[value] = builder.meta_of[arg]
    out_slots = tuple(builder.new_slot(v) for v in op.results)
    step = _while_step(
        builder.slot_of[cond],
        tuple(builder.slot_of[v] for v in inputs),
        tuple(builder.slot_of[a] for a in body.args),
        steps,
        tuple(builder.slot_of[v] for v in yielded),
        out_slots,
        nested,
        tuple(runtime_checks),
        where,
    )
    builder.ops.append(OpStep(step, out_slots))


def compile_stack_create(builder: PlanBuilder, op: Operation, where: str) -> None:
    """`cf.stack_create`: its stack, inlet and outlet are one list in one slot."""
    stack, inlet, outlet = op.results
    slot = builder.new_slot(stack)
    for value in op.results:
        builder.meta_of[value] = None
    builder.share_slot(inlet, stack)
    builder.share_slot(outlet, stack)
    builder.ops.append(OpStep(_new_stack_step(slot), (slot,)))


def compile_tuple_push(builder: PlanBuilder, op: Operation, where: str) -> None:
    inlet, values = op.operands[0], op.operands[1:]
    slot = builder.slot_of[inlet]
    builder.pushed[slot] = [builder.meta_of[v] for v in values]
    sources = tuple(builder.slot_of[v] for v in values)
    builder.ops.append(OpStep(_push_step(slot, sources)))


def compile_tuple_pop(builder: PlanBuilder, op: Operation, where: str) -> None:
    slot = builder.slot_of[op.operands[0]]
    pushed = builder.pushed.get(slot)
    if pushed is None or len(pushed) != len(op.results):
        raise InvalidArgumentError(
            f"{where}: pops {len(op.results)} value(s) from a stack that "
            + ("nothing pushes to before it" if pushed is None else f"gets {len(pushed)}")
        )
    for value, meta in zip(op.results, pushed):
        builder.check_declared(value, meta, where)
        builder.meta_of[value] = meta
    targets = tuple(builder.new_slot(v) for v in op.results)
    builder.ops.append(OpStep(_pop_step(slot, targets, where), targets))


def compile_has_elements(builder: PlanBuilder, op: Operation, where: str) -> None:
    value = op.results[0]
    builder.meta_of[value] = DenseTensorMeta.get(
        DataType.BOOL, (1,), DataLayout.NCHW, builder.place
    )
    builder.check_declared(value, builder.meta_of[value], where)
    target = builder.new_slot(value)
    builder.ops.append(
        OpStep(
            _has_elements_step(builder.slot_of[op.operands[0]], target, builder.place), (target,)
        )
    )


# op name -> the function appending its steps
CONTROL_FLOW_STEPS: dict[str, Callable[[PlanBuilder, Operation, str], None]] = {
    "pd_op.if": compile_if,
    "pd_op.while": compile_while,
    "cf.stack_create": compile_stack_create,
    "cf.tuple_push": compile_tuple_push,
    "cf.tuple_pop": compile_tuple_pop,
    "cf.has_elements": compile_has_elements,
}


# -- metas of the values a block carries or yields ---------------------------------------------


def _meta_text(meta: Any) -> str:
    if isinstance(meta, DenseTensorMeta):
        return f"{meta.dtype.name.lower()} {list(meta.dims)}"
    return repr(meta)


def _joined_meta(first: Any, second: Any, where: str, index: int) -> Any:
    """The meta of result ``index`` of an if whose branches yield ``first`` and ``second``:
    their dtype and rank must agree; an extent they disagree on is unknown (-1)."""
    if first == second:
        return first
    if (
        not isinstance(first, DenseTensorMeta)
        or not isinstance(second, DenseTensorMeta)
        or first.dtype is not second.dtype
        or len(first.dims) != len(second.dims)
    ):
        raise InvalidArgumentError(
            f"{where}: result {index} is {_meta_text(first)} in the true branch but "
            f"{_meta_text(second)} in the false branch: the branches must yield the same dtype "
            "and rank"
        )
    dims = tuple(a if a == b else -1 for a, b in zip(first.dims, second.dims))
    return DenseTensorMeta.get(first.dtype, dims, first.layout, first.place)


def _with_unknown_dims(meta: Any, declared: Any) -> Any:
    """``meta`` with -1 where ``declared`` (a block argument's type) leaves an extent unknown."""
    if (
        not isinstance(meta, DenseTensorMeta)
        or not isinstance(declared, DenseTensorType)
        or -1 not in declared.dims
        or len(declared.dims) != len(meta.dims)
    ):
        return meta
    dims = tuple(-1 if d == -1 else m for m, d in zip(meta.dims, declared.dims))
    return DenseTensorMeta.get(meta.dtype, dims, meta.layout, meta.place)


def _carried_fits(meta: Any, entry: Any) -> bool:
    """Whether a yielded meta can be carried in a loop argument of meta ``entry``: same dtype and
    rank, and each extent the argument knows is the yielded one (or unknown until run time)."""
    if not isinstance(meta, DenseTensorMeta) or not isinstance(entry, DenseTensorMeta):
        return meta == entry
    return (
        meta.dtype is entry.dtype
        and len(meta.dims) == len(entry.dims)
        and all(e == -1 or m == -1 or m == e for m, e in zip(meta.dims, entry.dims))
    )


# -- the closures over slots -------------------------------------------------------------------


def _truth(array: Any, where: str, what: str) -> bool:
    if array.size != 1:
        raise InvalidArgumentError(
            f"{where}: {what} must hold one element, got shape {list(array.shape)}"
        )
    return bool(array.reshape(()).item())


def _if_step(
    pred: int,
    true_branch: tuple[RegionSteps, tuple[int, ...]],
    false_branch: tuple[RegionSteps, tuple[int, ...]],
    out_slots: tuple[int, ...],
    nested: tuple[int, ...],
    where: str,
) -> Callable[[list], None]:
    def step(s: list) -> None:
        steps, sources = true_branch if _truth(s[pred], where, "the condition") else false_branch
        steps.run(s)
        for target, source in zip(out_slots, sources):
            s[target] = s[source]
        for slot in nested:
            s[slot] = None

    return step


def _while_step(
    cond: int,
    inputs: tuple[int, ...],
    args: tuple[int, ...],
    body: RegionSteps,
    yielded: tuple[int, ...],
    out_slots: tuple[int, ...],
    nested: tuple[int, ...],
    checks: tuple[tuple[int, tuple[int, ...], str], ...],
    where: str,
) -> Callable[[list], None]:
    next_cond, next_values = yielded[0], yielded[1:]

    def step(s: list) -> None:
        for arg, source in zip(args, inputs):
            s[arg] = s[source]
        flag = s[cond]
        while _truth(flag, where, "the condition"):
            body.run(s)
            flag = s[next_cond]
            values = [s[slot] for slot in next_values]
            for k, dims, name in checks:
                if tuple(values[k].shape) != dims:
                    raise InvalidArgumentError(
                        f"{where}: loop value {k} ({name}) has shape {list(dims)} on entry, but "
                        f"an iteration yields shape {list(values[k].shape)}: a carried value "
                        "keeps its shape between iterations, unless the program declares an "
                        "extent unknown (-1)"
                    )
            for arg, array in zip(args, values):
                s[arg] = array
        for target, arg in zip(out_slots, args):
            s[target] = s[arg]
        for slot in nested:
            s[slot] = None

    return step


def _new_stack_step(slot: int) -> Callable[[list], None]:
    def step(s: list) -> None:
        s[slot] = []

    return step


def _push_step(stack: int, sources: tuple[int, ...]) -> Callable[[list], None]:
    def step(s: list) -> None:
        s[stack].append(tuple(s[slot] for slot in sources))

    return step


def _pop_step(stack: int, targets: tuple[int, ...], where: str) -> Callable[[list], None]:
    def step(s: list) -> None:
        entries = s[stack]
        if not entries:
            raise PreconditionNotMetError(f"{where}: pops from an empty stack")
        for slot, array in zip(targets, entries.pop()):
            s[slot] = array

    return step


def _has_elements_step(stack: int, target: int, place: Place) -> Callable[[list], None]:
    on_cpu = place.backend is Backend.CPU

    def step(s: list) -> None:
        flag = np.array([len(s[stack]) > 0])
        s[target] = flag if on_cpu else to_backend(flag, place)

    return step
