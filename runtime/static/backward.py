"""Backward programs: ``append_backward`` and ``gradients`` append the grad ops of a straight-line
program to it, built from the same ``GradSpec``s as eager autograd (DESIGN.md §6).

The construction follows PaddlePaddle 3.3.1's ``paddle/autograd/ir_backward.py`` step by step, so
the ops come out in its order and print as its do:

1. every value with ``stop_gradient`` (and every value of ``no_grad_set``) needs no gradient;
2. each target's gradient is seeded with ``full_like(target, 1.0)`` (its ``full`` operand first),
   unless given; the target's defining op's other results get ``full_like(.., 0.0)``;
3. the forward ops that lie between the inputs (when given) and the targets are kept, visited in
   reverse topological order (Kahn's algorithm over operand edges, as ``inverse_sort_op``);
4. for each op with a GradSpec, the gradients of its results (several contributions summed by
   ``builtin.combine`` + ``add_n``, a missing one made ``full_like(.., 0.0)``) go into its backward
   op, built through the generated API like any op; the backward op's result for an input that
   needs no gradient gets the null type, as PaddlePaddle's VJPs leave it. An op whose results all
   lack gradients, or whose inputs all stop the gradient, gets no backward op;
5. a parameter (an op without operands) used several times has its contributions summed when it
   is visited; unused zero gradients (and, for ``gradients``, grad ops off the path to the
   inputs) are removed at the end.

Since backward ops are built like forward ops, their results do not stop the gradient, and a
second ``gradients`` call differentiates them again (double grad) through their own GradSpecs.
Control flow follows ``ir_backward.py`` too: a ``pd_op.if`` gets a backward ``pd_op.if`` on the
same condition whose branches hold the grad ops of the forward branches and yield the gradients
of the values from outside the ``if`` that the branches use; a ``pd_op.while`` pushes its block
arguments and every value of its body on a cf stack each iteration (``cf.stack_create`` at the
start of the program, ``cf.tuple_push`` before the body's ``cf.yield``) and a backward
``pd_op.while`` pops them (``cf.has_elements`` as its condition, ``cf.tuple_pop``), carrying the
gradients of the loop variables, and of the values from outside the loop the body reads (summed
over the iterations, from zeros). A value computed inside a branch that a branch's grad op reads is
pushed on a stack by the forward branch and popped by the backward one the same way.
"""

from __future__ import annotations

import collections
from typing import Any, Iterable, Sequence

from phiops.runtime.common import DataType, Place
from phiops.runtime.dispatch.op_def import OP_DEFS, OpDef, op_api
from phiops.runtime.dispatch.op_packages import is_op_package_dialect
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.ir.builder import Builder
from phiops.runtime.ir.core import Block, Operation, Value
from phiops.runtime.ir.dialect import get_dialect
from phiops.runtime.ir.dialects.cf import INLET, OUTLET, STACK
from phiops.runtime.ir.types import NULL_TYPE, DenseTensorType, TensorArrayType, VectorType
from phiops.runtime.static.control_flow import _append_if, _bools, _yield
from phiops.runtime.static.program import building_block, current_block

__all__ = ["append_backward", "gradients", "grad_op_def"]

_SINKS = ("pd_op.full_like",)  # ops whose gradient stops there although they have operands


def grad_op_def(op: Operation) -> OpDef | None:
    """The OpDef whose GradSpec differentiates ``op`` (an in-place ``x_`` uses ``x``'s), or None
    when ``op`` has none."""
    dialect, _, short = op.name.partition(".")
    if dialect != "pd_op" and not is_op_package_dialect(dialect):
        return None
    op_def = OP_DEFS.get(short)
    if op_def is None and short.endswith("_"):
        op_def = OP_DEFS.get(short[:-1])
    if op_def is None or op_def.grad is None or op_def.info.dialect != dialect:
        return None
    return op_def


def _operands(op: Operation) -> list[Value]:
    return [v for v in op.operands if v is not None]


def _inner_values(op: Operation) -> set[Value]:
    """The block arguments and results defined inside ``op``'s regions."""
    inner: set[Value] = set()
    for region in op.regions:
        for block in region.blocks:
            inner.update(block.args)
            for nested in block.walk():
                inner.update(nested.results)
    return inner


def _outer_reads(op: Operation) -> list[Value]:
    """The values from outside ``op`` that the ops of its regions read, in order."""
    inner = _inner_values(op)
    found: dict[Value, None] = {}
    for region in op.regions:
        for block in region.blocks:
            for nested in block.walk():
                for value in _operands(nested):
                    if value not in inner:
                        found[value] = None
    return list(found)


