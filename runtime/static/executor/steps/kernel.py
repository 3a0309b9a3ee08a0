"""Kernel steps: a ``pd_op`` op planned with its op's dispatcher (kernel, data transforms,
output metas) and run as a closure over the planned kernel, its attributes and its slots; its
attributes come from the op's attributes, from folded constant operands, or from its defaults."""

from __future__ import annotations

from functools import partial
from typing import Any, Callable

import numpy as np

from phiops.runtime import runtime_flags
from phiops.runtime.common import Backend
from phiops.runtime.dispatch.dispatcher import execute
from phiops.runtime.device import module_of
from phiops.runtime.dispatch.op_def import OP_DEFS, OpDef
from phiops.runtime.errors import (
    InvalidArgumentError,
    PhiError,
    PreconditionNotMetError,
    UnimplementedError,
)
from phiops.runtime.ir.core import Operation, Value
from phiops.runtime.ir.dialect import get_dialect
from phiops.runtime.ir.types import DenseTensorType, NullType
from phiops.runtime.tensor.dense_tensor import DenseTensorMeta
from phiops.runtime.static.executor.attributes import (
    NORMALISERS,
    TENSOR_ATTRIBUTE_TYPES,
    Computed,
    attribute_value,
    default,
    scalar_of,
)
from phiops.runtime.static.executor.builder import PlanBuilder
from phiops.runtime.static.executor.metas import extents_unknown, has_unknown_dims, rank_only
from phiops.runtime.static.executor.steps.late import late_step
from phiops.runtime.static.executor.steps.step import Fuse, OpStep
from phiops.runtime.static.pd_op_names import PdOpNames, pd_op_names, result_positions
from phiops.runtime.static.selected_rows import executor_form

__all__ = ["compile_kernel_op"]


