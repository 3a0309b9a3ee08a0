"""Distributed training figures: all-reduce bandwidth and data-parallel throughput.

1. All-reduce of float32 messages from 1 KB to 64 MB on 2 MPI ranks: phiops'
   ``paddle.distributed.all_reduce`` on a Tensor (in place, with its shape check and its
   watchdog) and the ``all_reduce`` op (a new output), next to mpi4py's raw ``Allreduce`` on
   numpy arrays (the floor). Seconds per call (the minimum and the median over repeats, each
   repeat timed on rank 0 between barriers), the bus bandwidth (bytes / time), and phiops /
   mpi4py.
2. Data-parallel training: an MLP (batch 64 per rank, 256 -> 1024 -> 1024 -> 10, Adam) under
   ``paddle.DataParallel`` on 1 and 2 processes: samples per second over all ranks and the
   scaling efficiency, throughput(2) / (2 x throughput(1)). Each process uses one BLAS thread.

    python bench/distributed.py            (starts the ranks itself through mpiexec)

Not a test. On a machine with fewer free cores than ranks the ranks share cores, so the scaling
efficiency shows that machine, not phiops.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

SIZES = [1 << 10, 1 << 14, 1 << 17, 1 << 20, 1 << 23, 1 << 26]  # bytes: 1 KB ... 64 MB
REPEATS = 7


def _timed(comm, fn, calls: int) -> float:
    comm.Barrier()
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    comm.Barrier()
    return (time.perf_counter() - start) / calls


def all_reduce_worker() -> None:
    import phiops as paddle
    from mpi4py import MPI
    from phiops import _C_ops

    paddle.distributed.init_parallel_env()
    comm = MPI.COMM_WORLD
    rows = []
    for size in SIZES:
        count = size // 4
        array = np.ones(count, dtype=np.float32)
        result = np.empty_like(array)
        tensor = paddle.to_tensor(array)
        calls = max(1, min(200, (1 << 24) // size))
        contenders = {
            "mpi4py Allreduce": lambda: comm.Allreduce(array, result),
            "paddle.distributed.all_reduce": lambda: paddle.distributed.all_reduce(tensor),
            "all_reduce op": lambda: _C_ops.all_reduce(tensor, 0, 0),
        }
        for fn in contenders.values():
            fn()  # warm up
        times: dict[str, list[float]] = {name: [] for name in contenders}
        for _ in range(REPEATS):
            for name, fn in contenders.items():
                times[name].append(_timed(comm, fn, calls))
        rows.append({"bytes": size, "times": times})
    if comm.Get_rank() == 0:
        print(json.dumps(rows))


def train_worker(steps: int) -> None:
    import phiops as paddle

    paddle.distributed.init_parallel_env()
    rank, world = paddle.distributed.get_rank(), paddle.distributed.get_world_size()
    paddle.seed(0)
    nn = paddle.nn
    model = paddle.DataParallel(
        nn.Sequential(nn.Linear(256, 1024), nn.ReLU(), nn.Linear(1024, 1024), nn.ReLU(),
                      nn.Linear(1024, 10))
    )
    optimizer = paddle.optimizer.Adam(learning_rate=1e-3, parameters=model.parameters())
    rng = np.random.default_rng(rank)
    x = paddle.to_tensor(rng.standard_normal((64, 256)).astype(np.float32))
    y = paddle.to_tensor(rng.integers(0, 10, size=(64,)).astype(np.int64))

    def step() -> None:
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        optimizer.clear_grad()

    for _ in range(3):
        step()
    from mpi4py import MPI

    comm = MPI.COMM_WORLD
    per_step = [_timed(comm, step, steps) for _ in range(REPEATS)]
    if rank == 0:
        print(json.dumps({"ranks": world, "per_step": per_step, "batch": 64 * world}))


def _mpiexec() -> str:
    beside = Path(sys.executable).parent / "mpiexec"
    return str(beside) if beside.exists() else "mpiexec"


def _run(ranks: int, *arguments: str) -> str:
    command = [_mpiexec(), "-n", str(ranks), sys.executable, __file__, *arguments]
    root = str(Path(__file__).resolve().parents[1])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=1800)
    if done.returncode:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout.strip().splitlines()[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description="distributed bench")
    parser.add_argument("--worker", choices=["all_reduce", "train"])
    parser.add_argument("--steps", type=int, default=20)
    options = parser.parse_args()
    if options.worker == "all_reduce":
        return all_reduce_worker()
    if options.worker == "train":
        return train_worker(options.steps)

    print("All-reduce of float32 on 2 ranks: seconds per call (min / median), bus bandwidth at")
    print("the minimum, phiops / mpi4py at the minimum and the median")
    rows = json.loads(_run(2, "--worker", "all_reduce"))
    for row in rows:
        size = row["bytes"]
        label = f"{size // 1024} KB" if size < 1 << 20 else f"{size >> 20} MB"
        floor = row["times"]["mpi4py Allreduce"]
        print(f"\n{label}")
        for name, times in row["times"].items():
            best, median = min(times), statistics.median(times)
            ratio = f"{best / min(floor):5.2f}x / {median / statistics.median(floor):5.2f}x"
            print(
                f"  {name:32s} {best * 1e3:9.3f} ms / {median * 1e3:9.3f} ms  "
                f"{size / best / 1e9:7.3f} GB/s  {ratio}"
            )
    print("\nData-parallel training (MLP 256-1024-1024-10, batch 64 per rank, Adam)")
    results = [json.loads(_run(ranks, "--worker", "train", "--steps", str(options.steps)))
               for ranks in (1, 2)]
    throughput = {}
    for result in results:
        best, median = min(result["per_step"]), statistics.median(result["per_step"])
        throughput[result["ranks"]] = (result["batch"] / best, result["batch"] / median)
        print(
            f"  {result['ranks']} process(es): {best * 1e3:8.2f} ms / {median * 1e3:8.2f} ms per "
            f"step, {throughput[result['ranks']][0]:8.0f} / {throughput[result['ranks']][1]:8.0f} "
            "samples/s (min / median)"
        )
    efficiency = [throughput[2][i] / (2 * throughput[1][i]) for i in (0, 1)]
    print(f"  scaling efficiency on 2 processes: {efficiency[0]:.2f} (min) / {efficiency[1]:.2f} (median)")
    print(f"  CPU cores this process may use: {len(os.sched_getaffinity(0))}")


if __name__ == "__main__":
    main()