def _free_operands(op: Operation) -> list[Value]:
    """``op``'s operands, then the values from outside ``op`` its regions read."""
    found = _operands(op)
    if op.regions:
        seen = set(found)
        found += [v for v in _outer_reads(op) if v not in seen]
    return found


def _remove(op: Operation) -> None:
    for index, value in enumerate(op.operands):
        if value is not None:
            value.uses = [use for use in value.uses if use != (op, index)]
    op.parent.ops.remove(op)


class _State:
    """The gradients found so far: value -> contributions (a Value, None for "no gradient",
    or a list for a vector value), and what each sum replaced."""

    def __init__(self) -> None:
        self.grads: dict[Value, list[Any]] = collections.defaultdict(list)
        self.summed: dict[Value, list[Any]] = collections.defaultdict(list)
        self.backward_ops: list[Operation] = []

    def record(self, block: Block, first: int) -> None:
        """Note the ops appended to ``block`` since index ``first`` as backward ops."""
        self.backward_ops.extend(block.ops[first:])


def _full_like(value: Value, fill: float, state: _State) -> Value:
    block = current_block()
    first = len(block.ops)
    grad = op_api("full_like")(value, fill, value.dtype, Place())
    state.record(block, first)
    return grad


def _add_n(value: Value, state: _State) -> None:
    """Sum the contributions to ``value``'s gradient (PaddlePaddle's ``append_add_n``)."""
    items = [g for g in state.grads[value] if g is not None]
    state.summed[value].extend(state.grads[value])
    if not items:
        state.grads[value] = []
    elif len(items) == 1:
        state.grads[value] = [items[0]]
    else:
        block = current_block()
        first = len(block.ops)
        total = op_api("add_n")(items)
        state.record(block, first)
        state.grads[value] = [total]


def _inverse_sort(ops: Sequence[Operation]) -> list[Operation]:
    """``ops`` consumers first: Kahn's algorithm over operand edges (PaddlePaddle's
    ``inverse_sort_op``)."""
    ops = list(dict.fromkeys(ops))
    members = set(ops)
    writes = _earlier_array_writes(ops)
    pending: dict[Operation, int] = collections.defaultdict(int)
    for op in ops:
        for value in _free_operands(op):
            if value.define_op in members:
                pending[value.define_op] += 1
        for write in writes.get(op, ()):
            pending[write] += 1
    queue = collections.deque(op for op in ops if pending[op] == 0)
    ordered = []
    while queue:
        op = queue.popleft()
        ordered.append(op)
        producers = [value.define_op for value in _free_operands(op)]
        for producer in producers + writes.get(op, []):
            if producer is None:
                continue
            pending[producer] -= 1
            if pending[producer] == 0:
                queue.append(producer)
    return ordered


# ops that write their first operand, a tensor array, in place: their array result is that
# operand, so a later op reading the operand reads what they wrote
_ARRAY_WRITES = ("pd_op.array_write_",)


def _arrays_written(op: Operation) -> list[Value]:
    """The tensor arrays from outside ``op`` that it writes in place: an array write's array,
    the arrays the ops of a loop's or branch's blocks write that are defined outside it."""
    if op.name in _ARRAY_WRITES:
        return [op.operands[0]]
    if not op.regions:
        return []
    inner = _inner_values(op)
    found: dict[Value, None] = {}
    for region in op.regions:
        for block in region.blocks:
            for nested in block.walk():
                if nested.name in _ARRAY_WRITES and nested.operands[0] not in inner:
                    found[nested.operands[0]] = None
    return list(found)


def _earlier_array_writes(ops: Sequence[Operation]) -> dict[Operation, list[Operation]]:
    """op -> the op before it in ``ops`` that used the same tensor array: edges the operands do
    not show, as an in-place write changes the array the ops around it use. Their gradients
    then come in the reverse of the program's order (a read's before the write before it, the
    write's before the read before it)."""
    found: dict[Operation, list[Operation]] = {}
    last: dict[Value, Operation] = {}
    for op in ops:
        for value in _free_operands(op):
            if not isinstance(value.type, TensorArrayType):
                continue
            previous = last.get(value)
            if previous is not None and previous is not op:
                found.setdefault(op, []).append(previous)
            last[value] = op
    return found


