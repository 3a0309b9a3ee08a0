"""Sparse steps: PaddlePaddle's ``*_sp`` ops (runtime/static/sparse.py builds them), run by the
sparse kernels that eager ``phiops.sparse`` selects by kind.

A sparse value's slot holds its `SparseCooTensor` / `SparseCsrTensor`. A generated sparse op's
step plans its kernel's dispatcher when it runs, for the actual metas of its inputs (a sparse
tensor's number of entries, and so its values' and indices' extents, is the data's), once per
distinct set of them, as the op planned late does (late.py); an IntArray the op takes as an
operand (``sum_coo_sp``'s axis) is read from its slot. The results' declared types are those
PaddlePaddle types them with when building (``values_coo_sp`` ``[-1, last dim]``,
``indices_sp`` int32), not the kernel's, so the ops reading them are planned when they run.
The hand-written conversions (``dense_to_coo_sp``, ``csr_to_coo_sp``, ``indices_sp``,
``sparse_coo_tensor_sp``) run the functions eager ``phiops.sparse`` runs.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from phiops.runtime.common import DataLayout
from phiops.runtime.dispatch import attributes as normalise
from phiops.runtime.dispatch.dispatcher import check_outputs, execute
from phiops.runtime.errors import (
    InvalidArgumentError,
    PreconditionNotMetError,
    UnimplementedError,
)
from phiops.runtime.ir.core import Operation, Value
from phiops.runtime.ir.dialect import get_dialect
from phiops.runtime.ir.types import DenseTensorType, SparseCooTensorType, SparseCsrTensorType
from phiops.runtime.kernels.impl.sparse_arrays import csr_to_coo, dense_to_coo
from phiops.runtime.static.executor.arrays import array_meta, to_numpy
from phiops.runtime.static.executor.attributes import attribute_value
from phiops.runtime.static.executor.builder import PlanBuilder
from phiops.runtime.static.executor.metas import dtype_of
from phiops.runtime.static.executor.steps.step import OpStep, named
from phiops.runtime.tensor.dense_tensor import DenseTensor, DenseTensorMeta
from phiops.runtime.tensor.sparse import (
    SparseCooMeta,
    SparseCooTensor,
    SparseCsrMeta,
    SparseCsrTensor,
)

__all__ = ["is_sparse_op", "is_sparse_value", "compile_sparse_op"]

_PLAN_LIMIT = 64  # kernel plans kept per op; more clears them
_META_OF_TYPE = {SparseCooTensorType: SparseCooMeta, SparseCsrTensorType: SparseCsrMeta}
# an attribute's spec type -> its normaliser (what the generated function applies)
_NORMALISERS: dict[str, Callable[[Any, str, str], Any]] = {
    "IntArray": normalise.to_int_array,
    "int[]": normalise.to_int_list,
    "int64_t[]": normalise.to_int_list,
    "float": normalise.to_float32,
    "int": normalise.to_int32,
    "int64_t": normalise.to_int64,
    "bool": normalise.to_bool,
}
_TABLE: dict[str, tuple[Any, Any]] = {}
# the sparse library's op definitions (runtime/sparse/registry.py's ``sparse_op_defs``), which it
# registers here when it loads: the library sits above the static layer
_OP_DEFS: list[Callable[[], Any]] = []


def register_sparse_op_defs(provider: Callable[[], Any]) -> None:
    """Give the executor the sparse ops' definitions (runtime/sparse calls this on import)."""
    _OP_DEFS[:] = [provider]
    _TABLE.clear()


def _table() -> dict[str, tuple[Any, Any]]:
    """``*_sp`` name -> (SparseOpDef, the kernel's dispatcher), from the sparse registry."""
    if not _TABLE:
        from phiops.runtime.static.sparse import sparse_pd_op_name

        if not _OP_DEFS:
            raise PreconditionNotMetError(
                "Executor: the program holds sparse ops, but phiops's sparse library is not "
                "loaded: import phiops (or phiops.sparse) first"
            )
        for op in _OP_DEFS[0]():
            for dispatcher in op.kernels.values():
                _TABLE[sparse_pd_op_name(op, dispatcher.info.kernel)] = (op, dispatcher)
    return _TABLE


_HAND_WRITTEN = ("dense_to_coo_sp", "csr_to_coo_sp", "indices_sp", "sparse_coo_tensor_sp")


def is_sparse_value(value: Value) -> bool:
    """Whether ``value`` has a sparse COO or CSR type (its slot holds no array)."""
    return type(value.type) in _META_OF_TYPE


def is_sparse_op(name: str) -> bool:
    """Whether ``name`` (``pd_op.relu_coo_sp``) is a sparse op this executor runs."""
    if not name.startswith("pd_op.") or "_sp" not in name:
        return False
    short = name[6:]
    return short in _HAND_WRITTEN or short in _table()


