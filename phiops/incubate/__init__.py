"""``phiops.incubate`` (``paddle.incubate``): the parts of PaddlePaddle 3.3.1's incubating API
phiops has: ``softmax_mask_fuse`` (op ``fused_softmax_mask``), ``nn.functional.swiglu`` (op
``swiglu``) and ``segment_sum``/``segment_mean``/``segment_max``/``segment_min`` (those of
``paddle.geometric``, op ``segment_pool``), ``graph_khop_sampler`` (op of that name) and
``softmax_mask_fuse_upper_triangle`` (op ``fused_softmax_mask_upper_triangle``, which
PaddlePaddle 3.3.1 runs on GPU only and phiops on CPU too) and ``layers.correlation`` (op
``correlation``, GPU only in 3.3.1 too). PaddlePaddle's incubate has much more
(fused layers and attention, the other ``graph_*`` functions, ``autograd``, ``optimizer``,
``asp``, ...) that phiops lacks."""

from __future__ import annotations

import phiops as _phiops
import phiops.incubate.layers as layers
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
    "layers",
    "graph_khop_sampler",
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


def graph_khop_sampler(
    row: Tensor,
    colptr: Tensor,
    input_nodes: Tensor,
    sample_sizes: list[int] | tuple[int, ...],
    sorted_eids: Tensor | None = None,
    return_eids: bool = False,
    name: str | None = None,
) -> tuple[Tensor, Tensor, Tensor, Tensor] | tuple[Tensor, Tensor, Tensor, Tensor, Tensor]:
    """Samples a k-hop subgraph around ``input_nodes`` in the CSC graph (``row``, ``colptr``),
    one layer per entry of ``sample_sizes``, renumbered from 0. Returns (edge_src, edge_dst,
    sample_index, reindex_nodes), and edge_eids when ``return_eids`` (``sorted_eids`` is then
    required, a ValueError otherwise, as in PaddlePaddle). Draws come from phiops' generator;
    layers whose nodes all have at most sample_size neighbours give PaddlePaddle's result."""
    if return_eids and sorted_eids is None:
        raise ValueError("`sorted_eid` should not be None if return_eids is True.")
    outs = _C_ops.graph_khop_sampler(
        row, colptr, input_nodes, sorted_eids if return_eids else None, list(sample_sizes),
        return_eids,
    )  # fmt: skip
    return tuple(outs) if return_eids else tuple(outs[:4])


_phiops._load_api()  # the ops and paddle's Tensor methods, as `import phiops` gives them
