"""The sparse ops' views: ops/sparse_ops.yaml and ops/sparse_backward.yaml -> generated/sparse_api.py.

A sparse op lists one kernel per combination of input kinds
(``add_coo_coo{sparse_coo, sparse_coo -> sparse_coo}, add_coo_dense{sparse_coo, dense ->
sparse_coo}``), as PaddlePaddle's sparse API generator reads it: the generated function selects
the kernel by its inputs' kinds, and each kernel has its own dispatcher (an ``OpInfo`` whose
kernel is that function), which plans, caches and runs the call as a dense op's does. The ops
live in their own namespace (runtime/sparse/registry.py), as PaddlePaddle's ``sparse`` ops do
beside its dense ones of the same names.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from phiops.codegen.api.autograd import grad_spec_source
from phiops.codegen.api.python import (
    GenerationError,
    default_literal,
    invoke_call,
    name_params,
    python_args,
    returns_annotation,
)
from phiops.codegen.api.registry import op_info, op_info_source
from phiops.codegen.api.views import (
    InferMetaView,
    _doc,
    infer_meta_function_variable,
    infer_meta_view,
)
from phiops.codegen.errors import Diagnostic
from phiops.codegen.model import KernelFunc, OpSpec
from phiops.runtime.dispatch.op_info import OpInfo
from phiops.runtime.dispatch.signature import KernelSignature
from phiops.runtime.sparse.infermeta import KERNEL_SET_DIMS

__all__ = [
    "SparseKernelView",
    "SparseOpView",
    "sparse_op_view",
    "is_sparse_infer_meta",
    "infer_meta_variable",
]

# the kinds a sparse kernel signature names, as runtime TensorKind members
KINDS = {"dense": "DENSE", "sparse_coo": "SPARSE_COO", "sparse_csr": "SPARSE_CSR"}


@dataclass(frozen=True)
class SparseKernelView:
    """One kernel of a sparse op: the input kinds that select it and its dispatcher's OpInfo."""

    name: str
    kinds: str  # Python source: a tuple of TensorKind members, one per input
    spec: str  # as the YAML spells it, for messages
    info: OpInfo
    info_source: str
    # the kind the kernel is selected by when its inputs are all dense and its output is not
    # (``dense_to_coo{dense -> sparse_coo}``: a TensorKind variable), else None
    output_kind: str | None = None

    @property
    def dispatcher(self) -> str:
        """The dispatcher class the generated module constructs for this kernel."""
        return "_OpDispatcher" if self.output_kind is None else "_OutputKindDispatcher"

    @property
    def dispatcher_extra(self) -> str:
        """The dispatcher's arguments after the OpInfo and the InferMeta function."""
        return "" if self.output_kind is None else f", {self.output_kind}"


@dataclass(frozen=True)
class SparseOpView:
    """Everything generated/sparse_api.py places for one sparse op (forward or backward)."""

    name: str
    location: str
    params: str
    returns: str
    doc: tuple[str, ...]
    normalise: tuple[str, ...]
    inputs: tuple[str, ...]
    attrs: tuple[str, ...]
    output_count: int
    kernels: tuple[SparseKernelView, ...]
    infer_meta: InferMetaView | None
    invoke: str | None
    backward: str | None  # the backward op's name
    saves_out: bool  # whether the backward call takes the forward output
    backward_call: str | None  # the backward op's call, on ``_grad`` (and ``_saved_out``)
    input_grads: str | None  # Python source: which forward input each backward output is for

    @property
    def unpack(self) -> str:
        """The target of the dispatcher's outputs: ``(_out,)`` for one, ``_out`` (the tuple,
        which the function returns) for several."""
        return "(_out,)" if self.output_count == 1 else "_out"

    @property
    def inputs_tuple(self) -> str:
        return _tuple(self.inputs)

    @property
    def attrs_tuple(self) -> str:
        return _tuple(self.attrs)

    @property
    def backward_source(self) -> str:
        return repr(self.backward)

    @property
    def kinds_key(self) -> str:
        """The lookup key of the selection table: the inputs' kinds."""
        return ", ".join(f"{name}.meta.kind" for name in self.inputs) + (
            "," if len(self.inputs) == 1 else ""
        )


def _tuple(items: tuple[str, ...]) -> str:
    if not items:
        return "()"
    return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"


def _error(op: OpSpec, key: str, message: str) -> GenerationError:
    return GenerationError(Diagnostic(op.loc_of(key), op.name, message))


