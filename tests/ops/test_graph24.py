"""The graph24 ops of issue 24 against numpy references, per registered CPU dtype, with their
edges and bad input (recorded PaddlePaddle values are in tests/ops/test_graph24_paddle.py)."""

from __future__ import annotations

import numpy as np
import pytest

import phiops
import phiops._C_ops as C
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from tests.ops.op_testing import cpu_dtypes, op_test

SRC, DST = np.array([0, 1, 2, 0, 3, 3]), np.array([1, 2, 1, 0, 1, 4])
REDUCERS = {"SUM": np.sum, "MEAN": np.mean, "MAX": np.max, "MIN": np.min}


def t(values, dtype=None) -> phiops.Tensor:
    return phiops.to_tensor(np.asarray(values), dtype=dtype)


def messages_reference(left: np.ndarray, right: np.ndarray, message: str) -> np.ndarray:
    rank = max(left.ndim, right.ndim)
    left = left.reshape(left.shape[:1] + (1,) * (rank - left.ndim) + left.shape[1:])
    right = right.reshape(right.shape[:1] + (1,) * (rank - right.ndim) + right.shape[1:])
    return left + right if message == "ADD" else left * right


def recv_reference(messages: np.ndarray, dst: np.ndarray, reduce: str, rows: int) -> np.ndarray:
    out = np.zeros((rows,) + messages.shape[1:], messages.dtype)
    for node in range(rows):
        received = messages[dst == node]
        if len(received):
            if reduce == "MEAN" and messages.dtype.kind in "iu":  # C++'s division truncates
                out[node] = np.trunc(received.sum(0) / len(received))
            else:
                out[node] = REDUCERS[reduce](received, 0)
    return out


# -- send_ue_recv -------------------------------------------------------------------------------


