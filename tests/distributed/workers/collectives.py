"""Every collective, as an op (phiops._C_ops) and through paddle.distributed, for every dtype
and reduce op, against numpy on the inputs of all ranks (each rank makes every rank's input
from the same seeds, so it knows what the others hold without asking them)."""

from __future__ import annotations

import functools
import sys

import ml_dtypes
import numpy as np

import phiops as paddle
from phiops import _C_ops
from phiops.runtime.errors import InvalidArgumentError

DTYPES = [
    "bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32",
    "float64", "complex64", "complex128",
]
OPS = {"SUM": 0, "MAX": 1, "MIN": 2, "PROD": 3, "AVG": 4}
UFUNCS = {"SUM": np.add, "MAX": np.maximum, "MIN": np.minimum, "PROD": np.multiply}


def numpy_dtype(name: str) -> np.dtype:
    return np.dtype(ml_dtypes.bfloat16) if name == "bfloat16" else np.dtype(name)


def data(rank: int, dtype: str, shape: tuple[int, ...], salt: int = 0) -> np.ndarray:
    rng = np.random.default_rng(1000 * salt + rank)
    if dtype == "bool":
        return rng.random(shape) < 0.5
    values = rng.integers(1, 4, size=shape)
    if dtype.startswith("complex"):
        values = values + 1j * rng.integers(1, 4, size=shape)
    return values.astype(numpy_dtype(dtype))


def expected_reduce(inputs: list[np.ndarray], op: str) -> np.ndarray:
    dtype = inputs[0].dtype
    if op == "AVG":
        total = functools.reduce(lambda a, b: (a + b).astype(dtype), inputs)
        if dtype.kind in "iu":
            return np.trunc(total.astype(np.float64) / len(inputs)).astype(dtype)
        return (total / dtype.type(len(inputs))).astype(dtype)
    return functools.reduce(lambda a, b: UFUNCS[op](a, b).astype(dtype), inputs)


def close(got: np.ndarray, want: np.ndarray, what: str) -> None:
    assert got.dtype == want.dtype, f"{what}: dtype {got.dtype} != {want.dtype}"
    assert got.shape == want.shape, f"{what}: shape {got.shape} != {want.shape}"
    if want.dtype.kind in "fc" or want.dtype == np.dtype(ml_dtypes.bfloat16):
        np.testing.assert_allclose(
            got.astype(np.complex128), want.astype(np.complex128), rtol=1e-2, err_msg=what
        )
    else:
        np.testing.assert_array_equal(got, want, err_msg=what)