_SPARSE_PREFIX = "sparse::"


def is_sparse_infer_meta(phi_name: str) -> bool:
    """Whether an InferMeta name is one of PHI's sparse namespace (``sparse::CastInferMeta``),
    which phiops keeps in runtime/sparse/infermeta.py."""
    return phi_name.startswith(_SPARSE_PREFIX)


def infer_meta_variable(phi_name: str) -> str:
    """The generated module's variable for an InferMeta function: ``_unchanged_infer_meta``,
    ``_sparse_cast_infer_meta`` for ``sparse::CastInferMeta``."""
    if is_sparse_infer_meta(phi_name):
        return infer_meta_function_variable("Sparse" + phi_name[len(_SPARSE_PREFIX) :])
    return infer_meta_function_variable(phi_name)


def _kernel_view(op: OpSpec, func: KernelFunc) -> SparseKernelView:
    if func.input_kinds is None or len(func.input_kinds) != len(op.inputs):
        raise _error(
            op,
            "kernel.func",
            f"sparse kernel '{func}' must name the kind of each of the op's "
            f"{len(op.inputs)} tensor inputs ({{kind, ... -> kind}})",
        )
    unknown = [
        kind for kind in (*func.input_kinds, *(func.output_kinds or ())) if kind not in KINDS
    ]
    if unknown:
        raise _error(
            op,
            "kernel.func",
            f"sparse kernel '{func}' names kind '{unknown[0]}'; the sparse ops take "
            + ", ".join(KINDS),
        )
    base = op_info(op)
    inputs = {a.name for a in op.inputs}
    params = op.kernel_params()
    signature = KernelSignature(
        func.name,
        tuple(p for p in params if p in inputs),
        tuple(p for p in params if p not in inputs),
        tuple(o.name for o in op.outputs),
    )
    info = replace(base, signature=signature)
    source = op_info_source(
        info,
        op,
        signature=f"KernelSignature({signature.name!r}, {_names(signature.inputs)}, "
        f"{_names(signature.attrs)}, {_names(signature.outputs)})",
    )
    kinds = _tuple(tuple(f"_{KINDS[kind]}" for kind in func.input_kinds))
    output_kind = None
    if all(kind == "dense" for kind in func.input_kinds):
        sparse_outputs = [kind for kind in func.output_kinds or () if kind != "dense"]
        if sparse_outputs:
            output_kind = f"_{KINDS[sparse_outputs[0]]}"
    return SparseKernelView(func.name, kinds, str(func), info, source, output_kind)


def _sparse_doc(op: OpSpec, args: tuple, file: str) -> tuple[str, ...]:
    """The dense ops' docstring (codegen/api/views.py), naming the op a sparse one."""
    first, *rest = _doc(op, args, file)
    return (first.replace("PHI op", "PHI sparse op", 1), *rest)


def _names(items: tuple[str, ...]) -> str:
    return _tuple(tuple(repr(item) for item in items))


def sparse_op_view(op: OpSpec, backward: OpSpec | None, file: str) -> SparseOpView:
    """The view of sparse op ``op`` (``backward``: its backward op, if any); GenerationError when
    it cannot be generated."""
    args = python_args(op)
    params = ", ".join([a.signature for a in args] + name_params(op))
    inputs = tuple(a.name for a in args if a.is_input)
    attrs = tuple(a.name for a in args if not a.is_input)
    normalise = tuple(line for a in args for line in a.normalise)
    common = dict(
        name=op.name,
        location=f"{op.loc.file}:{op.loc.line}",
        params=params,
        returns=returns_annotation(op),
        doc=_sparse_doc(op, args, file),
        normalise=normalise,
        inputs=inputs,
        attrs=attrs,
        output_count=len(op.outputs),
    )
    outputs = list(op.outputs)
    if not outputs or any(o.type.is_list for o in outputs):
        raise _error(op, "output", "a sparse op has Tensor outputs here (Tensor[]: not generated)")
    if len(outputs) > 1 and backward is not None:
        raise _error(
            op,
            "output",
            "a sparse op with a backward op has one output here (its grad node takes one "
            "output gradient)",
        )
    if op.invoke is not None:
        return SparseOpView(
            **common,
            kernels=(),
            infer_meta=None,
            invoke=invoke_call(op, op.invoke, {op.invoke.name}),
            backward=None,
            saves_out=False,
            backward_call=None,
            input_grads=None,
        )
    if op.kernel is None or op.infer_meta is None:
        raise _error(op, "kernel", "a sparse op needs infer_meta and kernel, or invoke")
    kernels = tuple(_kernel_view(op, func) for func in op.kernel.funcs)
    # PHI's sum and slice kernels set their output's dims themselves: those ops plan with the
    # sparse function that gives them (runtime/sparse/infermeta.py), on every argument of the
    # op, as the kernel takes them
    phi_name = KERNEL_SET_DIMS.get(op.name, op.infer_meta.func)
    planned = op
    if op.name in KERNEL_SET_DIMS:
        planned = replace(op, infer_meta=replace(op.infer_meta, param=None, param_literals=None))
    infer_meta = replace(
        _infer_meta_view(planned),
        name=f"_infer_{op.name}",
        function=infer_meta_variable(phi_name),
        phi_name=phi_name,
    )
    call = saves_out = input_grads = None
    if backward is not None:
        call, saves_out, input_grads = _backward_call(op, backward)
    return SparseOpView(
        **common,
        kernels=kernels,
        infer_meta=infer_meta,
        invoke=None,
        backward=backward.name if backward is not None else None,
        saves_out=bool(saves_out),
        backward_call=call,
        input_grads=input_grads,
    )


