"""Writes tests/data/value_attributes/: programs in which PaddlePaddle 3.3.1 builds ops whose
IntArray or Scalar attribute is a Value (the op's operand: ``slice``'s starts and ends,
``reshape``'s, ``expand``'s and ``tile``'s shape, ``scale``'s scale; ``paddle.full``'s shape or
value, which gives ``full_with_tensor``), their printed text, and
what PaddlePaddle's executor fetches for a feed.

Run with the side venv: ``/work/paddle-venv/bin/python tests/tools/make_value_attribute_fixtures.py``.

``programs.json`` holds, per case, ``text`` (``str(main)``), ``feed`` (name -> [dtype, nested
list]) and ``fetch`` (the fetched arrays as [dtype, shape, flat list]). The phiops twins (same
names) are in tests/static/test_value_attributes.py; they call PHI's ops as ``paddle._C_ops``
does here.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import paddle
from paddle import _C_ops

OUT = Path(__file__).resolve().parents[1] / "data" / "value_attributes"
CASES = {}


def case(feed):
    def register(fn):
        CASES[fn.__name__] = (fn, feed)
        return fn

    return register


def data(name, shape, dtype="float32"):
    return paddle.static.data(name, shape, dtype)


X = np.arange(15, dtype="float32").reshape(5, 3)


@case({"x": X, "i": np.array([1], "int64")})
def slice_mixed_lists():
    x, i = data("x", [5, 3]), data("i", [1], "int64")
    return [_C_ops.slice(x, [0, 1], [i, 0], [i + 2, 2], [-1, -1], [])]


@case({"x": X, "s": np.array([3, 5], "int64"), "i": np.array([1], "int64")})
def reshape_by_values():
    x, s, i = data("x", [5, 3]), data("s", [2], "int64"), data("i", [1], "int64")
    return [_C_ops.reshape(x, s), _C_ops.reshape(x, [i, 15])]


@case({"z": np.array([[1, 2, 3]], "float32"), "i": np.array([4], "int64")})
def expand_and_tile_by_values():
    z, i = data("z", [1, 3]), data("i", [1], "int64")
    return [_C_ops.expand(z, [i, 3]), _C_ops.tile(z, [i, 2])]


@case({"x": X, "f": np.array([2.5], "float32")})
def scale_by_value():
    x, f = data("x", [5, 3]), data("f", [1], "float32")
    return [_C_ops.scale(x, f, 1.0, True)]


@case({"s": np.array([2, 2], "int64"), "v": np.array([3], "float32"), "i": np.array([1], "int64")})
def full_by_values():
    # paddle.full (phiops' full is this API): pd_op.full_with_tensor
    s, v, i = data("s", [2], "int64"), data("v", [1], "float32"), data("i", [1], "int64")
    return [
        paddle.full(s, 1.5, "float32"),
        paddle.full([2, 3], v, "float32"),
        paddle.full([i, 3], 2.0, "float32"),
    ]


def main() -> None:
    paddle.enable_static()
    OUT.mkdir(parents=True, exist_ok=True)
    programs = {}
    for name, (fn, feed) in CASES.items():
        main_program, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main_program, startup):
            fetch = fn()
        exe = paddle.static.Executor(paddle.CPUPlace())
        got = exe.run(main_program, feed=feed, fetch_list=fetch)
        programs[name] = {
            "text": str(main_program),
            "feed": {k: [str(v.dtype), v.tolist()] for k, v in feed.items()},
            "fetch": [[str(a.dtype), list(a.shape), a.reshape(-1).tolist()] for a in got],
        }
    (OUT / "programs.json").write_text(json.dumps(programs, indent=1) + "\n", "utf-8")


if __name__ == "__main__":
    main()
