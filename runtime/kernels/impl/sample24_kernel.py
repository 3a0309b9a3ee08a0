"""Kernels of the sample24 ops of issue 24 (graph neighbour samplers, tree-based deep model ops),
for the dtypes PaddlePaddle 3.3.1 registers on CPU (paddle/phi/kernels/cpu/<op>_kernel.cc).

The graph is in CSC form: node v's neighbours are ``row[colptr[v]:colptr[v + 1]]`` and their
edge ids ``eids[colptr[v]:colptr[v + 1]]``. The samplers work on the host (their output lengths
depend on the values) and move the result to the op's place.

Randomness: PaddlePaddle 3.3.1's CPU samplers seed a std::mt19937 from std::random_device on
every call, so no seed reproduces their draws. phiops draws from
``phiops.runtime.random.draw_generator`` (the place's process generator, which paddle.seed
sets), with the same distributions:

- graph_sample_neighbors (and each graph_khop_sampler layer): a node of degree > sample_size
  gets sample_size distinct neighbours, a uniformly random subset in random order (PaddlePaddle:
  a partial Fisher-Yates shuffle); otherwise all of them in CSC order, which is deterministic and
  PaddlePaddle's result exactly. sample_size -1 takes every neighbour, as paddle.geometric
  documents (3.3.1's CPU kernel aborts on it); below -1 is an InvalidArgumentError.
- weighted_sample_neighbors: the A-Res reservoir of Efraimidis and Spirakis, PaddlePaddle's
  rule: each neighbour gets the key log2(u) / weight (u uniform in [0, 1)), the sample_size
  largest keys are kept, in increasing key order. A weight of 0 is never drawn while others
  remain; negative or NaN weights are InvalidArgumentErrors (PaddlePaddle draws from them
  anyway).
- graph_khop_sampler: layer i samples the nodes of layer i - 1's frontier with
  sample_sizes[i]; x (consecutive duplicates removed, as std::unique does) is the first
  frontier, and the next one is the sorted distinct sampled neighbours not in the current
  frontier. Every node is then renumbered from 0, the frontiers first (a node in two frontiers
  takes the id of its last place) and the other sampled neighbours in order of first appearance.
  3.3.1's kernel loops over len(x) nodes in every layer, so it reads out of bounds, or raises
  "Number of sample edges mismatch", whenever a later frontier's size differs from len(x);
  phiops samples each frontier whole (the results agree where 3.3.1's are defined).
- The GPU kernels' scratch buffer perm_buffer (flag_perm_buffer) changes nothing on CPU, as in
  PaddlePaddle.

tdm_child is deterministic: tree_info holds one row per tree node, [item id, layer id, ancestor
id, child ids...]; a node other than 0 whose first child id is nonzero gets its child_nums
children, each with a leaf mask of 1 where the child's item id is nonzero; node 0 and leaves get
zeros.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from phiops.runtime.backends import to_numpy
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.sample24 import TDM_SAMPLER_DTYPES
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel
from phiops.runtime.kernels.mt19937 import randint
from phiops.runtime.random import draw_generator, engine_for

D = DataType
INDEX_DTYPES = (D.INT32, D.INT64)


def _vector(x: Array) -> np.ndarray:
    return to_numpy(x).reshape(-1).astype(np.int64)


def _csc(row: Array, colptr: Array) -> tuple[np.ndarray, np.ndarray]:
    """row and colptr on the host, colptr checked to be offsets into row."""
    row_h, colptr_h = _vector(row), _vector(colptr)
    if colptr_h.size == 0:
        raise InvalidArgumentError("argument 'colptr' must hold num_nodes + 1 offsets, got none")
    if colptr_h[0] < 0 or colptr_h[-1] > row_h.size or (np.diff(colptr_h) < 0).any():
        raise InvalidArgumentError(
            f"argument 'colptr' must be non-decreasing offsets in [0, {row_h.size}] "
            f"(the length of row), got {colptr_h.tolist()[:16]}"
        )
    return row_h, colptr_h


def _nodes(nodes: np.ndarray, colptr: np.ndarray, name: str) -> None:
    bad = (nodes < 0) | (nodes >= colptr.size - 1)
    if bad.any():
        raise InvalidArgumentError(
            f"argument '{name}' must hold node ids in [0, {colptr.size - 1}), "
            f"got {int(nodes[bad][0])}"
        )


def _edge_ids(eids: Array | None, return_eids: bool, edges: int) -> np.ndarray | None:
    if not return_eids:
        return None
    if eids is None:
        raise InvalidArgumentError("argument 'eids' must be given when return_eids is true, got None")
    eids_h = _vector(eids)
    if eids_h.size != edges:
        raise InvalidArgumentError(
            f"argument 'eids' must hold one id per edge of row ({edges}), got {eids_h.size}"
        )
    return eids_h


def sample_neighbours(
    rng: np.random.Generator,
    row: np.ndarray,
    colptr: np.ndarray,
    nodes: np.ndarray,
    sample_size: int,
    eids: np.ndarray | None = None,
    weights: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Each node's sampled neighbours one node after another, their counts and edge ids:
    uniformly without replacement, or by A-Res keys when ``weights`` are given (module
    docstring)."""
    begin, end = colptr[nodes], colptr[nodes + 1]
    degree = end - begin
    counts = degree if sample_size < 0 else np.minimum(degree, sample_size)
    total = int(degree.sum())
    segment = np.repeat(np.arange(nodes.size), degree)
    starts = np.cumsum(degree) - degree
    local = np.arange(total) - starts[segment]
    edge = begin[segment] + local
    sampled = (degree > counts)[segment]
    keys = local.astype(np.float64)
    draws = int(sampled.sum())
    if draws:
        u = rng.random(draws)
        if weights is None:
            keys[sampled] = u
        else:
            with np.errstate(divide="ignore"):
                keys[sampled] = np.log2(u) / weights[edge[sampled]].astype(np.float64)
    order = np.lexsort((keys, segment))
    rank = local  # segment-major order keeps each segment's positions 0..degree-1
    keep_from = (degree - counts) if weights is not None else np.zeros_like(degree)
    keep_to = degree if weights is not None else counts
    kept = order[(rank >= keep_from[segment]) & (rank < keep_to[segment])]
    chosen = edge[kept]
    return row[chosen], counts, None if eids is None else eids[chosen]


