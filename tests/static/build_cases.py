"""The constructions that tests/static/test_build_text.py builds with phiops and
tests/tools/make_static_build_fixtures.py builds with PaddlePaddle 3.3.1, written once.

Each case takes ``lib``, a namespace with ``data``, ``create_parameter``, ``I`` (initializers) and
the ops the cases call, each with phiops' signature (PHI's op arguments). The phiops side passes
``phiops_library()``; the fixture script passes its PaddlePaddle twin, which calls
PaddlePaddle's Python API or its ``_C_ops`` with the same arguments. Operators on values are
written out and mean the same in both.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, Callable

import numpy as np

CASES: dict[str, Callable[[Any], None]] = {}


def case(fn: Callable[[Any], None]) -> Callable[[Any], None]:
    CASES[fn.__name__] = fn
    return fn


def phiops_library() -> SimpleNamespace:
    """``lib`` for phiops: its static API and generated ops."""
    import phiops.generated as phi

    ops = "matmul add relu scale full full_int_array reshape clip topk concat split sum cumsum"
    ops += " allclose multiply exp equal logical_not cast argmax divide maximum sqrt tanh mean"
    return SimpleNamespace(
        data=phi.static.data,
        create_parameter=phi.static.create_parameter,
        I=phi.static.initializer,
        float32=phi.float32,
        float64=phi.float64,
        int32=phi.int32,
        int64=phi.int64,
        default_place=phi.Place(),
        nn=phi.nn,
        cond=phi.static.nn.cond,
        **{name: getattr(phi, name) for name in ops.split()},
    )


@case
def mlp(lib):
    x = lib.data("x", [None, 4], "float32")
    w = lib.create_parameter([4, 3], "float32", name="w")
    b = lib.create_parameter([3], "float32", name="b", is_bias=True)
    y = lib.matmul(x, w)
    z = lib.add(y, b)
    lib.relu(z)


@case
def scalar_operators(lib):
    x = lib.data("x", [-1, 4], "float32")
    x * 2.0
    x - 1.0
    1.0 - x
    x / 4
    x + 3
    -x
    2 * x
    3.5 + x


@case
def scalar_operators_integer(lib):
    n = lib.data("n", [2, 3], "int32")
    n + 1.5
    n / 2
    n * 3
    n - 1


@case
def numpy_scalar_operators(lib):
    # a numpy scalar other than np.float64 (a Python float) on the right is a full([]) of the
    # value's dtype and the elementwise op, as PaddlePaddle's math_op_patch builds it
    x = lib.data("x", [2, 3], "float32")
    n = lib.data("n", [2, 3], "int64")
    b = lib.data("b", [2, 3], "bool")
    x + np.float32(2.5)
    x * np.int64(3)
    x ** np.float32(2)
    x > np.float32(1)
    x + np.float64(2.5)
    x + np.array(2.0)
    n + np.float32(2.5)
    n == np.int64(3)
    n % np.int64(2)
    n / np.int32(2)
    b + np.int64(2)
    np.float32(2.5) - x


@case
def promoting_operands(lib):
    # an operand not in the compute dtype is cast first, one cast per operand
    x = lib.data("x", [2, 3], "int32")
    f = lib.data("f", [2, 3], "float32")
    d = lib.data("d", [3], "float64")
    c = lib.data("c", [3], "complex64")
    lib.divide(x, x)
    lib.multiply(f, d)
    lib.add(f, c)
    lib.maximum(f, d)
    lib.equal(f, d)
    lib.sqrt(x)
    lib.tanh(x)
    x / x


@case
def tensor_operators(lib):
    x = lib.data("x", [2, 3], "float32")
    y = lib.data("y", [3, 4], "float32")
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
def scale(lib):
    x = lib.data("x", [-1, 3], "float32")
    lib.scale(x, 3.0, 0.5, True)
    lib.scale(x, 2.0, 1.0, False)


@case
def full(lib):
    lib.full([2, 3], 1.5, lib.float32)
    lib.full([2], 7, lib.int64)
    lib.full([], 0.25, lib.float64)
    lib.full([3, 1], -2.0, "float32", place=lib.default_place)


@case
def full_int_array(lib):
    lib.full_int_array([1, 2, 3], lib.int64)
    lib.full_int_array([4], lib.int32)


@case
def reshape(lib):
    x = lib.data("x", [-1, 6], "float32")
    y = lib.data("y", [2, 3, 4], "float32")
    lib.reshape(x, [0, -1, 2])
    lib.reshape(x, [-1, 3])
    lib.reshape(y, [6, 4])
    lib.reshape(y, [0, 12])


@case
def scalar_and_int_array_operands(lib):
    x = lib.data("x", [-1, 4], "float32")
    y = lib.data("y", [3, 3], "float32")
    lib.clip(x, -1.0, 1.0)
    lib.topk(x, 2, -1, True, True)
    lib.concat([x, x], 0)
    lib.split(y, [1, 2], 1)
    lib.sum(x, [1], lib.float32, False)
    lib.cumsum(x, 1, False, False, False)
    lib.allclose(y, y, 1e-5, 1e-8, False)


@case
def parameter_initializers(lib):
    I = lib.I
    lib.create_parameter([2, 3], "float32", name="c", default_initializer=I.Constant(1.5))
    lib.create_parameter([2, 3], "float64", name="u", default_initializer=I.Uniform(-0.5, 0.5))
    lib.create_parameter([4], "float32", name="n", default_initializer=I.Normal(0.0, 2.0))
    lib.create_parameter([3, 5], "float32", name="xn", default_initializer=I.XavierNormal())
    lib.create_parameter([8, 3, 2, 2], "float32", name="xu", default_initializer=I.XavierUniform())
    lib.create_parameter([3], "int64", name="ci", default_initializer=I.Constant(2))


@case
def layers(lib):
    # phi.nn / paddle.nn layers made and called in static mode: their parameters' initializer
    # ops in the startup program, struct_name on the ops each layer builds (not on its
    # parameters, nor on the ops of a cond's branches)
    nn = lib.nn

    class Block(nn.Layer):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2D(2, 3, 3)
            self.seq = nn.Sequential(nn.Linear(4, 3), nn.ReLU())
            self.ln = nn.LayerNorm(3)
            self.bn = nn.BatchNorm2D(3)
            self.bn1 = nn.BatchNorm1D(3)
            self.emb = nn.Embedding(5, 2)

        def forward(self, x, img, ids):
            h = self.bn1(self.ln(self.seq(x)))
            h = lib.cond(lib.mean(h) > 0.0, lambda: h * 2.0, lambda: h - 1.0)
            return h, self.bn(self.conv(img)), self.emb(ids)

    block = Block()
    block(
        lib.data("x", [-1, 4], "float32"),
        lib.data("img", [-1, 2, 5, 5], "float32"),
        lib.data("ids", [-1, 3], "int64"),
    )


@case
def parameter_default_names(lib):
    w = lib.create_parameter([3, 2], "float32")
    b = lib.create_parameter([2], "float32", is_bias=True)
    x = lib.data("x", [-1, 3], "float32")
    lib.add(lib.matmul(x, w), b)


@case
def stop_gradient(lib):
    x = lib.data("x", [2, 3], "float32")
    w = lib.create_parameter([2, 3], "float32", name="w")
    x.stop_gradient = False
    lib.add(x, x)
    lib.multiply(w, x)
    lib.exp(lib.data("z", [3], "float32"))
    lib.equal(w, x)
    lib.logical_not(lib.cast(w, "bool"))
    lib.argmax(w, 1, False, False, "int64")
