"""Each rank all-reduces a GPU tensor holding rank + 1 over NCCL and prints the result, or the
error it got, one line per rank (read by tests/distributed/test_nccl.py)."""

from __future__ import annotations

import numpy as np

import phiops as paddle
import phiops.distributed as dist
from phiops.runtime.errors import PhiError

dist.init_parallel_env()
rank = dist.get_rank()
x = paddle.to_tensor(np.full((4,), rank + 1, np.float32), place="gpu")
try:
    dist.all_reduce(x)
    print(f"rank {rank}: all_reduce {x.numpy().tolist()}", flush=True)
except PhiError as error:
    print(f"rank {rank}: {type(error).__name__}: {error}", flush=True)
