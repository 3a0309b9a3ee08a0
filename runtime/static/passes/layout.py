"""Layout choice: the convolution chains of an inference program that run channels last (NHWC)
inside the plan, where that is measured faster.

PaddlePaddle's CNNs are exported channels first (NCHW). Some convolutions run faster on
channels-last data (im2col then copies runs of C contiguous values: DenseNet's and ResNet's 3x3
convolutions of 64-128 channels, Inception's 1x5 and 5x1 ones), others slower (1x1 convolutions
of small planes, where the product's orientation suits OpenBLAS less; the first convolution of
a 3-channel image). So the choice is made per chain, from timings of the model itself:

1. ``candidates``: the ops that can run on channels-last data with their attributes changed
   (conv2d and depthwise_conv2d, pool2d, test-mode batch_norm: ``data_format``; concat of
   4-D values: its axis) or unchanged (elementwise ops whose operands are all 4-D or scalars:
   the activations, add, multiply, ...), float32 and 4-D in the plan that compiled them.
2. ``rewrite``: a copy of the program's block in which a chosen set of those ops runs channels
   last: their 4-D results are declared [N, H, W, C], a ``pd_op.transpose`` brings each value
   that enters the set from outside into channels last (a parameter's is folded as a constant)
   and each that leaves it back (one per value, before its first reader outside); a concat
   reads a new ``pd_op.full`` axis. The program itself is not changed.
3. ``choose``: the executor compiles the program as it is and with every candidate chain
   channels last, runs both plans on the feed it compiles for and times each op (the best of
   a few runs). A convolution goes channels last where it ran faster so; the chains are then
   the connected sets of candidates without the convolutions that lost, and a chain is kept
   where its convolutions and other ops gain more than its transposes cost (timed on arrays
   of their shapes). The plan with the kept chains is compiled, and used only where a whole
   run of it (the best of 3, alternating with the channels-first plan's) is at least 2%
   faster than the channels-first plan's and gives the same outputs (up to rounding); else
   the program runs as it is.

The ``layout_choice`` flag: "auto" (the above), "NHWC" (every candidate chain with a
convolution, untimed; for tests and experiments), "NCHW" (none). The pass runs on CPU, on
blocks without regions, and not on programs with random or printing ops (the timing runs
would draw or print)."""

from __future__ import annotations

import dataclasses
import re
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.dispatch.op_def import OP_DEFS
from phiops.runtime.ir.attributes import Attribute
from phiops.runtime.ir.core import Block, Operation, Value
from phiops.runtime.ir.types import DenseTensorType, VectorType

__all__ = [
    "LayoutReport",
    "Rewritten",
    "candidates",
    "chains_of",
    "choose",
    "rewrite",
]

TO_LAST = (0, 2, 3, 1)
TO_FIRST = (0, 3, 1, 2)
PACKED = (2, 3, 1, 0)  # a conv2d weight [M, C, kh, kw] stored as [kh, kw, C, M]
UNPACKED = (3, 2, 0, 1)  # and viewed as [M, C, kh, kw] again

_CONVOLUTIONS = ("pd_op.conv2d", "pd_op.depthwise_conv2d")
# attribute names of ops that address axes (softmax's axis, flip's axis, reshape-like shapes,
# diagonals): such an op is not elementwise whatever its InferMeta
_AXES = re.compile(r"axis|axes|dim|perm|shape|shift|index|size|offset|diag")


def formatted(op: Operation) -> bool:
    """Whether ``op`` takes a ``data_format`` attribute (it then computes the same on
    channels-last data with ``data_format`` NHWC: conv2d, pool2d, batch_norm, interpolation,
    ...), by the registry's attribute names."""
    op_def = OP_DEFS.get(_short(op)) if op.name.startswith("pd_op.") else None
    return op_def is not None and "data_format" in op_def.info.attr_names


def elementwise(op: Operation) -> bool:
    """Whether ``op`` computes each element of its results from the same element of its
    operands (broadcast alike), whatever the order of the axes: by the registry, an op with
    ElementwiseInferMeta (add, multiply, maximum, ...) or UnchangedInferMeta (the activations,
    scale, clip, ...) and no attribute naming axes."""
    op_def = OP_DEFS.get(_short(op)) if op.name.startswith("pd_op.") else None
    if op_def is None or op_def.info.infer_meta not in _ELEMENTWISE_METAS:
        return False
    return not any(_AXES.search(name) for name in op_def.info.attr_names)


