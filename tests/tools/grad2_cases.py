"""The cases of tests/tools/make_grad2_fixtures.py (run on PaddlePaddle 3.3.1),
tests/autograd/test_grad2_paddle.py (phiops against the recording) and
tests/parity/test_grad2_paddle.py (phiops against PaddlePaddle, live): second and third
derivatives of the elementwise ops whose double and triple grads the grad2 family added, written
against ``paddle``'s API, which both pass in (``import phiops as paddle`` runs it unchanged).

``derivatives`` differentiates ``op(inputs)`` ``order`` times with ``paddle.grad``: the first
gradients with a fixed upstream gradient and ``create_graph=True``, each next one of the sum of
the previous gradients times fixed weights
(passed as ``grad_outputs``). It returns the gradients of the last order, one per
input and one for the first upstream gradient (zeros where one is unused), as float64 arrays.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np


def values(shape: tuple[int, ...], seed: int, low: float = -2.0, high: float = 2.0) -> np.ndarray:
    return np.random.default_rng(seed).uniform(low, high, size=shape)


def away_from_zero(shape: tuple[int, ...], seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.choice([-1.0, 1.0], size=shape) * rng.uniform(0.3, 1.5, size=shape)


# (case id, op taking the paddle module and the input tensors, inputs, orders to record)
CASES: list[tuple[str, Callable[..., Any], tuple[np.ndarray, ...], tuple[int, ...]]] = [
    ("sin", lambda P, x: P.sin(x), (values((2, 3), 1),), (2, 3)),
    ("cos", lambda P, x: P.cos(x), (values((2, 3), 2),), (2, 3)),
    ("tanh", lambda P, x: P.tanh(x), (values((2, 3), 3),), (3,)),
    ("sigmoid", lambda P, x: P.nn.functional.sigmoid(x), (values((2, 3), 4),), (3,)),
    ("log", lambda P, x: P.log(x), (values((2, 3), 5, 0.5, 2.0),), (2,)),
    ("sqrt", lambda P, x: P.sqrt(x), (values((2, 3), 6, 0.5, 2.0),), (2,)),
    ("rsqrt", lambda P, x: P.rsqrt(x), (values((2, 3), 7, 0.5, 2.0),), (2,)),
    ("abs", lambda P, x: P.abs(x), (away_from_zero((2, 3), 8),), (2,)),
    (
        "leaky_relu",
        lambda P, x: P.nn.functional.leaky_relu(x, 0.1),
        (away_from_zero((2, 3), 9),),
        (2,),
    ),
    ("elu", lambda P, x: P.nn.functional.elu(x, 0.7), (away_from_zero((2, 3), 10),), (2,)),
    ("celu", lambda P, x: P.nn.functional.celu(x, 1.3), (away_from_zero((2, 3), 11),), (2,)),
    (
        "softplus",
        lambda P, x: P.nn.functional.softplus(x, 1.5, 2.0),
        (values((2, 3), 12, -2.0, 2.0),),
        (2,),
    ),
    ("pow", lambda P, x: P.pow(x, 2.5), (values((2, 3), 13, 0.5, 2.0),), (2, 3)),
    (
        "multiply",
        lambda P, x, y: P.multiply(x, y),
        (values((2, 3), 14), values((2, 3), 15)),
        (2, 3),
    ),
    (
        "multiply-broadcast",
        lambda P, x, y: P.multiply(x, y),
        (values((2, 3), 16), values((3,), 17)),
        (2, 3),
    ),
    (
        "divide",
        lambda P, x, y: P.divide(x, y),
        (values((2, 3), 18), values((2, 3), 19, 0.5, 2.0)),
        (2,),
    ),
    ("add", lambda P, x, y: P.add(x, y), (values((2, 3), 20), values((3,), 21)), (2, 3)),
    ("subtract", lambda P, x, y: P.subtract(x, y), (values((2, 1), 22), values((2, 3), 23)), (2,)),
    ("reshape", lambda P, x: P.reshape(x, [3, 2]), (values((2, 3), 24),), (2,)),
]


def weights(shape: tuple[int, ...], seed: int) -> np.ndarray:
    return np.random.default_rng(1000 + seed).standard_normal(shape)


def derivatives(
    paddle: Any, op: Callable[..., Any], inputs: tuple[np.ndarray, ...], order: int
) -> list[np.ndarray]:
    """The ``order``-th gradients of ``op`` at ``inputs`` (see the module docstring), with
    respect to each input and to the first upstream gradient, itself a leaf (a double grad's
    gradient for it, ``grad_out_grad``, is what add's and subtract's double grads compute)."""
    leaves = [paddle.to_tensor(a, dtype="float64", stop_gradient=False) for a in inputs]
    out = op(paddle, *leaves)
    upstream = paddle.to_tensor(weights(tuple(out.shape), 0), stop_gradient=False)
    variables = leaves + [upstream]
    grads = paddle.grad(out, leaves, grad_outputs=upstream, create_graph=True, allow_unused=True)
    for level in range(1, order):
        # the gradients of sum_i sum(g_i * w_i): grad_outputs w_i, without a sum op (whose
        # grad has no double grad in phiops)
        used = [(i, g) for i, g in enumerate(grads) if g is not None]
        probes = [paddle.to_tensor(weights(tuple(g.shape), level * 10 + i)) for i, g in used]
        grads = paddle.grad(
            [g for _, g in used],
            variables,
            grad_outputs=probes,
            create_graph=level + 1 < order,
            allow_unused=True,
        )
    shapes = [a.shape for a in inputs] + [tuple(out.shape)]
    return [
        np.zeros(shape) if g is None else np.asarray(g.numpy(), dtype=np.float64)
        for g, shape in zip(grads, shapes)
    ]