def compile_kernel_op(builder: PlanBuilder, op: Operation, where: str) -> None:
    """The step of a ``pd_op`` op that runs a kernel: planned now, or when it runs where its
    input dims or attributes depend on the data. An in-place op's output takes its input's slot
    (later readers of the input see it) and, for a scope variable, is stored in the scope."""
    op_def, inplace, fixed = _op_def_for(op.name, where)
    info = op_def.info
    row = get_dialect(op.dialect).lookup(op.name)
    names = pd_op_names(info.name)
    operand_index = (
        {names.phiops_name(o.name): i for i, o in enumerate(row.operands)} if row else {}
    )
    if row is not None:
        _check_pd_op_only(op, row, names, where)
    inputs: list[Value | None] = []
    metas = []
    for spec in info.inputs:
        position = operand_index.get(spec.name)
        value = op.operands[position] if position is not None else None
        if value is None and not spec.optional:
            raise InvalidArgumentError(f"{where}: input '{spec.name}' is missing")
        inputs.append(value)
        metas.append(None if value is None else builder.meta_of[value])
    attrs = tuple(
        (
            fixed[spec.name]
            if spec.name in fixed
            else _attribute(builder, op, op_def, spec, operand_index, names, where)
        )
        for spec in info.attrs
    )
    output_names = [output.name for output in info.outputs]
    if row is not None and not row.variadic_results and len(row.results) == len(op.results):
        results = [op.results[i] for i in result_positions(info.name, row, output_names)]
    elif len(op.results) == len(info.outputs):
        results = list(op.results)
    else:
        raise PreconditionNotMetError(
            f"{where}: the op has {len(op.results)} results, phiops' op '{info.name}' has "
            f"{len(info.outputs)} outputs"
        )
    late = any(has_unknown_dims(m) for m in metas) or any(isinstance(a, Computed) for a in attrs)
    if late:
        # planned when it runs: its input dims or attributes depend on the data
        kernel_plan = None
        out_metas = tuple(builder.declared_meta(value, where) for value in results)
        if builder.loose_extents:
            out_metas = tuple(extents_unknown(meta) for meta in out_metas)
    else:
        try:
            kernel_plan = op_def.dispatcher.plan(tuple(metas), attrs)
        except PhiError as error:
            raise type(error)(f"{where}: {error}") from None
        out_metas = kernel_plan.out_metas if len(info.outputs) != 1 else (kernel_plan.out_metas,)
    # an intermediate output or a view's target is a buffer of the op's own (rnn's reserve and
    # dropout state): PaddlePaddle's InferMeta may leave it unset, so its files declare it as
    # the default f32 0-D tensor; such a declaration is not checked against the computed meta
    unchecked = set(op_def.intermediate) | {target for _, target in op_def.view}
    for name, value, meta in zip(output_names, results, out_metas):
        if name not in unchecked:
            builder.check_declared(value, meta, where)
        builder.meta_of[value] = meta
    # in-place: the output takes its input's slot (later readers of the input see it)
    writes_scope: list[tuple[int, str]] = []
    output_index = {o.name: i for i, o in enumerate(info.outputs)}
    input_index = {i.name: k for k, i in enumerate(info.inputs)}
    for in_name, out_name in inplace:
        source = inputs[input_index[in_name]]
        target = results[output_index[out_name]]
        if source is None or isinstance(target.type, NullType):
            continue
        builder.share_slot(target, source)
        scope_name = builder.scope_name_of.get(source)
        if scope_name is not None:
            builder.scope_name_of[target] = scope_name
            writes_scope.append((builder.slot_of[target], scope_name))
    out_slots = tuple(
        builder.slot_of[v] if v in builder.slot_of else builder.new_slot(v) for v in results
    )
    many = len(info.outputs) != 1  # an op without outputs (p_send) returns ()
    if kernel_plan is None:
        input_slots = tuple(None if v is None else builder.slot_of[v] for v in inputs)
        declared = [r.type for r in results]
        if builder.loose_extents:
            declared = [rank_only(t) for t in declared]
        # an intermediate or view-target output the file declares 0-D (its InferMeta left it
        # unset: f32 in PIR files, the variable's dtype in legacy ones, rnn's reserve u8) is
        # not checked here either
        declared = [
            None if n in unchecked and isinstance(t, DenseTensorType) and not t.dims else t
            for n, t in zip(output_names, declared)
        ]
        if builder.rank_unknown and any(v in builder.rank_unknown for v in inputs):
            declared = [None] * len(declared)
            builder.rank_unknown.update(results)
        step = late_step(op_def, where, input_slots, attrs, out_slots, many, declared)
        if runtime_flags.SWITCHES.check_nan_inf:
            step = _checking_nan_inf(step, out_slots, info, where)
        builder.ops.append(OpStep(step, out_slots, many, None, tuple(writes_scope)))
        return
    args = []
    for is_input, position in kernel_plan.arguments:
        if is_input:
            value = inputs[position]
            args.append((True, None if value is None else builder.slot_of[value]))
        else:
            args.append((False, attrs[position]))
    step = _kernel_step(kernel_plan.run, tuple(args), out_slots, many)
    fuse: Fuse | None = partial(_kernel_step, kernel_plan.run, tuple(args), out_slots, many)
    if runtime_flags.SWITCHES.check_nan_inf:
        step = _checking_nan_inf(step, out_slots, info, where)
        fuse = None
    builder.ops.append(
        OpStep(step, out_slots, many, (where, kernel_plan, info), tuple(writes_scope), fuse)
    )
    _constant_fold(builder, op, attrs, info)
    if not inplace and not many and not builder.loose_extents:
        _shape_fold(builder, op, kernel_plan, inputs, metas, attrs)


def _constant_fold(builder: PlanBuilder, op: Operation, attrs: tuple, info: Any) -> None:
    """Remember the value of ``full``/``full_int_array`` results: other ops read them as
    IntArray or Scalar attributes."""
    if op.name == "pd_op.full_int_array":
        builder.constant_of[op.results[0]] = list(attrs[info.attr_names.index("value")])
    elif op.name == "pd_op.full":
        shape = attrs[info.attr_names.index("shape")]
        value = attrs[info.attr_names.index("value")]
        dtype = attrs[info.attr_names.index("dtype")]
        kind = dtype.numpy_dtype.kind
        number: Any = bool(value) if kind == "b" else int(value) if kind in "iu" else value
        count = 1
        for extent in shape:
            count *= extent
        builder.constant_of[op.results[0]] = [number] * count if shape else number


