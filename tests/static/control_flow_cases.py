"""The control-flow programs that tests/static/test_control_flow_fixtures.py builds with phiops and
tests/tools/make_control_flow_fixtures.py builds with PaddlePaddle 3.3.1, written once.

Each case takes ``lib``, a namespace with ``data``, ``full``, ``cond``, ``while_loop``,
``gradients`` and the ops the cases call, each with phiops' signature; ``phiops_library()`` gives
phiops', the fixture script gives its PaddlePaddle twin (``paddle._C_ops.slice`` where phiops'
API is PHI's op). Operators on values mean the same in both. ``FEEDS`` holds each case's runs
(the fixture script runs PaddlePaddle's program on them and records what it fetches).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, Callable

import numpy as np

CASES: dict[str, Callable[[Any], list[Any]]] = {}
FEEDS: dict[str, tuple[dict[str, np.ndarray], ...]] = {}

# Cases phiops runs (from PaddlePaddle's printed program) but does not build the same:
# nested_gradient is PaddlePaddle's backward of a cond inside a while_loop, whose inner backward
# if reads the loop's incoming gradient instead of its block argument and yields zeros (phiops'
# backward gives the true gradient, see tests/static/test_backward.py).
NOT_BUILT_BY_PHIOPS = ("nested_gradient",)


def case(*feeds: dict[str, np.ndarray]) -> Callable[[Callable[[Any], list[Any]]], Any]:
    """Register a case; ``feeds`` are its runs."""

    def register(fn: Callable[[Any], list[Any]]) -> Callable[[Any], list[Any]]:
        CASES[fn.__name__] = fn
        FEEDS[fn.__name__] = feeds
        return fn

    return register


def phiops_library() -> SimpleNamespace:
    """``lib`` for phiops: its static API and generated ops."""
    import phiops.generated as phi

    ops = "mean exp abs sum max tanh cast slice index_select concat"
    return SimpleNamespace(
        data=lambda name, shape, dtype="float32": phi.static.data(name, shape, dtype),
        full=lambda shape, value, dtype: phi.full(shape, value, dtype, place=phi.Place()),
        cond=phi.static.nn.cond,
        while_loop=phi.static.nn.while_loop,
        gradients=phi.static.gradients,
        **{name: getattr(phi, name) for name in ops.split()},
    )


X23 = np.array([[0.5, 1.0, 1.5], [2.0, 2.5, 3.0]], "float32")
X53 = np.arange(15, dtype="float32").reshape(5, 3)


@case({"x": X23}, {"x": -X23})
def cond_mean_positive(lib: Any) -> list[Any]:
    x = lib.data("x", [2, 3])
    pred = lib.mean(x) > 0
    return [lib.cond(pred, lambda: lib.exp(x) * 2.0, lambda: lib.abs(x) + 1.0)]


@case({"p": np.array(True), "x": X23}, {"p": np.array(False), "x": X23})
def cond_fed_0d_predicate(lib: Any) -> list[Any]:
    p = lib.data("p", [], "bool")
    x = lib.data("x", [2, 3])
    return [lib.cond(p, lambda: x * x, lambda: x - 1.0)]


@case({"p": np.array([True]), "x": X23}, {"p": np.array([False]), "x": X23})
def cond_nested_outputs(lib: Any) -> list[Any]:
    p = lib.data("p", [1], "bool")
    x = lib.data("x", [2, 3])
    a, (b, c), d, n = lib.cond(
        p,
        lambda: (x + 1.0, [x * 2.0, {"k": lib.sum(x)}], x, 3),
        lambda: (x - 1.0, [x * 3.0, {"k": lib.max(x)}], lib.tanh(x), 3),
    )
    assert n == 3
    return [a, b, c["k"], d]


@case(
    {"p": np.array([True]), "x": X23, "y": np.ones((4, 3), "float32")},
    {"p": np.array([False]), "x": X23, "y": np.ones((4, 3), "float32")},
)
def cond_branch_extents_differ(lib: Any) -> list[Any]:
    p = lib.data("p", [1], "bool")
    x = lib.data("x", [2, 3])
    y = lib.data("y", [4, 3])
    out = lib.cond(p, lambda: x * 2.0, lambda: y * 3.0)
    return [out, lib.sum(out, axis=0)]


@case({"x": X23})
def cond_no_outputs(lib: Any) -> list[Any]:
    x = lib.data("x", [2, 3])
    assert lib.cond(lib.mean(x) > 0, lambda: None) is None
    return [x * 1.0]


@case({})
def while_counting(lib: Any) -> list[Any]:
    i = lib.full([1], 0, "int64")
    ten = lib.full([1], 10, "int64")
    i, ten = lib.while_loop(lambda i, t: i < t, lambda i, t: [i + 1, t], [i, ten])
    return [i, ten]


@case({"x": X23})
def while_accumulate(lib: Any) -> list[Any]:
    x = lib.data("x", [2, 3])
    i = lib.full([1], 0, "int64")
    s = lib.full([2, 3], 0.0, "float32")

    def body(i: Any, s: Any) -> list[Any]:
        return [i + 1, s + x * lib.cast(i, "float32")]

    return lib.while_loop(lambda i, s: i < 4, body, [i, s])


@case({"x": X53})
def while_over_slices(lib: Any) -> list[Any]:
    x = lib.data("x", [5, 3])
    i = lib.full([1], 0, "int64")
    s = lib.full([1, 3], 0.0, "float32")

    def body(i: Any, s: Any) -> list[Any]:
        row = lib.slice(x, [0], i, i + 1, [-1], [])  # starts and ends: Values (operands)
        return [i + 1, s + row * row]

    return lib.while_loop(lambda i, s: i < 5, body, [i, s])


@case({"x": X53})
def while_over_rows(lib: Any) -> list[Any]:
    x = lib.data("x", [5, 3])
    i = lib.full([1], 0, "int64")
    s = lib.full([1, 3], 0.0, "float32")

    def body(i: Any, s: Any) -> list[Any]:
        row = lib.index_select(x, i, 0)
        return [i + 1, s + row * 2.0]

    return lib.while_loop(lambda i, s: i < 5, body, [i, s])


@case({})
def while_swap(lib: Any) -> list[Any]:
    a = lib.full([1], 1.0, "float32")
    b = lib.full([1], 2.0, "float32")
    i = lib.full([1], 0, "int64")
    return lib.while_loop(lambda i, a, b: i < 3, lambda i, a, b: [i + 1, b, a * 2.0], [i, a, b])


@case({"x": X23})
def while_extent_grows(lib: Any) -> list[Any]:
    x = lib.data("x", [2, 3])
    i = lib.full([1], 0, "int64")
    i, s = lib.while_loop(
        lambda i, s: i < 3, lambda i, s: [i + 1, lib.concat([s, s * 2.0])], [i, x]
    )
    return [i, s, lib.sum(s)]


@case({"x": X23}, {"x": X23 * 2.0})
def nested_cond_and_while_in_while(lib: Any) -> list[Any]:
    x = lib.data("x", [2, 3])
    i = lib.full([1], 0, "int64")
    s = lib.full([2, 3], 0.0, "float32")

    def body(i: Any, s: Any) -> list[Any]:
        s2 = lib.cond(lib.mean(s) > 2.0, lambda: s + 1.0, lambda: s + x)
        j = lib.full([1], 0, "int64")
        j, s3 = lib.while_loop(lambda j, t: j < 2, lambda j, t: [j + 1, t * 1.5], [j, s2])
        return [i + 1, s3]

    return lib.while_loop(lambda i, s: i < 3, body, [i, s])


@case({"p": np.array(True), "x": X23}, {"p": np.array(False), "x": X23})
def while_in_cond(lib: Any) -> list[Any]:
    p = lib.data("p", [], "bool")
    x = lib.data("x", [2, 3])

    def looped() -> Any:
        i = lib.full([1], 0, "int64")
        _, s = lib.while_loop(lambda i, s: i < 3, lambda i, s: [i + 1, s * x], [i, x])
        return s

    return [lib.cond(p, looped, lambda: x)]


@case({"x": X23}, {"x": -X23})
def cond_gradient(lib: Any) -> list[Any]:
    x = lib.data("x", [2, 3])
    x.stop_gradient = False
    out = lib.cond(lib.mean(x) > 0, lambda: lib.tanh(x), lambda: x * x)
    loss = lib.mean(out)
    (grad,) = lib.gradients([loss], [x])
    return [loss, grad]


@case({"x": X23 * 0.25})
def while_gradient(lib: Any) -> list[Any]:
    x = lib.data("x", [2, 3])
    x.stop_gradient = False
    i = lib.full([1], 0, "int64")
    _, s = lib.while_loop(lambda i, s: i < 3, lambda i, s: [i + 1, lib.tanh(s)], [i, x])
    loss = lib.mean(s)
    (grad,) = lib.gradients([loss], [x])
    return [loss, grad]


@case({"x": X23 * 0.25}, {"x": X23})
def nested_gradient(lib: Any) -> list[Any]:
    x = lib.data("x", [2, 3])
    x.stop_gradient = False
    i = lib.full([1], 0, "int64")

    def body(i: Any, s: Any) -> list[Any]:
        s = lib.cond(lib.mean(s) > 0.5, lambda: lib.tanh(s), lambda: s * s + s)
        return [i + 1, s]

    _, s = lib.while_loop(lambda i, s: i < 3, body, [i, x])
    loss = lib.mean(s)
    (grad,) = lib.gradients([loss], [x])
    return [loss, grad]