def _meta(builder: PlanBuilder, value: Value, where: str) -> Any:
    """The meta of a sparse op's result from its declared type, every extent of a dense one
    unknown (what PaddlePaddle types them with is not the kernel's: values, indices)."""
    declared = value.type
    make = _META_OF_TYPE.get(type(declared))
    dtype = dtype_of(declared.element, where)
    if make is not None:
        return make.get(dtype, tuple(declared.dims), DataLayout.NCHW, builder.place)
    if not isinstance(declared, DenseTensorType):
        raise UnimplementedError(f"{where}: a sparse op's result of type {declared}")
    return DenseTensorMeta.get(dtype, (-1,) * len(declared.dims), DataLayout.NCHW, builder.place)


def _runtime_meta(item: Any) -> Any:
    if item is None:
        return None
    if isinstance(item, (SparseCooTensor, SparseCsrTensor)):
        return item.meta
    return array_meta(item)


def compile_sparse_op(builder: PlanBuilder, op: Operation, where: str) -> None:
    """Append the step of sparse op ``op``."""
    short = op.name[6:]
    for result in op.results:
        builder.meta_of[result] = _meta(builder, result, where)
        if isinstance(result.type, DenseTensorType):  # planned late, typed as 3.3.1 types it
            builder.rank_unknown.add(result)
    if short in _HAND_WRITTEN:
        _compile_hand_written(builder, op, short, where)
        return
    sparse_op, dispatcher = _table()[short]
    info = dispatcher.info
    row = get_dialect("pd_op").lookup(op.name)
    operand_of = {o.name: op.operands[i] for i, o in enumerate(row.operands)} if row else {}
    input_slots = []
    for spec in info.inputs:
        value = operand_of.get(spec.name)
        if value is None:
            raise InvalidArgumentError(f"{where}: input '{spec.name}' is missing")
        input_slots.append(builder.slot_of[value])
    # each attribute: a constant from the op's attributes, or read from its operand's slot
    constants: list[Any] = []
    from_slots: list[tuple[int, int, Callable[[Any, str, str], Any]]] = []
    for position, spec in enumerate(info.attrs):
        normaliser = _NORMALISERS.get(spec.type, lambda value, _op, _arg: value)
        if spec.name in operand_of:
            from_slots.append((position, builder.slot_of[operand_of[spec.name]], normaliser))
            constants.append(None)
        elif spec.name in op.attributes:
            raw = attribute_value(op.attributes[spec.name], spec.type, builder.place, where)
            constants.append(normaliser(raw, sparse_op.name, spec.name))
        else:
            raise InvalidArgumentError(f"{where}: attribute '{spec.name}' is missing")
    out_slots = tuple(builder.new_slot(v) for v in op.results)
    many = len(info.outputs) != 1
    plans: dict[tuple, Any] = {}

    def run(s: list) -> None:
        arrays = tuple(s[slot] for slot in input_slots)
        attrs = list(constants)
        for position, slot, normaliser in from_slots:
            ints = [int(v) for v in np.asarray(to_numpy(s[slot])).reshape(-1)]
            attrs[position] = normaliser(ints, sparse_op.name, info.attrs[position].name)
        attrs = tuple(attrs)
        metas = tuple(_runtime_meta(a) for a in arrays)
        key = (metas, attrs)
        plan = plans.get(key)
        if plan is None:
            plan = dispatcher.plan(metas, attrs)
            result = execute(plan, arrays, attrs)
            check_outputs(plan, result, info)
            if len(plans) >= _PLAN_LIMIT:
                plans.clear()
            plans[key] = plan
        else:
            result = execute(plan, arrays, attrs)
        if many:
            for slot, item in zip(out_slots, result):
                s[slot] = item
        else:
            s[out_slots[0]] = result

    builder.ops.append(OpStep(named(where, run), out_slots, many))


def _compile_hand_written(builder: PlanBuilder, op: Operation, short: str, where: str) -> None:
    slots = tuple(builder.slot_of[v] for v in op.operands)
    (target,) = tuple(builder.new_slot(v) for v in op.results)
    if short == "dense_to_coo_sp":
        sparse_dim = int(op.attributes["sparse_dim"].value)

        def run(s: list) -> None:
            s[target] = dense_to_coo(s[slots[0]], sparse_dim)

    elif short == "csr_to_coo_sp":

        def run(s: list) -> None:
            source = s[slots[0]]
            indices, values = csr_to_coo(source)
            s[target] = SparseCooTensor(
                DenseTensor(indices), DenseTensor(values), source.shape, True
            )

    elif short == "indices_sp":

        def run(s: list) -> None:
            s[target] = s[slots[0]].indices.array

    else:  # sparse_coo_tensor_sp (values, indices) {shape}
        shape = tuple(attribute_value(op.attributes["shape"], "int64_t[]", builder.place, where))

        def run(s: list) -> None:
            indices = s[slots[1]]
            if indices.ndim == 1:
                indices = indices.reshape(1, -1)
            s[target] = SparseCooTensor(DenseTensor(indices), DenseTensor(s[slots[0]]), shape)

    builder.ops.append(OpStep(named(where, run), (target,)))