def _prune(
    ops: Sequence[Operation], inputs: set[Value], outputs: set[Value], no_grad: set[Value]
) -> tuple[list[Operation], list[Operation]]:
    """(ops on a path from ``inputs`` (when any) to ``outputs``, ops on no such path at all), as
    PaddlePaddle's ``prune_ops``; the sets grow along the way."""
    inputs, outputs = set(inputs), set(outputs)
    both = [True] * len(ops)
    either = [False] * len(ops)
    if inputs:
        for i, op in enumerate(ops):
            if any(r in inputs for r in op.results):
                either[i] = True
                continue
            if any(v in inputs for v in _free_operands(op)):
                either[i] = True
                inputs.update(r for r in op.results if r not in no_grad)
                inputs.update(a for a in _arrays_written(op) if a not in no_grad)
            else:
                both[i] = False
    for i in range(len(ops) - 1, -1, -1):
        op = ops[i]
        writes_output = any(a in outputs for a in _arrays_written(op))
        if writes_output or any(r in outputs for r in op.results):
            either[i] = True
            outputs.update(v for v in _free_operands(op) if v not in no_grad)
        else:
            either[i] = both[i] = False
    position = {op: i for i, op in enumerate(ops)}
    for i, op in enumerate(ops):
        if not either[i]:
            for result in op.results:
                if len(result.uses) == 1:
                    user = result.uses[0][0]
                    if user in position and either[position[user]]:
                        either[i] = True
    kept = [op for i, op in enumerate(ops) if both[i]]
    dropped = [op for i, op in enumerate(ops) if not either[i]]
    return kept, dropped


def _split_of(value: Value) -> Operation | None:
    if isinstance(value.type, VectorType):
        for user, _ in value.uses:
            if user.name == "builtin.split":
                return user
    return None


