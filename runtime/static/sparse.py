"""Sparse ops in static programs: ``phiops.sparse`` called on Values builds PaddlePaddle 3.3.1's
``*_sp`` ops (docs/tensor_kinds.md, issue 28 part 5).

A sparse op's generated function selects its kernel by its inputs' kinds; given Values it asks
`sparse_builder` (runtime/sparse/registry.py ``static_or_no_kernel``), which selects the kernel
by the kinds of the Values' types and returns an object whose ``call`` builds the op, named as
PaddlePaddle names it (``<kernel>_sp`` for an op with several kernels, ``relu_coo_sp``; else
``<op>_sp``, ``coalesce_sp``). Its operands and attributes follow the op's ``pd_op`` row
(generated from PaddlePaddle's sparse specs): an IntArray that the row takes as an operand
becomes a ``pd_op.full_int_array``, as PaddlePaddle builds it. Its results are typed by the
InferMeta PaddlePaddle runs when it builds (the spec's, not what the kernel later sets:
``sum_coo_sp`` of every axis is ``sparsecootensor<f32>``, ``slice_coo_sp`` keeps x's dims,
``values_coo_sp`` is ``[-1, last dim]``), of the kind the kernel's signature gives.

The hand-written conversions (`to_sparse_coo`, `indices`, `sparse_coo_tensor`) have builders
here too. The executor runs the ops (runtime/static/executor/steps/sparse.py).
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from phiops.runtime.common import CPUPlace, DataLayout, DataType
from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.infermeta import get_infer_meta
from phiops.runtime.ir.builder import Builder
from phiops.runtime.ir.core import Value
from phiops.runtime.ir.dialect import OpDef as IrOpDef
from phiops.runtime.ir.dialect import get_dialect
from phiops.runtime.ir.types import (
    DenseTensorType,
    SelectedRowsType,
    SparseCooTensorType,
    SparseCsrTensorType,
    TensorArrayType,
    Type,
)
from phiops.runtime.static.build import (
    COMPILE_TIME,
    dense_type,
    dtype_name,
    dtype_of_type,
)
from phiops.runtime.static.mode import in_static_mode
from phiops.runtime.static.program import current_block
from phiops.runtime.tensor.kinds import TensorKind
from phiops.runtime.tensor.meta_tensor import MetaTensor

__all__ = [
    "SPARSE_TYPES",
    "value_kind",
    "sparse_type",
    "is_sparse_value",
    "sparse_pd_op_name",
    "sparse_builder",
    "output_kinds",
    "build_to_sparse_coo",
    "build_indices",
    "build_sparse_coo_tensor",
    "install_sparse_value_methods",
]

SPARSE_TYPES: dict[TensorKind, type] = {
    TensorKind.SPARSE_COO: SparseCooTensorType,
    TensorKind.SPARSE_CSR: SparseCsrTensorType,
}
_KIND_OF_TYPE: dict[type, TensorKind] = {
    DenseTensorType: TensorKind.DENSE,
    SparseCooTensorType: TensorKind.SPARSE_COO,
    SparseCsrTensorType: TensorKind.SPARSE_CSR,
    SelectedRowsType: TensorKind.SELECTED_ROWS,
    TensorArrayType: TensorKind.TENSOR_ARRAY,
}


def value_kind(value: Value) -> TensorKind | None:
    """The tensor kind of a Value's type (None for a type that is no tensor)."""
    return _KIND_OF_TYPE.get(type(value.type))


def is_sparse_value(value: Any) -> bool:
    """Whether ``value`` is a Value of a sparse COO or CSR type."""
    return isinstance(value, Value) and isinstance(
        value.type, (SparseCooTensorType, SparseCsrTensorType)
    )


# a layout as PaddlePaddle's JSON writes it: an InferMeta that sets none leaves it undefined
_LAYOUT_NAMES = {DataLayout.UNDEFINED: "Undefined(AnyLayout)", DataLayout.NCHW: "NCHW"}
_LAYOUTS = {name: layout for layout, name in _LAYOUT_NAMES.items()}
# the sparse ops whose InferMeta in PHI sets no layout (TransposeInferMeta, IsnanInferMeta), so
# 3.3.1's JSON writes their results' layout undefined; phiops's InferMeta functions set one
_LAYOUT_UNSET = frozenset(("transpose", "isnan"))


