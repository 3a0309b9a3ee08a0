"""Writes tests/data/control_flow/: control-flow programs (``paddle.static.nn.cond`` and
``while_loop``, nested, and the backward of both) built by PaddlePaddle 3.3.1 in static mode,
their printed text, and what PaddlePaddle's executor fetches from them for given feeds.

Run with the side venv: ``/work/paddle-venv/bin/python tests/tools/make_control_flow_fixtures.py``.

``programs.json`` holds, per case, ``text`` (``str(main)``), ``fetch`` (each fetched value as
[index of its op in the top-level block, result index]) and the number of ``runs``;
``<case>.npz`` holds ``feed_<run>_<name>`` and ``fetch_<run>_<k>``. The phiops twin of each case
(same name) is in tests/static/test_control_flow_fixtures.py. Where phiops' API is PHI's op
(``phi.slice``), the case calls PaddlePaddle's op the
same way (``paddle._C_ops``).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import paddle
from paddle import _C_ops

OUT = Path(__file__).resolve().parents[1] / "data" / "control_flow"
CASES = []
nn = paddle.static.nn


def case(*feeds):
    """A case builds a program and returns the values to fetch; ``feeds`` are its runs."""

    def register(fn):
        CASES.append((fn, feeds))
        return fn

    return register


def data(name, shape, dtype="float32"):
    return paddle.static.data(name, shape, dtype)


def full(shape, value, dtype):
    return paddle.full(shape, value, dtype)


X23 = np.array([[0.5, 1.0, 1.5], [2.0, 2.5, 3.0]], "float32")


@case({"x": X23}, {"x": -X23})
def cond_mean_positive():
    x = data("x", [2, 3])
    pred = paddle.mean(x) > 0
    out = nn.cond(pred, lambda: paddle.exp(x) * 2.0, lambda: paddle.abs(x) + 1.0)
    return [out]


@case({"p": np.array(True), "x": X23}, {"p": np.array(False), "x": X23})
def cond_fed_0d_predicate():
    p = data("p", [], "bool")
    x = data("x", [2, 3])
    return [nn.cond(p, lambda: x * x, lambda: x - 1.0)]


@case({"p": np.array([True]), "x": X23}, {"p": np.array([False]), "x": X23})
def cond_nested_outputs():
    p = data("p", [1], "bool")
    x = data("x", [2, 3])
    a, (b, c), d, n = nn.cond(
        p,
        lambda: (x + 1.0, [x * 2.0, {"k": paddle.sum(x)}], x, 3),
        lambda: (x - 1.0, [x * 3.0, {"k": paddle.max(x)}], paddle.tanh(x), 3),
    )
    return [a, b, c["k"], d]


@case(
    {"p": np.array([True]), "x": X23, "y": np.ones((4, 3), "float32")},
    {"p": np.array([False]), "x": X23, "y": np.ones((4, 3), "float32")},
)
def cond_branch_extents_differ():
    p = data("p", [1], "bool")
    x = data("x", [2, 3])
    y = data("y", [4, 3])
    out = nn.cond(p, lambda: x * 2.0, lambda: y * 3.0)
    return [out, paddle.sum(out, axis=0)]


@case({"x": X23})
def cond_no_outputs():
    x = data("x", [2, 3])
    nn.cond(paddle.mean(x) > 0, lambda: None)
    return [x * 1.0]


@case({})
def while_counting():
    i = full([1], 0, "int64")
    ten = full([1], 10, "int64")
    i, ten = nn.while_loop(lambda i, t: i < t, lambda i, t: [i + 1, t], [i, ten])
    return [i, ten]


@case({"x": X23})
def while_accumulate():
    x = data("x", [2, 3])
    i = full([1], 0, "int64")
    s = full([2, 3], 0.0, "float32")

    def body(i, s):
        return [i + 1, s + x * paddle.cast(i, "float32")]

    return nn.while_loop(lambda i, s: i < 4, body, [i, s])


@case({"x": np.arange(15, dtype="float32").reshape(5, 3)})
def while_over_slices():
    x = data("x", [5, 3])
    i = full([1], 0, "int64")
    s = full([1, 3], 0.0, "float32")

    def body(i, s):
        row = _C_ops.slice(x, [0], i, i + 1, [-1], [])
        return [i + 1, s + row * row]

    return nn.while_loop(lambda i, s: i < 5, body, [i, s])


@case({"x": np.arange(15, dtype="float32").reshape(5, 3)})
def while_over_rows():
    x = data("x", [5, 3])
    i = full([1], 0, "int64")
    s = full([1, 3], 0.0, "float32")

    def body(i, s):
        row = paddle.index_select(x, i, axis=0)
        return [i + 1, s + row * 2.0]

    return nn.while_loop(lambda i, s: i < 5, body, [i, s])


@case({})
def while_swap():
    a = full([1], 1.0, "float32")
    b = full([1], 2.0, "float32")
    i = full([1], 0, "int64")
    return nn.while_loop(lambda i, a, b: i < 3, lambda i, a, b: [i + 1, b, a * 2.0], [i, a, b])


@case({"x": X23})
def while_extent_grows():
    x = data("x", [2, 3])
    i = full([1], 0, "int64")
    i, s = nn.while_loop(
        lambda i, s: i < 3, lambda i, s: [i + 1, paddle.concat([s, s * 2.0])], [i, x]
    )
    return [i, s, paddle.sum(s)]


@case({"x": X23}, {"x": X23 * 2.0})
def nested_cond_and_while_in_while():
    x = data("x", [2, 3])
    i = full([1], 0, "int64")
    s = full([2, 3], 0.0, "float32")

    def body(i, s):
        s2 = nn.cond(paddle.mean(s) > 2.0, lambda: s + 1.0, lambda: s + x)
        j = full([1], 0, "int64")
        j, s3 = nn.while_loop(lambda j, t: j < 2, lambda j, t: [j + 1, t * 1.5], [j, s2])
        return [i + 1, s3]

    return nn.while_loop(lambda i, s: i < 3, body, [i, s])


@case({"p": np.array(True), "x": X23}, {"p": np.array(False), "x": X23})
def while_in_cond():
    p = data("p", [], "bool")
    x = data("x", [2, 3])

    def looped():
        i = full([1], 0, "int64")
        _, s = nn.while_loop(lambda i, s: i < 3, lambda i, s: [i + 1, s * x], [i, x])
        return s

    return [nn.cond(p, looped, lambda: x)]


@case({"x": X23}, {"x": -X23})
def cond_gradient():
    x = data("x", [2, 3])
    x.stop_gradient = False
    out = nn.cond(paddle.mean(x) > 0, lambda: paddle.tanh(x), lambda: x * x)
    loss = paddle.mean(out)
    (grad,) = paddle.static.gradients([loss], [x])
    return [loss, grad]


@case({"x": X23 * 0.25})
def while_gradient():
    x = data("x", [2, 3])
    x.stop_gradient = False
    i = full([1], 0, "int64")
    _, s = nn.while_loop(lambda i, s: i < 3, lambda i, s: [i + 1, paddle.tanh(s)], [i, x])
    loss = paddle.mean(s)
    (grad,) = paddle.static.gradients([loss], [x])
    return [loss, grad]


@case({"x": X23 * 0.25}, {"x": X23})
def nested_gradient():
    x = data("x", [2, 3])
    x.stop_gradient = False
    i = full([1], 0, "int64")

    def body(i, s):
        s = nn.cond(paddle.mean(s) > 0.5, lambda: paddle.tanh(s), lambda: s * s + s)
        return [i + 1, s]

    _, s = nn.while_loop(lambda i, s: i < 3, body, [i, x])
    loss = paddle.mean(s)
    (grad,) = paddle.static.gradients([loss], [x])
    return [loss, grad]


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
    for fn, feeds in CASES:
        main_program, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.utils.unique_name.guard():
            with paddle.static.program_guard(main_program, startup):
                fetch = fn()
        block = main_program.global_block()
        arrays = {}
        exe = paddle.static.Executor(paddle.CPUPlace())
        for run, feed in enumerate(feeds):
            results = exe.run(main_program, feed=feed, fetch_list=fetch)
            for name, array in feed.items():
                arrays[f"feed_{run}_{name}"] = array
            for k, result in enumerate(results):
                arrays[f"fetch_{run}_{k}"] = np.asarray(result)
        np.savez_compressed(OUT / f"{fn.__name__}.npz", **arrays)
        programs[fn.__name__] = {
            "text": str(main_program),
            "fetch": [_position(block, v) for v in fetch],
            "runs": len(feeds),
        }
    (OUT / "programs.json").write_text(json.dumps(programs, indent=1) + "\n", "utf-8")


if __name__ == "__main__":
    main()