# the ops whose result is their input's dims
_SHAPE_OPS = frozenset(("pd_op.shape", "pd_op.shape64"))
# the most elements of a constant computed while compiling (shape arithmetic is a few numbers)
_FOLD_LIMIT = 64
# the dtypes shape arithmetic computes in: bool, signed and unsigned integers
_INTEGRAL_KINDS = "biu"
# the pure, deterministic ops shape arithmetic is made of, which _shape_fold runs while
# compiling (never a random, printing, communicating or in-place op)
SHAPE_ARITHMETIC_OPS = frozenset(
    f"pd_op.{name}"
    for name in (
        "abs add arange assign cast clip concat divide equal expand flatten floor_divide "
        "full_like gather greater_equal greater_than index_select less_equal less_than "
        "logical_and logical_not logical_or max maximum min minimum multiply not_equal prod "
        "remainder reshape scale slice squeeze stack strided_slice subtract sum tile "
        "unsqueeze where"
    ).split()
)


def _shape_fold(
    builder: PlanBuilder,
    op: Operation,
    kernel_plan: Any,
    inputs: list[Value | None],
    metas: list[Any],
    attrs: tuple,
) -> None:
    """Remember, as constants other ops fold as attributes, what the plan's metas already fix:
    the dims a ``shape``/``shape64`` returns when its input's are all known (the plan is made
    for these feed shapes), and the result of a kernel whose tensor inputs are all such
    constants (the ``slice`` of a shape, the ``stack`` or ``scale`` of its pieces), computed
    now by the planned kernel, as the step computes it each run. So a ``reshape`` or an
    ``arange`` sized from the feed's shape is planned ahead, not when it runs. Only on CPU, for
    a few elements, integers or bools in and out, and only the ops of
    ``SHAPE_ARITHMETIC_OPS``."""
    if builder.place.backend is not Backend.CPU:
        return
    out_meta = kernel_plan.out_metas
    if type(out_meta) is not DenseTensorMeta or _numel(out_meta.dims) > _FOLD_LIMIT:
        return
    if out_meta.dtype.numpy_dtype.kind not in _INTEGRAL_KINDS:
        return
    result_value = op.results[0] if len(op.results) == 1 else None
    if result_value is None:
        return
    if op.name in _SHAPE_OPS:
        (meta,) = metas
        if type(meta) is DenseTensorMeta and all(extent >= 0 for extent in meta.dims):
            builder.constant_of[result_value] = list(meta.dims)
        return
    if op.name not in SHAPE_ARITHMETIC_OPS:
        return
    present = [(v, m) for v, m in zip(inputs, metas) if v is not None]
    if not present or any(v not in builder.constant_of for v, _ in present):
        return
    arrays: list[Any] = []
    for value, meta in zip(inputs, metas):
        array = None if value is None else _constant_array(builder.constant_of[value], meta)
        if value is not None and array is None:
            return
        arrays.append(array)
    try:
        result = execute(kernel_plan, tuple(arrays), attrs)
    except PhiError:
        return  # the step raises it, naming the op, when it runs
    if type(result) is not np.ndarray or result.shape != out_meta.dims:
        return
    items = result.reshape(-1).tolist()
    builder.constant_of[result_value] = items if result.ndim else items[0]


def _constant_array(constant: Any, meta: Any) -> Any:
    """The array of a constant (a flat list or a number) with ``meta``; a list of them for a
    list of metas (a ``builtin.combine`` of 1-element constants); None when it is too big or
    does not fit, or is no integer or bool."""
    if isinstance(meta, tuple):
        if not isinstance(constant, list) or len(constant) != len(meta):
            return None
        members = [_constant_array(item, member) for item, member in zip(constant, meta)]
        return None if any(m is None for m in members) else members
    if type(meta) is not DenseTensorMeta or _numel(meta.dims) > _FOLD_LIMIT:
        return None
    if meta.dtype.numpy_dtype.kind not in _INTEGRAL_KINDS:
        return None
    flat = constant if isinstance(constant, list) else [constant]
    if len(flat) != _numel(meta.dims):
        return None
    return np.asarray(flat, dtype=meta.dtype.numpy_dtype).reshape(meta.dims)


def _numel(dims: tuple[int, ...]) -> int:
    count = 1
    for extent in dims:
        count *= extent
    return count