def sparse_type(
    kind: TensorKind, dims: Sequence[int], dtype: DataType, layout: DataLayout = DataLayout.NCHW
) -> Type:
    """The IR type of a result of ``kind`` with dense ``dims``, ``dtype`` and ``layout``."""
    dense = dense_type(dims, dtype)
    make = SPARSE_TYPES.get(kind)
    layout_name = _LAYOUT_NAMES.get(layout, dense.layout)
    if make is None:
        return DenseTensorType(dense.dims, dense.element, layout_name)
    if make is SparseCooTensorType:
        return make(dense.dims, dense.element, layout=layout_name)
    return make(dense.dims, dense.element, layout_name)


def sparse_pd_op_name(op: Any, kernel: str) -> str:
    """PaddlePaddle's name of sparse op ``op``'s ``kernel`` (its SparseOpDef): ``<kernel>_sp``
    when the op has several kernels, else ``<op>_sp`` (codegen/pd_op.py ``_sparse_names``)."""
    return f"{kernel}_sp" if len(op.specs) > 1 else f"{op.name}_sp"


def output_kinds(op: Any, kernel: str) -> tuple[TensorKind, ...]:
    """The kinds of ``kernel``'s results, from the op's spec (``relu_coo {sparse_coo ->
    sparse_coo}``)."""
    for spec in op.specs:
        name, _, signature = spec.partition("{")
        if name.strip() == kernel:
            results = signature.rstrip("}").partition("->")[2]
            return tuple(TensorKind(part.strip()) for part in results.split(","))
    raise UnimplementedError(f"sparse op '{op.name}' has no spec for kernel '{kernel}'")


def _value_meta(value: Value, op: str, name: str) -> MetaTensor:
    """A MetaTensor of ``value``'s dims (-1 where unknown) and dtype, for InferMeta."""
    if not isinstance(value.type, (DenseTensorType, SparseCooTensorType, SparseCsrTensorType)):
        raise UnimplementedError(
            f"{op}(): argument '{name}' has type {value.type}; sparse ops are built on dense, "
            "COO and CSR tensors"
        )
    meta = MetaTensor(name=name)
    meta.set_dims(value.type.dims)
    meta.set_dtype(dtype_of_type(value.type))
    meta.set_layout(_LAYOUTS.get(value.type.layout, DataLayout.NCHW))
    return meta


def _pd_op(name: str) -> IrOpDef:
    found = get_dialect("pd_op").lookup(f"pd_op.{name}")
    if found is None:
        raise UnimplementedError(
            f"PaddlePaddle 3.3.1 has no pd_op.{name}, so the sparse op cannot be built into a "
            "program"
        )
    return found


def _attribute_value(value: Any, kind: str) -> Any:
    """An attribute as the IR builder takes it: a DataType its spelling, a sequence a list, a
    number of kind ``float`` rounded to float32 (PaddlePaddle holds a FloatAttribute so, and
    its JSON writes that value: 0.10000000149011612 for 0.1)."""
    if isinstance(value, DataType):
        return dtype_name(value)
    if kind == "float":
        return float(np.float32(value))
    if isinstance(value, (str, bool, int, float)):
        return value
    return [int(item) for item in value]


def _create(name: str, operands: list[Value], result_types: list[Type], attributes: dict) -> Any:
    """Append ``pd_op.<name>`` to the current block, its results stopping the gradient as its
    operands all do (as PaddlePaddle's static API marks them)."""
    attributes["stop_gradient"] = [all(v.stop_gradient for v in operands)] * len(result_types)
    return Builder(current_block()).create(f"pd_op.{name}", operands, result_types, attributes)


def _static_infer(op_name: str, dispatcher: Any, metas: list, attrs: tuple) -> tuple:
    """The result metas PaddlePaddle 3.3.1 types the op's results with when it builds."""
    if op_name == "sum":  # the spec's SumInferMeta (the kernel later makes a total [1])
        out = MetaTensor(name="out")
        axis, dtype, keepdim = attrs
        get_infer_meta("SumInferMeta")(metas[0], tuple(axis), dtype, keepdim, out, COMPILE_TIME)
        return (out,)
    if op_name == "slice":  # the spec's UnchangedInferMeta (the kernel later slices the dims)
        out = MetaTensor(name="out")
        get_infer_meta("UnchangedInferMeta")(metas[0], out, COMPILE_TIME)
        return (out,)
    if op_name == "values":  # PHI's sparse::ValuesInferMeta: [-1, x's last dim]
        out = MetaTensor(name="out")
        out.set_dims((-1, metas[0].dims[-1]))
        out.set_dtype(metas[0].dtype)
        return (out,)
    outs = tuple(dispatcher.infer_meta(*metas, *attrs, COMPILE_TIME))
    if op_name in _LAYOUT_UNSET:
        for out in outs:
            out.set_layout(DataLayout.UNDEFINED)
    return outs


