"""Building an operation from an API call on Values (DESIGN.md §6).

In static mode ``build_call`` is the dispatchers' builder (runtime/dispatch/build_mode.py, installed
by runtime/static/mode.py), so a generated API function's slow path appends a ``pd_op`` operation to the current block instead of
running a kernel: its result types come from the op's InferMeta on MetaTensors with
``MetaConfig(is_runtime=False)`` (an unknown extent is -1), its operands and attributes follow the
op's ``pd_op`` definition. A Scalar or IntArray attribute that ``pd_op`` takes as an operand (a
"mutable attribute": ``scale``'s scale, ``reshape``'s shape) becomes a ``pd_op.full`` or
``pd_op.full_int_array`` operand, as PaddlePaddle builds it; given as a Value (an IntArray also
as a list mixing ints and 1-element Values, stacked), the Value is the operand and InferMeta sees
an ``IntArrayFromValue`` (-1 where the data decides), for the attributes an op's traits list as
``value_attributes`` (ops/op_traits.yaml; ``full`` so becomes ``pd_op.full_with_tensor``); a ``Tensor[]`` input becomes a
``builtin.combine`` and a ``Tensor[]`` output is unpacked by ``builtin.split``.
"""

from __future__ import annotations

import contextlib
from typing import Any, Callable, Iterator, Sequence

from phiops.runtime.common import Backend, CPUPlace, DataLayout, DataType, IntArrayFromValue, Place
from phiops.runtime.common.promotion import promote_metas, promotion_rule
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.dispatch.dispatcher import OpDispatcher, naming_op
from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.dispatch.op_info import OpInfo
from phiops.runtime.dispatch.value_attributes import (
    dtype_of_type,
    int_array_from_value,
    scalar_from_value,
)
from phiops.runtime.errors import InvalidArgumentError, PhiError, UnimplementedError
from phiops.runtime.ir.builder import Builder
from phiops.runtime.ir.core import Operation, Value
from phiops.runtime.ir.dialect import OpDef as IrOpDef
from phiops.runtime.ir.dialect import get_dialect
from phiops.runtime.ir.dialects.pd_op import scalar_operand_dtype
from phiops.runtime.ir.types import ELEMENT_TYPES, NULL_TYPE, DenseTensorType, Type, VectorType
from phiops.runtime.ir.types import SelectedRowsType, SparseCooTensorType, SparseCsrTensorType
from phiops.runtime.tensor.kinds import TensorKind
from phiops.runtime.static.pd_op_names import PdOpNames, pd_op_names, result_positions
from phiops.runtime.static.program import current_block
from phiops.runtime.static.selected_rows import kind_form, selected_rows_type

__all__ = [
    "build_call",
    "build_op",
    "dense_type",
    "value_meta",
    "dtype_of_type",
    "dtype_name",
    "place_text",
    "building_without_gradients",
    "int_array_from_value",
    "scalar_from_value",
]

COMPILE_TIME = MetaConfig(is_runtime=False)
_ELEMENTS = {name: element for element, name in ELEMENT_TYPES.items()}
_WITHOUT_GRADIENTS: list[bool] = []
# the sparse types' classes (runtime/ir/types.py) -> their tensor kinds' names, for the error a
# dense op given one raises
_SPARSE_KINDS = {SparseCooTensorType: "SparseCooTensor", SparseCsrTensorType: "SparseCsrTensor"}


@contextlib.contextmanager
def building_without_gradients() -> Iterator[None]:
    """Every result built inside the ``with`` block stops the gradient (what PaddlePaddle's
    ``no_grad`` around ``Optimizer.minimize`` does to the ops it builds; a result of the null
    type keeps ``false``, as there)."""
    _WITHOUT_GRADIENTS.append(True)
    try:
        yield
    finally:
        _WITHOUT_GRADIENTS.pop()


def dtype_name(dtype: DataType) -> str:
    """The DataType attribute spelling: ``float32``, ``bool``, ``Undefined``."""
    return "Undefined" if dtype is DataType.UNDEFINED else dtype.name.lower()


