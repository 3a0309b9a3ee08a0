"""Write tests/data/distributed/: static programs holding PaddlePaddle's collective ops, saved by
PaddlePaddle 3.3.1 itself (run in the side venv:
``/work/paddle-venv/bin/python -m tests.tools.make_distributed_fixtures``).

``allreduce_linear.json`` + ``.pdiparams``: an inference model ``out = c_allreduce_sum(x @ w +
b)`` followed by ``all_gather`` (nranks 2), as static data-parallel code appends them (the
program is built on CPU, without a communicator: building needs none). ``expected.npz`` holds
its feed per rank and the answer numpy gives for 2 ranks, which tests/distributed/test_static.py
compares phiops' Executor with, one process per rank.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parents[1] / "data" / "distributed"


def main() -> None:
    import paddle

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
    OUT.mkdir(parents=True, exist_ok=True)
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
