"""paddle.optimizer.LBFGS against PaddlePaddle 3.3.1's runs of tests/optimizer/lbfgs_cases.py
(tests/data/optimizer/lbfgs.npz, from tests/tools/make_lbfgs_fixtures.py): the parameters and
the losses after a few ``step(closure)`` calls, with a fixed step, a short history and the
strong-Wolfe line search. Then its signature, state and what it refuses."""

from __future__ import annotations

import inspect
from pathlib import Path

import numpy as np
import pytest

import phiops as phi
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from tests import paddle_api
from tests.optimizer.lbfgs_cases import CASES, STEPS, train

DATA = np.load(Path(__file__).resolve().parents[1] / "data" / "optimizer" / "lbfgs.npz")
# float32 iterations whose scalars (steps, curvature) phiops reads back as Python floats where
# PaddlePaddle keeps float32 tensors; the line search lands near a flat optimum, where that
# moves the parameters most
TOLERANCE = {
    "lbfgs_fixed_step": {"rtol": 1e-5, "atol": 1e-5},
    "lbfgs_short_history": {"rtol": 1e-5, "atol": 1e-5},
    "lbfgs_strong_wolfe": {"rtol": 1e-3, "atol": 3e-4},
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_lbfgs_gives_paddles_parameters_and_losses(case: str) -> None:
    weight, bias, losses = train(phi, case)
    np.testing.assert_allclose(weight, DATA[f"{case}/weight"], **TOLERANCE[case])
    np.testing.assert_allclose(bias, DATA[f"{case}/bias"], **TOLERANCE[case])
    np.testing.assert_allclose(losses, DATA[f"{case}/losses"], rtol=1e-5)
    assert len(losses) == STEPS and losses[-1] < losses[0]


def test_the_signature_is_paddles() -> None:
    ours = inspect.signature(phi.optimizer.LBFGS).parameters
    theirs = paddle_api.parameters("paddle.optimizer.LBFGS")
    assert list(ours) == [p["name"] for p in theirs]
    for parameter in theirs:
        assert repr(ours[parameter["name"]].default) == parameter.get(
            "default", "<class 'inspect._empty'>"
        )


def _lbfgs(**options: object) -> phi.optimizer.LBFGS:
    return phi.optimizer.LBFGS(parameters=phi.nn.Linear(2, 2).parameters(), **options)


def test_the_state_counts_iterations_and_evaluations() -> None:
    weight = phi.to_tensor(np.array([3.0, -2.0], "float32"), stop_gradient=False)
    optimizer = phi.optimizer.LBFGS(parameters=[weight], max_iter=4)

    def closure() -> phi.Tensor:
        optimizer.clear_grad()
        loss = phi.sum(weight * weight)
        loss.backward()
        return loss

    optimizer.step(closure)
    # PaddlePaddle 3.3.1: the gradient vanishes at the third iteration, after three
    # evaluations and two curvature pairs
    state = optimizer.state_dict()["state"]
    assert state["n_iter"] == 3 and state["func_evals"] == 3
    assert len(state["old_yk"]) == 2
    np.testing.assert_allclose(weight.numpy(), [-4.7683716e-07, 1.1920929e-07], atol=1e-6)


@pytest.mark.parametrize(
    "options, message",
    [
        ({"line_search_fn": "armijo"}, r"LBFGS: line_search_fn must be None or 'strong_wolfe'"),
        ({"history_size": 0}, r"LBFGS: history_size must be a positive int"),
        ({"learning_rate": None}, r"LBFGS: learning_rate must be a number"),
    ],
)
def test_bad_options_are_errors_naming_lbfgs(options: dict, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        _lbfgs(**options)


def test_minimize_is_not_lbfgs_way_and_groups_are_unimplemented() -> None:
    with pytest.raises(UnimplementedError, match=r"call step\(closure\)"):
        _lbfgs().minimize(phi.to_tensor(1.0))
    layer = phi.nn.Linear(2, 2)
    with pytest.raises(UnimplementedError, match="LBFGS: parameter groups are not implemented"):
        phi.optimizer.LBFGS(parameters=[{"params": layer.parameters()}])
    with pytest.raises(InvalidArgumentError, match="closure must be callable"):
        _lbfgs().step(None)