class _Builder:
    """Appends the backward ops of ``ops`` (PaddlePaddle's ``append_backward_ops``)."""

    def __init__(self, state: _State, no_grad: set[Value]) -> None:
        self.state = state
        self.no_grad = no_grad

    def output_grads(self, op: Operation) -> tuple[list[bool], list[Any]]:
        """(whether each result's gradient is zero, the gradient of each result)."""
        state = self.state
        zero, grads = [], []
        for value in op.results:
            if value.type is NULL_TYPE:
                zero.append(True)
                grads.append(None)
                continue
            if len(state.grads[value]) > 1:
                _add_n(value, state)
            known = state.grads[value]
            is_zero = False
            if not known or known[0] is None:
                split = _split_of(value)
                if value.uses and split is not None:
                    flags, items = self.output_grads(split)
                    is_zero = all(flags)
                    state.grads[value] = [items]
                else:
                    state.grads[value] = [_full_like(value, 0.0, state)]
                    is_zero = True
            zero.append(is_zero)
            grads.append(state.grads[value][0])
        return zero, grads

    def stops(self, value: Value) -> bool:
        return value in self.no_grad or value.stop_gradient

    def build(self, ops: Sequence[Operation]) -> None:
        for op in _inverse_sort(ops):
            if op.name in ("builtin.combine", "builtin.split"):
                continue
            if op.name == "pd_op.if":
                self.differentiate_if(op)
                continue
            if op.name == "pd_op.while":
                self.differentiate_while(op)
                continue
            if op.regions:
                raise UnimplementedError(f"backward through {op.name} is not implemented")
            if op.name in _ARRAY_GRADS:
                _ARRAY_GRADS[op.name](self, op)
                continue
            op_def = grad_op_def(op)
            if op_def is not None:
                self.differentiate(op, op_def)
            elif not _operands(op) and op.results or op.name in _SINKS:
                for value in op.results:
                    if len(self.state.grads.get(value, ())) > 1:
                        _add_n(value, self.state)
            elif not all(r.stop_gradient for r in op.results) and op.name.endswith("_sp"):
                raise UnimplementedError(
                    f"{op.name}: the backward of sparse ops in static programs is not "
                    "implemented (PaddlePaddle 3.3.1 builds none either: its backward takes "
                    "dense tensor types only); mark the sparse op's inputs stop_gradient, or "
                    "train sparse ops eagerly (docs/tensor_kinds.md)"
                )
            elif not all(r.stop_gradient for r in op.results) and op.dialect != "builtin":
                raise UnimplementedError(
                    f"{op.name} has no backward op in ops/backward.yaml, so no gradient flows "
                    "through it; mark its inputs stop_gradient or pass them in no_grad_set"
                )

    def gradient_of(self, value: Value, state: _State) -> Value:
        """``value``'s summed gradient in ``state`` (zeros where it got none)."""
        if len(state.grads.get(value, ())) > 1:
            _add_n(value, state)
        known = [g for g in state.grads.get(value, ()) if g is not None]
        return known[0] if known else _full_like(value, 0.0, state)

    def sub_build(self, forward: Block, seeds: Sequence[tuple[Value, Value]]) -> _State:
        """Append the grad ops of ``forward``'s ops (its cf.yield and cf.tuple_push aside) to the
        current block, the gradient of each seeded value given."""
        state = _State()
        for value, grad in seeds:
            state.grads[value].append(grad)
        ops = [op for op in forward.ops if op.name not in ("cf.yield", "cf.tuple_push")]
        _Builder(state, self.no_grad).build(ops)
        return state

    def differentiate_if(self, op: Operation) -> None:
        """A backward ``pd_op.if`` on ``op``'s condition (PaddlePaddle's ``append_backward_ops``
        on an ``if``'s blocks)."""
        wanted = [
            v for v in _outer_reads(op) if isinstance(v.type, DenseTensorType) and not self.stops(v)
        ]
        if not wanted or all(r.stop_gradient for r in op.results):
            return
        zero, grads = self.output_grads(op)
        if all(zero):
            return
        branches, yielded = [], []
        for region in op.regions:
            forward = region.blocks[0]
            backward = Block()
            seeds = []
            if forward.ops and forward.ops[-1].name == "cf.yield":
                seeds = list(zip(_operands(forward.ops[-1]), grads))
            with building_block(backward):
                state = self.sub_build(forward, seeds)
                outs = [self.gradient_of(v, state) for v in wanted]
            branches.append(backward)
            yielded.append(outs)
        grad_if = _append_if(op.operands[0], branches[0], branches[1], yielded[0], yielded[1])
        for region, backward in zip(op.regions, branches):
            _remove_unused_zeros(backward)
            forward = region.blocks[0]
            inner = set(forward.args)
            for nested in forward.walk():
                inner.update(nested.results)
            used = _used_from(backward, inner)
            if used:
                _through_stack(forward, backward, used)
        self.state.backward_ops.append(grad_if)
        for value, grad in zip(wanted, grad_if.results):
            self.state.grads[value].append(grad)

    def differentiate_while(self, op: Operation) -> None:
        """A backward ``pd_op.while`` popping what the forward loop pushed each iteration."""
        body = op.regions[0].blocks[0]
        inputs = op.operands[1:]
        need = [
            k
            for k, arg in enumerate(body.args)
            if isinstance(arg.type, DenseTensorType) and not self.stops(arg)
        ]
        if any(isinstance(a.type, TensorArrayType) and not self.stops(a) for a in body.args):
            raise UnimplementedError(
                "backward through a pd_op.while carrying a tensor array as a loop variable is not "
                "implemented (an array the body writes in place, read from outside the loop, is)"
            )
        # tensor arrays from outside the loop that the body writes and whose items have
        # gradients: their gradient arrays are loop variables of the backward loop, written in
        # place by the grad ops of the body's writes and reads
        arrays = [
            v
            for v in _arrays_written(op)
            if any(g is not None for g in self.state.grads.get(v, ()))
        ]
        if not need and not arrays:
            return
        outside = [
            v for v in _outer_reads(op) if isinstance(v.type, DenseTensorType) and not self.stops(v)
        ]
        zero, grads = self.output_grads(op)
        if all(zero[k] for k in need) and not arrays:
            return
        yielded = _operands(body.ops[-1])[1:]
        body_ops = [o for o in body.ops if o.name != "cf.yield"]
        pushed = [*body.args, *(r for o in body_ops for r in o.results)]
        stack, inlet, outlet = _stack_create(body)
        Builder(body, len(body.ops) - 1).create("cf.tuple_push", [inlet, *pushed], [])
        block = current_block()
        # the gradients of values from outside the loop are summed over the iterations in
        # loop variables of the backward loop, starting from zeros
        starts = [grads[k] for k in need] + [_full_like(v, 0.0, self.state) for v in outside]
        starts += [self.array_gradient(v) for v in arrays]
        again = _has_elements(block, stack)
        backward = Block()
        args = []
        for start in starts:
            arg = backward.add_arg(start.type)
            arg.stop_gradient = False
            args.append(arg)
        array_args = args[len(need) + len(outside) :]
        with building_block(backward):
            seeds = [(yielded[k], arg) for k, arg in zip(need, args)]
            state = self.sub_build(body, seeds + list(zip(arrays, array_args)))
            outs = [self.gradient_of(body.args[k], state) for k in need]
            for value, total in zip(outside, args[len(need) : len(need) + len(outside)]):
                state.grads[value].insert(0, total)
                outs.append(self.gradient_of(value, state))
            outs += array_args
            _yield(backward, [_has_elements(backward, stack).results[0], *outs])
            _remove_unused_zeros(backward)
        _pop_into(backward, outlet, pushed)
        grad_while = Operation(
            "pd_op.while",
            [again.results[0], *starts],
            [start.type for start in starts],
            {"stop_gradient": _bools([False] * len(starts))},
            num_regions=1,
        )
        backward.parent = grad_while.regions[0]
        grad_while.regions[0].blocks.append(backward)
        block.append(grad_while)
        self.state.backward_ops.extend([again, grad_while])
        for value, grad in zip([inputs[k] for k in need] + outside, grad_while.results):
            self.state.grads[value].append(grad)
        for value, grad in zip(arrays, grad_while.results[len(need) + len(outside) :]):
            self.state.grads[value] = [grad]

    def differentiate(self, op: Operation, op_def: OpDef) -> None:
        spec = op_def.grad
        inputs, attrs = _forward_call(op, op_def)
        zero, grads = self.output_grads(op)
        differentiable = set(i for i in spec.input_grads if i is not None)
        stop: dict[int, Any] = {}
        for index in sorted(differentiable):
            value = inputs[index]
            if isinstance(value, list):
                stop[index] = [self.stops(v) for v in value]
            elif value is not None:
                stop[index] = self.stops(value)
        if not grads or all(zero):
            return
        if all(all(s) if isinstance(s, list) else s for s in stop.values()):
            return
        backward = OP_DEFS[spec.backward].info
        names = [i.name for i in backward.inputs] + [a.name for a in backward.attrs]
        args = []
        reused: dict[str, Value] = {}
        for name, (kind, index) in zip(names, spec.args):
            if kind == "input":
                args.append(inputs[index])
            elif kind == "output":
                args.append(op.results[index])
            elif kind == "grad":
                args.append(grads[index])
            elif kind == "attr":
                attr = attrs[index]
                if isinstance(attr, Value):
                    reused[name] = attr
                    attr = _constant(attr, op)
                args.append(attr)
            else:
                args.append(index)
        block = current_block()
        first = len(block.ops)
        results = op_api(spec.backward)(*args)
        if not isinstance(results, tuple):
            results = (results,)
        if reused:
            _reuse_operands(block.ops[first:], reused)
        self.state.record(block, first)
        for index, result in zip(spec.input_grads, results):
            if index is None or index not in stop:
                continue
            value, flag = inputs[index], stop[index]
            if isinstance(value, list):
                items = result if isinstance(result, list) else [None] * len(value)
                for item, item_grad, item_stop in zip(value, items, flag):
                    self.state.grads[item].append(None if item_stop else item_grad)
                continue
            if flag and result is not None:
                result.type = NULL_TYPE
                result = None
            self.state.grads[value].append(result)


    def array_gradient(self, array: Value) -> Value:
        """The tensor array holding the gradients of ``array``'s items: made by
        `create_array_like(array, 0)` when first needed, as PaddlePaddle's VJPs make it."""
        known = [g for g in self.state.grads.get(array, ()) if g is not None]
        if known:
            return known[0]
        block = current_block()
        first = len(block.ops)
        grad = Builder(block).create(
            "pd_op.create_array_like",
            [array],
            [array.type],
            {"stop_gradient": [False], "val": 0.0},
        ).results[0]
        self.state.record(block, first)
        self.state.grads[array] = [grad]
        return grad

    def differentiate_array_read(self, op: Operation) -> None:
        """`array_read(array, i)`: the result's gradient is added to item ``i`` of the array's
        gradient array (read, add, write back)."""
        from phiops.runtime.static.tensor_array import read_op, write_op

        array, index = op.operands
        zero, grads = self.output_grads(op)
        if all(zero) or self.stops(array):
            return
        block = current_block()
        first = len(block.ops)
        grad_array = self.array_gradient(array)
        first = len(block.ops)
        old = read_op(grad_array, index)
        write_op(grad_array, op_api("add")(old, grads[0]), index)
        self.state.record(block, first)

    def differentiate_array_write(self, op: Operation) -> None:
        """`array_write_(array, x, i)`: x's gradient is item ``i`` of the array's gradient
        array, which is then zeroed (the write replaced what was there)."""
        from phiops.runtime.static.tensor_array import read_op, write_op

        array, x, index = op.operands
        known = [g for g in self.state.grads.get(array, ()) if g is not None]
        if not known or self.stops(x):
            return
        grad_array = known[0]
        block = current_block()
        first = len(block.ops)
        x_grad = read_op(grad_array, index)
        write_op(grad_array, op_api("full_like")(x, 0.0, DataType.UNDEFINED, Place()), index)
        self.state.record(block, first)
        self.state.grads[x].append(x_grad)

    def differentiate_array_to_tensor(self, op: Operation) -> None:
        """`array_to_tensor(array)`: the array's gradient array is `tensor_to_array(array,
        out_grad)`, out's gradient cut back into items."""
        (array,) = op.operands
        zero, grads = self.output_grads(op)
        if zero[0] or self.stops(array):
            return
        if any(g is not None for g in self.state.grads.get(array, ())):
            raise UnimplementedError(
                "backward through pd_op.array_to_tensor of an array that is also read after it "
                "is not implemented"
            )
        block = current_block()
        first = len(block.ops)
        grad = Builder(block).create(
            "pd_op.tensor_to_array",
            [array, grads[0]],
            [array.type],
            {
                "axis": op.attributes["axis"].value,
                "use_stack": op.attributes["use_stack"].value,
                "stop_gradient": [False],
            },
        ).results[0]
        self.state.record(block, first)
        self.state.grads[array] = [grad]

    def no_array_gradient(self, op: Operation) -> None:
        """Ops on tensor arrays that pass no gradient on (create_array_like, array_length)."""