_ELEMENTWISE_METAS = frozenset({"ElementwiseInferMeta", "UnchangedInferMeta"})
# a candidate must gain this share of the channels-first time to be switched (timing noise)
MIN_GAIN = 0.05
TIMING_RUNS = 3
# an op other than a convolution that takes this much longer channels last stays channels first
NOISE_SECONDS = 2e-6


@dataclass
class LayoutReport:
    """What the pass did to one plan: the mode, the chains that run channels last (their ops'
    labels), the transposes that bring values in and out, and why it kept the program as it
    is (None when it switched, or had nothing to do)."""

    mode: str = "auto"
    chains: list[list[str]] = field(default_factory=list)
    transposes: int = 0
    kept_because: str | None = None
    # measured (auto): the channels-first and the chosen plan's run times, seconds
    first_seconds: float | None = None
    chosen_seconds: float | None = None

    @property
    def switched(self) -> bool:
        """Whether the plan runs chains channels last."""
        return bool(self.chains) and self.kept_because is None


def _short(op: Operation) -> str:
    short = op.name.partition(".")[2]
    return short[:-1] if short.endswith("_") else short


def _attr(op: Operation, name: str) -> Any:
    attribute = op.attributes.get(name)
    return None if attribute is None else attribute.value


def _is_4d_float32(meta: Any) -> bool:
    """Whether ``meta`` is a float32 4-D array's of extents known when the plan compiles."""
    dims = getattr(meta, "dims", ())
    return len(dims) == 4 and min(dims) >= 0 and meta.dtype is DataType.FLOAT32


def _scalar(meta: Any) -> bool:
    dims = getattr(meta, "dims", None)
    return dims is not None and int(np.prod(dims)) <= 1


def candidates(block: Block, metas: dict[Value, Any], dead: frozenset[int]) -> set[int]:
    """The indices of the ops of ``block`` that can run on channels-last data (see the module
    doc), by the metas a compilation planned (``metas``)."""
    found: set[int] = set()
    index_of = {op: i for i, op in enumerate(block.ops)}
    for index, op in enumerate(block.ops):
        if index in dead or op.regions or not op.results:
            continue
        if formatted(op):
            if _attr(op, "data_format") != "NCHW" or not _is_4d_float32(metas.get(op.operands[0])):
                continue
            if "is_test" in op.attributes or "use_global_stats" in op.attributes:
                if not (_attr(op, "is_test") or _attr(op, "use_global_stats")):
                    continue  # a batch norm computing its batch's statistics
            if any(len(getattr(metas.get(v), "dims", ())) == 4 for v in op.results[1:]):
                continue  # one 4-D result: the data
            if not _is_4d_float32(metas.get(op.results[0])):
                continue
            found.add(index)
        elif op.name == "pd_op.concat":
            combine = op.operands[0].define_op if op.operands[0] is not None else None
            if combine is None or combine.name != "builtin.combine" or len(op.operands) != 2:
                continue
            if len(op.operands[0].uses) != 1 or combine not in index_of:
                continue
            axis_op = op.operands[1].define_op if op.operands[1] is not None else None
            if axis_op is None or axis_op.name != "pd_op.full":
                continue
            axis = _attr(axis_op, "value")
            if axis is None or int(axis) % 4 != 1 or int(axis) != axis:
                continue
            if not all(_is_4d_float32(metas.get(v)) for v in combine.operands):
                continue
            if _is_4d_float32(metas.get(op.results[0])):
                found.add(index)
                found.add(index_of[combine])
        elif elementwise(op):
            data = [v for v in op.operands if v is not None]
            results_ok = all(
                _is_4d_float32(metas.get(r)) or _scalar(metas.get(r)) for r in op.results
            )
            shapes_ok = all(_is_4d_float32(metas.get(v)) or _scalar(metas.get(v)) for v in data)
            if results_ok and shapes_ok and _is_4d_float32(metas.get(op.results[0])):
                if any(_is_4d_float32(metas.get(v)) for v in data):
                    found.add(index)
    return found


