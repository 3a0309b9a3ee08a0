"""The InferMeta functions of PaddlePaddle's sparse ops (``paddle/phi/infermeta/sparse/``),
which its sparse_ops.yaml names ``sparse::...``. A sparse tensor's meta has its dense dims, so
most sparse ops share the dense ops' functions (runtime/infermeta/); these are the ones that
differ. They are a table of their own, as PHI's are a namespace of their own: the dense
registry's checks (every function has its cases) are about the dense functions."""

from __future__ import annotations

from typing import Any, Callable

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, NotFoundError
from phiops.runtime.kernels.impl.sparse_shape_kernel import slice_bounds, sum_shape
from phiops.runtime.tensor.kinds import TensorKind
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = [
    "SPARSE_INFER_META_FUNCTIONS",
    "KERNEL_SET_DIMS",
    "get_sparse_infer_meta",
    "sparse_cast_infer_meta",
    "sparse_sum_infer_meta",
    "sparse_slice_infer_meta",
    "sparse_values_infer_meta",
]

_RUNTIME = MetaConfig(is_runtime=True)


def sparse_cast_infer_meta(
    x: MetaTensor,
    index_dtype: DataType,
    value_dtype: DataType,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``out`` has ``x``'s dims and ``value_dtype`` (``x``'s when UNDEFINED), as PHI's
    ``sparse::CastInferMeta``; ``index_dtype`` must be an integer type or UNDEFINED."""
    if index_dtype is not DataType.UNDEFINED and not index_dtype.is_integer:
        raise InvalidArgumentError(
            f"argument 'index_dtype' must be an integer type, got {index_dtype.name.lower()}"
        )
    out.share_meta(x)
    if value_dtype is not DataType.UNDEFINED:
        out.set_dtype(value_dtype)


def sparse_sum_infer_meta(
    x: MetaTensor,
    axis: Any,
    dtype: DataType,
    keepdim: bool,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """The dims PHI's sparse sum kernels give their output (``SumCooKernel``: ``[1]`` for the
    total without keepdim; ``SumCsrKernel``: x's rank kept), ``dtype`` (x's when UNDEFINED)."""
    shape, _ = sum_shape(
        tuple(x.dims), [int(a) for a in axis], keepdim, x.kind is TensorKind.SPARSE_CSR
    )
    out.set_dims(shape)
    out.set_dtype(x.dtype if dtype is DataType.UNDEFINED else dtype)
    out.set_layout(x.layout)


def sparse_slice_infer_meta(
    x: MetaTensor,
    axes: Any,
    starts: Any,
    ends: Any,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """The dims PHI's sparse slice kernels give their output: each sliced axis's clipped
    extent (the spec's UnchangedInferMeta gives x's, which the kernel then replaces)."""
    dims = list(x.dims)
    axis_list, bounds = slice_bounds(
        tuple(dims), [int(a) for a in axes], [int(s) for s in starts], [int(e) for e in ends]
    )
    for axis, (start, end) in zip(axis_list, bounds):
        dims[axis] = end - start
    out.share_meta(x)
    out.set_dims(tuple(dims))


def sparse_values_infer_meta(x: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME) -> None:
    """``out``: x's values, dense, of x's dtype; their count (nnz) is the data's, so the dims
    are ``[-1]``, which dispatch takes from the kernel's result (PHI's
    ``sparse::ValuesInferMeta`` reads nnz off the tensor, which a meta does not hold)."""
    out.set_dims((-1,))
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)


# the YAML name (``infer_meta.func``) -> the function
SPARSE_INFER_META_FUNCTIONS: dict[str, Callable[..., None]] = {
    "sparse::CastInferMeta": sparse_cast_infer_meta,
    "sparse::SumInferMeta": sparse_sum_infer_meta,
    "sparse::SliceInferMeta": sparse_slice_infer_meta,
    "sparse::ValuesInferMeta": sparse_values_infer_meta,
}

# The ops whose PHI kernels set their output's dims themselves, unlike the InferMeta their spec
# names (which PHI runs first, then the kernel overwrites): op -> the sparse function above
# that gives the kernel's dims, taking every argument of the op as its kernel does.
# generated/sparse_api.py plans these ops' outputs with it (codegen/api/sparse.py).
KERNEL_SET_DIMS: dict[str, str] = {
    "sum": "sparse::SumInferMeta",
    "slice": "sparse::SliceInferMeta",
}


def get_sparse_infer_meta(phi_name: str) -> Callable[..., None]:
    """The function of a ``sparse::`` InferMeta name; NotFoundError naming it if missing."""
    try:
        return SPARSE_INFER_META_FUNCTIONS[phi_name]
    except KeyError:
        raise NotFoundError(
            f"sparse InferMeta function {phi_name!r} does not exist in runtime/sparse/infermeta.py"
        ) from None
