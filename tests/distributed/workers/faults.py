"""A rank that goes wrong: ``faults.py MODE`` with MODE ``raise`` (rank 1 raises before the
all_reduce), ``die`` (rank 1's process ends at once, as in a crash), ``sigkill`` (rank 1 is killed by
SIGKILL), ``late`` (rank 1 joins after the timeout) or ``shape``
(the ranks' tensors differ in shape). Rank 0's error is left uncaught: phiops' hook prints it
with the rank's number."""

from __future__ import annotations

import os
import signal
import sys
import time

import numpy as np

import phiops as paddle


def main(mode: str) -> None:
    paddle.distributed.init_parallel_env()
    rank = paddle.distributed.get_rank()
    tensor = paddle.to_tensor(np.ones(4, dtype=np.float32))
    paddle.distributed.all_reduce(tensor)  # every rank healthy so far
    print(f"rank {rank}: first all_reduce done", flush=True)
    if rank == 1:
        if mode == "raise":
            raise ValueError("boom on rank 1")
        if mode == "die":  # a crash: the process ends at once, no Python cleanup
            os._exit(3)
        if mode == "sigkill":
            os.kill(os.getpid(), signal.SIGKILL)
        if mode == "late":
            time.sleep(6)  # twice the tests' 3 s PHIOPS_COMM_TIMEOUT
    if mode == "shape":
        tensor = paddle.to_tensor(np.ones((2, 2 + rank), dtype=np.float32))
    paddle.distributed.all_reduce(tensor)
    print(f"rank {rank}: second all_reduce done", flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
