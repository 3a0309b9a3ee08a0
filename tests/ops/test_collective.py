"""The collective ops in one process (a world of one rank: ring 0 is runtime/comm's
LocalCommContext): every registered dtype against numpy, and the edge cases. Their results on
2 and 3 ranks, against numpy on the gathered inputs, are tests/distributed/test_collectives.py
(MPI processes started by mpiexec)."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, NotFoundError, PhiError
from tests.ops.op_testing import cpu_dtypes, op_test, sample

# op -> (call on x, what numpy gives for one rank)
ONE_RANK = {
    "all_reduce": (lambda x: phi.all_reduce(x, 0, 0), lambda a: a),
    "all_gather": (lambda x: phi.all_gather(x, 0, 1), lambda a: a),
    "all_to_all": (lambda x: phi.all_to_all(x, 0), lambda a: a),
    "broadcast": (lambda x: phi.broadcast(x, 0, 0), lambda a: a),
    "reduce": (lambda x: phi.reduce(x, 0, 0, 3), lambda a: a),
    "reduce_scatter": (lambda x: phi.reduce_scatter(x, 0, 1), lambda a: a),
    "barrier": (lambda x: phi.barrier(x, 0), lambda a: a),
    "c_allreduce_sum": (lambda x: phi.c_allreduce_sum(x, 0, False, False), lambda a: a),
    "c_allreduce_max": (lambda x: phi.c_allreduce_max(x, 0, False, False), lambda a: a),
    "c_allreduce_min": (lambda x: phi.c_allreduce_min(x, 0, False, False), lambda a: a),
    "c_allreduce_prod": (lambda x: phi.c_allreduce_prod(x, 0, False, False), lambda a: a),
    "c_broadcast": (lambda x: phi.c_broadcast(x, 0, 0, False), lambda a: a),
    "c_allgather": (lambda x: phi.c_allgather(x, 0, 1, False), lambda a: a),
    "c_identity": (lambda x: phi.c_identity(x, 0, False, False), lambda a: a),
    "c_concat": (lambda x: phi.c_concat(x, 0, 1, 0, False, False), lambda a: a),
    "c_split": (lambda x: phi.c_split(x, 1, 2, 0, True), lambda a: a[..., 2:]),
}
CASES = [
    pytest.param(op, dtype, id=f"{op}-{dtype.name.lower()}")
    for op in ONE_RANK
    for dtype in cpu_dtypes(op)
]


@op_test(*ONE_RANK, kind="dtypes")
@pytest.mark.parametrize("op, dtype", CASES)
def test_a_collective_on_one_rank_gives_numpys_answer_for_each_dtype(
    op: str, dtype: DataType
) -> None:
    call, expected = ONE_RANK[op]
    x = sample((2, 4), dtype, seed=3)
    out = call(phi.to_tensor(x))
    assert out.dtype is dtype
    np.testing.assert_array_equal(out.numpy(), expected(x))


@op_test(*ONE_RANK, kind="edge")
@pytest.mark.parametrize("op", sorted(set(ONE_RANK) - {"c_split", "c_concat"}))
def test_a_collective_keeps_a_0d_and_an_empty_tensor(op: str) -> None:
    call, _ = ONE_RANK[op]
    empty = call(phi.to_tensor(np.zeros((0, 4), dtype=np.float32)))
    assert empty.shape[1:] == [4] and empty.numpy().size == 0
    if op in ("all_to_all", "reduce_scatter"):
        return  # they split dim 0, which a 0-D tensor lacks (tested below)
    scalar = call(phi.to_tensor(np.float32(2.5)))
    expected = [1] if op in ("all_gather", "c_allgather") else []
    assert scalar.shape == expected and float(scalar.numpy().reshape(-1)[0]) == 2.5


@op_test("all_to_all", "reduce_scatter", "c_concat", "c_split", kind="edge")
@pytest.mark.parametrize(
    "call",
    [
        lambda x: phi.all_to_all(x, 0),
        lambda x: phi.reduce_scatter(x, 0, 1),
        lambda x: phi.c_concat(x, 0, 1, 0, False, False),
        lambda x: phi.c_split(x, 0, 1, 0, True),
    ],
    ids=["all_to_all", "reduce_scatter", "c_concat", "c_split"],
)
def test_a_collective_that_splits_a_dimension_rejects_a_0d_tensor(call) -> None:
    with pytest.raises(InvalidArgumentError, match="(dimension|divisible)"):
        call(phi.to_tensor(np.float32(1.0)))


@op_test("all_reduce", "broadcast", "barrier", "c_allreduce_sum", "c_identity", kind="edge")
@pytest.mark.parametrize(
    "op, call",
    [
        ("all_reduce", lambda x: phi.all_reduce(x, 7, 0)),
        ("broadcast", lambda x: phi.broadcast(x, 7, 0)),
        ("barrier", lambda x: phi.barrier(x, 7)),
        ("c_allreduce_sum", lambda x: phi.c_allreduce_sum(x, 7, False, False)),
        ("c_identity", lambda x: phi.c_identity(x, 7, False, False)),
    ],
)
def test_a_ring_id_without_a_ring_is_a_not_found_error_naming_the_op(op: str, call) -> None:
    with pytest.raises(NotFoundError, match=rf"^{op}\(\): no communication ring 7"):
        call(phi.to_tensor(np.ones(3, dtype=np.float32)))


@op_test("all_reduce", "reduce", kind="edge")
@pytest.mark.parametrize("reduce_type", [-1, 5, 99])
def test_an_unknown_reduce_type_is_rejected(reduce_type: int) -> None:
    x = phi.to_tensor(np.ones(3, dtype=np.float32))
    with pytest.raises(InvalidArgumentError, match="all_reduce.*reduce_type must be one of"):
        phi.all_reduce(x, 0, reduce_type)
    with pytest.raises(InvalidArgumentError, match="reduce.*reduce_type must be one of"):
        phi.reduce(x, 0, 0, reduce_type)


@op_test("all_reduce", "reduce", "c_allreduce_prod", kind="edge")
def test_a_reduction_without_meaning_for_the_dtype_is_rejected() -> None:
    complex_x = phi.to_tensor(np.ones(2, dtype=np.complex64))
    with pytest.raises(InvalidArgumentError, match="MAX is not defined for complex64"):
        phi.all_reduce(complex_x, 0, 1)
    with pytest.raises(InvalidArgumentError, match="AVG is not defined for bool"):
        phi.reduce(phi.to_tensor(np.ones(2, dtype=bool)), 0, 0, 4)
    assert phi.c_allreduce_prod(complex_x, 0, False, False).numpy().tolist() == [1, 1]


@op_test("broadcast", "reduce", "c_broadcast", kind="edge")
@pytest.mark.parametrize("root", [1, -1])
def test_a_root_outside_the_ring_is_rejected(root: int) -> None:
    x = phi.to_tensor(np.ones(2, dtype=np.float32))
    for call in (
        lambda: phi.broadcast(x, 0, root),
        lambda: phi.reduce(x, 0, root, 0),
        lambda: phi.c_broadcast(x, 0, root, False),
    ):
        with pytest.raises(InvalidArgumentError, match=r"root/peer must be a rank in \[0, 1\)"):
            call()


@op_test("all_gather", "c_allgather", "reduce_scatter", "c_concat", kind="edge")
def test_nranks_other_than_the_rings_size_is_rejected() -> None:
    x = phi.to_tensor(np.ones((2, 2), dtype=np.float32))
    for op, call in (
        ("all_gather", lambda: phi.all_gather(x, 0, 2)),
        ("c_allgather", lambda: phi.c_allgather(x, 0, 3, False)),
        ("reduce_scatter", lambda: phi.reduce_scatter(x, 0, 2)),
        ("c_concat", lambda: phi.c_concat(x, 0, 2, 0, False, False)),
    ):
        with pytest.raises(InvalidArgumentError, match=rf"^{op}\(\): nranks=\d but ring 0 has 1"):
            call()


@op_test("all_gather", "c_allgather", "c_concat", kind="edge")
def test_nranks_zero_takes_the_rings_size() -> None:
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    assert phi.all_gather(phi.to_tensor(x), 0, 0).shape == [2, 3]
    assert phi.c_allgather(phi.to_tensor(x), 0, -1, False).shape == [2, 3]
    assert phi.c_concat(phi.to_tensor(x), 0, 0, 0, False, False).shape == [2, 3]


@op_test("c_split", kind="edge")
def test_c_split_takes_the_ranks_part_of_the_last_dimension_and_checks_it() -> None:
    x = np.arange(12, dtype=np.int64).reshape(2, 6)
    parts = [phi.c_split(phi.to_tensor(x), r, 3, 0, True).numpy() for r in range(3)]
    np.testing.assert_array_equal(np.concatenate(parts, axis=-1), x)
    with pytest.raises(InvalidArgumentError, match="divisible by nranks=4"):
        phi.c_split(phi.to_tensor(x), 0, 4, 0, True)
    with pytest.raises(InvalidArgumentError, match=r"rank must be in \[0, nranks=3\)"):
        phi.c_split(phi.to_tensor(x), 3, 3, 0, True)
    with pytest.raises(InvalidArgumentError, match="nranks' must be at least 1"):
        phi.c_split(phi.to_tensor(x), 0, 0, 0, True)


@op_test("barrier", "c_identity", kind="edge")
def test_barrier_and_c_identity_return_a_copy() -> None:
    x = phi.to_tensor(np.array([1.0, np.nan, np.inf], dtype=np.float32))
    for out in (phi.barrier(x, 0), phi.c_identity(x, 0, False, False)):
        np.testing.assert_array_equal(out.numpy(), x.numpy())
        assert out.numpy().ctypes.data != x.numpy().ctypes.data or out is not x


def test_every_collective_error_is_a_phiops_error() -> None:
    with pytest.raises(PhiError):
        phi.all_reduce(phi.to_tensor(np.ones(2, dtype=np.float32)), 3, 0)
