"""Third derivatives through the triple-grad ops of the grad2 family (issue 24): sin, cos, tanh,
sigmoid and pow's triple grads, add's and multiply's.

Each op's first gradient ``g(x, w) = phi.grad(op(x), x, grad_outputs=w, create_graph=True)`` is
itself a differentiable function of x and w; ``check_double_gradients`` differentiates it twice
more (through the double-grad op, then the triple-grad op) and compares with central
differences of its second derivatives, which test_gradcheck_ops.py's DOUBLE_CASES check.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

import phiops.generated as phi
from tests.autograd.cases_base import Case, case, uniform
from tests.autograd.gradcheck import check_double_gradients


def first_gradients(fn: Callable[..., phi.Tensor], arity: int) -> Callable[..., list[phi.Tensor]]:
    """(inputs..., w) -> the gradients of fn(inputs) with upstream w, kept differentiable."""

    def grads(*args: phi.Tensor) -> list[phi.Tensor]:
        inputs, upstream = list(args[:arity]), args[arity]
        # without a differentiable input (the checker's projection run) the gradients are still
        # defined: differentiate with respect to fresh leaves
        if all(t.stop_gradient for t in inputs):
            inputs = [phi.to_tensor(t.numpy(), stop_gradient=False) for t in inputs]
        wanted = [t for t in inputs if not t.stop_gradient]
        out = fn(*inputs)
        return list(
            phi.grad(out, wanted, grad_outputs=upstream, create_graph=True, allow_unused=True)
        )

    return grads


TRIPLE_CASES: list[Case] = [
    case("sin", "[2,3]", first_gradients(phi.sin, 1), uniform((2, 3), 300), uniform((2, 3), 301)),
    case("cos", "[2,3]", first_gradients(phi.cos, 1), uniform((2, 3), 302), uniform((2, 3), 303)),
    case("tanh", "[2,3]", first_gradients(phi.tanh, 1), uniform((2, 3), 304), uniform((2, 3), 305)),
    case(
        "sigmoid",
        "[2,3]",
        first_gradients(phi.sigmoid, 1),
        uniform((2, 3), 306),
        uniform((2, 3), 307),
    ),
    case(
        "pow",
        "[2,3]",
        first_gradients(lambda x: phi.pow(x, 3.5), 1),
        uniform((2, 3), 308, 0.5, 2.0),
        uniform((2, 3), 309),
    ),
    case(
        "multiply",
        "[2,3]x[3]",
        first_gradients(phi.multiply, 2),
        uniform((2, 3), 310),
        uniform((3,), 311),
        uniform((2, 3), 312),
    ),
    case(
        "add",
        "[2,3]x[2,1]",
        first_gradients(phi.add, 2),
        uniform((2, 3), 313),
        uniform((2, 1), 314),
        uniform((2, 3), 315),
        # add's gradients are linear in the upstream gradient and do not depend on x or y
        grad_inputs=[2],
        allow_unused=True,
    ),
]

TRIPLE_GRADS = {
    "sin": "sin_triple_grad",
    "cos": "cos_triple_grad",
    "tanh": "tanh_triple_grad",
    "sigmoid": "sigmoid_triple_grad",
    "pow": "pow_triple_grad",
    "multiply": "multiply_triple_grad",
    "add": "add_triple_grad",
}


@pytest.mark.parametrize("case", TRIPLE_CASES, ids=lambda c: c.id)
def test_third_derivatives_match_finite_differences(case: Case) -> None:
    check_double_gradients(case.fn, list(case.inputs), **case.options)


@pytest.mark.parametrize("case", TRIPLE_CASES, ids=lambda c: c.id)
def test_second_gradients_record_the_triple_grad_op(case: Case) -> None:
    """The check above runs the op's own triple-grad op, not another path."""
    leaves = [phi.to_tensor(a, stop_gradient=False) for a in case.inputs]
    firsts = case.fn(*leaves)
    probes = [phi.to_tensor(np.ones(g.shape), stop_gradient=False) for g in firsts]
    seconds = phi.grad(firsts, leaves, grad_outputs=probes, create_graph=True, allow_unused=True)
    recorded = {g._grad_node[0].name for g in seconds if g is not None and g._grad_node is not None}
    assert TRIPLE_GRADS[case.ops[0]] in recorded, sorted(recorded)


def test_every_triple_grad_has_a_case() -> None:
    import phiops.generated.backward as backward_api

    triples = {
        name
        for name in vars(backward_api)
        if name.endswith("_triple_grad") and not name.startswith("_")
    }
    assert triples == set(TRIPLE_GRADS.values())
