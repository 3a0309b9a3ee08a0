"""Meta-tests: every differentiable op has a gradient check, and the checks can fail.

An op in ops/api.yaml with a ``backward:`` needs a case in ``CASES``; an op whose backward op
has a ``backward:`` of its own (a double grad) also needs one in ``DOUBLE_CASES``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

import phiops.generated as phi
from tests.autograd.gradcheck import check_double_gradients, check_gradients
from tests.autograd.test_gradcheck_ops import CASES, DOUBLE_CASES, Case, op_specs

OpFn = Callable[..., phi.Tensor]


def differentiable_ops() -> set[str]:
    return {op.name for op in op_specs().ops if op.backward is not None}


def twice_differentiable_ops() -> dict[str, str]:
    """Forward op -> its double-grad op."""
    specs = op_specs()
    return {
        op.name: specs.backward_op(op.backward).backward
        for op in specs.ops
        if op.backward is not None and specs.backward_op(op.backward).backward is not None
    }


# Ops whose backward op gives no gradient to check by finite differences, each with the test
# that checks what it does instead.
WITHOUT_A_GRADIENT = {
    # PaddlePaddle 3.3.1's pyramid_hash_grad writes no gradient (only x_grad, of the int32 ids,
    # left unwritten): it steps the hash table w in place by -lr times its gradient
    "pyramid_hash": "tests/autograd/test_lodops24_pyramid_hash_update.py",
}


def covered(cases: list[Case]) -> set[str]:
    return {op for case in cases for op in case.ops}


def test_every_op_with_a_backward_has_a_gradient_check() -> None:
    missing = sorted(differentiable_ops() - covered(CASES) - set(WITHOUT_A_GRADIENT))
    assert not missing, (
        f"ops with a backward: in ops/api.yaml but no gradient-check case in "
        f"tests/autograd/test_gradcheck_ops.py CASES: {missing}"
    )


def test_every_op_with_a_double_grad_has_a_double_gradient_check() -> None:
    double = twice_differentiable_ops()
    missing = sorted(f"{op} ({double[op]})" for op in set(double) - covered(DOUBLE_CASES))
    assert not missing, (
        f"ops whose backward op has its own backward: but no case in "
        f"tests/autograd/test_gradcheck_ops.py DOUBLE_CASES: {missing}"
    )


def test_the_ops_without_a_gradient_are_differentiable_and_checked_elsewhere() -> None:
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    for op, test in WITHOUT_A_GRADIENT.items():
        assert op in differentiable_ops() and op not in covered(CASES), op
        assert (root / test).is_file(), test


def test_cases_name_differentiable_ops() -> None:
    unknown = sorted(covered(CASES) - differentiable_ops())
    assert not unknown, f"CASES name ops that have no backward: in ops/api.yaml: {unknown}"


def test_double_cases_name_ops_with_a_double_grad() -> None:
    unknown = sorted(covered(DOUBLE_CASES) - set(twice_differentiable_ops()))
    assert (
        not unknown
    ), f"DOUBLE_CASES name ops without a double grad in ops/backward.yaml: {unknown}"


@pytest.mark.parametrize("cases", [CASES, DOUBLE_CASES], ids=["CASES", "DOUBLE_CASES"])
def test_case_ids_are_unique(cases: list[Case]) -> None:
    ids = [case.id for case in cases]
    assert sorted({i for i in ids if ids.count(i) > 1}) == []


# -- the checks detect wrong gradients ------------------------------------------------------------
#
# A gradient hook that changes the gradient flowing into a node makes the analytic gradient wrong
# while the forward values (all the finite differences see) stay right.


def scaled_gradient(fn: OpFn, factor: float) -> OpFn:
    def wrong(*tensors: phi.Tensor) -> phi.Tensor:
        out = fn(*tensors)
        if not out.stop_gradient:
            out.register_hook(lambda grad: phi.scale(grad, factor))
        return out

    return wrong


def detached_gradient(fn: OpFn) -> OpFn:
    def cut(*tensors: phi.Tensor) -> phi.Tensor:
        out = fn(*tensors)
        if not out.stop_gradient:
            out.register_hook(lambda grad: phi.to_tensor(grad.numpy()))
        return out

    return cut


def test_check_gradients_reports_the_worst_element_of_a_wrong_gradient() -> None:
    # The gradient is 0.1% off everywhere; it is largest, so furthest off, where exp(x) is.
    x = np.array([[0.1, 0.2], [0.3, 4.0]])
    with pytest.raises(
        AssertionError, match=r"input 0 \(shape \[2, 2\]\): 4 of 4 elements off; worst at \[1, 1\]"
    ):
        check_gradients(scaled_gradient(phi.exp, 1.001), [x])


def test_check_gradients_fails_on_a_nan_gradient() -> None:
    x = np.array([1.0, 2.0])
    with pytest.raises(AssertionError, match="analytic nan"):
        check_gradients(scaled_gradient(phi.sin, float("nan")), [x])


def test_check_gradients_checks_only_the_chosen_inputs() -> None:
    x, y = np.array([1.0, 2.0]), np.array([3.0, 4.0])

    def wrong_for_y(a: phi.Tensor, b: phi.Tensor) -> phi.Tensor:
        return phi.multiply(a, scaled_gradient(phi.assign, 2.0)(b))

    check_gradients(wrong_for_y, [x, y], grad_inputs=[0])
    with pytest.raises(AssertionError, match=r"input 1 "):
        check_gradients(wrong_for_y, [x, y])


def test_check_double_gradients_detects_a_wrong_second_derivative() -> None:
    x = np.array([[0.1, 0.2], [0.3, 0.4]])
    # The hook keeps the first gradient's value but cuts it off the upstream gradient, so the
    # first gradients are right and their derivative with respect to the upstream one is 0.
    with pytest.raises(
        AssertionError, match=r"upstream grad of output 0 \(shape \[2, 2\]\): 4 of 4"
    ):
        check_double_gradients(detached_gradient(phi.tanh), [x], allow_unused=True)
