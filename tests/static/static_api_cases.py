"""Programs built with ``paddle.static``'s control flow ``case`` / ``switch_case`` and trained
and saved with ``paddle.static.save``, the same code for PaddlePaddle 3.3.1
(tests/tools/make_static_api_fixtures.py records what it prints and computes) and for phiops
(tests/static/test_static_api.py). ``lib`` is the ``paddle`` module or ``phiops``."""

from __future__ import annotations

from typing import Any

import numpy as np

CASE_INPUTS = [(x, i) for x in (0.5, 1.5, 2.5) for i in (0, 1, 3, 7)]


def build_case_program(lib: Any) -> tuple[Any, Any, list[Any]]:
    """(main, startup, fetches): ``case`` with and without a default, ``switch_case`` over a
    dict with a default and over a list without one."""
    S = lib.static
    main, startup = S.Program(), S.Program()
    with S.program_guard(main, startup):
        x = S.data("x", [1], "float32")
        i = S.data("i", [1], "int32")
        one, two = lib.full([1], 1.0), lib.full([1], 2.0)
        r = S.nn.case([(x < one, lambda: x * 10), (x < two, lambda: x * 20)], default=lambda: x * 30)
        r2 = S.nn.case([(x < one, lambda: x - 5), (x < two, lambda: x + 5)])
        s = S.nn.switch_case(i, {1: lambda: x + 1, 3: lambda: x + 3}, default=lambda: x - 1)
        s2 = S.nn.switch_case(i, [lambda: x + 100, lambda: x + 200])
    return main, startup, [r, r2, s, s2]


def run_case_program(lib: Any) -> tuple[str, list[list[float]]]:
    main, startup, fetches = build_case_program(lib)
    exe = lib.static.Executor(lib.CPUPlace())
    exe.run(startup)
    results = []
    for x, i in CASE_INPUTS:
        feed = {"x": np.array([x], "float32"), "i": np.array([i], "int32")}
        results.append([float(v.reshape(-1)[0]) for v in exe.run(main, feed=feed, fetch_list=fetches)])
    return str(main), results


BATCH = np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3)


def build_training_program(lib: Any) -> tuple[Any, Any, Any, Any]:
    """(main, startup, x, loss): fc(3 -> 4) + relu + mean, minimized by Adam (its moments,
    beta powers and learning rate are the optimizer variables ``save`` writes to .pdopt)."""
    S = lib.static
    main, startup = S.Program(), S.Program()
    with S.program_guard(main, startup):
        x = S.data("x", [None, 3], "float32")
        weight = lib.ParamAttr(name="fc_0.w_0", initializer=lib.nn.initializer.Assign(
            np.arange(12, dtype=np.float32).reshape(3, 4) / 10 - 0.5))
        bias = lib.ParamAttr(name="fc_0.b_0", initializer=lib.nn.initializer.Constant(0.1))
        y = S.nn.fc(x, 4, weight_attr=weight, bias_attr=bias)
        loss = lib.mean(lib.nn.functional.relu(y))
        lib.optimizer.Adam(0.05).minimize(loss)
    return main, startup, x, loss


def train(lib: Any, steps: int) -> tuple[Any, Any, Any, Any, list[float]]:
    """The training program after ``steps`` Adam steps on BATCH, and the losses."""
    main, startup, x, loss = build_training_program(lib)
    exe = lib.static.Executor(lib.CPUPlace())
    exe.run(startup)
    losses = [float(exe.run(main, feed={"x": BATCH}, fetch_list=[loss])[0]) for _ in range(steps)]
    return main, exe, x, loss, losses
