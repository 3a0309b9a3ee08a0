"""The sparse ops' registry: one ``SparseOpDef`` per op of ops/sparse_ops.yaml and
ops/sparse_backward.yaml, which generated/sparse_api.py registers when it is imported.

The sparse ops have their own namespace, as PaddlePaddle's have beside its dense ops of the same
names (``sparse.sin`` and ``sin``; its PIR calls them ``sin_coo_sp``...): they are not in the
dense registry (runtime/dispatch/op_def.py), whose registry-driven checks run every op on dense
tensors. A SparseOpDef holds a dispatcher per kernel, keyed by the input kinds that select it.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator, Mapping

from phiops.runtime.dispatch.dispatcher import OpDispatcher
from phiops.runtime.errors import InvalidArgumentError, NotFoundError, UnimplementedError
from phiops.runtime.tensor.kinds import TensorKind

__all__ = [
    "SparseOpDef",
    "OutputKindDispatcher",
    "SPARSE_OP_DEFS",
    "register_sparse_op",
    "sparse_op_def",
    "sparse_op_defs",
    "sparse_op_api",
    "no_sparse_kernel",
    "static_or_no_kernel",
]


class SparseOpDef:
    """One sparse op: its name and spec location, its kernels' dispatchers by input kinds, the
    kernel signatures as the spec spells them, its backward op and its generated function."""

    __slots__ = ("name", "location", "kernels", "specs", "backward", "api")

    def __init__(
        self,
        name: str,
        location: str,
        kernels: Mapping[tuple[TensorKind, ...], Any],
        specs: tuple[str, ...] = (),
        backward: str | None = None,
    ) -> None:
        self.name = name
        self.location = location
        self.kernels = dict(kernels)
        self.specs = specs
        self.backward = backward
        self.api: Callable[..., Any] | None = None

    def bind_api(self, function: Callable[..., Any]) -> None:
        """Record the op's generated function."""
        self.api = function

    @property
    def kernel_names(self) -> dict[tuple[TensorKind, ...], str]:
        """The kernel each combination of input kinds selects."""
        return {kinds: dispatcher.info.kernel for kinds, dispatcher in self.kernels.items()}

    def __repr__(self) -> str:
        return f"SparseOpDef({self.name!r}, {self.location})"


class OutputKindDispatcher(OpDispatcher):
    """The dispatcher of a sparse kernel whose inputs are all dense and whose output is sparse
    (``dense_to_coo{dense -> sparse_coo}``): its inputs cannot say which kind of kernel to
    select, as a sparse input does, so the kind is its output's, from the kernel signature (a
    kernel is registered under the first kind other than dense among its inputs, then its
    outputs: runtime/kernels/kernel.py ``kernel_kind``)."""

    __slots__ = ("output_kind",)

    def __init__(self, info: Any, infer_meta: Callable[..., Any], output_kind: TensorKind) -> None:
        super().__init__(info, infer_meta)
        self.output_kind = output_kind

    def _key_kind(self, metas: tuple, attrs: tuple) -> tuple[TensorKind, str | None]:
        return self.output_kind, None


SPARSE_OP_DEFS: dict[str, SparseOpDef] = {}


def register_sparse_op(op: SparseOpDef) -> SparseOpDef:
    """Add ``op`` to the sparse registry (a second registration of the name replaces the first:
    the generated module is its only caller)."""
    SPARSE_OP_DEFS[op.name] = op
    return op


def sparse_op_def(name: str) -> SparseOpDef:
    """The SparseOpDef of ``name``; NotFoundError when no sparse op has that name."""
    _load()
    try:
        return SPARSE_OP_DEFS[name]
    except KeyError:
        raise NotFoundError(f"no sparse op named {name!r} (ops/sparse_ops.yaml)") from None


def sparse_op_defs() -> Iterator[SparseOpDef]:
    """Every sparse op, forward and backward, in registration (spec) order."""
    _load()
    return iter(tuple(SPARSE_OP_DEFS.values()))


def sparse_op_api(name: str) -> Callable[..., Any]:
    """The generated function of sparse op ``name`` (what phiops.sparse's functions call)."""
    op = sparse_op_def(name)
    if op.api is None:
        raise UnimplementedError(f"sparse op {name!r} has no generated function")
    return op.api


def no_sparse_kernel(op: SparseOpDef, inputs: tuple[Any, ...]) -> InvalidArgumentError:
    """The error for a call whose inputs' kinds select none of ``op``'s kernels."""
    from phiops.runtime.dispatch.tensor_type import TENSOR_TYPE

    dispatcher = next(iter(op.kernels.values()))
    names = [spec.name for spec in dispatcher.info.inputs]
    for name, value in zip(names, inputs):
        if not isinstance(value, TENSOR_TYPE.cls):
            return InvalidArgumentError(
                f"{op.name}(): argument '{name}' must be a sparse Tensor, got {type(value).__name__}"
            )
    kinds = tuple(value.meta.kind for value in inputs)
    if len(inputs) == 1:
        wanted = " or ".join(dict.fromkeys(k[0].title for k in op.kernels))
        return InvalidArgumentError(
            f"{op.name}(): argument '{names[0]}' must be a {wanted}, got a {kinds[0].title}"
        )
    got = ", ".join(f"'{n}' a {k.title}" for n, k in zip(names, kinds))
    return InvalidArgumentError(
        f"{op.name}(): no kernel of sparse op '{op.name}' takes {got}; its kernels: "
        + ", ".join(op.specs)
    )


def static_or_no_kernel(op: SparseOpDef, inputs: tuple[Any, ...]) -> Any:
    """For inputs that select none of ``op``'s kernels: where one is a Value of a static
    program, the builder of the op's ``*_sp`` op (runtime/static/sparse.py), whose ``call``
    builds it; otherwise `no_sparse_kernel`'s error, raised."""
    from phiops.runtime.ir.core import Value

    if any(isinstance(value, Value) for value in inputs):
        from phiops.runtime.static.sparse import sparse_builder

        return sparse_builder(op, inputs)
    raise no_sparse_kernel(op, inputs) from None


def _load() -> None:
    """Import the generated sparse API (it registers the ops) unless it is imported already."""
    if not SPARSE_OP_DEFS:
        import importlib

        importlib.import_module("phiops.generated.sparse_api")
