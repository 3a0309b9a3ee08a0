"""Which GPU each rank's NCCL communicator uses (runtime/comm/nccl.py): gpu:<local rank>, and a
named error where a node runs more ranks than it has GPUs. No GPU needed: the choice is made
before CuPy is asked for anything but the device count.

On a lent H200 (one GPU), ``mpiexec -n 2`` with GPU tensors got NCCL's own
``NCCL_ERROR_INVALID_USAGE: invalid usage`` from both ranks, naming neither the cause nor the
fix; this is the error they get now, before any communicator is made."""

from __future__ import annotations

import pytest

from phiops.runtime.comm.nccl import device_for_local_rank
from phiops.runtime.errors import PreconditionNotMetError


@pytest.mark.parametrize(
    ("rank", "local_rank", "local_size", "count", "device"),
    [(0, 0, 1, 1, 0), (3, 1, 2, 2, 1), (5, 1, 2, 8, 1), (7, 3, 4, 4, 3)],
)
def test_each_rank_takes_the_gpu_of_its_local_rank(
    rank: int, local_rank: int, local_size: int, count: int, device: int
) -> None:
    assert device_for_local_rank(rank, local_rank, local_size, count) == device


def test_more_ranks_than_gpus_on_a_node_is_a_named_error() -> None:
    with pytest.raises(PreconditionNotMetError) as raised:
        device_for_local_rank(1, 1, 2, 1)
    message = str(raised.value)
    assert "2 ranks and has 1 GPU," in message
    assert "rank 1 (local rank 1) would share gpu:0" in message
    assert "--nproc_per_node 1" in message


def test_no_gpu_is_a_named_error() -> None:
    with pytest.raises(PreconditionNotMetError, match="rank 2 sees no CUDA device"):
        device_for_local_rank(2, 0, 1, 0)
