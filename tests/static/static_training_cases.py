"""The backward and training programs that tests/static/test_static_training.py builds with
phiops and tests/tools/make_static_training_fixtures.py builds with PaddlePaddle 3.3.1, written
once.

Each case takes ``lib``, a namespace with ``data``, ``create_parameter``, ``append_backward``,
``gradients``, the optimizers and the ops the cases call, each with phiops' signature;
``phiops_library()`` gives phiops', the fixture script gives PaddlePaddle's. Operators on values
mean the same in both. ``STEPS`` says how many times the fixture script runs each main program.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, Callable

CASES: dict[str, Callable[[Any], list[Any]]] = {}
STEPS: dict[str, int] = {}


def case(steps: int = 1) -> Callable[[Callable[[Any], list[Any]]], Callable[[Any], list[Any]]]:
    def register(build: Callable[[Any], list[Any]]) -> Callable[[Any], list[Any]]:
        CASES[build.__name__] = build
        STEPS[build.__name__] = steps
        return build

    return register


def phiops_library() -> SimpleNamespace:
    """``lib`` for phiops: its static API, generated ops and optimizers."""
    import phiops.generated as phi
    from phiops.runtime import optimizer

    return SimpleNamespace(
        data=phi.static.data,
        create_parameter=phi.static.create_parameter,
        append_backward=phi.static.append_backward,
        gradients=phi.static.gradients,
        SGD=optimizer.SGD,
        Momentum=optimizer.Momentum,
        Adam=optimizer.Adam,
        AdamW=optimizer.AdamW,
        **{name: getattr(phi, name) for name in "relu add matmul mean tanh".split()},
        cross_entropy_with_softmax=phi.cross_entropy_with_softmax,
    )


def mlp(lib: Any, x_needs_grad: bool = False) -> tuple[Any, Any, list[Any]]:
    """relu MLP 4 -> 8 -> 3 with softmax cross entropy: (x, loss, parameters in creation order)."""
    x = lib.data("x", [-1, 4], "float32")
    x.stop_gradient = not x_needs_grad
    y = lib.data("y", [-1, 1], "int64")
    w1 = lib.create_parameter([4, 8], "float32", name="w1")
    b1 = lib.create_parameter([8], "float32", name="b1", is_bias=True)
    w2 = lib.create_parameter([8, 3], "float32", name="w2")
    b2 = lib.create_parameter([3], "float32", name="b2", is_bias=True)
    hidden = lib.relu(lib.add(lib.matmul(x, w1), b1))
    logits = lib.add(lib.matmul(hidden, w2), b2)
    _, loss = lib.cross_entropy_with_softmax(logits, y, False, True, True, -100, -1)
    return x, lib.mean(loss), [w1, b1, w2, b2]


@case()
def append_backward_mlp(lib: Any) -> list[Any]:
    _, loss, _ = mlp(lib)
    pairs = lib.append_backward(loss)
    return [loss] + [g for _, g in pairs]


@case()
def gradients_shared_uses(lib: Any) -> list[Any]:
    # an intermediate used twice (y * y) and a parameter used twice (w in matmul and w * w):
    # their gradients are summed with add_n; x's gradient asked for as well
    x = lib.data("x", [-1, 4], "float32")
    x.stop_gradient = False
    w = lib.create_parameter([4, 8], "float32", name="w")
    y = lib.tanh(lib.matmul(x, w))
    loss = lib.mean(y * y) + lib.mean(w * w)
    return [loss, *lib.gradients(loss, [w, x])]


@case()
def gradients_no_grad_set(lib: Any) -> list[Any]:
    x, loss, (w1, b1, w2, b2) = mlp(lib, x_needs_grad=True)
    return [loss, *lib.gradients(loss, [x, w2], no_grad_set=[b1])]


@case()
def double_grad_tanh(lib: Any) -> list[Any]:
    x = lib.data("x", [2, 3], "float32")
    x.stop_gradient = False
    y = lib.tanh(x)
    (dx,) = lib.gradients([y], [x])
    (ddx,) = lib.gradients([dx], [x])
    return [y, dx, ddx]


@case(steps=3)
def sgd_minimize(lib: Any) -> list[Any]:
    _, loss, _ = mlp(lib)
    lib.SGD(learning_rate=0.1).minimize(loss)
    return [loss]


@case(steps=3)
def momentum_minimize(lib: Any) -> list[Any]:
    _, loss, _ = mlp(lib)
    lib.Momentum(learning_rate=0.05, momentum=0.9).minimize(loss)
    return [loss]


@case(steps=3)
def adam_minimize(lib: Any) -> list[Any]:
    _, loss, _ = mlp(lib)
    lib.Adam(learning_rate=0.01).minimize(loss)
    return [loss]


@case(steps=3)
def sgd_weight_decay(lib: Any) -> list[Any]:
    _, loss, _ = mlp(lib)
    lib.SGD(learning_rate=0.1, weight_decay=0.01).minimize(loss)
    return [loss]


@case(steps=3)
def momentum_weight_decay(lib: Any) -> list[Any]:
    _, loss, _ = mlp(lib)
    lib.Momentum(learning_rate=0.05, momentum=0.9, weight_decay=0.01).minimize(loss)
    return [loss]


@case(steps=3)
def adam_weight_decay(lib: Any) -> list[Any]:
    _, loss, _ = mlp(lib)
    lib.Adam(learning_rate=0.01, weight_decay=0.02).minimize(loss)
    return [loss]


@case(steps=3)
def adamw_minimize(lib: Any) -> list[Any]:
    # decoupled decay for the weights only
    _, loss, _ = mlp(lib)
    decays = lambda name: name.startswith("w")  # noqa: E731
    lib.AdamW(learning_rate=0.01, weight_decay=0.05, apply_decay_param_fun=decays).minimize(loss)
    return [loss]
