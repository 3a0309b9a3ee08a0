"""Writes tests/data/control_flow/: control-flow programs (``paddle.static.nn.cond`` and
``while_loop``, nested, and the backward of both) built by PaddlePaddle 3.3.1 in static mode,
their printed text, and what PaddlePaddle's executor fetches from them for given feeds.

Run with the side venv: ``/work/paddle-venv/bin/python tests/tools/make_control_flow_fixtures.py``.

``programs.json`` holds, per case, ``text`` (``str(main)``), ``fetch`` (each fetched value as
[index of its op in the top-level block, result index]) and the number of ``runs``;
``<case>.npz`` holds ``feed_<run>_<name>`` and ``fetch_<run>_<k>``. The cases and their feeds
are tests/static/control_flow_cases.py, shared with the test that builds them with phiops.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import paddle
from paddle import _C_ops

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.static.control_flow_cases import CASES, FEEDS  # noqa: E402  (repository root on path)

OUT = Path(__file__).resolve().parents[1] / "data" / "control_flow"


def paddle_library() -> SimpleNamespace:
    """``lib`` for the shared cases: PaddlePaddle's static API with phiops' signatures."""
    ops = "mean exp abs sum max tanh cast index_select concat"
    return SimpleNamespace(
        data=lambda name, shape, dtype="float32": paddle.static.data(name, shape, dtype),
        full=lambda shape, value, dtype: paddle.full(shape, value, dtype),
        cond=paddle.static.nn.cond,
        while_loop=paddle.static.nn.while_loop,
        gradients=paddle.static.gradients,
        slice=_C_ops.slice,
        **{name: getattr(paddle, name) for name in ops.split()},
    )


def _position(block, value):
    op = value.get_defining_op()
    for index, candidate in enumerate(block.ops):
        if candidate == op:
            for result_index, result in enumerate(op.results()):
                if result.is_same(value):
                    return [index, result_index]
    raise AssertionError(f"{value} is no result of a top-level op")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    paddle.enable_static()
    programs = {}
    lib = paddle_library()
    for case_name, fn in CASES.items():
        feeds = FEEDS[case_name]
        main_program, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.utils.unique_name.guard():
            with paddle.static.program_guard(main_program, startup):
                fetch = fn(lib)
        block = main_program.global_block()
        arrays = {}
        exe = paddle.static.Executor(paddle.CPUPlace())
        for run, feed in enumerate(feeds):
            results = exe.run(main_program, feed=feed, fetch_list=fetch)
            for name, array in feed.items():
                arrays[f"feed_{run}_{name}"] = array
            for k, result in enumerate(results):
                arrays[f"fetch_{run}_{k}"] = np.asarray(result)
        np.savez_compressed(OUT / f"{case_name}.npz", **arrays)
        programs[case_name] = {
            "text": str(main_program),
            "fetch": [_position(block, v) for v in fetch],
            "runs": len(feeds),
        }
    (OUT / "programs.json").write_text(json.dumps(programs, indent=1) + "\n", "utf-8")


if __name__ == "__main__":
    main()