def dense_type(
    dims: Sequence[int], dtype: DataType, layout: DataLayout = DataLayout.NCHW
) -> DenseTensorType:
    """``tensor<DIMSxELEM>`` for ``dims`` (-1 unknown) and ``dtype``."""
    element = _ELEMENTS.get(dtype_name(dtype))
    if element is None:
        raise UnimplementedError(f"the IR has no tensor element type for {dtype!r}")
    layout_name = "NCHW" if layout is DataLayout.UNDEFINED else layout.name
    return DenseTensorType(tuple(int(d) for d in dims), element, layout_name)


def place_text(place: Place) -> str:
    """A Place as the `place` attribute writes it: ``cpu``, ``gpu:0``, ``undefined:0``."""
    if place.backend is Backend.CPU:
        return "cpu"
    if place.backend is Backend.GPU:
        return f"gpu:{place.device_id}"
    return "undefined:0"


def value_meta(value: Value, name: str) -> MetaTensor:
    """A MetaTensor with ``value``'s dims (-1 where unknown) and dtype."""
    type = value.type
    if type.__class__ in _SPARSE_KINDS:
        raise InvalidArgumentError(
            f"argument '{name}' is a {_SPARSE_KINDS[type.__class__]} ({type}), but the "
            "op takes a DenseTensor; phiops.sparse's functions take sparse tensors (or make it "
            "dense with to_dense())"
        )
    if not isinstance(type, (DenseTensorType, SelectedRowsType)):
        raise UnimplementedError(
            f"argument '{name}' has type {type}; building ops on it is not implemented "
            "(dense tensors only)"
        )
    meta = MetaTensor(name=name)
    meta.set_dims(type.dims)
    meta.set_dtype(dtype_of_type(type))
    return meta


def build_call(
    dispatcher: OpDispatcher, inputs: tuple[Any, ...], attrs: tuple[Any, ...]
) -> tuple[Any, ...]:
    """Static mode's builder (runtime/dispatch/build_mode.py): a call that reaches the op's slow
    path builds the op into the current program; errors name the op."""
    try:
        return build_op(dispatcher.info, dispatcher.infer_meta, inputs, attrs)
    except PhiError as error:
        raise naming_op(error, dispatcher.info.name) from None


def _check_input(op: str, name: str, value: Any) -> None:
    if isinstance(value, Value):
        return
    if isinstance(value, Tensor):
        raise InvalidArgumentError(
            f"{op}(): argument '{name}' is an eager Tensor, but static mode builds a program "
            "from Values (phi.static.data, phi.static.create_parameter, results of ops); call "
            "phi.disable_static() to run ops eagerly"
        )
    raise InvalidArgumentError(
        f"{op}(): argument '{name}' expects a Value of a static program, got "
        f"{type(value).__name__} {value!r}"
    )


def _with_dtype(meta: MetaTensor, dtype: DataType) -> MetaTensor:
    """``meta`` (a fresh MetaTensor of this build) set to ``dtype``."""
    meta.set_dtype(dtype)
    return meta


def _input_metas(info: OpInfo, inputs: tuple[Any, ...]) -> list[Any]:
    metas: list[Any] = []
    for spec, value in zip(info.inputs, inputs):
        if value is None:
            if not spec.optional:
                raise InvalidArgumentError(
                    f"{info.name}(): argument '{spec.name}' is required, got None"
                )
            metas.append(None)
        elif spec.is_list:
            if not isinstance(value, (list, tuple)):
                raise InvalidArgumentError(
                    f"{info.name}(): argument '{spec.name}' expects a list of Values, got "
                    f"{type(value).__name__}"
                )
            for position, item in enumerate(value):
                _check_input(info.name, f"{spec.name}[{position}]", item)
            metas.append([value_meta(item, f"{spec.name}[{i}]") for i, item in enumerate(value)])
        else:
            _check_input(info.name, spec.name, value)
            metas.append(value_meta(value, spec.name))
    return metas


