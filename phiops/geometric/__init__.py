"""``phiops.geometric`` (``paddle.geometric``): PaddlePaddle 3.3.1's segment pooling,
``segment_sum``, ``segment_mean``, ``segment_max`` and ``segment_min`` (op ``segment_pool``;
``paddle.incubate`` has the same functions) and message passing ``send_u_recv`` (op
``send_u_recv``). PaddlePaddle's ``send_ue_recv``, ``send_uv`` and sampling functions
(``reindex_graph``, ``sample_neighbors``, ...) are not in phiops yet."""

from __future__ import annotations

import phiops as _phiops
from phiops.generated import api as _C_ops
from phiops.runtime.eager.tensor import Tensor

__all__ = ["segment_sum", "segment_mean", "segment_max", "segment_min", "send_u_recv"]


def segment_sum(data: Tensor, segment_ids: Tensor, name: str | None = None) -> Tensor:
    """The sum of the rows of ``data`` sharing each id of the sorted, non-negative
    ``segment_ids``; [last id + 1, ...], zeros for an id no row has."""
    return _C_ops.segment_pool(data, segment_ids, "SUM")


def segment_mean(data: Tensor, segment_ids: Tensor, name: str | None = None) -> Tensor:
    """The mean of the rows of ``data`` sharing each id of the sorted, non-negative
    ``segment_ids`` (integer means truncate); zeros for an id no row has."""
    return _C_ops.segment_pool(data, segment_ids, "MEAN")


def segment_max(data: Tensor, segment_ids: Tensor, name: str | None = None) -> Tensor:
    """The maximum of the rows of ``data`` sharing each id of the sorted, non-negative
    ``segment_ids``; zeros for an id no row has."""
    return _C_ops.segment_pool(data, segment_ids, "MAX")


def segment_min(data: Tensor, segment_ids: Tensor, name: str | None = None) -> Tensor:
    """The minimum of the rows of ``data`` sharing each id of the sorted, non-negative
    ``segment_ids``; zeros for an id no row has."""
    return _C_ops.segment_pool(data, segment_ids, "MIN")


def send_u_recv(
    x: Tensor,
    src_index: Tensor,
    dst_index: Tensor,
    reduce_op: str = "sum",
    out_size: int | Tensor | None = None,
    name: str | None = None,
) -> Tensor:
    """Graph message passing: the row of ``x`` at each edge's source ``src_index`` goes to its
    destination ``dst_index``, where the messages are reduced by ``reduce_op`` ("sum", "mean",
    "max" or "min"; zeros where none arrive). ``out_size`` (positive) sets the number of rows,
    else x's. A reduce_op other than those four is a ValueError, as in PaddlePaddle."""
    if reduce_op not in ("sum", "mean", "max", "min"):
        raise ValueError(
            f"reduce_op should be `sum`, `mean`, `max` or `min`, but received {reduce_op}"
        )
    if out_size is None:
        size: list[int] | Tensor = [0]
    elif isinstance(out_size, Tensor):
        size = out_size
    else:
        size = [int(out_size)]
    return _C_ops.send_u_recv(x, src_index, dst_index, reduce_op.upper(), size)


_phiops._load_api()  # the ops and paddle's Tensor methods, as `import phiops` gives them
