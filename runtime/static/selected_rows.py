"""SelectedRows in static programs (issue 28, parts 3 and 5): which ``pd_op`` a call on
SelectedRows builds, and the result types it gets (docs/tensor_kinds.md).

PHI gives each kind's kernel its own name (``sgd_dense_param_sparse_grad``); PaddlePaddle 3.3.1's
PIR dialect has an op of each such name (``pd_op.sgd_dense_param_sparse_grad_``,
``pd_op.embedding_sparse_grad``, ``pd_op.merge_selected_rows``), whose SelectedRows operands and
results have the type ``pd_op.selectedrows<DIMSxELEM>`` (the complete dims). A call builds that
op when an input Value is of that type or when the op's attribute chooses the kind
(``embedding_grad``'s ``sparse``, KIND_BY_ATTRIBUTE); the Executor maps the op back to phiops's
op (``executor_form``), whose dispatcher selects the kernel by the inputs' kinds, as in eager
mode.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from phiops.runtime.dispatch.dispatcher import KIND_BY_ATTRIBUTE
from phiops.runtime.dispatch.op_def import OP_DEFS
from phiops.runtime.dispatch.op_info import OpInfo
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.ir.core import Value
from phiops.runtime.ir.types import DenseTensorType, SelectedRowsType, Type
from phiops.runtime.kernels import KERNEL_FACTORY
from phiops.runtime.tensor.kinds import TensorKind

__all__ = ["KindForm", "kind_form", "executor_form", "rows_grad_pd_op", "selected_rows_type"]

_DENSE = TensorKind.DENSE
_ROWS = TensorKind.SELECTED_ROWS


@dataclass(frozen=True)
class KindForm:
    """How a call on SelectedRows is built: the pd_op (name without ``pd_op.``), the kind of
    each of phiops's op's outputs, and the attributes of phiops's op that the pd_op fixes
    (``embedding_sparse_grad`` is ``embedding_grad`` with ``sparse=True``)."""

    pd_op: str
    out_kinds: tuple[TensorKind, ...]
    fixed: Mapping[str, Any] = field(default_factory=dict)


def selected_rows_type(dense: Type) -> Type:
    """``pd_op.selectedrows<...>`` with a dense type's dims and element (other types as they
    are)."""
    if isinstance(dense, DenseTensorType):
        return SelectedRowsType(dense.dims, dense.element, dense.layout)
    return dense


def _kernel_kinds(kernel_name: str) -> tuple[dict[str, TensorKind], list[TensorKind]] | None:
    registered = next(iter(KERNEL_FACTORY.kernels.get(kernel_name, {}).values()), None)
    if registered is None:
        return None
    args = registered.args_def
    return {a.name: a.tensor_kind for a in args.inputs}, [a.tensor_kind for a in args.outputs]


def kind_form(info: OpInfo, inputs: Sequence[Any], attrs: Sequence[Any]) -> KindForm | None:
    """The form of a call of ``info`` whose inputs or attributes ask for a SelectedRows kernel;
    None for a call on dense tensors only. InvalidArgumentError naming the op, the argument and
    the kind when a SelectedRows Value goes to an op without a SelectedRows kernel."""
    fixed: dict[str, Any] = {}
    argument = None
    chooser = KIND_BY_ATTRIBUTE.get(info.name)
    if chooser is not None and chooser[0] in info.attr_names:
        value = attrs[info.attr_names.index(chooser[0])]
        if value:
            fixed[chooser[0]] = value
    if not fixed:
        for spec, value in zip(info.inputs, inputs):
            items = value if isinstance(value, (list, tuple)) else (value,)
            if any(isinstance(v, Value) and isinstance(v.type, SelectedRowsType) for v in items):
                argument = spec.name
                break
        else:
            if not info.kernel or _DENSE in KERNEL_FACTORY.kinds_of(info.kernel):
                return None
            argument = None  # an op whose kernels all take SelectedRows (merge_selected_rows)
    kernel = info.kernel
    own = _kernel_kinds(kernel) if kernel else None
    if own is not None and _ROWS in (*own[0].values(), *own[1]):
        name, kinds = info.name, own
    else:
        variant = KERNEL_FACTORY.variant_name(kernel, _ROWS) if kernel else None
        kinds = _kernel_kinds(variant) if variant else None
        if variant is None or kinds is None:
            have = ", ".join(k.title for k in KERNEL_FACTORY.kinds_of(kernel)) or "none"
            raise InvalidArgumentError(
                f"{info.name}(): argument '{argument}' is a SelectedRows Value, but kernel "
                f"'{kernel}' has no SelectedRows kernel (it has kernels for: {have}); a dense "
                "kernel is never handed a SelectedRows"
            )
        name = variant + ("_" if info.name.endswith("_") and not variant.endswith("_") else "")
    takes, out_kinds = kinds
    for spec, value in zip(info.inputs, inputs):
        want = takes.get(spec.name, _DENSE)
        for v in value if isinstance(value, (list, tuple)) else (value,):
            if not isinstance(v, Value):
                continue
            have = _ROWS if isinstance(v.type, SelectedRowsType) else _DENSE
            if have is not want:
                raise InvalidArgumentError(
                    f"{info.name}(): argument '{spec.name}' is a {have.title} Value, but pd_op."
                    f"{name}, built for this call, takes a {want.title} there"
                )
    if len(out_kinds) != len(info.outputs):
        out_kinds = [_DENSE] * len(info.outputs)
    return KindForm(name, tuple(out_kinds), fixed)


_EXECUTOR_FORMS: dict[str, tuple[str, dict[str, Any]]] = {}


def executor_form(pd_op: str) -> tuple[str, dict[str, Any]] | None:
    """For a pd_op of a SelectedRows kernel that phiops has no op of the name of
    (``sgd_dense_param_sparse_grad_``, ``embedding_sparse_grad``): phiops's op that runs it and
    the attributes the pd_op fixes (``{"sparse": True}``); None for any other name."""
    if not _EXECUTOR_FORMS:
        for op_name, op_def in OP_DEFS.items():
            kernel = op_def.info.kernel
            variant = KERNEL_FACTORY.variant_name(kernel, _ROWS) if kernel else None
            if variant is None:
                continue
            chooser = KIND_BY_ATTRIBUTE.get(op_name)
            if chooser is None and op_name.rstrip("_") != kernel:
                continue  # another op on the kernel (embedding_grad_dense: never sparse)
            if op_name.endswith("_"):
                variant += "_"
            fixed = {chooser[0]: True} if chooser is not None else {}
            _EXECUTOR_FORMS.setdefault(variant, (op_name, fixed))
    return _EXECUTOR_FORMS.get(pd_op)


def rows_grad_pd_op(op: str) -> str:
    """The pd_op name (without ``pd_op.``) of in-place optimizer op ``op`` (``adam_``) for a
    SelectedRows gradient: its kernel's SelectedRows variant's (``adam_dense_param_sparse_grad_``).
    UnimplementedError where phiops or PaddlePaddle 3.3.1's dialect has none."""
    from phiops.runtime.ir.dialect import get_dialect

    kernel = OP_DEFS[op].info.kernel if op in OP_DEFS else None
    variant = KERNEL_FACTORY.variant_name(kernel, _ROWS) if kernel else None
    name = f"{variant}_" if variant else None
    if name is None or get_dialect("pd_op").lookup(f"pd_op.{name}") is None:
        raise UnimplementedError(
            f"{op}(): the gradient is a SelectedRows Value, and "
            + (
                f"PaddlePaddle 3.3.1's PIR dialect has no pd_op.{name}"
                if name
                else f"kernel '{kernel}' has no SelectedRows variant"
            )
            + ", so the update cannot be built into a program"
        )
    return name