def _data_operands(op: Operation, metas: dict[Value, Any]) -> list[int]:
    """The operand positions of a candidate that hold channels-last data (a combine's: all of
    them, the 4-D values it gathers for its concat)."""
    if formatted(op) or op.name == "pd_op.concat":
        return [0]
    return [i for i, v in enumerate(op.operands) if v is not None and _is_4d_float32(metas.get(v))]


def _data_results(op: Operation, metas: dict[Value, Any]) -> list[int]:
    if op.name == "builtin.combine":
        return [0]
    return [i for i, r in enumerate(op.results) if _is_4d_float32(metas.get(r))]


def chains_of(block: Block, members: set[int], metas: dict[Value, Any]) -> list[list[int]]:
    """``members`` split into chains: the sets connected through the values they pass one
    another (sorted lists of op indices, in program order of their first op)."""
    parent = {index: index for index in members}

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    index_of = {op: i for i, op in enumerate(block.ops)}
    for index in members:
        op = block.ops[index]
        for position in _data_operands(op, metas):
            source = op.operands[position].define_op
            other = index_of.get(source) if source is not None else None
            if other in parent:
                parent[find(index)] = find(other)
    groups: dict[int, list[int]] = {}
    for index in sorted(members):
        groups.setdefault(find(index), []).append(index)
    return sorted(groups.values())


def with_convolution(block: Block, chains: list[list[int]]) -> list[list[int]]:
    return [c for c in chains if any(block.ops[i].name in _CONVOLUTIONS for i in c)]


@dataclass
class Rewritten:
    """The block with ``members`` channels last: the copy, the map from the program's values to
    the copy's (``values``), the program's op index of each op of the copy (None for the
    transposes and axes it adds), the names its new values print as, the number of
    transposes, and the number of conv2d weights packed for the channels-last GEMM."""

    block: Block
    values: dict[Value, Value]
    origin: list[int | None]
    names: dict[Value, str]
    transposes: int
    packed: int = 0


def _permuted(declared: Any, perm: tuple[int, ...]) -> Any:
    if isinstance(declared, DenseTensorType) and len(declared.dims) == 4:
        return dataclasses.replace(declared, dims=tuple(declared.dims[p] for p in perm))
    if isinstance(declared, VectorType):
        return VectorType(tuple(_permuted(t, perm) for t in declared.types))
    return declared


_STOP = Attribute("array", (Attribute("bool", True),))


def _perm_attribute(perm: tuple[int, ...]) -> Attribute:
    return Attribute("array", tuple(Attribute("int32", p) for p in perm))


