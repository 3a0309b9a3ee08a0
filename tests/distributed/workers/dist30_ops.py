"""The dist30 ops on 2 MPI ranks, each rank checking against numpy and printing ``rank N ok``:

- ``p2p``: p_send / p_recv eagerly between the ranks for every dtype PaddlePaddle registers, of
  several shapes (0-D, empty, non-contiguous); p_send received by paddle.distributed.recv and
  paddle.distributed.send received by p_recv (the MPI context's messages carry their shape);
  a dtype mismatch named on the receiving rank;
- ``static``: a program phiops builds with p_send (through paddle.distributed.send on rank 0)
  and p_recv on rank 1 (and back), run by the Executor on each rank;
- ``embedding``: a vocabulary of 8 rows split over the 2 ranks: c_embedding on each shard,
  summed with c_allreduce_sum, is the full table's lookup; each shard's gradient is its rows of
  the full table's gradient.
"""

from __future__ import annotations

import sys

import numpy as np

import phiops as paddle
import phiops.distributed as dist
from phiops import _C_ops
from phiops.runtime.errors import InvalidArgumentError

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]


def data(dtype: str, shape: tuple[int, ...], salt: int) -> np.ndarray:
    rng = np.random.default_rng(salt)
    if dtype == "bool":
        return rng.random(shape) < 0.5
    return rng.integers(-3, 4, size=shape).astype(dtype)


def p2p(rank: int) -> None:
    other = 1 - rank
    cases = [(dtype, (2, 3), i) for i, dtype in enumerate(DTYPES)]
    cases += [("float32", (), 20), ("float32", (0, 4), 21), ("int64", (3, 1, 2), 22)]
    for dtype, shape, salt in cases:
        sent = data(dtype, shape, salt + 100 * rank)
        if rank == 0:
            _C_ops.p_send(paddle.to_tensor(sent), 0, other, True)
            got = _C_ops.p_recv(0, other, dtype, True)
        else:
            got = _C_ops.p_recv(0, other, dtype, True)
            _C_ops.p_send(paddle.to_tensor(sent), 0, other, True)
        expected = data(dtype, shape, salt + 100 * other)
        assert got.dtype == paddle.to_tensor(expected).dtype and got.shape == list(shape)
        np.testing.assert_array_equal(got.numpy(), expected)
    strided = np.arange(24, dtype=np.float64).reshape(4, 6)
    if rank == 0:
        _C_ops.p_send(paddle.to_tensor(strided)[:, ::3], 0, 1, False)
        buffer = paddle.zeros([2, 2], "float32")
        dist.recv(buffer, src=1)  # what the functional send sent, into a tensor of its shape
        np.testing.assert_array_equal(buffer.numpy(), [[1, 2], [3, 4]])
        _C_ops.p_send(paddle.to_tensor(np.ones(2, np.int32)), 0, 1, False)
    else:
        np.testing.assert_array_equal(_C_ops.p_recv(0, 0, "float64", False).numpy(), strided[:, ::3])
        dist.send(paddle.to_tensor(np.array([[1, 2], [3, 4]], np.float32)), dst=0)
        try:
            _C_ops.p_recv(0, 0, "float32", False)
        except InvalidArgumentError as error:
            assert "sent a int32 tensor" in str(error) and "dtype float32" in str(error), error
        else:
            raise AssertionError("p_recv of another dtype than sent did not raise")


def static(rank: int) -> None:
    other = 1 - rank
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [2, 3], "float32")
        if rank == 0:
            dist.send(x * 2.0, dst=other)  # builds the p_send op, as PaddlePaddle's its send_v2
            back = paddle.zeros([2, 3], "float32")
            dist.recv(back, src=other)  # builds p_recv and assign_out_ into back
        else:
            received = _C_ops.p_recv(0, other, paddle.float32, True)
            _C_ops.p_send(received + x, 0, other, True)
            back = received
        result = back + 1.0
    assert "pd_op.p_send" in str(main) and "pd_op.p_recv" in str(main)
    exe = paddle.static.Executor(paddle.CPUPlace())
    feeds = [np.arange(6, dtype=np.float32).reshape(2, 3) + 10 * r for r in range(2)]
    (out,) = exe.run(main, feed={"x": feeds[rank]}, fetch_list=[result])
    expected = feeds[0] * 2 + feeds[1] + 1 if rank == 0 else feeds[0] * 2 + 1
    np.testing.assert_allclose(out, expected)
    paddle.disable_static()


def embedding(rank: int) -> None:
    rows, width, size = 4, 3, 2
    table = np.arange(rows * size * width, dtype=np.float64).reshape(rows * size, width) / 7
    ids = np.array([[0, 5, 7], [4, 3, 3]], dtype=np.int64)
    shard = paddle.to_tensor(table[rank * rows : (rank + 1) * rows])
    shard.stop_gradient = False
    local = _C_ops.c_embedding(shard, paddle.to_tensor(ids), rank * rows, rows * size)
    summed = _C_ops.c_allreduce_sum(local, 0, True, True)
    np.testing.assert_allclose(summed.numpy(), table[ids])
    weights = np.linspace(0.5, 2.0, ids.size * width).reshape(2, 3, width)
    (local * paddle.to_tensor(weights)).sum().backward()
    full_grad = np.zeros_like(table)
    np.add.at(full_grad, ids.reshape(-1), weights.reshape(-1, width))
    np.testing.assert_allclose(shard.grad.numpy(), full_grad[rank * rows : (rank + 1) * rows])


def main(modes: list[str]) -> None:
    dist.init_parallel_env()
    rank = dist.get_rank()
    for mode in modes:
        {"p2p": p2p, "static": static, "embedding": embedding}[mode](rank)
    print(f"rank {rank} ok", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
