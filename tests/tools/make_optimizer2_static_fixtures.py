"""Writes tests/data/optimizer/static/: the static training programs of
tests/optimizer/optimizer2_static_cases.py as PaddlePaddle 3.3.1 builds and runs them, in the
format of tests/tools/make_static_training_fixtures.py (``<case>.json``: the main and startup
programs' text, the fetched values' printed names, the scope variables; ``<case>.npz``: those
variables after the startup program and, per step, the feeds, the fetches and the variables).

Run with the side venv: ``/work/paddle-venv/bin/python tests/tools/make_optimizer2_static_fixtures.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import paddle

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.optimizer.optimizer2_static_cases import CASES, STEPS  # noqa: E402
from tests.tools.make_static_training_fixtures import (  # noqa: E402
    feeds,
    paddle_library,
    printed_names,
    scope_names,
)

OUT = Path(__file__).resolve().parents[1] / "data" / "optimizer" / "static"


def library() -> SimpleNamespace:
    return SimpleNamespace(**vars(paddle_library()), optimizer=paddle.optimizer)


def record(name: str) -> None:
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
        fetches = CASES[name](library())
    rng = np.random.default_rng(sum(map(ord, name)))
    paddle.seed(sum(map(ord, name)))  # the startup program's initializers
    scope = paddle.static.Scope()
    exe = paddle.static.Executor(paddle.CPUPlace())
    names = scope_names(main)
    arrays = {}
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        for var in names:
            arrays[f"before/{var}"] = np.array(scope.find_var(var).get_tensor())
        for step in range(STEPS):
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
        "steps": STEPS,
    }
    (OUT / f"{name}.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    np.savez_compressed(OUT / f"{name}.npz", **arrays)
    print(f"{name}: {len(names)} scope variables, {STEPS} steps")


def main() -> None:
    paddle.enable_static()
    OUT.mkdir(parents=True, exist_ok=True)
    for name in CASES:
        record(name)


if __name__ == "__main__":
    main()
