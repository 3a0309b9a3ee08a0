"""``phiops.geometric`` (``paddle.geometric``): PaddlePaddle 3.3.1's segment pooling,
``segment_sum``, ``segment_mean``, ``segment_max`` and ``segment_min`` (op ``segment_pool``;
``paddle.incubate`` has the same functions). PaddlePaddle's message passing (``send_u_recv``,
``send_ue_recv``, ``send_uv``) and sampling (``reindex_graph``, ``sample_neighbors``, ...)
functions are not in phiops yet."""

from __future__ import annotations

import phiops as _phiops
from phiops.generated import api as _C_ops
from phiops.runtime.eager.tensor import Tensor

__all__ = ["segment_sum", "segment_mean", "segment_max", "segment_min"]


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


_phiops._load_api()  # the ops and paddle's Tensor methods, as `import phiops` gives them
