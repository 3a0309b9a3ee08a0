"""``phiops.geometric`` (``paddle.geometric``): PaddlePaddle 3.3.1's segment pooling,
``segment_sum``, ``segment_mean``, ``segment_max`` and ``segment_min`` (op ``segment_pool``;
``paddle.incubate`` has the same functions) and message passing ``send_u_recv``,
``send_ue_recv`` and ``send_uv`` (ops of the same names), and ``reindex_graph`` and
``reindex_heter_graph`` (op ``reindex_graph``), and neighbour sampling ``sample_neighbors``
(op ``graph_sample_neighbors``) and ``weighted_sample_neighbors`` (op of that name)."""

from __future__ import annotations

import phiops as _phiops
from phiops.generated import api as _C_ops
from phiops.runtime.eager.tensor import Tensor

__all__ = [
    "segment_sum",
    "segment_mean",
    "segment_max",
    "segment_min",
    "send_u_recv",
    "send_ue_recv",
    "send_uv",
    "reindex_graph",
    "reindex_heter_graph",
    "sample_neighbors",
    "weighted_sample_neighbors",
]


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


def _same_rank(x: Tensor, y: Tensor) -> tuple[Tensor, Tensor]:
    """PaddlePaddle's reshape_lhs_rhs: 1-D features become [n, 1], and the lower-ranked of x and
    y gets 1s after its first dim, so that the op broadcasts tensors of one rank."""
    if len(x.shape) == 1:
        x = _phiops.reshape(x, [-1, 1])
    if len(y.shape) == 1:
        y = _phiops.reshape(y, [-1, 1])
    rank = max(len(x.shape), len(y.shape))
    x = _phiops.reshape(x, x.shape[:1] + [1] * (rank - len(x.shape)) + x.shape[1:])
    y = _phiops.reshape(y, y.shape[:1] + [1] * (rank - len(y.shape)) + y.shape[1:])
    return x, y


def _message(x: Tensor, y: Tensor, message_op: str) -> tuple[Tensor, Tensor, str]:
    """x and y of one rank and the op's message_op: "sub" adds -y, "div" multiplies by
    1 / (y + 1e-12), as PaddlePaddle's functions do. Another message_op is a ValueError."""
    if message_op not in ("add", "sub", "mul", "div"):
        raise ValueError(
            f"message_op should be `add`, `sub`, `mul`, `div`, but received {message_op}"
        )
    x, y = _same_rank(x, y)
    if message_op == "sub":
        return x, -y, "ADD"
    if message_op == "div":
        return x, 1.0 / (y + 1e-12), "MUL"
    return x, y, message_op.upper()


def send_ue_recv(
    x: Tensor,
    y: Tensor,
    src_index: Tensor,
    dst_index: Tensor,
    message_op: str = "add",
    reduce_op: str = "sum",
    out_size: int | Tensor | None = None,
    name: str | None = None,
) -> Tensor:
    """Graph message passing with edge features: the row of ``x`` at each edge's source
    combined by ``message_op`` ("add", "sub", "mul" or "div") with the edge's row of ``y`` goes
    to its destination ``dst_index``, where the messages are reduced by ``reduce_op`` ("sum",
    "mean", "max" or "min"; zeros where none arrive). ``out_size`` (positive) sets the number of
    rows, else x's. Other message_op or reduce_op values are ValueErrors, as in PaddlePaddle."""
    if reduce_op not in ("sum", "mean", "max", "min"):
        raise ValueError(
            f"reduce_op should be `sum`, `mean`, `max` or `min`, but received {reduce_op}"
        )
    x, y, op = _message(x, y, message_op)
    if out_size is None:
        size: list[int] | Tensor = [0]
    elif isinstance(out_size, Tensor):
        size = out_size
    else:
        size = [int(out_size)]
    return _C_ops.send_ue_recv(x, y, src_index, dst_index, op, reduce_op.upper(), size)