def main() -> None:
    paddle.distributed.init_parallel_env()
    rank = paddle.distributed.get_rank()
    size = paddle.distributed.get_world_size()
    checks = 0
    shape = (2 * size, 3)
    for dtype in DTYPES:
        inputs = [data(r, dtype, shape) for r in range(size)]
        mine = paddle.to_tensor(inputs[rank])
        for op, code in OPS.items():
            invalid = (dtype.startswith("complex") and op in ("MAX", "MIN")) or (
                dtype == "bool" and op == "AVG"
            )
            what = f"all_reduce {op} {dtype}"
            try:
                got = _C_ops.all_reduce(mine, 0, code).numpy()
            except InvalidArgumentError as error:
                assert invalid and op in str(error), f"{what}: {error}"
                checks += 1
                continue
            assert not invalid, f"{what}: no error for an undefined reduction"
            want = expected_reduce(inputs, op)
            close(got, want, what)
            functional = paddle.to_tensor(inputs[rank])
            paddle.distributed.all_reduce(functional, op=code)
            close(functional.numpy(), want, f"paddle.distributed.{what}")
            reduced = _C_ops.reduce(mine, 0, size - 1, code).numpy()
            close(reduced, want if rank == size - 1 else inputs[rank], f"reduce {op} {dtype}")
            checks += 3
        for legacy, op in (
            ("c_allreduce_sum", "SUM"),
            ("c_allreduce_max", "MAX"),
            ("c_allreduce_min", "MIN"),
            ("c_allreduce_prod", "PROD"),
        ):
            if dtype.startswith("complex") and op in ("MAX", "MIN"):
                continue
            got = getattr(_C_ops, legacy)(mine, 0, False, False).numpy()
            close(got, expected_reduce(inputs, op), f"{legacy} {dtype}")
            checks += 1
        stacked = np.concatenate(inputs)
        close(_C_ops.all_gather(mine, 0, size).numpy(), stacked, f"all_gather {dtype}")
        close(_C_ops.c_allgather(mine, 0, 0, False).numpy(), stacked, f"c_allgather {dtype}")
        gathered: list = []
        paddle.distributed.all_gather(gathered, mine)
        for r, tensor in enumerate(gathered):
            close(tensor.numpy(), inputs[r], f"paddle.distributed.all_gather {dtype} [{r}]")
        root = size - 1
        close(_C_ops.broadcast(mine, 0, root).numpy(), inputs[root], f"broadcast {dtype}")
        close(_C_ops.c_broadcast(mine, 0, root, False).numpy(), inputs[root], f"c_broadcast {dtype}")
        part = shape[0] // size
        scattered = expected_reduce(inputs, "SUM")[rank * part : (rank + 1) * part]
        close(_C_ops.reduce_scatter(mine, 0, size).numpy(), scattered, f"reduce_scatter {dtype}")
        pieces = [inputs[r][rank * part : (rank + 1) * part] for r in range(size)]
        close(_C_ops.all_to_all(mine, 0).numpy(), np.concatenate(pieces), f"all_to_all {dtype}")
        close(
            _C_ops.c_concat(mine, rank, size, 0, False, False).numpy(),
            np.concatenate(inputs, axis=-1),
            f"c_concat {dtype}",
        )
        close(_C_ops.barrier(mine, 0).numpy(), inputs[rank], f"barrier {dtype}")
        checks += 8 + size
    # send/recv around the ring, and broadcast through the functional API from every source
    left, right = (rank - 1) % size, (rank + 1) % size
    outgoing = paddle.to_tensor(data(rank, "float32", (3, 2), salt=7))
    incoming = paddle.zeros([3, 2], dtype="float32")
    sent = paddle.distributed.isend(outgoing, right)
    paddle.distributed.recv(incoming, left)
    sent.wait()
    close(incoming.numpy(), data(left, "float32", (3, 2), salt=7), "send/recv")
    for src in range(size):
        tensor = paddle.to_tensor(data(rank, "int64", (4,), salt=3))
        task = paddle.distributed.broadcast(tensor, src, sync_op=False)
        task.wait()
        close(tensor.numpy(), data(src, "int64", (4,), salt=3), f"broadcast from {src}")
        checks += 1
    # a group of the first and the last rank: its own ring, the ops reaching it by ring_id
    group = paddle.distributed.new_group([0, size - 1])
    if group.is_member():
        tensor = paddle.to_tensor(data(rank, "float64", (3,), salt=5))
        paddle.distributed.all_reduce(tensor, group=group)
        want = data(0, "float64", (3,), salt=5) + data(size - 1, "float64", (3,), salt=5)
        close(tensor.numpy(), want, "all_reduce in a group")
        ring = _C_ops.all_gather(paddle.to_tensor(np.array([rank])), group.id, 2).numpy()
        close(ring, np.array([0, size - 1]), "all_gather op on the group's ring")
        checks += 2
    else:
        assert group.rank == -1 and paddle.distributed.get_rank(group) == -1
    objects: list = []
    paddle.distributed.all_gather_object(objects, {"rank": rank})
    assert objects == [{"rank": r} for r in range(size)], objects
    paddle.distributed.barrier()
    checks += 2
    print(f"rank {rank}: {checks} checks passed", flush=True)


if __name__ == "__main__":
    main()
    sys.stdout.flush()
