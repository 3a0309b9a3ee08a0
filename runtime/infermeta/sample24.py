"""InferMeta functions of the sample24 ops (issue 24): graph neighbour samplers and tree-based
deep model ops, following PaddlePaddle 3.3.1's functions of the same names in
paddle/phi/infermeta/. The samplers' output lengths depend on the graph's values, so they are
UNKNOWN (-1) here, as in PHI, and the kernels give them."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.dims import UNKNOWN, set_output
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = [
    "graph_sample_neighbors_infer_meta",
    "weighted_sample_neighbors_infer_meta",
    "graph_khop_sampler_infer_meta",
    "tdm_child_infer_meta",
    "tdm_sampler_infer_meta",
]

_RUNTIME = MetaConfig()
_INDEX_DTYPES = (DataType.INT32, DataType.INT64)


def _index_vector(t: MetaTensor, name: str) -> None:
    """A 1-D tensor, or a 2-D one whose last extent is 1 (PHI's GSNShapeCheck)."""
    dims = tuple(t.dims)
    if not (len(dims) == 1 or (len(dims) == 2 and dims[1] in (1, UNKNOWN))):
        raise InvalidArgumentError(
            f"argument '{name}' must be a 1-D tensor (or 2-D with last extent 1), "
            f"got shape {list(dims)}"
        )


def _like_row(t: MetaTensor, name: str, row: MetaTensor) -> None:
    if t.dtype is not row.dtype:
        raise InvalidArgumentError(
            f"argument '{name}' must have the dtype of row ({row.dtype.name.lower()}), "
            f"got {t.dtype.name.lower()}"
        )


def _graph_inputs(row: MetaTensor, colptr: MetaTensor, nodes: MetaTensor, nodes_name: str) -> None:
    """row, colptr and the input nodes: index vectors of one dtype, int32 or int64."""
    for name, t in (("row", row), ("colptr", colptr), (nodes_name, nodes)):
        _index_vector(t, name)
    if row.dtype not in _INDEX_DTYPES:
        raise InvalidArgumentError(f"argument 'row' must be int32 or int64, got {row.dtype.name.lower()}")
    _like_row(colptr, "colptr", row)
    _like_row(nodes, nodes_name, row)


def _eids(eids: MetaTensor | None, return_eids: bool, row: MetaTensor, out_eids: MetaTensor) -> None:
    """out_eids: [-1] of row's dtype when return_eids (eids then required), else empty."""
    if not return_eids:
        set_output(out_eids, (0,), row.dtype, row)
        return
    if eids is None:
        raise InvalidArgumentError("argument 'eids' must be given when return_eids is true, got None")
    _index_vector(eids, "eids")
    _like_row(eids, "eids", row)
    set_output(out_eids, (UNKNOWN,), row.dtype, row)


def _sample_size(sample_size: int) -> None:
    if sample_size < -1:
        raise InvalidArgumentError(
            f"argument 'sample_size' must be -1 (every neighbour) or >= 0, got {sample_size}"
        )


def graph_sample_neighbors_infer_meta(
    row: MetaTensor,
    colptr: MetaTensor,
    x: MetaTensor,
    eids: MetaTensor | None,
    perm_buffer: MetaTensor | None,
    sample_size: int,
    return_eids: bool,
    flag_perm_buffer: bool,
    out: MetaTensor,
    out_count: MetaTensor,
    out_eids: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``out`` [-1] of row's dtype, ``out_count`` [len(x)] int32 and ``out_eids`` [-1] (empty
    unless return_eids); PHI's GraphSampleNeighborsInferMeta, which gives out_count [-1]."""
    _graph_inputs(row, colptr, x, "x")
    _sample_size(sample_size)
    _eids(eids, return_eids, row, out_eids)
    if flag_perm_buffer:
        if perm_buffer is None:
            raise InvalidArgumentError(
                "argument 'perm_buffer' must be given when flag_perm_buffer is true, got None"
            )
        _index_vector(perm_buffer, "perm_buffer")
    set_output(out, (UNKNOWN,), row.dtype, row)
    set_output(out_count, (x.dims[0],), DataType.INT32, row)


def weighted_sample_neighbors_infer_meta(
    row: MetaTensor,
    colptr: MetaTensor,
    edge_weight: MetaTensor,
    input_nodes: MetaTensor,
    eids: MetaTensor | None,
    sample_size: int,
    return_eids: bool,
    out_neighbors: MetaTensor,
    out_count: MetaTensor,
    out_eids: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``out_neighbors`` [-1] of row's dtype, ``out_count`` [len(input_nodes)] int32 and
    ``out_eids`` [-1] (empty unless return_eids); edge_weight is float32, one per edge."""
    _graph_inputs(row, colptr, input_nodes, "input_nodes")
    _index_vector(edge_weight, "edge_weight")
    if edge_weight.dtype is not DataType.FLOAT32:
        raise InvalidArgumentError(
            f"argument 'edge_weight' must be float32, got {edge_weight.dtype.name.lower()}"
        )
    _sample_size(sample_size)
    _eids(eids, return_eids, row, out_eids)
    set_output(out_neighbors, (UNKNOWN,), row.dtype, row)
    set_output(out_count, (input_nodes.dims[0],), DataType.INT32, row)


def graph_khop_sampler_infer_meta(
    row: MetaTensor,
    colptr: MetaTensor,
    x: MetaTensor,
    eids: MetaTensor | None,
    sample_sizes: tuple[int, ...],
    return_eids: bool,
    out_src: MetaTensor,
    out_dst: MetaTensor,
    sample_index: MetaTensor,
    reindex_x: MetaTensor,
    out_eids: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``out_src`` and ``out_dst`` [-1, 1], ``sample_index`` [-1], ``reindex_x`` [len(x)] and
    ``out_eids`` [-1] (empty unless return_eids), all of row's dtype (PHI's
    GraphKhopSamplerInferMeta)."""
    _graph_inputs(row, colptr, x, "x")
    if not sample_sizes:
        raise InvalidArgumentError("argument 'sample_sizes' must hold at least one size, got []")
    for size in sample_sizes:
        _sample_size(size)
    _eids(eids, return_eids, row, out_eids)
    set_output(out_src, (UNKNOWN, 1), row.dtype, row)
    set_output(out_dst, (UNKNOWN, 1), row.dtype, row)
    set_output(sample_index, (UNKNOWN,), row.dtype, row)
    set_output(reindex_x, tuple(x.dims), row.dtype, row)


def tdm_child_infer_meta(
    x: MetaTensor,
    tree_info: MetaTensor,
    child_nums: int,
    dtype: DataType,
    child: MetaTensor,
    leaf_mask: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``child`` and ``leaf_mask`` [*x.dims, child_nums] of ``dtype`` (int32 or int64);
    tree_info is 2-D int32/int64 with at least 3 + child_nums columns (PHI's TdmChildInferMeta)."""
    if child_nums <= 0:
        raise InvalidArgumentError(f"argument 'child_nums' must be > 0, got {child_nums}")
    if x.dtype not in _INDEX_DTYPES:
        raise InvalidArgumentError(f"argument 'x' must be int32 or int64, got {x.dtype.name.lower()}")
    if tree_info.dtype not in _INDEX_DTYPES:
        raise InvalidArgumentError(
            f"argument 'tree_info' must be int32 or int64, got {tree_info.dtype.name.lower()}"
        )
    dims = tuple(tree_info.dims)
    if len(dims) != 2:
        raise InvalidArgumentError(f"argument 'tree_info' must be 2-D, got shape {list(dims)}")
    if dims[1] != UNKNOWN and dims[1] < 3 + child_nums:
        raise InvalidArgumentError(
            f"argument 'tree_info' must have at least 3 + child_nums = {3 + child_nums} columns "
            f"(item, layer, ancestor, children), got shape {list(dims)}"
        )
    if dtype not in _INDEX_DTYPES:
        raise InvalidArgumentError(f"argument 'dtype' must be int32 or int64, got {dtype.name.lower()}")
    shape = tuple(x.dims) + (child_nums,)
    set_output(child, shape, dtype, x)
    set_output(leaf_mask, shape, dtype, x)


# PaddlePaddle's proto VarType codes of tdm_sampler's int dtype attribute.
TDM_SAMPLER_DTYPES = {2: DataType.INT32, 3: DataType.INT64}


def tdm_sampler_infer_meta(
    x: MetaTensor,
    travel: MetaTensor,
    layer: MetaTensor,
    output_positive: bool,
    neg_samples_num_list: tuple[int, ...],
    layer_offset_lod: tuple[int, ...],
    seed: int,
    dtype: int,
    out: MetaTensor,
    labels: MetaTensor | None,
    mask: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``out``, ``labels`` and ``mask`` [len(x), sum over layers of (negatives + positive)] of
    the dtype coded by ``dtype`` (2 int32, 3 int64), as PHI's TdmSamplerInferMeta."""
    if x.dtype not in _INDEX_DTYPES:
        raise InvalidArgumentError(f"argument 'x' must be int32 or int64, got {x.dtype.name.lower()}")
    _index_vector(x, "x")
    for name, t in (("travel", travel), ("layer", layer)):
        if t.dtype not in _INDEX_DTYPES:
            raise InvalidArgumentError(
                f"argument '{name}' must be int32 or int64, got {t.dtype.name.lower()}"
            )
    if layer.dtype is not travel.dtype:
        raise InvalidArgumentError(
            f"argument 'layer' must have the dtype of travel ({travel.dtype.name.lower()}), "
            f"got {layer.dtype.name.lower()}"
        )
    _index_vector(layer, "layer")
    layers = len(neg_samples_num_list)
    if len(layer_offset_lod) != layers + 1:
        raise InvalidArgumentError(
            f"argument 'layer_offset_lod' must hold len(neg_samples_num_list) + 1 = {layers + 1} "
            f"offsets, got {list(layer_offset_lod)}"
        )
    dims = tuple(travel.dims)
    if len(dims) != 2 or dims[1] not in (layers, UNKNOWN):
        raise InvalidArgumentError(
            f"argument 'travel' must be [items, {layers}] (one node per layer), got shape {list(dims)}"
        )
    for i, count in enumerate(neg_samples_num_list):
        nodes = layer_offset_lod[i + 1] - layer_offset_lod[i]
        if not 0 <= count <= nodes - 1:
            raise InvalidArgumentError(
                f"argument 'neg_samples_num_list' must hold at layer {i} a count in "
                f"[0, {nodes - 1}] (the layer's {nodes} nodes less the positive), got {count}"
            )
    if dtype not in TDM_SAMPLER_DTYPES:
        raise InvalidArgumentError(f"argument 'dtype' must be 2 (int32) or 3 (int64), got {dtype}")
    width = sum(neg_samples_num_list) + layers * int(output_positive)
    for t in (out, labels, mask):
        if t is not None:
            set_output(t, (x.dims[0], width), TDM_SAMPLER_DTYPES[dtype], x)
