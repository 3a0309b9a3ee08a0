"""Run a static program holding collective ops with phiops' Executor, one process per rank:
``static_program.py saved`` loads the inference model PaddlePaddle 3.3.1 saved
(tests/data/distributed/, tests/tools/make_distributed_fixtures.py); ``static_program.py built``
builds one with phiops. Each rank checks its fetches against numpy and prints ``rank N ok``."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

import phiops as paddle
from phiops import _C_ops

DATA = Path(__file__).resolve().parents[2] / "data" / "distributed"


def saved(rank: int) -> None:
    expected = np.load(DATA / "expected.npz")
    exe = paddle.static.Executor(paddle.CPUPlace())
    program, feeds, fetches = paddle.static.load_inference_model(
        str(DATA / "allreduce_linear"), exe
    )
    summed, gathered = exe.run(
        program, feed={feeds[0]: expected[f"x{rank}"]}, fetch_list=fetches
    )
    np.testing.assert_allclose(summed, expected["summed"], rtol=1e-5)
    np.testing.assert_allclose(gathered, expected["gathered"], rtol=1e-5)


def built(rank: int) -> None:
    size = paddle.distributed.get_world_size()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [2, 3], "float32")
        summed = _C_ops.c_allreduce_sum(x * 2.0, 0, True, False)
        maximum = _C_ops.all_reduce(x, 0, 1)
        gathered = _C_ops.all_gather(x, 0, size)
        root = _C_ops.broadcast(x, 0, size - 1)
    exe = paddle.static.Executor(paddle.CPUPlace())
    feeds = [np.arange(6, dtype=np.float32).reshape(2, 3) * (r + 1) for r in range(size)]
    out = exe.run(main, feed={"x": feeds[rank]}, fetch_list=[summed, maximum, gathered, root])
    np.testing.assert_allclose(out[0], sum(f * 2 for f in feeds))
    np.testing.assert_allclose(out[1], np.maximum.reduce(feeds))
    np.testing.assert_allclose(out[2], np.concatenate(feeds))
    np.testing.assert_allclose(out[3], feeds[-1])


def main(mode: str) -> None:
    paddle.distributed.init_parallel_env()
    rank = paddle.distributed.get_rank()
    paddle.enable_static()
    {"saved": saved, "built": built}[mode](rank)
    print(f"rank {rank} ok", flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