def _infer_meta_view(op: OpSpec) -> InferMetaView:
    """The dense ops' InferMeta view (codegen/api/views.py), with the literal items of
    ``infer_meta.param`` (``false`` in matmul's ``[x, y, false, false]``) passed as Python
    literals in their places."""
    spec = op.infer_meta
    assert spec is not None
    literals = spec.param_literals
    if spec.param is None or literals is None or all(item is None for item in literals):
        return infer_meta_view(op)
    names = tuple(name for name, item in zip(spec.param, literals) if item is None)
    view = infer_meta_view(replace(op, infer_meta=replace(spec, param=names, param_literals=None)))
    arguments = []
    for name, item in zip(spec.param, literals):
        if item is None:
            arguments.append(name)
        elif item.kind in ("bool", "int", "float"):
            arguments.append(repr(item.value))
        else:
            raise _error(
                op,
                "infer_meta.param",
                f"infer_meta param '{item}' is a {item.kind} literal; a sparse op passes only "
                "bool, int and float literals",
            )
    outputs = [variable for variable, _ in view.outputs]
    return replace(view, call_args=", ".join(arguments + outputs + ["config"]))


def _backward_call(op: OpSpec, backward: OpSpec) -> tuple[str, bool, str]:
    """The call of ``backward`` from the grad node of a call of ``op``: each of its arguments
    a forward input (by name), the forward output (``_saved_out``), the output's gradient
    (``_grad``), a forward attribute, or its own default; and which forward input each of its
    outputs is the gradient of. The mapping is the GradSpec's (codegen/api/autograd.py)."""
    spec = grad_spec_source(op, backward)  # checks the backward's forward: signature
    signature = backward.forward
    assert signature is not None
    sig_inputs = [a.name for a in signature.args if a.type.is_tensor_like]
    sig_attrs = [a.name for a in signature.args if not a.type.is_tensor_like]
    sig_outputs = list(signature.outputs.names)
    forward_inputs = [a.name for a in op.inputs]
    forward_attrs = [a.name for a in op.attrs]
    arguments = []
    saves_out = False
    for arg in backward.args:
        name = arg.name
        if name in sig_inputs:
            arguments.append(forward_inputs[sig_inputs.index(name)])
        elif name in sig_outputs:
            arguments.append("_saved_out")
            saves_out = True
        elif name.endswith("_grad") and name[: -len("_grad")] in sig_outputs:
            arguments.append("_grad")
        elif name in sig_attrs:
            arguments.append(forward_attrs[sig_attrs.index(name)])
        elif arg.default is not None and not arg.type.is_tensor_like:
            arguments.append(default_literal(backward, arg))
        else:  # grad_spec_source has refused it already
            raise _error(backward, "args", f"argument '{name}' cannot be passed ({spec})")
    grads = []
    for output in backward.outputs:
        stem = output.name[: -len("_grad")] if output.name.endswith("_grad") else None
        grads.append(str(sig_inputs.index(stem)) if stem in sig_inputs else "None")
    return f"{backward.name}({', '.join(arguments)})", saves_out, _tuple(tuple(grads))
