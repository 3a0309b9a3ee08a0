"""Write tests/data/distributed/: static programs holding PaddlePaddle's collective ops, saved by
PaddlePaddle 3.3.1 itself (run in the side venv:
``/work/paddle-venv/bin/python -m tests.tools.make_distributed_fixtures``).

``allreduce_linear.json`` + ``.pdiparams``: an inference model ``out = c_allreduce_sum(x @ w +
b)`` followed by ``all_gather`` (nranks 2), as static data-parallel code appends them (the
program is built on CPU, without a communicator: building needs none). ``expected.npz`` holds
its feed per rank and the answer numpy gives for 2 ranks, which tests/distributed/test_static.py
compares phiops' Executor with, one process per rank. ``signatures.json``: the parameters (name,
kind, default) of paddle.distributed's functions and classes phiops has, which
tests/distributed/test_api.py compares phiops' with.
"""

from __future__ import annotations

import inspect
import json
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parents[1] / "data" / "distributed"


SIGNED = [
    "init_parallel_env", "get_rank", "get_world_size", "new_group", "get_group", "all_reduce",
    "all_gather", "all_gather_object", "broadcast", "reduce", "reduce_scatter", "alltoall",
    "scatter", "send", "recv", "isend", "irecv", "barrier", "wait", "is_initialized",
    "is_available", "destroy_process_group", "get_backend", "DataParallel", "launch",
]


def signatures() -> dict[str, list[list[str]]]:
    """name -> [[parameter, kind, repr(default) or ""], ...] in paddle.distributed 3.3.1."""
    import paddle
    import paddle.distributed as dist

    found = {}
    for name in SIGNED:
        target = getattr(dist, name)
        found[name] = [
            [p.name, p.kind.name, "" if p.default is p.empty else repr(p.default)]
            for p in inspect.signature(target).parameters.values()
        ]
    found["io.DistributedBatchSampler"] = [
        [p.name, p.kind.name, "" if p.default is p.empty else repr(p.default)]
        for p in inspect.signature(paddle.io.DistributedBatchSampler).parameters.values()
    ]
    found["ReduceOp"] = [[op, "VALUE", repr(int(getattr(dist.ReduceOp, op)))] for op in (
        "SUM", "MAX", "MIN", "PROD", "AVG"
    )]
    return found


def main() -> None:
    import paddle

    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "signatures.json").write_text(json.dumps(signatures(), indent=1) + "\n")

    paddle.enable_static()
    main_program, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main_program, startup):
        x = paddle.static.data("x", [2, 3], "float32")
        linear = paddle.nn.Linear(3, 4)
        hidden = linear(x)
        summed = paddle._C_ops.c_allreduce_sum(hidden, 0, True, False)
        gathered = paddle._C_ops.all_gather(summed, 0, 2)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    paddle.static.save_inference_model(
        str(OUT / "allreduce_linear"), [x], [summed, gathered], exe, program=main_program
    )
    scope = paddle.static.global_scope()
    weight = np.array(scope.find_var(linear.weight.name).get_tensor())
    bias = np.array(scope.find_var(linear.bias.name).get_tensor())
    feeds = [
        (np.full((2, 3), rank + 1) + np.arange(6).reshape(2, 3)).astype(np.float32)
        for rank in range(2)
    ]
    hidden_per_rank = [feed @ weight + bias for feed in feeds]
    total = hidden_per_rank[0] + hidden_per_rank[1]
    np.savez(
        OUT / "expected.npz",
        x0=feeds[0],
        x1=feeds[1],
        summed=total,
        gathered=np.concatenate([total, total]),
    )
    print(main_program)


if __name__ == "__main__":
    main()