def _attribute(
    builder: PlanBuilder,
    op: Operation,
    op_def: OpDef,
    spec: Any,
    operand_index: dict,
    names: PdOpNames,
    where: str,
) -> Any:
    """The normalised value of attribute ``spec``: from the op's attributes, from a constant
    operand, or the op's default."""
    name = spec.name
    position = operand_index.get(name)
    if position is not None and position < len(op.operands):
        value = op.operands[position]
        if value is None:
            raw = default(op_def, name, where)
        elif value in builder.constant_of:
            raw = builder.constant_of[value]
            if spec.type.startswith("Scalar") and not spec.type.endswith("[]"):
                raw = scalar_of(raw)
        else:
            normalise = NORMALISERS.get(spec.type)
            if normalise is None or spec.type not in TENSOR_ATTRIBUTE_TYPES:
                raise UnimplementedError(
                    f"{where}: attribute '{name}' of type {spec.type} comes from a tensor"
                )
            return Computed(builder.slot_of[value], spec.type, normalise, op_def.name, name)
    elif names.pd_op_name(name) in op.attributes:
        attribute = op.attributes[names.pd_op_name(name)]
        raw = attribute_value(attribute, spec.type, builder.place, where)
    elif name in names.phiops_only:
        raw = names.phiops_only[name]
    else:
        raw = default(op_def, name, where)
    normalise = NORMALISERS.get(spec.type)
    if normalise is None:
        raise UnimplementedError(
            f"{where}: attribute '{name}' has type {spec.type}, which "
            "the executor cannot normalise"
        )
    try:
        value = normalise(raw, op_def.name, name)
    except PhiError as error:
        raise type(error)(f"{where}: {error}") from None
    if spec.type == "Place" and not value.is_defined:
        return builder.place
    return value


def _op_def_for(name: str, where: str) -> tuple[OpDef, tuple[tuple[str, str], ...], dict[str, Any]]:
    """The OpDef that runs pd_op ``name``, its in-place pairs and the attributes the pd_op fixes:
    the op's own OpDef, for an in-place variant ``x_`` without one, ``x``'s OpDef and its
    declared in-place pairs, and for the pd_op of a SelectedRows kernel
    (``sgd_dense_param_sparse_grad_``) the op whose kernel it is (runtime/static/selected_rows.py).
    """
    dialect, _, short = name.partition(".")
    rows_form = executor_form(short) if dialect == "pd_op" and short not in OP_DEFS else None
    if rows_form is not None:
        op_def = OP_DEFS[rows_form[0]]
        inplace = op_def.info.inplace if rows_form[0].endswith("_") else ()
        return op_def, inplace, rows_form[1]
    op_def = OP_DEFS.get(short)
    if op_def is not None and op_def.info.dialect != dialect:
        op_def = None  # pd_op.x is not an op package's x, nor the reverse
    inplace: tuple[tuple[str, str], ...] = ()
    if op_def is not None:
        inplace = op_def.info.inplace if short.endswith("_") else ()
    elif (
        short.endswith("_")
        and short[:-1] in OP_DEFS
        and (OP_DEFS[short[:-1]].info.dialect == dialect)
    ):
        op_def = OP_DEFS[short[:-1]]
        inplace = op_def.info.inplace
        if not inplace:
            raise UnimplementedError(
                f"Executor: {where}: op '{short[:-1]}' declares no in-place form"
            )
    if op_def is None or op_def.dispatcher is None:
        raise UnimplementedError(f"Executor: {where}: phiops has no op '{short}' with a kernel")
    return op_def, inplace, {}


def _check_pd_op_only(op: Operation, row: Any, names: PdOpNames, where: str) -> None:
    """An argument of the pd_op that phiops' op lacks must have the one value phiops computes."""
    operands = {o.name: i for i, o in enumerate(row.operands)}
    for key, expected in names.pd_op_only.items():
        if key in operands and operands[key] < len(op.operands):
            value = op.operands[operands[key]]
            if value is not None and expected is None:
                raise UnimplementedError(
                    f"Executor: {where}: operand '{key}' is given; phiops' op runs without it only"
                )
        elif key in op.attributes and op.attributes[key].value != expected:
            raise UnimplementedError(
                f"Executor: {where}: {key}={op.attributes[key].value!r} is not implemented; "
                f"phiops' op computes {key}={expected!r} only"
            )


