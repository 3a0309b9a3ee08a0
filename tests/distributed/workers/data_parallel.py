"""Train a small model data parallel and save every rank's parameters:
``data_parallel.py OUT_DIR MODE`` with MODE ``plain`` (one synchronised step per batch),
``no_sync`` (each batch as two micro-batches, the first inside ``no_sync``) or ``unused``
(a branch whose parameters the forward never uses, find_unused_parameters=True)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

import phiops as paddle

sys.path.insert(0, str(Path(__file__).resolve().parent))
from model import GLOBAL_BATCH, STEPS, Net, batches  # noqa: E402


def main(out_dir: str, mode: str) -> None:
    paddle.distributed.init_parallel_env()
    rank = paddle.distributed.get_rank()
    size = paddle.distributed.get_world_size()
    paddle.seed(rank)  # different initial values per rank: DataParallel copies rank 0's
    model = paddle.DataParallel(
        Net(with_unused=mode == "unused"),
        comm_buffer_size=1,
        last_comm_buffer_size=0.0005,
        find_unused_parameters=mode == "unused",
    )
    optimizer = paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
    share = GLOBAL_BATCH // size
    for x, y in batches(STEPS):
        x_mine = paddle.to_tensor(x[rank * share : (rank + 1) * share])
        y_mine = paddle.to_tensor(y[rank * share : (rank + 1) * share])
        if mode == "no_sync":
            half = share // 2
            with model.no_sync():
                loss = paddle.nn.functional.mse_loss(model(x_mine[:half]), y_mine[:half]) * 0.5
                loss.backward()
            loss = paddle.nn.functional.mse_loss(model(x_mine[half:]), y_mine[half:]) * 0.5
            loss.backward()
        else:
            loss = paddle.nn.functional.mse_loss(model(x_mine), y_mine)
            loss.backward()
        optimizer.step()
        optimizer.clear_grad()
    state = {name: value.numpy() for name, value in model.state_dict().items()}
    np.savez(Path(out_dir) / f"rank{rank}.npz", **state)
    print(f"rank {rank}: trained", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