# tensor-array ops -> how their gradients are built (they have no GradSpec: PaddlePaddle
# defines their VJPs by hand)
_ARRAY_GRADS = {
    "pd_op.array_read": _Builder.differentiate_array_read,
    "pd_op.array_write_": _Builder.differentiate_array_write,
    "pd_op.array_to_tensor": _Builder.differentiate_array_to_tensor,
    "pd_op.create_array_like": _Builder.no_array_gradient,
    "pd_op.array_length": _Builder.no_array_gradient,
}


def _top_block(block: Block) -> Block:
    """The outermost block ``block`` lies in."""
    while True:
        region = block.parent
        op = region.parent if region is not None else None
        if op is None or not isinstance(op, Operation) or op.parent is None:
            return block
        block = op.parent


def _stack_create(forward: Block) -> list[Value]:
    """A ``cf.stack_create`` at the start of the program: (stack, inlet, outlet)."""
    top = _top_block(forward)
    return Builder(top, 0).create("cf.stack_create", [], [STACK, INLET, OUTLET]).results


def _has_elements(block: Block, stack: Value) -> Operation:
    flag = DenseTensorType((1,), "b")
    return Builder(block).create("cf.has_elements", [stack], [flag], {"stop_gradient": [True]})


def _used_from(block: Block, inner: set[Value]) -> list[Value]:
    """The values of ``inner`` the ops of ``block`` (nested ones included) read, in order."""
    found: dict[Value, None] = {}
    for op in block.walk():
        for value in _operands(op):
            if value in inner:
                found[value] = None
    return list(found)


