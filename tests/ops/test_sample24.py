"""The sample24 ops of issue 24 against numpy references, per registered CPU dtype: the
samplers' deterministic results and the invariants of their draws (sampled neighbours are
neighbours, counts, no repeats, edge ids), with edges and bad input (recorded PaddlePaddle
values are in tests/ops/test_sample24_paddle.py)."""

from __future__ import annotations

import numpy as np
import pytest

import phiops
import phiops._C_ops as C
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, NotFoundError
from tests.ops.op_testing import cpu_dtypes, op_test

# node v's neighbours are ROW[COLPTR[v]:COLPTR[v + 1]]; edge i's id is 10 * i
ROW = np.array([3, 7, 0, 9, 1, 4, 2, 9, 3, 9, 1, 9, 7, 5, 6, 8])
COLPTR = np.array([0, 2, 4, 5, 6, 7, 9, 11, 11, 16, 16])
EIDS = 10 * np.arange(ROW.size)
NODES = np.array([0, 8, 1, 2, 7, 8])


def t(values, dtype=None) -> phiops.Tensor:
    return phiops.to_tensor(np.asarray(values), dtype=dtype)


def neighbours(node: int) -> np.ndarray:
    return ROW[COLPTR[node] : COLPTR[node + 1]]


def all_neighbours(nodes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every neighbour of each node in CSC order, the counts and the edge ids (numpy)."""
    edges = [np.arange(COLPTR[v], COLPTR[v + 1]) for v in nodes]
    flat = np.concatenate(edges)
    return ROW[flat], np.array([e.size for e in edges]), EIDS[flat]


def assert_valid_sample(nodes, size, out, count, eids) -> None:
    """Each node got min(degree, size) distinct edges of its own, in out's order."""
    degrees = COLPTR[nodes + 1] - COLPTR[nodes]
    np.testing.assert_array_equal(count, np.minimum(degrees, size))
    start = 0
    for node, k in zip(nodes, count):
        edge = eids[start : start + k] // 10
        assert len(set(edge.tolist())) == k
        assert ((edge >= COLPTR[node]) & (edge < COLPTR[node + 1])).all()
        np.testing.assert_array_equal(out[start : start + k], ROW[edge])
        start += k
    assert start == out.size


# -- graph_sample_neighbors ---------------------------------------------------------------------


@op_test("graph_sample_neighbors", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("graph_sample_neighbors"), ids=lambda d: d.name.lower())
def test_graph_sample_neighbors_draws_distinct_neighbours(dtype: DataType) -> None:
    np_dtype = dtype.numpy_dtype
    graph = [t(a.astype(np_dtype)) for a in (ROW, COLPTR, NODES)]
    out, count, eids = C.graph_sample_neighbors(*graph, t(EIDS.astype(np_dtype)), None, 2, True, False)
    assert out.dtype == dtype and eids.dtype == dtype and count.dtype == DataType.INT32
    assert_valid_sample(NODES, 2, out.numpy(), count.numpy(), eids.numpy())
    full = C.graph_sample_neighbors(*graph, t(EIDS.astype(np_dtype)), None, 5, True, False)
    for got, want in zip(full, all_neighbours(NODES)):
        np.testing.assert_array_equal(got.numpy(), want)


@op_test("graph_sample_neighbors", kind="edge")
def test_graph_sample_neighbors_edges_and_bad_input() -> None:
    row, colptr = t(ROW), t(COLPTR)
    every = phiops.geometric.sample_neighbors(row, colptr, t(NODES.reshape(-1, 1)))
    np.testing.assert_array_equal(every[0].numpy(), all_neighbours(NODES)[0])
    none = phiops.geometric.sample_neighbors(row, colptr, t(NODES), sample_size=0)
    assert none[0].shape == [0] and none[1].numpy().tolist() == [0] * NODES.size
    empty = phiops.geometric.sample_neighbors(row, colptr, t(np.zeros(0, np.int64)), sample_size=1)
    assert empty[0].shape == [0] and empty[1].shape == [0]
    strided = phiops.geometric.sample_neighbors(t(np.repeat(ROW, 2))[::2], colptr, t(NODES), 9)
    np.testing.assert_array_equal(strided[0].numpy(), all_neighbours(NODES)[0])
    phiops.seed(24)
    first = C.graph_sample_neighbors(row, colptr, t(NODES), None, None, 1, False, False)[0]
    phiops.seed(24)
    again = C.graph_sample_neighbors(row, colptr, t(NODES), None, None, 1, False, False)[0]
    np.testing.assert_array_equal(first.numpy(), again.numpy())
    with pytest.raises(ValueError, match="`eids` should not be None"):
        phiops.geometric.sample_neighbors(row, colptr, t(NODES), return_eids=True)
    with pytest.raises(InvalidArgumentError, match="'eids' must be given"):
        C.graph_sample_neighbors(row, colptr, t(NODES), None, None, 1, True, False)
    with pytest.raises(InvalidArgumentError, match="'sample_size' must be -1"):
        C.graph_sample_neighbors(row, colptr, t(NODES), None, None, -2, False, False)
    with pytest.raises(InvalidArgumentError, match="'x' must hold node ids in \\[0, 10\\)"):
        C.graph_sample_neighbors(row, colptr, t(np.array([10])), None, None, 1, False, False)
    with pytest.raises(InvalidArgumentError, match="'colptr' must be non-decreasing"):
        C.graph_sample_neighbors(row, t(COLPTR[::-1].copy()), t(NODES), None, None, 1, False, False)
    with pytest.raises(InvalidArgumentError, match="'x' must have the dtype of row"):
        C.graph_sample_neighbors(row, colptr, t(NODES.astype(np.int32)), None, None, 1, False, False)
    with pytest.raises(InvalidArgumentError, match="'eids' must hold one id per edge"):
        C.graph_sample_neighbors(row, colptr, t(NODES), t(EIDS[:3]), None, 1, True, False)
    with pytest.raises(NotFoundError, match="has no registration for .*FLOAT64"):
        C.graph_sample_neighbors(t(ROW * 1.0), t(COLPTR * 1.0), t(NODES * 1.0), None, None, 1,
                                 False, False)  # fmt: skip


# -- weighted_sample_neighbors ------------------------------------------------------------------


@op_test("weighted_sample_neighbors", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("weighted_sample_neighbors"), ids=lambda d: d.name.lower())
def test_weighted_sample_neighbors_draws_distinct_neighbours(dtype: DataType) -> None:
    np_dtype = dtype.numpy_dtype
    graph = [t(a.astype(np_dtype)) for a in (ROW, COLPTR)]
    weight = t(np.linspace(0.5, 2.0, ROW.size).astype(np.float32))
    nodes, eids = t(NODES.astype(np_dtype)), t(EIDS.astype(np_dtype))
    out, count, out_eids = C.weighted_sample_neighbors(*graph, weight, nodes, eids, 2, True)
    assert out.dtype == dtype and out_eids.dtype == dtype and count.dtype == DataType.INT32
    assert_valid_sample(NODES, 2, out.numpy(), count.numpy(), out_eids.numpy())
    full = C.weighted_sample_neighbors(*graph, weight, nodes, eids, 5, True)
    for got, want in zip(full, all_neighbours(NODES)):
        np.testing.assert_array_equal(got.numpy(), want)


@op_test("weighted_sample_neighbors", kind="edge")
def test_weighted_sample_neighbors_edges_and_bad_input() -> None:
    row, colptr, nodes = t(ROW), t(COLPTR), t(np.array([8, 8]))
    # node 8 has 5 neighbours; only two carry weight, so sample_size 2 always takes those two
    weights = np.zeros(ROW.size, np.float32)
    weights[[12, 14]] = [1.0, 3.0]
    out, count = phiops.geometric.weighted_sample_neighbors(row, colptr, t(weights), nodes, 2)
    assert count.numpy().tolist() == [2, 2]
    assert sorted(out.numpy()[:2].tolist()) == sorted(ROW[[12, 14]].tolist())
    every = phiops.geometric.weighted_sample_neighbors(row, colptr, t(weights), t(NODES))
    np.testing.assert_array_equal(every[0].numpy(), all_neighbours(NODES)[0])
    with pytest.raises(ValueError, match="`eids` should not be None"):
        phiops.geometric.weighted_sample_neighbors(row, colptr, t(weights), nodes, return_eids=True)
    with pytest.raises(InvalidArgumentError, match="'edge_weight' must hold weights >= 0"):
        C.weighted_sample_neighbors(row, colptr, t(-weights - 1), nodes, None, 1, False)
    with pytest.raises(InvalidArgumentError, match="'edge_weight' must be float32"):
        C.weighted_sample_neighbors(row, colptr, t(weights.astype(np.float64)), nodes, None, 1, False)
    with pytest.raises(InvalidArgumentError, match="'edge_weight' must hold one weight per edge"):
        C.weighted_sample_neighbors(row, colptr, t(weights[:4]), nodes, None, 1, False)
    with pytest.raises(InvalidArgumentError, match="'input_nodes' must hold node ids"):
        C.weighted_sample_neighbors(row, colptr, t(weights), t(np.array([-1])), None, 1, False)


# -- graph_khop_sampler -------------------------------------------------------------------------

# 1 -> 3, 2 -> 4, 3 -> 0, 4 -> 1, 2: two hops from [1, 2]
HOP_ROW, HOP_COLPTR = np.array([1, 2, 3, 4, 0, 1, 2]), np.array([0, 2, 3, 4, 5, 7])


@op_test("graph_khop_sampler", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("graph_khop_sampler"), ids=lambda d: d.name.lower())
def test_graph_khop_sampler_renumbers_the_sampled_subgraph(dtype: DataType) -> None:
    np_dtype = dtype.numpy_dtype
    row, colptr = t(HOP_ROW.astype(np_dtype)), t(HOP_COLPTR.astype(np_dtype))
    eids = t((10 * np.arange(7)).astype(np_dtype))
    src, dst, index, reindex_x, out_eids = C.graph_khop_sampler(
        row, colptr, t(np.array([1, 2], np_dtype)), eids, [2, 2], True
    )
    assert {o.dtype for o in (src, dst, index, reindex_x, out_eids)} == {dtype}
    # layer 1: 1 -> 3, 2 -> 4; layer 2: 3 -> 0, 4 -> 1, 2; numbering 1, 2, 3, 4, then 0
    assert index.numpy().tolist() == [1, 2, 3, 4, 0]
    assert src.numpy().reshape(-1).tolist() == [2, 3, 4, 0, 1]
    assert dst.numpy().reshape(-1).tolist() == [0, 1, 2, 3, 3]
    assert reindex_x.numpy().tolist() == [0, 1] and out_eids.numpy().tolist() == [20, 30, 40, 50, 60]
    # a drawn layer: each of node 8's sampled edges is one of its own
    src, dst, index, _, out_eids = C.graph_khop_sampler(
        t(ROW.astype(np_dtype)), t(COLPTR.astype(np_dtype)), t(np.array([8], np_dtype)),
        t(EIDS.astype(np_dtype)), [3], True,
    )  # fmt: skip
    edges = out_eids.numpy() // 10
    assert len(set(edges.tolist())) == 3 and ((edges >= 11) & (edges < 16)).all()
    np.testing.assert_array_equal(index.numpy()[src.numpy().reshape(-1)], ROW[edges])
    assert dst.numpy().reshape(-1).tolist() == [0, 0, 0]


@op_test("graph_khop_sampler", kind="edge")
def test_graph_khop_sampler_edges_and_bad_input() -> None:
    row, colptr = t(HOP_ROW), t(HOP_COLPTR)
    # a repeated start node is sampled once (consecutive repeats, as std::unique); -1 takes all
    src, dst, index, reindex_x = phiops.incubate.graph_khop_sampler(
        row, colptr, t(np.array([3, 3, 0])), [-1]
    )
    assert reindex_x.numpy().tolist() == [0, 0, 1] and index.numpy().tolist() == [3, 0, 1, 2]
    assert src.numpy().reshape(-1).tolist() == [1, 2, 3]
    assert dst.numpy().reshape(-1).tolist() == [0, 1, 1]
    with pytest.raises(ValueError, match="`sorted_eid` should not be None"):
        phiops.incubate.graph_khop_sampler(row, colptr, t(np.array([1])), [1], return_eids=True)
    with pytest.raises(InvalidArgumentError, match="'x' must not be empty"):
        C.graph_khop_sampler(row, colptr, t(np.zeros(0, np.int64)), None, [1], False)
    with pytest.raises(InvalidArgumentError, match="'x' must hold at least one node with"):
        C.graph_khop_sampler(t(ROW), t(COLPTR), t(np.array([7, 9])), None, [1], False)
    with pytest.raises(InvalidArgumentError, match="'sample_sizes' must hold at least one"):
        C.graph_khop_sampler(row, colptr, t(np.array([1])), None, [], False)


# -- tdm_child ----------------------------------------------------------------------------------

# rows: [item id, layer, ancestor, child 1, child 2]; node 0 is padding, nodes 3-6 items
TREE_INFO = np.array([[0, 0, 0, 1, 2], [0, 1, 0, 3, 4], [0, 1, 0, 5, 6], [7, 2, 1, 0, 0],
                      [8, 2, 1, 0, 0], [9, 2, 2, 0, 0], [10, 2, 2, 0, 0]])  # fmt: skip


def tdm_child_reference(x: np.ndarray, child_nums: int) -> tuple[np.ndarray, np.ndarray]:
    child = np.zeros(x.shape + (child_nums,), np.int64)
    mask = np.zeros_like(child)
    for index, node in np.ndenumerate(x):
        if node != 0 and TREE_INFO[node, 3] != 0:
            child[index] = TREE_INFO[node, 3 : 3 + child_nums]
            mask[index] = TREE_INFO[child[index], 0] != 0
    return child, mask


@op_test("tdm_child", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("tdm_child"), ids=lambda d: d.name.lower())
def test_tdm_child_looks_up_children_and_leaves(dtype: DataType) -> None:
    x = np.array([[0, 1], [2, 3], [6, 1]])
    if dtype not in (DataType.INT32, DataType.INT64):  # PaddlePaddle's float kernels refuse too
        with pytest.raises(InvalidArgumentError, match="'x' must be int32 or int64"):
            C.tdm_child(t(x.astype(dtype.numpy_dtype)), t(TREE_INFO), 2, "int32")
        return
    for out_dtype in ("int32", "int64"):
        child, mask = C.tdm_child(t(x.astype(dtype.numpy_dtype)), t(TREE_INFO.astype(np.int32)), 2, out_dtype)
        assert child.dtype.name.lower() == out_dtype and mask.shape == [3, 2, 2]
        want_child, want_mask = tdm_child_reference(x, 2)
        np.testing.assert_array_equal(child.numpy(), want_child)
        np.testing.assert_array_equal(mask.numpy(), want_mask)


@op_test("tdm_child", kind="edge")
def test_tdm_child_edges_and_bad_input() -> None:
    info = t(TREE_INFO)
    one, _ = C.tdm_child(t(np.array([1, 2])[::-1]), info, 1)
    assert one.numpy().tolist() == [[5], [3]] and one.dtype == DataType.INT32
    empty, _ = C.tdm_child(t(np.zeros((0,), np.int64)), info, 2)
    assert empty.shape == [0, 2]
    with pytest.raises(InvalidArgumentError, match="'x' must hold node ids in \\[0, 7\\)"):
        C.tdm_child(t(np.array([7])), info, 2)
    with pytest.raises(InvalidArgumentError, match="'child_nums' must be > 0"):
        C.tdm_child(t(np.array([1])), info, 0)
    with pytest.raises(InvalidArgumentError, match="at least 3 \\+ child_nums = 6 columns"):
        C.tdm_child(t(np.array([1])), info, 3)
    with pytest.raises(InvalidArgumentError, match="'dtype' must be int32 or int64"):
        C.tdm_child(t(np.array([1])), info, 2, "float32")
    with pytest.raises(InvalidArgumentError, match="'tree_info' must be int32 or int64"):
        C.tdm_child(t(np.array([1])), t(TREE_INFO * 1.0), 2)


# -- tdm_sampler --------------------------------------------------------------------------------

TRAVEL = np.array([[1, 3], [1, 4], [2, 5], [2, 6], [0, 0], [2, 0]])
LAYER = np.array([1, 2, 3, 4, 5, 6])
OFFSETS = [0, 2, 6]


@op_test("tdm_sampler", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("tdm_sampler"), ids=lambda d: d.name.lower())
def test_tdm_sampler_draws_distinct_negatives_per_layer(dtype: DataType) -> None:
    x = np.arange(6).reshape(6, 1)
    args = (t(TRAVEL), t(LAYER), True, [1, 2], OFFSETS, 0, 3)
    if dtype not in (DataType.INT32, DataType.INT64):  # PaddlePaddle's float kernels refuse too
        with pytest.raises(InvalidArgumentError, match="'x' must be int32 or int64"):
            C.tdm_sampler(t(x.astype(dtype.numpy_dtype)), *args)
        return
    out, labels, mask = (o.numpy() for o in C.tdm_sampler(t(x.astype(dtype.numpy_dtype)), *args))
    assert out.shape == labels.shape == mask.shape == (6, 5) and out.dtype == np.int64
    for item in range(6):
        for level, (start, count) in enumerate(((0, 1), (2, 2))):
            positive = TRAVEL[item, level]
            block = slice(start, start + 1 + count)
            if positive == 0:  # padding
                assert not out[item, block].any() and not mask[item, block].any()
                continue
            assert out[item, start] == positive and labels[item, start] == 1
            negatives = out[item, start + 1 : start + 1 + count]
            layer_nodes = LAYER[OFFSETS[level] : OFFSETS[level + 1]]
            assert len(set(negatives.tolist())) == count and positive not in negatives
            assert np.isin(negatives, layer_nodes).all()
            assert not labels[item, start + 1 : start + 1 + count].any() and mask[item, block].all()


@op_test("tdm_sampler", kind="edge")
def test_tdm_sampler_edges_and_bad_input() -> None:
    x, travel, layer = t(np.array([0, 3])), t(TRAVEL), t(LAYER)
    first = C.tdm_sampler(x, travel, layer, False, [1, 3], OFFSETS, -9, 2)
    again = C.tdm_sampler(x, travel, layer, False, [1, 3], OFFSETS, -9, 2)
    assert first[0].dtype == DataType.INT32 and first[0].shape == [2, 4]
    np.testing.assert_array_equal(first[0].numpy(), again[0].numpy())
    # a layer holding every node but the positive draws them all
    assert sorted(first[0].numpy()[0, 1:].tolist()) == [4, 5, 6]
    with pytest.raises(InvalidArgumentError, match="'x' must hold item ids in \\[0, 6\\)"):
        C.tdm_sampler(t(np.array([6])), travel, layer, True, [1, 1], OFFSETS, 1, 2)
    with pytest.raises(InvalidArgumentError, match="'neg_samples_num_list' must hold at layer 0"):
        C.tdm_sampler(x, travel, layer, True, [2, 1], OFFSETS, 1, 2)
    with pytest.raises(InvalidArgumentError, match="'layer_offset_lod' must hold"):
        C.tdm_sampler(x, travel, layer, True, [1, 1], [0, 2], 1, 2)
    with pytest.raises(InvalidArgumentError, match="'dtype' must be 2 \\(int32\\) or 3"):
        C.tdm_sampler(x, travel, layer, True, [1, 1], OFFSETS, 1, 5)
    with pytest.raises(InvalidArgumentError, match="'travel' must be \\[items, 2\\]"):
        C.tdm_sampler(x, t(TRAVEL[:, :1]), layer, True, [1, 1], OFFSETS, 1, 2)
    with pytest.raises(InvalidArgumentError, match="'layer' must have the dtype of travel"):
        C.tdm_sampler(x, travel, t(LAYER.astype(np.int32)), True, [1, 1], OFFSETS, 1, 2)
    with pytest.raises(InvalidArgumentError, match="'travel' must hold at layer 1 node ids"):
        C.tdm_sampler(x, t(np.array([[1, 9]] * 6)), layer, True, [0, 0], OFFSETS, 1, 2)
