"""Writes tests/data/static_training/: backward programs and static training as PaddlePaddle 3.3.1
builds and runs them.

Run with the side venv: ``/work/paddle-venv/bin/python tests/tools/make_static_training_fixtures.py``.
Each case builds a program (unique names counted from 0), runs its startup program in a fresh
scope, then runs the main program ``steps`` times on seeded random feeds. ``<case>.json`` holds
the main and startup programs' text, the printed names of the fetched values and the scope
variables recorded; ``<case>.npz`` holds ``before/<name>`` (those variables after the startup
program), and per step ``step<k>/feed/<data name>``, ``step<k>/fetch/<i>`` and
``step<k>/after/<name>``. The cases are tests/static/static_training_cases.py, which
tests/static/test_static_training.py builds with phiops; it runs both PaddlePaddle's text and
phiops' program against these.
"""

from __future__ import annotations

import json
from pathlib import Path

import sys
from types import SimpleNamespace

import numpy as np
import paddle

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.static.static_training_cases import CASES, STEPS  # noqa: E402  (repository root)

OUT = Path(__file__).resolve().parents[2] / "tests" / "data" / "static_training"


def paddle_library() -> SimpleNamespace:
    """``lib`` for the shared cases: PaddlePaddle's static API with phiops' signatures."""
    return SimpleNamespace(
        data=paddle.static.data,
        create_parameter=paddle.create_parameter,
        append_backward=paddle.static.append_backward,
        gradients=paddle.static.gradients,
        SGD=paddle.optimizer.SGD,
        Momentum=paddle.optimizer.Momentum,
        Adam=paddle.optimizer.Adam,
        AdamW=paddle.optimizer.AdamW,
        relu=paddle.nn.functional.relu,
        **{name: getattr(paddle, name) for name in "add matmul mean tanh".split()},
        cross_entropy_with_softmax=paddle._C_ops.cross_entropy_with_softmax,
    )


def printed_names(program, values) -> list[str]:
    results = [r for op in program.global_block().ops for r in op.results()]
    names = []
    for value in values:
        index = next(i for i, r in enumerate(results) if r.is_same(value))
        names.append(f"%{index}")
    return names


def feeds(rng: np.random.Generator, program) -> dict[str, np.ndarray]:
    out = {}
    for op in program.global_block().ops:
        if op.name() != "pd_op.data" or op.attrs().get("persistable"):
            continue
        name = op.attrs()["name"]
        shape = [5 if d == -1 else d for d in op.result(0).shape]
        if name == "y":
            out[name] = rng.integers(0, 3, shape).astype("int64")
        else:
            out[name] = rng.uniform(-1.0, 1.0, shape).astype("float32")
    return out


def scope_names(program) -> list[str]:
    names = []
    for op in program.global_block().ops:
        if op.name() == "builtin.parameter":
            names.append(op.attrs()["parameter_name"])
        elif op.name() == "pd_op.data" and op.attrs().get("persistable"):
            names.append(op.attrs()["name"])
    return sorted(names)


def record(name: str, build, steps: int) -> None:
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
        fetches = build(paddle_library())
    rng = np.random.default_rng(sum(map(ord, name)))
    paddle.seed(sum(map(ord, name)))  # the startup program's uniform initializers
    scope = paddle.static.Scope()
    exe = paddle.static.Executor(paddle.CPUPlace())
    names = scope_names(main)
    arrays = {}
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        for var in names:
            arrays[f"before/{var}"] = np.array(scope.find_var(var).get_tensor())
        for step in range(steps):
            feed = feeds(rng, main)
            fetched = exe.run(main, feed=feed, fetch_list=fetches)
            for key, value in feed.items():
                arrays[f"step{step}/feed/{key}"] = value
            for index, value in enumerate(fetched):
                arrays[f"step{step}/fetch/{index}"] = np.asarray(value)
            for var in names:
                arrays[f"step{step}/after/{var}"] = np.array(scope.find_var(var).get_tensor())
    meta = {
        "main": str(main),
        "startup": str(startup),
        "fetch": printed_names(main, fetches),
        "scope": names,
        "steps": steps,
    }
    (OUT / f"{name}.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    np.savez_compressed(OUT / f"{name}.npz", **arrays)
    print(f"{name}: {len(fetches)} fetches, {len(names)} scope variables, {steps} step(s)")


def main() -> None:
    paddle.enable_static()
    OUT.mkdir(parents=True, exist_ok=True)
    for name, build in CASES.items():
        record(name, build, STEPS[name])


if __name__ == "__main__":
    main()