def _place(xp: Any, values: np.ndarray, dtype: Any) -> Array:
    return xp.asarray(values.astype(dtype))


def _count_output(kernel: Kernel) -> None:
    kernel.output_at(1).set_dtype(D.INT32)


@register_kernel("graph_sample_neighbors", dtypes=INDEX_DTYPES, configure=_count_output)
def graph_sample_neighbors_kernel(
    ctx: KernelContext,
    row: Array,
    colptr: Array,
    x: Array,
    eids: Array | None,
    perm_buffer: Array | None,
    sample_size: int,
    return_eids: bool,
    flag_perm_buffer: bool,
) -> tuple[Array, Array, Array]:
    """Up to sample_size distinct neighbours of each node of x, their counts and edge ids."""
    row_h, colptr_h = _csc(row, colptr)
    nodes = _vector(x)
    _nodes(nodes, colptr_h, "x")
    eids_h = _edge_ids(eids, return_eids, row_h.size)
    rng = draw_generator(ctx.place, 0)
    out, counts, out_eids = sample_neighbours(rng, row_h, colptr_h, nodes, sample_size, eids_h)
    xp, dtype = ctx.xp, row.dtype
    empty = np.zeros(0, np.int64)
    return (
        _place(xp, out, dtype),
        _place(xp, counts, np.int32),
        _place(xp, empty if out_eids is None else out_eids, dtype),
    )


@register_kernel(
    "weighted_sample_neighbors",
    dtypes=INDEX_DTYPES,
    configure=lambda k: (k.input_at(2).set_dtype(D.FLOAT32), _count_output(k)),
)
def weighted_sample_neighbors_kernel(
    ctx: KernelContext,
    row: Array,
    colptr: Array,
    edge_weight: Array,
    input_nodes: Array,
    eids: Array | None,
    sample_size: int,
    return_eids: bool,
) -> tuple[Array, Array, Array]:
    """Up to sample_size distinct neighbours of each input node, drawn with the edges'
    weights, their counts and edge ids."""
    row_h, colptr_h = _csc(row, colptr)
    weights = to_numpy(edge_weight).reshape(-1)
    if weights.size != row_h.size:
        raise InvalidArgumentError(
            f"argument 'edge_weight' must hold one weight per edge of row ({row_h.size}), "
            f"got {weights.size}"
        )
    if ((weights < 0) | np.isnan(weights)).any():
        raise InvalidArgumentError("argument 'edge_weight' must hold weights >= 0, got a negative or NaN one")
    nodes = _vector(input_nodes)
    _nodes(nodes, colptr_h, "input_nodes")
    eids_h = _edge_ids(eids, return_eids, row_h.size)
    rng = draw_generator(ctx.place, 0)
    out, counts, out_eids = sample_neighbours(
        rng, row_h, colptr_h, nodes, sample_size, eids_h, weights
    )
    xp, dtype = ctx.xp, row.dtype
    empty = np.zeros(0, np.int64)
    return (
        _place(xp, out, dtype),
        _place(xp, counts, np.int32),
        _place(xp, empty if out_eids is None else out_eids, dtype),
    )