class _SparseBuild:
    """What the generated function calls in static mode in place of a kernel's dispatcher: its
    ``call`` builds the op's ``*_sp`` op for the kernel the Values' kinds select."""

    __slots__ = ("op", "dispatcher", "kernel")

    def __init__(self, op: Any, dispatcher: Any) -> None:
        self.op = op
        self.dispatcher = dispatcher
        self.kernel = dispatcher.info.kernel

    def call(self, inputs: tuple[Any, ...], attrs: tuple[Any, ...]) -> tuple[Any, ...]:
        info = self.dispatcher.info
        name = sparse_pd_op_name(self.op, self.kernel)
        row = _pd_op(name)
        metas = [_value_meta(v, self.op.name, s.name) for s, v in zip(info.inputs, inputs)]
        try:
            out_metas = _static_infer(self.op.name, self.dispatcher, metas, attrs)
        except InvalidArgumentError as error:
            raise type(error)(f"{self.op.name}(): {error}") from None
        by_input = dict(zip(info.input_names, inputs))
        by_attr = dict(zip(info.attr_names, attrs))
        operands: list[Value] = []
        for operand in row.operands:
            if operand.name in by_input:
                operands.append(by_input[operand.name])
            elif operand.name in by_attr:  # an IntArray operand, as PaddlePaddle builds it
                values = [int(v) for v in by_attr[operand.name]]
                operands.append(op_api("full_int_array")(values, DataType.INT64, CPUPlace()))
            else:
                raise UnimplementedError(
                    f"{self.op.name}(): pd_op.{name} has operand '{operand.name}', which phiops' "
                    f"sparse {self.op.name} does not have"
                )
        attributes: dict[str, Any] = {}
        for key in row.attributes:
            if key not in by_attr:
                raise UnimplementedError(
                    f"{self.op.name}(): pd_op.{name} has attribute '{key}', which phiops' "
                    f"sparse {self.op.name} does not have"
                )
            attributes[key] = _attribute_value(by_attr[key], row.attributes[key])
        kinds = output_kinds(self.op, self.kernel)
        result_types = [sparse_type(k, m.dims, m.dtype, m.layout) for k, m in zip(kinds, out_metas)]
        return tuple(_create(name, operands, result_types, attributes).results)


def sparse_builder(op: Any, inputs: tuple[Any, ...]) -> _SparseBuild:
    """The builder of sparse op ``op`` (a SparseOpDef) for ``inputs``, Values of a static
    program: the kernel their types' kinds select; InvalidArgumentError naming the argument,
    the kind it is and the kinds the op takes when none does."""
    names = [spec.name for spec in next(iter(op.kernels.values())).info.inputs]
    if not in_static_mode():
        raise InvalidArgumentError(
            f"{op.name}(): its arguments are Values of a static program, but static mode is off "
            "(phi.enable_static() builds programs)"
        )
    kinds = []
    for name, value in zip(names, inputs):
        if not isinstance(value, Value):
            raise InvalidArgumentError(
                f"{op.name}(): argument '{name}' must be a Value of the static program like the "
                f"others, got {type(value).__name__}"
            )
        kind = value_kind(value)
        if kind is None:
            raise InvalidArgumentError(
                f"{op.name}(): argument '{name}' has type {value.type}, which is no tensor"
            )
        kinds.append(kind)
    dispatcher = op.kernels.get(tuple(kinds))
    if dispatcher is None:
        got = ", ".join(f"'{n}' a {k.title}" for n, k in zip(names, kinds))
        raise InvalidArgumentError(
            f"{op.name}(): no kernel of sparse op '{op.name}' takes {got}; its kernels: "
            + ", ".join(op.specs)
        )
    return _SparseBuild(op, dispatcher)


# -- the hand-written conversions ---------------------------------------------------------------


def _check_value(op: str, name: str, value: Any, kinds: tuple[TensorKind, ...]) -> TensorKind:
    kind = value_kind(value) if isinstance(value, Value) else None
    if kind not in kinds:
        got = kind.title if kind is not None else type(value).__name__
        raise InvalidArgumentError(
            f"{op}(): argument '{name}' must be a "
            + " or ".join(k.title for k in kinds)
            + f" Value, got {'a ' + got if kind is not None else got}"
        )
    return kind


