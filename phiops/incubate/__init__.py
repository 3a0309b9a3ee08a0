"""``phiops.incubate`` (``paddle.incubate``): the parts of PaddlePaddle 3.3.1's incubating API
phiops has: ``softmax_mask_fuse`` (op ``fused_softmax_mask``), ``nn.functional.swiglu`` (op
``swiglu``) and ``segment_sum``/``segment_mean``/``segment_max``/``segment_min`` (those of
``paddle.geometric``, op ``segment_pool``), and ``softmax_mask_fuse_upper_triangle`` (op
``fused_softmax_mask_upper_triangle``, which PaddlePaddle 3.3.1 runs on GPU only and phiops on CPU
too). PaddlePaddle's incubate has much more (fused layers and attention, the ``graph_*``
functions, ``autograd``, ``optimizer``, ``asp``, ...) that phiops lacks."""

from __future__ import annotations

import phiops as _phiops
import phiops.incubate.nn as nn
from phiops.generated import api as _C_ops
from phiops.geometric import segment_max, segment_mean, segment_min, segment_sum
from phiops.runtime.eager.tensor import Tensor

__all__ = [
    "softmax_mask_fuse",
    "softmax_mask_fuse_upper_triangle",
    "segment_sum",
    "segment_mean",
    "segment_max",
    "segment_min",
    "nn",
]


def softmax_mask_fuse(x: Tensor, mask: Tensor, name: str | None = None) -> Tensor:
    """The softmax over the last axis of attention scores ``x`` [batch, heads, query_len,
    key_len] plus ``mask`` [batch, 1, query_len, key_len] (shared by the heads)."""
    return _C_ops.fused_softmax_mask(x, mask)


def softmax_mask_fuse_upper_triangle(x: Tensor) -> Tensor:
    """The causal softmax of attention scores ``x`` [batch, heads, seq_len, seq_len] over the
    last axis: each query sees the keys up to its own position, the later ones get 0 (op
    ``fused_softmax_mask_upper_triangle``)."""
    return _C_ops.fused_softmax_mask_upper_triangle(x)


_phiops._load_api()  # the ops and paddle's Tensor methods, as `import phiops` gives them
