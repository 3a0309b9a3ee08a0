"""The InferMeta functions of PaddlePaddle's sparse ops (``paddle/phi/infermeta/sparse/``),
which its sparse_ops.yaml names ``sparse::...``. A sparse tensor's meta has its dense dims, so
most sparse ops share the dense ops' functions (runtime/infermeta/); these are the ones that
differ. They are a table of their own, as PHI's are a namespace of their own: the dense
registry's checks (every function has its cases) are about the dense functions."""

from __future__ import annotations

from typing import Callable

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, NotFoundError
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = ["SPARSE_INFER_META_FUNCTIONS", "get_sparse_infer_meta", "sparse_cast_infer_meta"]

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


# the YAML name (``infer_meta.func``) -> the function
SPARSE_INFER_META_FUNCTIONS: dict[str, Callable[..., None]] = {
    "sparse::CastInferMeta": sparse_cast_infer_meta,
}


def get_sparse_infer_meta(phi_name: str) -> Callable[..., None]:
    """The function of a ``sparse::`` InferMeta name; NotFoundError naming it if missing."""
    try:
        return SPARSE_INFER_META_FUNCTIONS[phi_name]
    except KeyError:
        raise NotFoundError(
            f"sparse InferMeta function {phi_name!r} does not exist in runtime/sparse/infermeta.py"
        ) from None