def _pd_op(name: str, dialect_name: str = "pd_op") -> IrOpDef:
    """The IR definition of op ``name``: ``pd_op.<name>``, or ``<dialect>.<name>`` for an op
    package's op (docs/extending.md)."""
    dialect = get_dialect(dialect_name)
    found = dialect.lookup(f"{dialect_name}.{name}") if dialect is not None else None
    if found is None:
        if dialect_name != "pd_op":
            raise UnimplementedError(
                f"{name}(): the op package's dialect '{dialect_name}' has no {dialect_name}.{name} "
                "(is its generated dialect.py imported?), so the op cannot be built into a program"
            )
        raise UnimplementedError(
            f"{name}(): PaddlePaddle has no pd_op.{name}, so the op cannot be built into a program"
        )
    return found


def _all_stop_gradient(values: Sequence[Value | None]) -> bool:
    return all(v.stop_gradient for v in values if v is not None)


def _combine(values: Sequence[Value]) -> Value:
    """A `builtin.combine` of ``values`` (a Tensor[] operand)."""
    op = Builder(current_block()).create(
        "builtin.combine",
        list(values),
        [VectorType(tuple(v.type for v in values))],
        {"stop_gradient": [bool(_WITHOUT_GRADIENTS) or _all_stop_gradient(values)]},
    )
    return op.results[0]


def _mutable_operand(op: str, spec: Any, name: str, value: Any) -> Value:
    """The operand PaddlePaddle builds for a Scalar/IntArray attribute given as a number or list:
    ``full_int_array(value, int64, cpu)`` or ``full([1], value, dtype, cpu)``."""
    if isinstance(value, Value):
        return value
    if isinstance(value, IntArrayFromValue):
        if isinstance(value.source, Value):
            return value.source
        # as PaddlePaddle: a 1-element int64 full per int, the entries stacked into [N, 1]
        entries = [
            (
                item
                if isinstance(item, Value)
                else op_api("full")([1], item, DataType.INT64, CPUPlace())
            )
            for item in value.source
        ]
        return op_api("stack")(entries, 0)
    if spec.type == "IntArray":
        return op_api("full_int_array")(list(value), DataType.INT64, CPUPlace())
    if spec.type.startswith("Scalar"):
        dtype = DataType[scalar_operand_dtype(op, name).upper()]
        return op_api("full")([1], value, dtype, CPUPlace())
    raise UnimplementedError(
        f"{op}(): pd_op.{op} takes attribute '{name}' ({spec.type}) as an operand; building that "
        "is not implemented"
    )


def _attribute_value(value: Any) -> Any:
    """An attribute's value as the IR builder takes it (it types plain values by the op's
    definition): DataType and Place become their printed spellings."""
    if isinstance(value, DataType):
        return dtype_name(value)
    if isinstance(value, Place):
        return place_text(value)
    if isinstance(value, tuple):
        return list(value)
    return value


def _result_type(meta: Any) -> Type:
    if meta is None:
        return NULL_TYPE
    if isinstance(meta, list):
        types = tuple(_result_type(item) for item in meta)
        if types and all(t is NULL_TYPE for t in types):
            return NULL_TYPE  # an optional Tensor[] output InferMeta did not produce
        return VectorType(types)
    if meta._dims is None and meta.dtype is DataType.UNDEFINED:
        return NULL_TYPE  # an optional output InferMeta did not produce
    return dense_type(meta.dims, meta.dtype, meta.layout)


def _cast_inputs(rule: Any, inputs: tuple[Any, ...], target: DataType) -> tuple[Any, ...]:
    """``inputs`` with each participating Value not of ``target`` replaced by a pd_op.cast of
    it, built now in input order (PaddlePaddle casts once per operand: divide(x, x) of an int
    x casts it twice)."""
    cast = op_api("cast")
    changed = list(inputs)
    for position, _ in rule[0]:
        value = inputs[position]
        if isinstance(value, Value) and dtype_of_type(value.type) is not target:
            changed[position] = cast(value, target)
    return tuple(changed)