def _pop_into(backward: Block, outlet: Value, pushed: list[Value]) -> None:
    """A ``cf.tuple_pop`` first in ``backward`` whose results replace ``pushed`` there."""
    pop = Builder(backward, 0).create(
        "cf.tuple_pop",
        [outlet],
        [v.type for v in pushed],
        {"stop_gradient": [v.stop_gradient for v in pushed]},
    )
    ops = set(backward.walk())
    for value, popped in zip(pushed, pop.results):
        for user, index in [use for use in value.uses if use[0] in ops]:
            user.operands[index] = popped
            popped.uses.append((user, index))
        value.uses = [use for use in value.uses if use[0] not in ops]


def _through_stack(forward: Block, backward: Block, values: list[Value]) -> None:
    """Push ``values`` at the end of ``forward`` and pop them first in ``backward``."""
    _, inlet, outlet = _stack_create(forward)
    Builder(forward, len(forward.ops) - 1).create("cf.tuple_push", [inlet, *values], [])
    _pop_into(backward, outlet, values)


def _remove_unused_zeros(block: Block) -> None:
    """Remove the ``full_like(.., 0.0)`` (and its ``full``) no op of ``block`` reads."""
    for op in list(reversed(block.ops)):
        if op.name == "pd_op.full_like" and not op.results[0].uses:
            fill = op.operands[1].define_op
            _remove(op)
            if fill is not None and not fill.results[0].uses and fill.parent is block:
                _remove(fill)


def _constant(value: Value, op: Operation) -> Any:
    """The number or list a ``full``/``full_int_array`` operand holds (a mutable attribute)."""
    producer = value.define_op
    if producer is not None and producer.name == "pd_op.full_int_array":
        return _plain(producer.attributes["value"])
    if producer is not None and producer.name == "pd_op.full":
        number = _plain(producer.attributes["value"])
        dtype = producer.attributes["dtype"].value
        if dtype == "bool":
            return bool(number)
        return int(number) if dtype.startswith(("int", "uint")) else number
    raise UnimplementedError(
        f"backward of {op.name}: an attribute computed while the program runs (from "
        f"{'a block argument' if producer is None else producer.name}) is not implemented"
    )