def rewrite(
    block: Block,
    members: set[int],
    metas: dict[Value, Any],
    fetched: list[Value],
    names: dict[Value, str],
) -> Rewritten:
    """A copy of ``block`` whose ops ``members`` run channels last (the module doc, 2.);
    ``names`` the program's value names (the copy's transposes are named after them)."""
    copy = Block()
    values: dict[Value, Value] = {}
    origin: list[int | None] = []
    new_names: dict[Value, str] = {}
    for arg in block.args:
        values[arg] = copy.add_arg(arg.type)
    for key, arg in block.kwargs.items():
        values[arg] = copy.add_kwarg(key, arg.type)
    last: dict[Value, Value] = {}  # program value -> its channels-last copy
    first: dict[Value, Value] = {}  # channels-last program value -> its channels-first copy
    count = 0

    packed: dict[Value, Value] = {}  # a conv2d's weight -> its packed view

    def transpose(value: Value, perm: tuple[int, ...], name: str, counted: bool = True) -> Value:
        """``value`` of the copy in the other layout, a contiguous array (a transpose, which is
        a view, then a copy: the kernels after it take their fast paths on contiguous data)."""
        nonlocal count
        view = Operation(
            "pd_op.transpose",
            [value],
            [_permuted(value.type, perm)],
            {"perm": _perm_attribute(perm), "stop_gradient": _STOP},
        )
        copied = Operation(
            "pd_op.assign", view.results, [r.type for r in view.results], {"stop_gradient": _STOP}
        )
        for op in (view, copied):
            copy.append(op)
            origin.append(None)
        count += counted
        new_names[view.results[0]] = f"{name}.view"
        new_names[copied.results[0]] = name
        return copied.results[0]

    def as_last(value: Value) -> Value:
        found = last.get(value)
        if found is None:
            name = f"{names.get(value, '%?')}.nhwc"
            found = last[value] = transpose(values[value], TO_LAST, name)
        return found

    def packed_weight(value: Value) -> Value:
        """A conv2d's constant weight [M, C, kh, kw] as a view of the same values stored
        [kh, kw, C, M]: the channels-last GEMM reads its [kh * kw * C, M] matrix from it without
        a copy at each run (conv_kernel.filter_matrix; the three ops fold as constants)."""
        found = packed.get(value)
        if found is None:
            name = f"{names.get(value, '%?')}.packed"
            stored = transpose(values[value], PACKED, name, counted=False)
            view = Operation(
                "pd_op.transpose",
                [stored],
                [values[value].type],
                {"perm": _perm_attribute(UNPACKED), "stop_gradient": _STOP},
            )
            copy.append(view)
            origin.append(None)
            found = packed[value] = view.results[0]
            new_names[found] = f"{name}.oihw"
        return found

    def as_first(value: Value) -> Value:
        if value not in last or value in values:
            return values[value]
        found = first.get(value)
        if found is None:
            name = f"{names.get(value, '%?')}.nchw"
            found = first[value] = transpose(last[value], TO_FIRST, name)
        return found

    for index, op in enumerate(block.ops):
        if index not in members:
            operands = [None if v is None else as_first(v) for v in op.operands]
            clone = Operation(
                op.name,
                operands,
                [r.type for r in op.results],
                dict(op.attributes),
                id=op.id,
            )
            copy.append(clone)
            origin.append(index)
            for result, new in zip(op.results, clone.results):
                values[result] = new
            continue
        data = set(_data_operands(op, metas))
        operands = []
        for position, value in enumerate(op.operands):
            if value is None:
                operands.append(None)
            elif position in data:
                operands.append(as_last(value))
            elif position == 1 and _packs_weight(op, metas):
                operands.append(packed_weight(value))
            else:
                operands.append(as_first(value))
        attributes = dict(op.attributes)
        if formatted(op):
            attributes["data_format"] = Attribute("str", "NHWC")
        if op.name == "pd_op.concat":
            axis_op = op.operands[1].define_op
            axis = Operation(
                "pd_op.full",
                [],
                [op.operands[1].type],
                {**axis_op.attributes, "value": Attribute("double", 3.0)},
            )
            copy.append(axis)
            origin.append(None)
            new_names[axis.results[0]] = f"{names.get(op.operands[1], '%?')}.nhwc"
            operands[1] = axis.results[0]
        permuted = set(_data_results(op, metas))
        clone = Operation(
            op.name,
            operands,
            [
                _permuted(r.type, TO_LAST) if position in permuted else r.type
                for position, r in enumerate(op.results)
            ],
            attributes,
            id=op.id,
        )
        copy.append(clone)
        origin.append(index)
        for position, (result, new) in enumerate(zip(op.results, clone.results)):
            if position in permuted:
                last[result] = new
                new_names[new] = f"{names.get(result, '%?')}.nhwc"
            else:
                values[result] = new
    for value in fetched:
        if value in last and value not in values:
            as_first(value)
    for value, new in first.items():
        values[value] = new
    for value, new in values.items():
        if new not in new_names and value in names:
            new_names[new] = names[value]
    return Rewritten(copy, values, origin, new_names, count, len(packed))


def _packs_weight(op: Operation, metas: dict[Value, Any]) -> bool:
    """Whether the channels-last ``op`` reads its weight packed: a conv2d of one group whose
    weight is a parameter (a depthwise convolution reads its weight per channel)."""
    weight = op.operands[1] if len(op.operands) > 1 else None
    return (
        op.name == "pd_op.conv2d"
        and _attr(op, "groups") == 1
        and weight is not None
        and _is_constant(weight)
        and len(getattr(metas.get(weight), "dims", ())) == 4
    )


# -- the choice ---------------------------------------------------------------------------------


def op_times(timings: list[tuple[str, str, float]], origin: list[int | None] | None) -> dict:
    """Seconds per op of the program (``origin`` maps an op index of the rewritten block to the
    program's; None: the program's own) from a plan's timed steps, a fused step counted for
    the op that heads it; the rewrite's own ops under the key None."""
    times: dict[int | None, float] = {}
    for label, _, seconds in timings:
        index = _op_index(label)
        if index is not None and origin is not None:
            index = origin[index]
        times[index] = times.get(index, 0.0) + seconds
    return times


