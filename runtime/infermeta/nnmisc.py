"""InferMeta functions of the nnmisc ops (issue 24/25): warpctc, following PaddlePaddle 3.3.1's
WarpctcInferMeta (paddle/phi/infermeta/multiary.cc) for the padded form (with lengths)."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.infermeta.dims import extents_match
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = ["warpctc_infer_meta"]

_RUNTIME = MetaConfig()


def warpctc_infer_meta(
    logits: MetaTensor,
    label: MetaTensor,
    logits_length: MetaTensor | None,
    labels_length: MetaTensor | None,
    blank: int,
    norm_by_times: bool,
    loss: MetaTensor,
    warpctcgrad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``logits`` [T, B, C] (float), ``label`` [B, L] int32, ``logits_length`` and
    ``labels_length`` [B] int64; ``loss`` is [B, 1] and ``warpctcgrad`` [T, B, C], both of the
    logits' dtype. The LoD form (no lengths) is not supported."""
    if logits_length is None or labels_length is None:
        raise UnimplementedError(
            "arguments 'logits_length' and 'labels_length' are required: the LoD form of "
            "warpctc (sequences concatenated, lengths in the tensor's LoD) is not supported"
        )
    dims = tuple(logits.dims)
    if len(dims) != 3:
        raise InvalidArgumentError(
            "argument 'logits' must have rank 3 ([max_logit_length, batch, num_classes + 1]), "
            f"got dims {list(dims)}"
        )
    if logits.dtype not in (DataType.FLOAT32, DataType.FLOAT64):
        raise InvalidArgumentError(
            f"argument 'logits' must be float32 or float64, got {logits.dtype.name.lower()}"
        )
    batch = dims[1]
    if len(label.dims) != 2 or not extents_match(label.dims[0], batch, config):
        raise InvalidArgumentError(
            f"argument 'label' must have dims [{batch}, max_label_length] (one padded label "
            f"sequence per sequence of 'logits'), got {list(label.dims)}"
        )
    if label.dtype is not DataType.INT32:
        raise InvalidArgumentError(
            f"argument 'label' must be int32 class ids, got {label.dtype.name.lower()}"
        )
    for name, length in (("logits_length", logits_length), ("labels_length", labels_length)):
        if len(length.dims) != 1 or not extents_match(length.dims[0], batch, config):
            raise InvalidArgumentError(
                f"argument '{name}' must have dims [{batch}] (one length per sequence), got "
                f"{list(length.dims)}"
            )
        if length.dtype is not DataType.INT64:
            raise InvalidArgumentError(
                f"argument '{name}' must be int64, got {length.dtype.name.lower()}"
            )
    if dims[2] >= 0 and not 0 <= blank < dims[2]:
        raise InvalidArgumentError(
            f"argument 'blank' must be in [0, {dims[2]}) (a class of 'logits'), got {blank}"
        )
    loss.set_dims((batch, 1))
    loss.set_dtype(logits.dtype)
    loss.set_layout(logits.layout)
    warpctcgrad.set_dims(dims)
    warpctcgrad.set_dtype(logits.dtype)
    warpctcgrad.set_layout(logits.layout)
