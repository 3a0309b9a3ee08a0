"""Writes tests/data/static_build/programs.json: programs built by PaddlePaddle 3.3.1 in static
mode, printed, for tests/static/test_build_text.py to compare with the same constructions built
by phiops.

Run with the side venv: ``/work/paddle-venv/bin/python tests/tools/make_static_build_fixtures.py``.

Each case builds into a fresh main and startup program under ``unique_name.guard()`` and records
``str(main)`` and ``str(startup)``. Where phiops' API is PHI's op (``phi.full(shape, value, dtype,
place=CPUPlace())``), the case calls PaddlePaddle's op the same way (``paddle._C_ops.full``);
where it is PaddlePaddle's Python API (operators on values, ``static.data``,
``static.create_parameter`` and the initializers), the case calls that. The phiops twin of each
case, under the same name, is in the test.
"""

from __future__ import annotations

import json
from pathlib import Path

import paddle
from paddle import _C_ops

OUT = Path(__file__).resolve().parents[1] / "data" / "static_build" / "programs.json"
CASES = []
I = paddle.nn.initializer


def case(fn):
    CASES.append(fn)
    return fn


def data(name, shape, dtype="float32"):
    return paddle.static.data(name, shape, dtype)


@case
def mlp():
    x = data("x", [None, 4])
    w = paddle.static.create_parameter([4, 3], "float32", name="w")
    b = paddle.static.create_parameter([3], "float32", name="b", is_bias=True)
    y = paddle.matmul(x, w)
    z = paddle.add(y, b)
    paddle.nn.functional.relu(z)


@case
def scalar_operators():
    x = data("x", [-1, 4])
    x * 2.0
    x - 1.0
    1.0 - x
    x / 4
    x + 3
    -x
    2 * x
    3.5 + x


@case
def scalar_operators_integer():
    n = data("n", [2, 3], "int32")
    n + 1.5
    n / 2
    n * 3
    n - 1


@case
def tensor_operators():
    x = data("x", [2, 3])
    y = data("y", [3, 4])
    x + x
    x - x
    x * x
    x / x
    x**2.0
    2.0 / x
    x @ y
    x > 0.5
    x <= x
    x == x
    x != x


@case
def scale():
    x = data("x", [-1, 3])
    _C_ops.scale(x, 3.0, 0.5, True)
    _C_ops.scale(x, 2.0, 1.0, False)


@case
def full():
    _C_ops.full([2, 3], 1.5, paddle.float32, paddle.CPUPlace())
    _C_ops.full([2], 7, paddle.int64, paddle.CPUPlace())
    _C_ops.full([], 0.25, paddle.float64, paddle.CPUPlace())
    paddle.full([3, 1], -2.0, "float32")


@case
def full_int_array():
    _C_ops.full_int_array([1, 2, 3], paddle.int64, paddle.CPUPlace())
    _C_ops.full_int_array([4], paddle.int32, paddle.CPUPlace())


@case
def reshape():
    x = data("x", [-1, 6])
    y = data("y", [2, 3, 4])
    paddle.reshape(x, [0, -1, 2])
    paddle.reshape(x, [-1, 3])
    paddle.reshape(y, [6, 4])
    paddle.reshape(y, [0, 12])


@case
def scalar_and_int_array_operands():
    x = data("x", [-1, 4])
    y = data("y", [3, 3])
    _C_ops.clip(x, -1.0, 1.0)
    _C_ops.topk(x, 2, -1, True, True)
    _C_ops.concat([x, x], 0)
    _C_ops.split(y, [1, 2], 1)
    _C_ops.sum(x, [1], paddle.float32, False)
    _C_ops.cumsum(x, 1, False, False, False)
    _C_ops.allclose(y, y, 1e-5, 1e-8, False)


@case
def parameter_initializers():
    paddle.static.create_parameter([2, 3], "float32", name="c", default_initializer=I.Constant(1.5))
    paddle.static.create_parameter(
        [2, 3], "float64", name="u", default_initializer=I.Uniform(-0.5, 0.5)
    )
    paddle.static.create_parameter([4], "float32", name="n", default_initializer=I.Normal(0.0, 2.0))
    paddle.static.create_parameter(
        [3, 5], "float32", name="xn", default_initializer=I.XavierNormal()
    )
    paddle.static.create_parameter(
        [8, 3, 2, 2], "float32", name="xu", default_initializer=I.XavierUniform()
    )
    paddle.static.create_parameter([3], "int64", name="ci", default_initializer=I.Constant(2))


@case
def parameter_default_names():
    w = paddle.static.create_parameter([3, 2], "float32")
    b = paddle.static.create_parameter([2], "float32", is_bias=True)
    x = data("x", [-1, 3])
    paddle.add(paddle.matmul(x, w), b)


@case
def stop_gradient():
    x = data("x", [2, 3])
    w = paddle.static.create_parameter([2, 3], "float32", name="w")
    x.stop_gradient = False
    paddle.add(x, x)
    paddle.multiply(w, x)
    paddle.exp(data("z", [3]))
    paddle.equal(w, x)
    paddle.logical_not(paddle.cast(w, "bool"))
    paddle.argmax(w, 1)


def main() -> None:
    paddle.enable_static()
    out = {}
    for fn in CASES:
        main_program, startup_program = paddle.static.Program(), paddle.static.Program()
        with paddle.utils.unique_name.guard():
            with paddle.static.program_guard(main_program, startup_program):
                fn()
        out[fn.__name__] = {"main": str(main_program), "startup": str(startup_program)}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {len(out)} programs to {OUT}")


if __name__ == "__main__":
    main()