def build_to_sparse_coo(x: Value, sparse_dim: int) -> Value:
    """``pd_op.dense_to_coo_sp {sparse_dim}`` of a dense Value, ``csr_to_coo_sp`` of a CSR one
    (a COO Value is returned as it is, as eager ``to_sparse_coo`` does)."""
    op = "to_sparse_coo"
    kind = _check_value(
        op, "x", x, (TensorKind.DENSE, TensorKind.SPARSE_COO, TensorKind.SPARSE_CSR)
    )
    if kind is TensorKind.SPARSE_COO:
        return x
    rank = len(x.type.dims)
    if kind is TensorKind.DENSE and (
        isinstance(sparse_dim, bool)
        or not isinstance(sparse_dim, int)
        or not 0 < sparse_dim <= rank
    ):
        raise InvalidArgumentError(
            f"{op}(): argument 'sparse_dim' must be an int in [1, {rank}] (the rank of x), got "
            f"{sparse_dim!r}"
        )
    name = "dense_to_coo_sp" if kind is TensorKind.DENSE else "csr_to_coo_sp"
    result = sparse_type(TensorKind.SPARSE_COO, x.type.dims, dtype_of_type(x.type))
    return _create(name, [x], [result], {"sparse_dim": int(sparse_dim)}).results[0]


def build_indices(x: Value) -> Value:
    """``pd_op.indices_sp``: typed as PHI's ``sparse::IndicesInferMeta`` types it,
    ``[rank - 1, -1]`` int32 (the kernel gives int64 ``[sparse_dim, nnz]``)."""
    _check_value("indices", "x", x, (TensorKind.SPARSE_COO,))
    result = DenseTensorType((len(x.type.dims) - 1, -1), "i32")
    return _create("indices_sp", [x], [result], {}).results[0]


def build_sparse_coo_tensor(indices: Value, values: Value, shape: Sequence[int]) -> Value:
    """``pd_op.sparse_coo_tensor_sp(values, indices) {shape}``, as PaddlePaddle 3.3.1 builds
    ``paddle.sparse.sparse_coo_tensor`` in a static program (the shape is required there)."""
    op = "sparse_coo_tensor"
    _check_value(op, "indices", indices, (TensorKind.DENSE,))
    _check_value(op, "values", values, (TensorKind.DENSE,))
    if shape is None:
        raise InvalidArgumentError(
            f"{op}(): argument 'shape' is required in a static program (the indices' values "
            "are not known while building)"
        )
    try:
        dims = [int(d) for d in shape]
    except (TypeError, ValueError):
        raise InvalidArgumentError(
            f"{op}(): argument 'shape' must be a sequence of ints, got {shape!r}"
        ) from None
    if dtype_of_type(indices.type) not in (DataType.INT32, DataType.INT64):
        raise InvalidArgumentError(
            f"{op}(): argument 'indices' must be int32 or int64, got "
            f"{dtype_of_type(indices.type).name.lower()}"
        )
    result = sparse_type(TensorKind.SPARSE_COO, dims, dtype_of_type(values.type))
    return _create("sparse_coo_tensor_sp", [values, indices], [result], {"shape": dims}).results[0]


def install_sparse_value_methods(creation: Any) -> None:
    """Give ``Value`` PaddlePaddle 3.3.1's sparse methods (``to_dense``, ``values``,
    ``indices``, ``is_sparse_coo_tensor_type``, ``is_sparse_csr_tensor_type``) and the
    conversions phiops's eager Tensor has (``to_sparse_coo``, ``to_sparse_csr``,
    ``coalesce``), each building through ``creation`` (runtime/sparse/creation.py, whose
    package calls this when it loads: the sparse library sits above the static layer)."""
    Value.to_dense = lambda self: creation.to_dense(self)
    Value.values = lambda self: creation.values(self)
    Value.indices = lambda self: creation.indices(self)
    Value.to_sparse_coo = lambda self, sparse_dim: creation.to_sparse_coo(self, sparse_dim)
    Value.to_sparse_csr = lambda self: creation.to_sparse_csr(self)
    Value.coalesce = lambda self, name=None: creation.coalesce(self)
    Value.is_sparse_coo_tensor_type = lambda self: isinstance(self.type, SparseCooTensorType)
    Value.is_sparse_csr_tensor_type = lambda self: isinstance(self.type, SparseCsrTensorType)
