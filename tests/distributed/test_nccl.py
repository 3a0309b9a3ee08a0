"""The NCCL context (runtime/comm/nccl.py) on one GPU, a ring of one process: the collectives
on CuPy arrays, by their device pointers, and the ops on GPU tensors after init_parallel_env.
Skipped without a GPU (and CuPy with NCCL)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import numpy as np
import pytest

import phiops as paddle
import phiops.distributed as dist
from phiops import _C_ops
from phiops.runtime.comm import COMM_CONTEXTS, ReduceOp
from phiops.runtime.common import Backend
from tests.distributed.launching import run_ranks

pytestmark = pytest.mark.gpu


@pytest.fixture()
def nccl() -> Iterator[object]:
    from phiops.runtime.comm.nccl import NCCLCommContext

    yield NCCLCommContext.world(0)


@pytest.fixture(autouse=True)
def fresh_environment() -> Iterator[None]:
    dist.destroy_process_group()
    yield
    dist.destroy_process_group()


@pytest.mark.parametrize("dtype", ["float32", "float16", "int64", "bool", "complex64"])
@pytest.mark.parametrize("op", list(ReduceOp))
def test_all_reduce_on_one_gpu_gives_its_input(nccl, dtype: str, op: ReduceOp) -> None:
    import cupy

    if (dtype == "bool" and op is ReduceOp.AVG) or (
        dtype == "complex64" and op in (ReduceOp.MAX, ReduceOp.MIN)
    ):
        pytest.skip("an undefined reduction (rejected: tests/ops/test_collective.py)")
    host = (np.arange(12) % 3).reshape(3, 4).astype(dtype)
    x = cupy.asarray(host)
    out = cupy.empty_like(x)
    nccl.all_reduce(x, out, op).wait()
    np.testing.assert_array_equal(cupy.asnumpy(out), host)


def test_the_other_collectives_on_one_gpu(nccl) -> None:
    import cupy

    host = np.arange(8, dtype=np.float32).reshape(2, 4)
    x = cupy.asarray(host)
    gathered = cupy.empty((1, 2, 4), dtype=cupy.float32)
    nccl.all_gather(x, gathered).wait()
    buffer = x.copy()
    nccl.broadcast(buffer, 0).wait()
    scattered = cupy.empty_like(x)
    nccl.reduce_scatter(x, scattered, ReduceOp.SUM).wait()
    exchanged = cupy.empty_like(x)
    nccl.all_to_all(x, exchanged).wait()
    nccl.barrier().wait()
    for result in (gathered[0], buffer, scattered, exchanged):
        np.testing.assert_array_equal(cupy.asnumpy(result), host)


def test_the_ops_on_gpu_tensors_use_the_nccl_ring() -> None:
    dist.init_parallel_env()
    x = paddle.to_tensor(np.ones((2, 3), dtype=np.float32), place="gpu")
    out = _C_ops.all_reduce(x, 0, 0)
    assert out.place.backend is Backend.GPU
    np.testing.assert_array_equal(out.numpy(), np.ones((2, 3)))
    assert type(COMM_CONTEXTS.get(0, Backend.GPU, "test")).__name__ == "NCCLCommContext"
    dist.all_reduce(x)
    np.testing.assert_array_equal(x.numpy(), np.ones((2, 3)))


def _launcher() -> list[str]:
    """mpiexec -n 2 for this Python: the distributed extra's (MPICH, beside it) or the machine's
    (GPU machines often have Open MPI, which needs leave to run as root and the variables)."""
    beside = Path(sys.executable).parent / "mpiexec"
    path = str(beside) if beside.exists() else shutil.which("mpiexec")
    if path is None:
        pytest.skip("no mpiexec (install phiops[distributed])")
    version = subprocess.run([path, "--version"], capture_output=True, text=True).stdout
    extra = ["--allow-run-as-root", "-x", "PYTHONPATH", "-x", "PHIOPS_COMM_TIMEOUT"]
    return [path, *(extra if "Open MPI" in version else []), "-n", "2", sys.executable]


def test_two_ranks_all_reduce_over_nccl_or_are_told_why_not() -> None:
    """Two ranks on this machine: with two GPUs each rank takes its own and the sum arrives;
    with one, both ranks get the named error (NCCL refuses two ranks on one GPU), no hang."""
    import cupy

    result = run_ranks("nccl_ranks.py", 2, timeout=120, launcher=_launcher())
    lines = sorted(line for line in result.stdout.splitlines() if line.startswith("rank "))
    if cupy.cuda.runtime.getDeviceCount() >= 2:
        assert lines == [f"rank {r}: all_reduce [3.0, 3.0, 3.0, 3.0]" for r in (0, 1)], (
            result.stdout
        )
    else:
        assert len(lines) == 2, result.stdout
        for rank, line in enumerate(lines):
            assert line.startswith(f"rank {rank}: PreconditionNotMetError: NCCL needs one GPU"), (
                result.stdout
            )