def build_op(
    info: OpInfo,
    infer_meta: Callable[..., tuple[Any, ...]],
    inputs: tuple[Any, ...],
    attrs: tuple[Any, ...],
) -> tuple[Any, ...]:
    """Append ``pd_op.<op>`` for one API call to the current block; returns the op's outputs as
    the dispatcher's ``call`` does: a Value per output, a list of Values per Tensor[] output,
    None for an optional output the op does not produce."""
    name = info.name
    _check_value_attributes(info, attrs)
    # a call on SelectedRows builds the pd_op of its SelectedRows kernel (runtime/static/selected_rows.py)
    form = kind_form(info, inputs, attrs)
    if name == "full" and any(isinstance(a, (Value, IntArrayFromValue)) for a in attrs[:2]):
        return (_build_full_with_tensor(*attrs[:3]),)
    pd_op = _pd_op(form.pd_op if form else name, info.dialect)
    metas = _input_metas(info, inputs)
    rule = promotion_rule(info)
    try:
        if rule is not None:
            # The same promotion as eager dispatch. As PaddlePaddle's static API does, an input
            # not in the compute dtype gets a pd_op.cast first (ops whose traits say
            # integer_kernel excepted, exp and log: their kernels take integer inputs, and the
            # result types come from the promoted metas).
            promoted = promote_metas(name, rule, metas, _with_dtype)
            if promoted is not None and not info.traits.integer_kernel:
                inputs = _cast_inputs(rule, inputs, promoted[0])
        out_metas = infer_meta(*metas, *attrs, COMPILE_TIME)
    except InvalidArgumentError as error:
        raise naming_op(error, name) from None
    by_input = dict(zip(info.input_names, inputs))
    by_attr = dict(zip(info.attr_names, attrs))
    attr_specs = {spec.name: spec for spec in info.attrs}
    names = pd_op_names(name)
    fixed = form.fixed if form else {}
    _check_phiops_only_attributes(
        name, pd_op, names, {k: v for k, v in by_attr.items() if k not in fixed}
    )
    # As PaddlePaddle: the operands of mutable attributes first (its Python binding builds them
    # while reading the arguments), then the combines of Tensor[] inputs (its op builder's).
    operands: list[Any] = []
    for operand in pd_op.operands:
        ours = names.phiops_name(operand.name)
        if ours in by_input:
            operands.append(by_input[ours])
        elif ours in by_attr:
            operands.append(_mutable_operand(name, attr_specs[ours], ours, by_attr[ours]))
        elif operand.name in names.pd_op_only:
            operands.append(names.pd_op_only[operand.name])
        else:
            raise UnimplementedError(
                f"{name}(): pd_op.{name} has operand '{operand.name}', which phiops' {name} "
                "does not have"
            )
    operands = [_combine(v) if isinstance(v, (list, tuple)) else v for v in operands]
    attributes: dict[str, Any] = {}
    for key in pd_op.attributes:
        ours = names.phiops_name(key)
        if ours in by_attr:
            attributes[key] = _attribute_value(by_attr[ours])
        elif key in names.pd_op_only:
            attributes[key] = names.pd_op_only[key]
        else:
            raise UnimplementedError(
                f"{name}(): pd_op.{name} has attribute '{key}', which phiops' {name} does not have"
            )
    positions = result_positions(name, pd_op, [output.name for output in info.outputs])
    result_types = [NULL_TYPE] * max(len(pd_op.results), len(out_metas))
    for index, (position, meta) in enumerate(zip(positions, out_metas)):
        result_types[position] = _result_type(meta)
        if form is not None and form.out_kinds[index] is TensorKind.SELECTED_ROWS:
            result_types[position] = selected_rows_type(result_types[position])
    if _WITHOUT_GRADIENTS:
        attributes["stop_gradient"] = [t is not NULL_TYPE for t in result_types]
    else:
        # PaddlePaddle's Python API marks the results of comparisons and logical ops
        # stop_gradient whatever their inputs (traits: results_stop_gradient); other results
        # stop the gradient only when every operand does
        stop = info.traits.results_stop_gradient or _all_stop_gradient(operands)
        attributes["stop_gradient"] = [stop] * len(result_types)
    op = Builder(current_block()).create(pd_op.name, operands, result_types, attributes)
    return tuple(_output(op, position, meta) for position, meta in zip(positions, out_metas))


