"""InferMeta of the point-to-point ops and the model-parallel embedding (issue 30, dist30):
PHI's PSendInferMeta, PRecvInferMeta, CEmbeddingInferMeta and EmbeddingGradInferMeta
(paddle/phi/infermeta/{nullary,unary,binary,backward}.cc)."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.binary import require_index_dtype
from phiops.runtime.infermeta.dims import UNKNOWN
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = [
    "p_send_infer_meta",
    "p_recv_infer_meta",
    "c_embedding_infer_meta",
    "embedding_grad_infer_meta",
]

_RUNTIME = MetaConfig()


def _check_peer(peer: int) -> None:
    if peer < 0:
        raise InvalidArgumentError(f"argument 'peer' must be a rank >= 0, got {peer}")


def p_send_infer_meta(x: MetaTensor, peer: int, config: MetaConfig = _RUNTIME) -> None:
    """p_send has no output; ``peer`` must be a rank."""
    _check_peer(peer)


def p_recv_infer_meta(
    peer: int, dtype: DataType, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``out`` has dtype ``dtype`` and the shape the sender sends, unknown until it comes:
    ``[-1]``, as PaddlePaddle's static graphs show it; the dispatcher takes the received dims."""
    _check_peer(peer)
    if dtype is DataType.UNDEFINED:
        raise InvalidArgumentError("argument 'dtype' must be a defined data type, got UNDEFINED")
    out.set_dims((UNKNOWN,))
    out.set_dtype(dtype)


def c_embedding_infer_meta(
    weight: MetaTensor,
    x: MetaTensor,
    start_index: int,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """Rows of this rank's shard ``weight`` [rows, width] picked by the ids ``x``:
    x.dims + [width]."""
    require_index_dtype(x, "x")
    table = tuple(weight.dims)
    if len(table) != 2:
        raise InvalidArgumentError(
            f"argument 'weight' must be a 2-D shard [rows, width], got dims {list(table)}"
        )
    if start_index < 0:
        raise InvalidArgumentError(f"argument 'start_index' must be >= 0, got {start_index}")
    out.set_dims(tuple(x.dims) + (table[1],))
    out.set_dtype(weight.dtype)
    out.set_layout(weight.layout)


def embedding_grad_infer_meta(
    x: MetaTensor, weight: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """The gradient of the table ``weight``: its dims and dtype."""
    out.set_dims(weight.dims)
    out.set_dtype(weight.dtype)
    out.set_layout(weight.layout)
