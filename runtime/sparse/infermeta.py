"""The InferMeta functions of PaddlePaddle's sparse ops (``paddle/phi/infermeta/sparse/``),
which its sparse_ops.yaml names ``sparse::...`` and phiops's runtime ``Sparse...``
(codegen/api/sparse.py). A sparse tensor's meta has its dense dims, so most sparse ops share
the dense ops' functions; these are the ones that differ."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta import register_infer_meta
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = ["sparse_cast_infer_meta"]

_RUNTIME = MetaConfig(is_runtime=True)


@register_infer_meta
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