def _check_value_attributes(info: OpInfo, attrs: tuple[Any, ...]) -> None:
    """An IntArray or Scalar attribute given as a Value is built only where the op's InferMeta
    knows it: the op's traits list it as one of its ``value_attributes``; their InferMeta types
    the result with -1 where the value decides an extent."""
    allowed = info.traits.value_attributes
    for name, value in zip(info.attr_names, attrs):
        if isinstance(value, (Value, IntArrayFromValue)) and name not in allowed:
            raise UnimplementedError(
                f"{info.name}(): argument '{name}' is given as a Value; building {info.name} with "
                "a Value for it is not implemented (give a number or a list of ints)"
            )


def _build_full_with_tensor(shape: Any, value: Any, dtype: DataType) -> Value:
    """``full`` whose shape or value is a Value, as PaddlePaddle's ``paddle.full`` builds it:
    `pd_op.full_with_tensor(value, shape) {dtype}`, its shape operand built first (a list of
    ints a `full_int_array`, a list holding Values a `stack` of 0-D int64 entries: a Value
    reshaped to 0-D, an int a `full([], int, int64, cpu)`), then a number value becoming
    `full([1], value, dtype, cpu)`; the result's extents
    are the shape's as known while building (-1 where the data decides)."""
    full = op_api("full")
    if isinstance(shape, IntArrayFromValue) and isinstance(shape.source, Value):
        shape_operand = shape.source
    elif isinstance(shape, IntArrayFromValue):
        entries = []
        for item in shape.source:
            if not isinstance(item, Value):
                entries.append(full([], item, DataType.INT64, CPUPlace()))
                continue
            if dtype_of_type(item.type) is not DataType.INT64:
                item = op_api("cast")(item, DataType.INT64)
            if item.type.dims:
                item = op_api("reshape")(item, [])
            entries.append(item)
        shape_operand = op_api("stack")(entries, 0)
    else:
        shape_operand = op_api("full_int_array")(list(shape), DataType.INT64, CPUPlace())
    if isinstance(value, Value):
        value_operand = value
    else:
        value_operand = full([1], value, dtype, CPUPlace())
    result_type = dense_type(tuple(shape), dtype)
    op = Builder(current_block()).create(
        "pd_op.full_with_tensor",
        [value_operand, shape_operand],
        [result_type],
        {
            "dtype": dtype_name(dtype),
            "stop_gradient": [bool(_WITHOUT_GRADIENTS) or value_operand.stop_gradient],
        },
    )
    return op.results[0]


def _check_phiops_only_attributes(
    name: str, pd_op: IrOpDef, names: PdOpNames, by_attr: dict[str, Any]
) -> None:
    """Reject a phiops attribute that pd_op ``name`` has no place for, unless it has the one
    value the pd_op computes."""
    pd_op_names_here = {names.phiops_name(o.name) for o in pd_op.operands}
    pd_op_names_here.update(names.phiops_name(key) for key in pd_op.attributes)
    lost = [key for key in by_attr if key not in pd_op_names_here]
    for key in lost:
        if key in names.phiops_only:
            if by_attr[key] != names.phiops_only[key]:
                raise UnimplementedError(
                    f"{name}(): pd_op.{name} computes {key}={names.phiops_only[key]!r} only; "
                    f"building {key}={by_attr[key]!r} is not implemented"
                )
    unplaced = [key for key in lost if key not in names.phiops_only]
    if unplaced:
        raise UnimplementedError(
            f"{name}(): PaddlePaddle 3.3.1's pd_op.{name} has no attribute "
            f"{', '.join(repr(k) for k in unplaced)} and computes another function, so phiops' "
            f"{name} cannot be built into a program"
        )


def _output(op: Operation, index: int, meta: Any) -> Any:
    result = op.results[index]
    if result.type is NULL_TYPE:
        return None
    if isinstance(meta, list):
        types = result.type.types
        split = Builder(current_block()).create(
            "builtin.split",
            [result],
            list(types),
            {"stop_gradient": [result.stop_gradient] * len(types)},
        )
        return list(split.results)
    return result