def _op_index(label: str) -> int | None:
    start = label.find("(op ")
    if start < 0:
        return None
    digits = ""
    for ch in label[start + 4 :]:
        if not ch.isdigit():
            break
        digits += ch
    return int(digits) if digits else None


def best_times(runs: list[dict]) -> dict:
    """Per op, the least of its times over ``runs``."""
    best: dict = {}
    for run in runs:
        for key, seconds in run.items():
            best[key] = min(best.get(key, seconds), seconds)
    return best


def transpose_seconds(shape: tuple[int, ...], repeats: int = 5) -> float:
    """The time of bringing a float32 array of ``shape`` into the other layout (a copy)."""
    array = np.zeros(shape, np.float32)
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        np.ascontiguousarray(array.transpose(TO_LAST))
        best = min(best, time.perf_counter() - start)
    return best


def choose(
    block: Block,
    chains: list[list[int]],
    metas: dict[Value, Any],
    fetched: set[Value],
    first_times: dict,
    last_times: dict,
    transpose_cost: Callable[[tuple[int, ...]], float] = transpose_seconds,
) -> list[list[int]]:
    """The chains worth running channels last (the module doc, 3.), from the best times per op
    of the channels-first plan (``first_times``) and the all-channels-last one
    (``last_times``): without the convolutions that gained nothing and the other ops that ran
    slower channels last, the chains whose gain exceeds the cost of their transposes."""
    losing = set()
    for chain in chains:
        for index in chain:
            first, last = first_times.get(index, 0.0), last_times.get(index, 0.0)
            if block.ops[index].name in _CONVOLUTIONS:
                if last >= first * (1 - MIN_GAIN):  # a convolution must gain
                    losing.add(index)
            elif last > first * (1 + MIN_GAIN) + NOISE_SECONDS:  # another op must not lose
                losing.add(index)
    kept_members = _paired(block, {index for chain in chains for index in chain} - losing)
    kept = []
    for chain in with_convolution(block, chains_of(block, kept_members, metas)):
        members = set(chain)
        gain = sum(first_times.get(i, 0.0) - last_times.get(i, 0.0) for i in chain)
        cost = sum(
            transpose_cost(shape) for shape in boundary_shapes(block, members, metas, fetched)
        )
        if gain - cost > MIN_GAIN * sum(first_times.get(i, 0.0) for i in chain):
            kept.append(chain)
    return kept


def _paired(block: Block, members: set[int]) -> set[int]:
    """``members`` without a concat whose combine is not among them, nor a combine whose
    concat is not (the two go together)."""
    index_of = {op: i for i, op in enumerate(block.ops)}
    kept = set(members)
    for index in members:
        op = block.ops[index]
        if op.name == "builtin.combine":
            ((reader, _),) = op.results[0].uses
            partner = index_of.get(reader)
        elif op.name == "pd_op.concat":
            partner = index_of.get(op.operands[0].define_op)
        else:
            continue
        if partner not in members:
            kept.discard(index)
    return kept


def boundary_shapes(
    block: Block, members: set[int], metas: dict[Value, Any], fetched: set[Value]
) -> list[tuple[int, ...]]:
    """The shapes of the values that enter ``members`` from outside (not constants known
    ahead: those are transposed once) or leave it: one transpose each."""
    index_of = {op: i for i, op in enumerate(block.ops)}
    entering: dict[Value, tuple] = {}
    leaving: dict[Value, tuple] = {}
    for index in members:
        op = block.ops[index]
        for position in _data_operands(op, metas):
            value = op.operands[position]
            source = index_of.get(value.define_op) if value.define_op is not None else None
            if source not in members and not _is_constant(value):
                entering[value] = tuple(metas[value].dims)
        for position in _data_results(op, metas):
            result = op.results[position]
            outside = any(index_of.get(user) not in members for user, _ in result.uses)
            if outside or result in fetched:
                leaving[result] = tuple(metas[result].dims)
    return list(entering.values()) + list(leaving.values())


def _is_constant(value: Value) -> bool:
    op = value.define_op
    return op is not None and op.name in ("builtin.parameter", "pd_op.full", "pd_op.assign_value")