def _renumber(frontiers: np.ndarray, sources: np.ndarray) -> tuple[np.ndarray, np.ndarray, Any]:
    """The nodes in their new order (frontiers, then the sources not among them in order of
    first appearance) and a lookup from node to new id (a node twice in the frontiers takes
    its last place)."""
    distinct, first_from_end = np.unique(frontiers[::-1], return_index=True)
    ids = frontiers.size - 1 - first_from_end
    fresh = sources[~np.isin(sources, distinct)]
    fresh_distinct, first = np.unique(fresh, return_index=True)
    appearance = np.argsort(first, kind="stable")
    fresh_ids = np.empty(fresh_distinct.size, np.int64)
    fresh_ids[appearance] = frontiers.size + np.arange(fresh_distinct.size)
    keys = np.concatenate([distinct, fresh_distinct])
    values = np.concatenate([ids, fresh_ids])
    by_key = np.argsort(keys, kind="stable")
    keys, values = keys[by_key], values[by_key]

    def lookup(nodes: np.ndarray) -> np.ndarray:
        return values[np.searchsorted(keys, nodes)]

    return np.concatenate([frontiers, fresh_distinct[appearance]]), values, lookup


@register_kernel(
    "graph_khop_sampler",
    dtypes=INDEX_DTYPES,
)
def graph_khop_sampler_kernel(
    ctx: KernelContext,
    row: Array,
    colptr: Array,
    x: Array,
    eids: Array | None,
    sample_sizes: tuple[int, ...],
    return_eids: bool,
) -> tuple[Array, Array, Array, Array, Array]:
    """The k-hop subgraph sampled around x, renumbered from 0: edges (out_src, out_dst), the
    original ids of its nodes, x's new ids and the edges' ids."""
    for name, t in (("row", row), ("colptr", colptr), ("x", x)):
        if t.size == 0:
            raise InvalidArgumentError(f"argument '{name}' must not be empty, got shape {list(t.shape)}")
    row_h, colptr_h = _csc(row, colptr)
    x_h = _vector(x)
    _nodes(x_h, colptr_h, "x")
    eids_h = _edge_ids(eids, return_eids, row_h.size)
    rng = draw_generator(ctx.place, 0)
    frontier = x_h[np.concatenate([[True], x_h[1:] != x_h[:-1]])]
    frontiers, sources, counts, edge_ids = [], [], [], []
    for layer, size in enumerate(sample_sizes):
        if frontier.size == 0:
            break
        out, count, out_eids = sample_neighbours(rng, row_h, colptr_h, frontier, size, eids_h)
        if layer == 0 and out.size == 0:
            raise InvalidArgumentError(
                "argument 'x' must hold at least one node with neighbours, got none"
            )
        frontiers.append(frontier)
        sources.append(out)
        counts.append(count)
        if out_eids is not None:
            edge_ids.append(out_eids)
        frontier = np.setdiff1d(np.unique(out), frontier)
    dst_nodes = np.concatenate(frontiers)
    src_nodes = np.concatenate(sources)
    sample_index, _, lookup = _renumber(dst_nodes, src_nodes)
    out_src = lookup(src_nodes)
    out_dst = np.repeat(lookup(dst_nodes), np.concatenate(counts))
    xp, dtype = ctx.xp, row.dtype
    all_eids = np.concatenate(edge_ids) if edge_ids else np.zeros(0, np.int64)
    return (
        _place(xp, out_src.reshape(-1, 1), dtype),
        _place(xp, out_dst.reshape(-1, 1), dtype),
        _place(xp, sample_index, dtype),
        _place(xp, lookup(x_h).reshape(x.shape), dtype),
        _place(xp, all_eids, dtype),
    )


