"""Programs built by phiops print exactly as PaddlePaddle 3.3.1 prints the same construction.

The expected text is tests/data/static_build/programs.json, written by
tests/tools/make_static_build_fixtures.py with PaddlePaddle; each case here is the phiops twin of
the case of the same name there.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

import pytest

import generated as phi

EXPECTED = json.loads(
    (Path(__file__).parents[1] / "data" / "static_build" / "programs.json").read_text("utf-8")
)
CASES: dict[str, Callable[[], None]] = {}
I = phi.static.initializer


def case(fn: Callable[[], None]) -> Callable[[], None]:
    CASES[fn.__name__] = fn
    return fn


def data(name, shape, dtype="float32"):
    return phi.static.data(name, shape, dtype)


@case
def mlp():
    x = data("x", [None, 4])
    w = phi.static.create_parameter([4, 3], "float32", name="w")
    b = phi.static.create_parameter([3], "float32", name="b", is_bias=True)
    y = phi.matmul(x, w)
    z = phi.add(y, b)
    phi.relu(z)


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
    phi.scale(x, 3.0, 0.5, True)
    phi.scale(x, 2.0, 1.0, False)


@case
def full():
    phi.full([2, 3], 1.5, phi.float32)
    phi.full([2], 7, phi.int64)
    phi.full([], 0.25, phi.float64)
    phi.full([3, 1], -2.0, "float32", place=phi.Place())


@case
def full_int_array():
    phi.full_int_array([1, 2, 3], phi.int64)
    phi.full_int_array([4], phi.int32)


@case
def reshape():
    x = data("x", [-1, 6])
    y = data("y", [2, 3, 4])
    phi.reshape(x, [0, -1, 2])
    phi.reshape(x, [-1, 3])
    phi.reshape(y, [6, 4])
    phi.reshape(y, [0, 12])


@case
def scalar_and_int_array_operands():
    x = data("x", [-1, 4])
    y = data("y", [3, 3])
    phi.clip(x, -1.0, 1.0)
    phi.topk(x, 2, -1, True, True)
    phi.concat([x, x], 0)
    phi.split(y, [1, 2], 1)
    phi.sum(x, [1], phi.float32, False)
    phi.cumsum(x, 1, False, False, False)
    phi.allclose(y, y, 1e-5, 1e-8, False)


@case
def parameter_initializers():
    phi.static.create_parameter([2, 3], "float32", name="c", default_initializer=I.Constant(1.5))
    phi.static.create_parameter(
        [2, 3], "float64", name="u", default_initializer=I.Uniform(-0.5, 0.5)
    )
    phi.static.create_parameter([4], "float32", name="n", default_initializer=I.Normal(0.0, 2.0))
    phi.static.create_parameter([3, 5], "float32", name="xn", default_initializer=I.XavierNormal())
    phi.static.create_parameter(
        [8, 3, 2, 2], "float32", name="xu", default_initializer=I.XavierUniform()
    )
    phi.static.create_parameter([3], "int64", name="ci", default_initializer=I.Constant(2))


@case
def parameter_default_names():
    w = phi.static.create_parameter([3, 2], "float32")
    b = phi.static.create_parameter([2], "float32", is_bias=True)
    x = data("x", [-1, 3])
    phi.add(phi.matmul(x, w), b)


@case
def stop_gradient():
    x = data("x", [2, 3])
    w = phi.static.create_parameter([2, 3], "float32", name="w")
    x.stop_gradient = False
    phi.add(x, x)
    phi.multiply(w, x)
    phi.exp(data("z", [3]))
    phi.equal(w, x)
    phi.logical_not(phi.cast(w, "bool"))
    phi.argmax(w, 1, False, False, "int64")


def test_every_fixture_has_a_twin():
    assert sorted(CASES) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(CASES))
def test_main_program_prints_as_paddle(name, programs):
    main, _ = programs
    CASES[name]()
    assert str(main) == EXPECTED[name]["main"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_startup_program_prints_as_paddle(name, programs):
    _, startup = programs
    CASES[name]()
    assert str(startup) == EXPECTED[name]["startup"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_built_program_verifies_and_parses_back(name, programs):
    main, startup = programs
    CASES[name]()
    for program in (main, startup):
        phi.ir.verify(program)
        assert phi.ir.parse_program(str(program)) == phi.ir.parse_program(str(program))
        assert str(phi.ir.parse_program(str(program))) == str(program)