def _reuse_operands(built: list[Operation], reused: dict[str, Value]) -> None:
    """Make the backward op read the forward op's mutable-attribute operands, as PaddlePaddle's
    VJPs do, instead of the ``full``/``full_int_array`` the API call built for them."""
    fresh = set(built)
    for op in built:
        kernel_op = op.dialect == "pd_op" or is_op_package_dialect(op.dialect)
        row = get_dialect(op.dialect).lookup(op.name) if kernel_op else None
        if row is None:
            continue
        for position, operand in enumerate(row.operands):
            value = op.operands[position] if position < len(op.operands) else None
            original = reused.get(operand.name)
            if original is None or value is None or value.define_op not in fresh:
                continue
            if len(value.uses) != 1 or value.define_op.name not in (
                "pd_op.full",
                "pd_op.full_int_array",
            ):
                continue
            value.uses = []
            op.operands[position] = original
            original.uses.append((op, position))
            _remove(value.define_op)


def _forward_call(op: Operation, op_def: OpDef) -> tuple[list[Any], list[Any]]:
    """The forward call ``op`` was built from: its inputs (Values, lists of Values for a
    ``Tensor[]``, None when absent) and its attributes (plain values, or the Value of a mutable
    attribute) in the OpInfo's order."""
    row = get_dialect(op.dialect).lookup(op.name)
    positions = {operand.name: i for i, operand in enumerate(row.operands)}
    inputs: list[Any] = []
    for spec in op_def.info.inputs:
        position = positions.get(spec.name)
        value = op.operands[position] if position is not None else None
        if value is not None and spec.is_list:
            producer = value.define_op
            if producer is None or producer.name != "builtin.combine":
                raise UnimplementedError(
                    f"backward of {op.name}: its Tensor[] input '{spec.name}' is not a "
                    "builtin.combine"
                )
            value = list(producer.operands)
        inputs.append(value)
    attrs: list[Any] = []
    for spec in op_def.info.attrs:
        position = positions.get(spec.name)
        if position is not None:
            attrs.append(op.operands[position])
        elif spec.name in op.attributes:
            attrs.append(_plain(op.attributes[spec.name]))
        else:
            raise UnimplementedError(
                f"backward of {op.name}: attribute '{spec.name}' is not on the op"
            )
    return inputs, attrs


def _plain(attribute: Any) -> Any:
    kind, value = attribute.kind, attribute.value
    if kind == "array":
        return [_plain(item) for item in value]
    if kind == "intarray":
        return list(value)
    if kind == "place":
        return Place() if value.startswith("undefined") else value
    return value


def _value_list(value: Any, function: str, argument: str, allow_none: bool = False) -> list[Any]:
    items = list(value) if isinstance(value, (list, tuple)) else [value]
    for position, item in enumerate(items):
        if item is None and allow_none:
            continue
        if not isinstance(item, Value):
            raise InvalidArgumentError(
                f"{function}(): argument '{argument}' expects Values of a static program"
                f"{' (or None)' if allow_none else ''}, got {type(item).__name__} at position "
                f"{position}"
            )
    return items


def _block_of(values: Sequence[Value], function: str) -> Block:
    block = current_block()
    for value in values:
        producer = value.define_op
        if producer is None or producer.parent is not block:
            raise InvalidArgumentError(
                f"{function}(): the targets must be computed in the program being built (call "
                "it inside the program_guard of the program that computes them)"
            )
    return block


def _shape_fits(value: Value, grad: Value) -> bool:
    if len(value.shape) != len(grad.shape):
        return False
    return all(a == b or a == -1 or b == -1 for a, b in zip(value.shape, grad.shape))


def _calc_gradient(
    function: str,
    targets: list[Value],
    inputs: list[Value],
    target_gradients: list[Value | None],
    no_grad_set: Iterable[Value],
) -> dict[Value, Value | None]:
    """Append the backward ops; returns value -> its gradient (None when it gets none)."""
    block = _block_of(targets, function)
    no_grad = set(no_grad_set)
    for op in block.ops:
        no_grad.update(r for r in op.results if r.stop_gradient)
    state = _State()
    if all(r.stop_gradient for op in block.ops for r in op.results):
        return {}
    seeds: list[Value] = []
    complete = list(targets)
    for position, (target, seed) in enumerate(zip(targets, target_gradients)):
        if seed is None:
            seed = _full_like(target, 1.0, state)
        else:
            if not _shape_fits(target, seed):
                raise InvalidArgumentError(
                    f"{function}(): target_gradients[{position}] has shape {seed.shape}, but "
                    f"targets[{position}] has shape {target.shape}"
                )
            state.backward_ops.append(seed.define_op)
        state.grads[target] = [seed]
        seeds.append(seed)
    visited: set[Value] = set()
    for target in list(targets):
        if target in visited:
            continue
        for result in target.define_op.results:
            if isinstance(result.type, VectorType):
                continue
            if result in state.grads:
                visited.add(result)
                continue
            if isinstance(result.type, DenseTensorType):
                state.grads[result] = [_full_like(result, 0.0, state)]
                visited.add(result)
                complete.append(result)
    outputs = {v for v in complete if v not in no_grad}
    forward, _ = _prune(list(block.ops), set(inputs), outputs, no_grad)
    forward = [op for op in forward if op not in state.backward_ops]
    _Builder(state, no_grad).build(forward)
    removed = set()
    if inputs:
        removed.update(_backward_prune(state, inputs, complete, no_grad))
    # a write into a gradient array is read by a later grad op through the array it writes in
    # place, which the operands do not show: it stays
    removed = {op for op in removed if op.name not in _ARRAY_WRITES}
    for op in _inverse_sort(state.backward_ops):
        if op.name == "pd_op.full_like" and not op.results[0].uses:
            removed.add(op)
            removed.add(op.operands[1].define_op)
    seeds_set = set(seeds)
    for op in _inverse_sort([op for op in state.backward_ops if op in removed]):
        if op.results and op.results[0] in seeds_set:
            continue
        if op.results and not op.results[0].uses and op.parent is not None:
            _remove(op)
            for result in op.results:
                for value, grads in state.grads.items():
                    if any(g is result for g in grads):
                        state.grads[value] = []
    return {value: (grads[0] if grads else None) for value, grads in state.grads.items()}