def send_uv(
    x: Tensor,
    y: Tensor,
    src_index: Tensor,
    dst_index: Tensor,
    message_op: str = "add",
    name: str | None = None,
) -> Tensor:
    """One message per edge: the row of ``x`` at the edge's source combined by ``message_op``
    ("add", "sub", "mul" or "div") with the row of ``y`` at its destination. Another
    message_op is a ValueError, as in PaddlePaddle."""
    x, y, op = _message(x, y, message_op)
    return _C_ops.send_uv(x, y, src_index, dst_index, op)


def reindex_graph(
    x: Tensor,
    neighbors: Tensor,
    count: Tensor,
    value_buffer: Tensor | None = None,
    index_buffer: Tensor | None = None,
    name: str | None = None,
) -> tuple[Tensor, Tensor, Tensor]:
    """Renumbers a sampled graph from 0: the center nodes ``x`` first, then the ``neighbors``
    not among them in the order they first appear; ``count`` (int32) gives each center node's
    number of neighbors. Returns (reindex_src, reindex_dst, out_nodes). The buffers are the GPU
    kernel's scratch space and change nothing here."""
    return _C_ops.reindex_graph(x, neighbors, count, value_buffer, index_buffer)


def reindex_heter_graph(
    x: Tensor,
    neighbors: list[Tensor],
    count: list[Tensor],
    value_buffer: Tensor | None = None,
    index_buffer: Tensor | None = None,
    name: str | None = None,
) -> tuple[Tensor, Tensor, Tensor]:
    """reindex_graph over several edge types: ``neighbors`` and ``count`` hold one tensor per
    type (each count one entry per center node), numbered together."""
    return _C_ops.reindex_graph(
        x, _phiops.concat(neighbors, axis=0), _phiops.concat(count, axis=0), value_buffer,
        index_buffer,
    )  # fmt: skip


def sample_neighbors(
    row: Tensor,
    colptr: Tensor,
    input_nodes: Tensor,
    sample_size: int = -1,
    eids: Tensor | None = None,
    return_eids: bool = False,
    perm_buffer: Tensor | None = None,
    name: str | None = None,
) -> tuple[Tensor, Tensor] | tuple[Tensor, Tensor, Tensor]:
    """Samples up to ``sample_size`` distinct neighbours of each of ``input_nodes`` in the
    CSC graph (``row``, ``colptr``), uniformly without replacement; -1 takes them all. Returns
    (out_neighbors, out_count), and out_eids when ``return_eids`` (``eids`` is then required, a
    ValueError otherwise, as in PaddlePaddle). Nodes with at most sample_size neighbours give
    PaddlePaddle's result exactly; the draws themselves come from phiops' generator (paddle.seed
    sets it), as 3.3.1's CPU kernel seeds its own from std::random_device."""
    if return_eids and eids is None:
        raise ValueError("`eids` should not be None if `return_eids` is True.")
    out, count, out_eids = _C_ops.graph_sample_neighbors(
        row, colptr, input_nodes, eids, perm_buffer, sample_size, return_eids,
        perm_buffer is not None,
    )  # fmt: skip
    return (out, count, out_eids) if return_eids else (out, count)


def weighted_sample_neighbors(
    row: Tensor,
    colptr: Tensor,
    edge_weight: Tensor,
    input_nodes: Tensor,
    sample_size: int = -1,
    eids: Tensor | None = None,
    return_eids: bool = False,
    name: str | None = None,
) -> tuple[Tensor, Tensor] | tuple[Tensor, Tensor, Tensor]:
    """Samples up to ``sample_size`` distinct neighbours of each of ``input_nodes`` in the
    CSC graph (``row``, ``colptr``) with probabilities by ``edge_weight`` (float32, >= 0);
    -1 takes them all. Returns (out_neighbors, out_count), and out_eids when ``return_eids``
    (``eids`` is then required, a ValueError otherwise). Nodes with at most sample_size
    neighbours give PaddlePaddle's result exactly; the draws come from phiops' generator."""
    if return_eids and eids is None:
        raise ValueError("`eids` should not be None if `return_eids` is True.")
    out, count, out_eids = _C_ops.weighted_sample_neighbors(
        row, colptr, edge_weight, input_nodes, eids, sample_size, return_eids
    )
    return (out, count, out_eids) if return_eids else (out, count)


_phiops._load_api()  # the ops and paddle's Tensor methods, as `import phiops` gives them