@register_kernel(
    "tdm_child",
    dtypes=(D.FLOAT32, D.FLOAT64, D.INT32, D.INT64),
    configure=lambda k: (
        k.input_at(1).set_dtype(D.ALL_DTYPE),
        k.output_at(0).set_dtype(D.ALL_DTYPE),
        k.output_at(1).set_dtype(D.ALL_DTYPE),
    ),
)
def tdm_child_kernel(
    ctx: KernelContext, x: Array, tree_info: Array, child_nums: int, dtype: DataType
) -> tuple[Array, Array]:
    """Each node's child_nums children in the tree and whether each is an item (a leaf)."""
    xp = ctx.xp
    nodes = x.reshape(-1).astype(xp.int64)
    count = tree_info.shape[0]
    bad = (nodes < 0) | (nodes >= count)
    if bool(bad.any()):
        raise InvalidArgumentError(
            f"argument 'x' must hold node ids in [0, {count}), got {int(nodes[bad][0])}"
        )
    info = tree_info.astype(xp.int64)
    children = info[nodes][:, 3 : 3 + child_nums]
    has_child = (nodes != 0) & (children[:, 0] != 0)
    children = xp.where(has_child[:, None], children, 0)
    outside = (children < 0) | (children >= count)
    if bool(outside.any()):
        raise InvalidArgumentError(
            f"argument 'tree_info' must hold child ids in [0, {count}), "
            f"got {int(children[outside][0])}"
        )
    is_item = (info[children, 0] != 0) & has_child[:, None]
    out_dtype = dtype.numpy_dtype
    shape = tuple(x.shape) + (child_nums,)
    return children.astype(out_dtype).reshape(shape), is_item.astype(out_dtype).reshape(shape)


@register_kernel(
    "tdm_sampler",
    dtypes=(D.FLOAT32, D.FLOAT64, D.INT32, D.INT64),
    configure=lambda k: (
        k.input_at(1).set_dtype(D.ALL_DTYPE),
        k.input_at(2).set_dtype(D.ALL_DTYPE),
        k.output_at(0).set_dtype(D.ALL_DTYPE),
        k.output_at(1).set_dtype(D.ALL_DTYPE),
        k.output_at(2).set_dtype(D.ALL_DTYPE),
    ),
)
def tdm_sampler_kernel(
    ctx: KernelContext,
    x: Array,
    travel: Array,
    layer: Array,
    output_positive: bool,
    neg_samples_num_list: tuple[int, ...],
    layer_offset_lod: tuple[int, ...],
    seed: int,
    dtype: int,
) -> tuple[Array, Array, Array]:
    """For each item of x, layer by layer: its ancestor on travel (the positive, label 1) when
    output_positive, then neg_samples_num_list[l] distinct other nodes of the layer drawn
    uniformly (label 0); a 0 on travel is padding (all three outputs 0 there)."""
    items = _vector(x)
    paths = to_numpy(travel).astype(np.int64)
    nodes = _vector(layer)
    bad = (items < 0) | (items >= paths.shape[0])
    if bad.any():
        raise InvalidArgumentError(
            f"argument 'x' must hold item ids in [0, {paths.shape[0]}), got {int(items[bad][0])}"
        )
    if layer_offset_lod[0] < 0 or layer_offset_lod[-1] > nodes.size:
        raise InvalidArgumentError(
            f"argument 'layer_offset_lod' must hold offsets in [0, {nodes.size}] (layer's "
            f"length), got {list(layer_offset_lod)}"
        )
    width = sum(neg_samples_num_list) + len(neg_samples_num_list) * int(output_positive)
    out = np.zeros((items.size, width), np.int64)
    labels = np.zeros_like(out)
    mask = np.ones_like(out)
    # A nonzero seed gives each layer's sampler its own engine seeded with it, as PHI's
    # math::UniformSampler (its seed an unsigned int); 0 draws from the place's engine (PaddlePaddle: std::random_device).
    engines = [
        engine_for(ctx.place, seed % 2**32) if seed else engine_for(ctx.place, 0)
        for _ in neg_samples_num_list
    ]
    for i, item in enumerate(items):
        column = 0
        for level, count in enumerate(neg_samples_num_list):
            low, high = layer_offset_lod[level], layer_offset_lod[level + 1]
            positive = int(paths[item, level])
            taken = count + int(output_positive)
            if positive == 0:
                mask[i, column : column + taken] = 0
                column += taken
                continue
            if not low <= positive <= high:
                raise InvalidArgumentError(
                    f"argument 'travel' must hold at layer {level} node ids in [{low}, {high}] "
                    f"(PaddlePaddle compares them with layer_offset_lod), got {positive}"
                )
            if output_positive:
                out[i, column], labels[i, column] = positive, 1
                column += 1
            candidates = nodes[low:high]
            if int((candidates != positive).sum()) < count:
                raise InvalidArgumentError(
                    f"argument 'layer' must hold at layer {level} at least {count} nodes other "
                    f"than the positive {positive}, got {candidates.tolist()}"
                )
            chosen: list[int] = []
            while len(chosen) < count:
                pick = int(randint(engines[level], 1, 0, high - low)[0])
                if candidates[pick] != positive and pick not in chosen:
                    chosen.append(pick)
            out[i, column : column + count] = candidates[chosen]
            column += count
    xp, out_dtype = ctx.xp, TDM_SAMPLER_DTYPES[dtype].numpy_dtype
    return tuple(xp.asarray(a.astype(out_dtype)) for a in (out, labels, mask))
