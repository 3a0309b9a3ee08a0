"""The dist30 ops in one process: p_send/p_recv on a world of one rank (runtime/comm's
LocalCommContext: a send to oneself is kept until the recv) and c_embedding with its gradient,
every registered CPU dtype against numpy, and the edge cases. p_send/p_recv between 2 ranks, and
c_embedding sharded over 2 ranks, are tests/distributed/test_dist30_ops.py."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
import phiops.generated.backward as phi_backward
from phiops.runtime.comm import COMM_CONTEXTS
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, NotFoundError, PhiError
from tests.ops.op_testing import cpu_dtypes, op_test, sample


def _c_embedding_reference(weight: np.ndarray, ids: np.ndarray, start: int) -> np.ndarray:
    rows = weight.shape[0]
    local = ids.astype(np.int64) - start
    inside = (local >= 0) & (local < rows)
    out = weight[np.where(inside, local, 0)]
    out[~inside] = 0
    return out


# -- p_send / p_recv ------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def fresh_world():
    """Ring 0 made anew for each test (a world of one rank): no message another test sent to
    this rank is waiting."""
    COMM_CONTEXTS.clear()
    yield
    COMM_CONTEXTS.clear()


@op_test("p_send", "p_recv", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("p_send"), ids=lambda d: d.name.lower())
def test_a_tensor_sent_to_oneself_comes_back_with_its_dtype_shape_and_values(
    dtype: DataType,
) -> None:
    x = sample((2, 3), dtype, seed=5)
    assert phi.p_send(phi.to_tensor(x), 0, 0, False) is None
    out = phi.p_recv(0, 0, dtype, False)
    assert out.dtype is dtype and out.shape == [2, 3]
    np.testing.assert_array_equal(out.numpy(), x)


@op_test("p_send", "p_recv", kind="edge")
@pytest.mark.parametrize(
    "x",
    [
        np.float32(2.5),
        np.zeros((0, 4), np.float32),
        np.arange(24, dtype=np.float32).reshape(2, 3, 4)[:, ::2, 1:],
        np.arange(2 * 3 * 1 * 2 * 1 * 2 * 1 * 2 * 1, dtype=np.float32).reshape(2, 3, 1, 2, 1, 2, 1, 2, 1),
    ],
    ids=["0-d", "empty", "non-contiguous", "9-d"],
)
def test_p_recv_takes_the_senders_shape(x: np.ndarray) -> None:
    phi.p_send(phi.to_tensor(x), peer=0, dynamic_shape=True)
    out = phi.p_recv(peer=0, dtype="float32", dynamic_shape=True)
    assert out.shape == list(x.shape)
    np.testing.assert_array_equal(out.numpy(), x)


@op_test("p_send", "p_recv", kind="edge")
def test_sends_are_received_in_order() -> None:
    for value in (1.0, 2.0, 3.0):
        phi.p_send(phi.to_tensor(np.full(2, value, np.float64)), 0, 0, False)
    got = [phi.p_recv(0, 0, DataType.FLOAT64, False).numpy()[0] for _ in range(3)]
    assert got == [1.0, 2.0, 3.0]


@op_test("p_recv", kind="edge")
def test_p_recv_of_another_dtype_than_sent_names_both() -> None:
    phi.p_send(phi.to_tensor(np.ones(2, np.float32)), 0, 0, False)
    with pytest.raises(InvalidArgumentError, match="p_recv.*sent a float32 tensor.*dtype int64"):
        phi.p_recv(0, 0, "int64", False)
    phi.p_send(phi.to_tensor(np.full(2, 7.0, np.float32)), 0, 0, False)
    # the mismatched message was taken: the next recv gets the next message
    np.testing.assert_array_equal(phi.p_recv(0, 0, "float32", False).numpy(), [7.0, 7.0])


@op_test("p_recv", kind="edge")
def test_p_recv_with_nothing_sent_is_an_error_not_a_hang() -> None:
    with pytest.raises(PhiError, match="p_recv.*nothing was sent"):
        phi.p_recv(0, 0, "float32", False)


@op_test("p_send", "p_recv", kind="edge")
@pytest.mark.parametrize("peer", [1, -1])
def test_a_peer_outside_the_ring_is_rejected(peer: int) -> None:
    x = phi.to_tensor(np.ones(2, np.float32))
    with pytest.raises(InvalidArgumentError, match="p_send.*peer"):
        phi.p_send(x, 0, peer, False)
    with pytest.raises(InvalidArgumentError, match="p_recv.*peer"):
        phi.p_recv(0, peer, "float32", False)


@op_test("p_send", "p_recv", kind="edge")
def test_a_ring_id_without_a_ring_is_a_not_found_error() -> None:
    with pytest.raises(NotFoundError, match=r"^p_send\(\): no communication ring 7"):
        phi.p_send(phi.to_tensor(np.ones(2, np.float32)), 7, 0, False)
    with pytest.raises(NotFoundError, match=r"^p_recv\(\): no communication ring 7"):
        phi.p_recv(7, 0, "float32", False)


@op_test("p_send", "p_recv", kind="edge")
def test_a_dtype_paddle_does_not_register_is_not_found() -> None:
    with pytest.raises(NotFoundError, match="p_send"):
        phi.p_send(phi.to_tensor(np.ones(2, np.complex64)), 0, 0, False)
    with pytest.raises(NotFoundError, match="p_recv"):
        phi.p_recv(0, 0, "complex64", False)


# -- c_embedding ----------------------------------------------------------------------------


@op_test("c_embedding", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("c_embedding"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("ids_dtype", [np.int32, np.int64], ids=["int32", "int64"])
def test_c_embedding_picks_the_shards_rows_and_zeros_elsewhere(
    dtype: DataType, ids_dtype: type
) -> None:
    weight = sample((4, 3), dtype, seed=8)
    ids = np.array([[0, 3, 4], [7, 8, 5]], dtype=ids_dtype)
    out = phi.c_embedding(phi.to_tensor(weight), phi.to_tensor(ids), 4, 12)
    assert out.dtype is dtype and out.shape == [2, 3, 3]
    np.testing.assert_array_equal(out.numpy(), _c_embedding_reference(weight, ids, 4))


@op_test("c_embedding", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("c_embedding_grad"), ids=lambda d: d.name.lower())
def test_c_embedding_grad_adds_the_rows_of_ids_inside_the_shard(dtype: DataType) -> None:
    weight = sample((3, 2), dtype, seed=9)
    ids = np.array([2, 3, 2, 1, -1, 9], dtype=np.int64)
    out_grad = sample((6, 2), dtype, seed=10)
    grad = phi_backward.c_embedding_grad(
        phi.to_tensor(weight), phi.to_tensor(ids), phi.to_tensor(out_grad), 1
    )
    expected = np.zeros((3, 2), dtype=weight.dtype)
    for row, local in zip(out_grad, ids - 1):
        if 0 <= local < 3:
            expected[local] += row
    assert grad.dtype is dtype
    tight = dtype is not DataType.FLOAT16
    np.testing.assert_allclose(grad.numpy(), expected, rtol=1e-7 if tight else 1e-3)


@op_test("c_embedding", kind="edge")
def test_c_embedding_gradient_flows_to_the_shard_through_backward() -> None:
    weight = phi.to_tensor(np.arange(6, dtype=np.float64).reshape(3, 2))
    weight.stop_gradient = False
    ids = phi.to_tensor(np.array([[3, 3], [0, 5]], dtype=np.int64))
    phi.c_embedding(weight, ids, 3).sum().backward()
    np.testing.assert_array_equal(weight.grad.numpy(), [[2, 2], [0, 0], [1, 1]])


@op_test("c_embedding", kind="edge")
@pytest.mark.parametrize(
    "ids", [np.array(4, np.int64), np.zeros((0, 2), np.int64), np.array([-3, -1, 0], np.int64)],
    ids=["0-d", "empty", "negative"],
)
def test_c_embedding_edges(ids: np.ndarray) -> None:
    weight = np.arange(6, dtype=np.float32).reshape(2, 3)
    out = phi.c_embedding(phi.to_tensor(weight), phi.to_tensor(ids), 3)
    assert out.shape == list(ids.shape) + [3]
    np.testing.assert_array_equal(out.numpy(), _c_embedding_reference(weight, ids, 3))


@op_test("c_embedding", kind="edge")
def test_c_embedding_rejects_bad_input_naming_the_argument() -> None:
    weight = phi.to_tensor(np.ones((2, 3), np.float32))
    ids = phi.to_tensor(np.array([0, 1], np.int64))
    with pytest.raises(InvalidArgumentError, match="c_embedding.*'weight' must be a 2-D"):
        phi.c_embedding(phi.to_tensor(np.ones(3, np.float32)), ids, 0)
    with pytest.raises(InvalidArgumentError, match="c_embedding.*'x'"):
        phi.c_embedding(weight, phi.to_tensor(np.array([0.0, 1.0], np.float32)), 0)
    with pytest.raises(InvalidArgumentError, match="c_embedding.*'start_index' must be >= 0"):
        phi.c_embedding(weight, ids, -1)


# -- legacy names -----------------------------------------------------------------------------


@op_test("p_send", "p_recv", "c_embedding", kind="edge")
def test_the_legacy_ops_map_onto_the_dist30_kernels() -> None:
    from phiops.runtime.compat import LegacyCallContext, argument_mapping, pd_op_name

    assert [pd_op_name(n) for n in ("send_v2", "recv_v2", "c_embedding")] == [
        "p_send",
        "p_recv",
        "c_embedding",
    ]
    attrs = {"ring_id": 0, "peer": 1, "use_calc_stream": True, "dynamic_shape": False}
    send = argument_mapping("send_v2")(LegacyCallContext({"X": 1}, attrs))
    assert (send.name, send.inputs, send.attrs, send.outputs) == (
        "p_send", ("X",), ("ring_id", "peer", "dynamic_shape"), ()
    )
    recv = argument_mapping("recv_v2")(
        LegacyCallContext({}, {**attrs, "dtype": 5, "out_shape": [2, 3]})
    )
    assert (recv.name, recv.attrs, recv.outputs) == (
        "p_recv", ("ring_id", "peer", "dtype", "dynamic_shape"), ("Out",)
    )
    lookup = argument_mapping("c_embedding")(
        LegacyCallContext({"W": 1, "Ids": 2}, {"start_index": 0, "vocab_size": -1})
    )
    assert (lookup.inputs, lookup.outputs) == (("W", "Ids"), ("Out",))