def _backward_prune(
    state: _State, inputs: list[Value], complete: list[Value], no_grad: set[Value]
) -> list[Operation]:
    """The backward ops off every path from the targets' gradients to the inputs' (PaddlePaddle's
    ``create_backward_prune_set`` and second ``prune_ops``)."""
    forward_outputs: set[Value] = set()
    for value in inputs:
        for user, _ in value.uses:
            forward_outputs.update(_operands(user))

    def first_grad(value: Value) -> Value | None:
        grads = state.grads.get(value)
        return grads[0] if grads and isinstance(grads[0], Value) else None

    outputs = {g for g in map(first_grad, forward_outputs) if g is not None}
    starts = {g for g in map(first_grad, complete) if g is not None}
    extra = set()
    for grad in starts:
        if grad.uses:
            extra.update(_operands(grad.uses[0][0]))
    starts |= extra
    no_grad_vars = {g for g in map(first_grad, no_grad) if g is not None}
    for value in no_grad:
        no_grad_vars.update(g for g in state.summed.get(value, ()) if isinstance(g, Value))
    _, dropped = _prune(state.backward_ops, starts, outputs, no_grad_vars)
    return dropped


def gradients(
    targets: Value | Sequence[Value],
    inputs: Value | Sequence[Value],
    target_gradients: Value | Sequence[Value | None] | None = None,
    no_grad_set: Iterable[Value] | None = None,
) -> list[Value | None]:
    """Append the ops computing d(sum of targets)/d(input) for each of ``inputs`` to the program
    (``paddle.static.gradients``); None for an input the targets do not depend on.
    ``target_gradients`` seeds the targets' gradients (ones where None)."""
    targets = _value_list(targets, "gradients", "targets")
    inputs = _value_list(inputs, "gradients", "inputs")
    if target_gradients is None:
        seeds: list[Any] = [None] * len(targets)
    else:
        seeds = _value_list(target_gradients, "gradients", "target_gradients", allow_none=True)
        if len(seeds) != len(targets):
            raise InvalidArgumentError(
                f"gradients(): {len(seeds)} target_gradients for {len(targets)} targets"
            )
    no_grad = _value_list(list(no_grad_set or ()), "gradients", "no_grad_set")
    found = _calc_gradient("gradients", targets, inputs, seeds, no_grad)
    return [found.get(value) for value in inputs]


def append_backward(
    loss: Value,
    parameter_list: Sequence[Value] | None = None,
    no_grad_set: Iterable[Value] | None = None,
) -> list[tuple[Value, Value | None]]:
    """Append the backward ops of ``loss`` to the program; returns (parameter, gradient) for each
    of ``parameter_list`` (every persistable value of the loss's block when None: parameters,
    in program order), the gradient None where the loss does not depend on it."""
    if not isinstance(loss, Value):
        raise InvalidArgumentError(
            f"append_backward(): argument 'loss' expects a Value, got {type(loss).__name__}"
        )
    block = _block_of([loss], "append_backward")
    if parameter_list is None:
        parameter_list = [
            result
            for op in block.ops
            if "persistable" in op.attributes
            for result, flag in zip(op.results, op.attributes["persistable"].value)
            if flag.value
        ]
    else:
        parameter_list = _value_list(parameter_list, "append_backward", "parameter_list")
    no_grad = _value_list(list(no_grad_set or ()), "append_backward", "no_grad_set")
    found = _calc_gradient("append_backward", [loss], [], [None], no_grad)
    return [(parameter, found.get(parameter)) for parameter in parameter_list]