@op_test("send_ue_recv", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("send_ue_recv"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("message", ["ADD", "MUL"])
def test_send_ue_recv_reduces_the_edge_messages(dtype: DataType, message: str) -> None:
    rng = np.random.default_rng(24)
    x = rng.integers(-5, 6, (4, 3)).astype(dtype.numpy_dtype)
    y = rng.integers(-3, 4, (6, 1)).astype(dtype.numpy_dtype)
    for reduce in REDUCERS:
        out = C.send_ue_recv(t(x), t(y), t(SRC), t(DST), message, reduce, [5])
        assert out.dtype == dtype and out.shape == [5, 3]
        expected = recv_reference(messages_reference(x[SRC], y, message), DST, reduce, 5)
        np.testing.assert_allclose(out.numpy().astype(float), expected.astype(float), rtol=1e-6)


@op_test("send_ue_recv", kind="edge")
def test_send_ue_recv_edges_and_bad_input() -> None:
    x = np.arange(8.0).reshape(4, 2)
    none = np.zeros(0, np.int64)
    empty = C.send_ue_recv(t(x), t(np.zeros((0, 1))), t(none), t(none), "ADD", "MAX", [0])
    assert empty.numpy().tolist() == [[0, 0]] * 4
    # broadcast trailing dims of different ranks, [edges, 1] indices, non-contiguous x
    wide = np.arange(16.0).reshape(4, 4)
    y = np.arange(6.0).reshape(2, 3, 1)
    got = C.send_ue_recv(
        t(wide)[:, ::2], t(y), t(np.array([[3], [0]])), t(np.array([[0], [0]])), "MUL", "SUM", [1]
    )
    expected = recv_reference(messages_reference(wide[[3, 0], ::2], y, "MUL"), np.array([0, 0]),
                              "SUM", 1)  # fmt: skip
    assert got.shape == [1, 3, 2]
    np.testing.assert_array_equal(got.numpy(), expected)
    two = t(np.array([0, 1]))
    with pytest.raises(InvalidArgumentError, match="'dst_index' must be in \\[0, 2\\)"):
        C.send_ue_recv(t(x), t(np.ones((2, 1))), two, t(np.array([0, 3])), "ADD", "SUM", [2])
    with pytest.raises(InvalidArgumentError, match="'src_index' must be in \\[0, 4\\)"):
        C.send_ue_recv(t(x), t(np.ones((2, 1))), t(np.array([0, 4])), two, "ADD", "SUM", [0])
    with pytest.raises(InvalidArgumentError, match="'message_op' must be one of ADD, MUL"):
        C.send_ue_recv(t(x), t(np.ones((2, 1))), two, two, "SUB", "SUM", [0])
    with pytest.raises(InvalidArgumentError, match="'reduce_op' must be one of"):
        C.send_ue_recv(t(x), t(np.ones((2, 1))), two, two, "ADD", "PROD", [0])
    with pytest.raises(InvalidArgumentError, match="'y' must have one row per edge"):
        C.send_ue_recv(t(x), t(np.ones((3, 1))), two, two, "ADD", "SUM", [0])
    with pytest.raises(InvalidArgumentError, match="'y' must have the dtype of x"):
        C.send_ue_recv(t(x), t(np.ones((2, 1), "float32")), two, two, "ADD", "SUM", [0])
    with pytest.raises(InvalidArgumentError, match="cannot be broadcast"):
        C.send_ue_recv(t(x), t(np.ones((2, 3))), two, two, "ADD", "SUM", [0])
    with pytest.raises(InvalidArgumentError, match="'dst_index' must have the dtype of src_index"):
        C.send_ue_recv(t(x), t(np.ones((2, 1))), two, t(np.array([0, 1], "int32")), "ADD", "SUM",
                       [0])  # fmt: skip
    with pytest.raises(ValueError, match="message_op should be"):
        phiops.geometric.send_ue_recv(t(x), t(np.ones(2)), two, two, "pow")
    with pytest.raises(ValueError, match="reduce_op should be"):
        phiops.geometric.send_ue_recv(t(x), t(np.ones(2)), two, two, "add", "prod")


# -- send_uv ------------------------------------------------------------------------------------


@op_test("send_uv", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("send_uv"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("message", ["ADD", "MUL"])
def test_send_uv_combines_both_ends_of_each_edge(dtype: DataType, message: str) -> None:
    rng = np.random.default_rng(25)
    x = rng.integers(-5, 6, (4, 3)).astype(dtype.numpy_dtype)
    y = rng.integers(-3, 4, (5, 1)).astype(dtype.numpy_dtype)
    out = C.send_uv(t(x), t(y), t(SRC), t(DST), message)
    assert out.dtype == dtype and out.shape == [6, 3]
    np.testing.assert_array_equal(out.numpy(), messages_reference(x[SRC], y[DST], message))


@op_test("send_uv", kind="edge")
def test_send_uv_edges_and_bad_input() -> None:
    x = np.arange(8.0).reshape(4, 2)
    none = np.zeros(0, np.int64)
    assert C.send_uv(t(x), t(x), t(none), t(none), "ADD").shape == [0, 2]
    y = np.arange(12.0).reshape(2, 3, 2)
    got = C.send_uv(t(x)[:, ::-1], t(y), t(np.array([[1], [3]])), t(np.array([[0], [1]])), "MUL")
    np.testing.assert_array_equal(
        got.numpy(), messages_reference(x[:, ::-1][[1, 3]], y[[0, 1]], "MUL")
    )
    with pytest.raises(InvalidArgumentError, match="'dst_index' must be in \\[0, 2\\)"):
        C.send_uv(t(x), t(y), t(np.array([0, 1])), t(np.array([0, 2])), "ADD")
    with pytest.raises(InvalidArgumentError, match="'dst_index' must have one index per edge"):
        C.send_uv(t(x), t(y), t(np.array([0, 1])), t(np.array([0])), "ADD")
    with pytest.raises(InvalidArgumentError, match="'src_index' must be a 1-D tensor"):
        C.send_uv(t(x), t(y), t(np.zeros((2, 2), np.int64)), t(np.array([0, 1])), "ADD")
    with pytest.raises(InvalidArgumentError, match="'src_index' must be int32 or int64"):
        C.send_uv(t(x), t(y), t(np.array([0.0, 1.0])), t(np.array([0, 1])), "ADD")
    with pytest.raises(ValueError, match="message_op should be"):
        phiops.geometric.send_uv(t(x), t(x), t(np.array([0])), t(np.array([0])), "pow")


# -- reindex_graph ------------------------------------------------------------------------------


def reindex_reference(x: np.ndarray, neighbors: np.ndarray, count: np.ndarray):
    ids = {int(node): i for i, node in enumerate(x)}  # a node held twice keeps its last place
    nodes = [int(node) for node in x]
    for node in neighbors:
        if int(node) not in ids:
            ids[int(node)] = len(nodes)
            nodes.append(int(node))
    src = [ids[int(node)] for node in neighbors]
    dst = [ids[int(x[i % len(x)])] for i, c in enumerate(count) for _ in range(c)]
    return src, dst, nodes


@op_test("reindex_graph", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("graph_reindex"), ids=lambda d: d.name.lower())
def test_reindex_graph_numbers_centers_then_new_neighbors(dtype: DataType) -> None:
    rng = np.random.default_rng(26)
    x = rng.permutation(20)[:4].astype(dtype.numpy_dtype)
    count = np.array([3, 0, 2, 4], np.int32)
    neighbors = rng.integers(0, 20, int(count.sum())).astype(dtype.numpy_dtype)
    got = C.reindex_graph(t(x), t(neighbors), t(count), None, None)
    assert [o.dtype for o in got] == [dtype] * 3
    assert [o.numpy().tolist() for o in got] == list(reindex_reference(x, neighbors, count))


@op_test("reindex_graph", kind="edge")
def test_reindex_graph_edges_and_bad_input() -> None:
    x, count = np.array([4, 7]), np.array([1, 2], np.int32)
    heter = phiops.geometric.reindex_heter_graph(
        t(x), [t(np.array([7, 1, 4])), t(np.array([9, 1]))], [t(count), t(np.ones(2, np.int32))]
    )
    expected = reindex_reference(x, np.array([7, 1, 4, 9, 1]), np.array([1, 2, 1, 1]))
    assert [o.numpy().tolist() for o in heter] == list(expected)
    empty = C.reindex_graph(t(np.zeros(0, np.int64)), t(np.zeros(0, np.int64)),
                            t(np.zeros(0, np.int32)), None, None)  # fmt: skip
    assert [o.shape for o in empty] == [[0], [0], [0]]
    buffers = t(np.zeros(8, np.int32))
    with_buffers = phiops.geometric.reindex_graph(t(x), t(np.array([1, 4, 1])), t(count), buffers,
                                                  buffers)  # fmt: skip
    assert with_buffers[2].numpy().tolist() == [4, 7, 1]
    three = t(np.array([1, 4, 1]))
    with pytest.raises(InvalidArgumentError, match="'count' must sum to the number of neighbors"):
        C.reindex_graph(t(x), three, t(np.array([1, 1], np.int32)), None, None)
    with pytest.raises(InvalidArgumentError, match="'count' must hold a multiple of x's 2 nodes"):
        C.reindex_graph(t(x), three, t(np.array([3], np.int32)), None, None)
    with pytest.raises(InvalidArgumentError, match="'count' must be >= 0"):
        C.reindex_graph(t(x), three, t(np.array([4, -1], np.int32)), None, None)
    with pytest.raises(InvalidArgumentError, match="'count' must be int32"):
        C.reindex_graph(t(x), three, t(count.astype(np.int64)), None, None)
    with pytest.raises(InvalidArgumentError, match="'neighbors' must have the dtype of x"):
        C.reindex_graph(t(x), t(np.array([1, 4, 1], np.int32)), t(count), None, None)
    with pytest.raises(InvalidArgumentError, match="'x' must be a 1-D tensor"):
        C.reindex_graph(t(x.reshape(2, 1)), three, t(count), None, None)