# -- the closures over slots -------------------------------------------------------------------


def _kernel_step(
    run: Callable[..., Any],
    args: tuple[tuple[bool, Any], ...],
    out_slots: tuple[int, ...],
    many: bool,
    releases: tuple[int, ...] = (),
) -> Any:
    """The step calling a planned kernel: tensor arguments from slots (None for an absent
    optional one), attributes bound; results into ``out_slots``; then the ``releases`` slots
    emptied. Single-output ops whose one or two tensors come before their attributes (most ops)
    get a closure of their own, the cheapest call; for other ops, given ``releases``, this
    returns None (the caller wraps the general step)."""
    count = 0
    while count < len(args) and args[count][0] and args[count][1] is not None:
        count += 1
    constants = tuple(value for _, value in args[count:])
    if not many and count in (1, 2) and not any(is_tensor for is_tensor, _ in args[count:]):
        if constants:
            run = _with_trailing(run, count, constants)
        return _simple_step(run, tuple(slot for _, slot in args[:count]), out_slots[0], releases)
    if releases:
        return None
    getters = tuple(
        (slot, None) if is_tensor and slot is not None else (None, None if is_tensor else slot)
        for is_tensor, slot in args
    )
    if not many:
        (out,) = out_slots

        def step(s: list) -> None:
            s[out] = run(*[s[i] if i is not None else c for i, c in getters])

        return step

    def step_many(s: list) -> None:
        for slot, array in zip(out_slots, run(*[s[i] if i is not None else c for i, c in getters])):
            s[slot] = array

    return step_many


def _with_trailing(run: Callable[..., Any], count: int, constants: tuple) -> Callable[..., Any]:
    """``run`` with its attributes bound after its ``count`` tensor arguments."""
    if count == 1:
        return lambda x: run(x, *constants)
    return lambda x, y: run(x, y, *constants)


def _simple_step(
    run: Callable[..., Any],
    tensors: tuple[int, ...],
    out: int,
    releases: tuple[int, ...],
) -> Callable[[list], None]:
    """``s[out] = run(s[a][, s[b]])``, then the released slots emptied."""
    if len(tensors) == 1:
        (a,) = tensors
        if not releases:

            def step1(s: list) -> None:
                s[out] = run(s[a])

            return step1
        if len(releases) == 1:
            (r,) = releases

            def step1_release(s: list) -> None:
                s[out] = run(s[a])
                s[r] = None

            return step1_release

        def step1_releases(s: list) -> None:
            s[out] = run(s[a])
            for slot in releases:
                s[slot] = None

        return step1_releases
    a, b = tensors
    if not releases:

        def step2(s: list) -> None:
            s[out] = run(s[a], s[b])

        return step2
    if len(releases) == 1:
        (r,) = releases

        def step2_release(s: list) -> None:
            s[out] = run(s[a], s[b])
            s[r] = None

        return step2_release

    def step2_releases(s: list) -> None:
        s[out] = run(s[a], s[b])
        for slot in releases:
            s[slot] = None

    return step2_releases


def _checking_nan_inf(
    step: Callable[[list], None], out_slots: tuple[int, ...], info: Any, where: str
) -> Callable[[list], None]:
    """``step``, then InvalidArgumentError naming the op and output when a floating output holds
    NaN or Inf (FLAGS_check_nan_inf, which eager calls honour too)."""
    names = [o.name for o in info.outputs]

    def checked(s: list) -> None:
        step(s)
        for name, slot in zip(names, out_slots):
            for array in s[slot] if isinstance(s[slot], list) else (s[slot],):
                if array is None or array.dtype.kind not in "fc" or array.size == 0:
                    continue
                xp = module_of(array)
                bad_nan = bool(xp.isnan(array).any())
                if bad_nan or bool(xp.isinf(array).any()):
                    raise InvalidArgumentError(
                        f"{where}: output '{name}' contains {'NaN' if bad_nan else 'Inf'} "
                        "(FLAGS_check_nan_inf is on)"
                    )

    return checked
