"""Parameter groups: an optimizer's ``parameters`` as dicts with ``params`` and their own
``learning_rate`` (a factor of the optimizer's rate) and ``weight_decay``. Training runs of
tests/optimizer/group_cases.py give PaddlePaddle 3.3.1's parameters
(tests/data/optimizer/parameter_groups.npz, from tests/tools/make_group_fixtures.py), including
its rules: a group's weight decay replaces a ParamAttr regularizer, a group without one falls back
to the optimizer's (for Momentum, a group's None means no decay when the optimizer's is L2), and
gradients are clipped group by group. Then bad groups."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import phiops as phi
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from tests.optimizer.group_cases import CASES, train

DATA = np.load(Path(__file__).resolve().parents[1] / "data" / "optimizer" / "parameter_groups.npz")
TOLERANCE = {"rtol": 1e-5, "atol": 1e-6}


@pytest.mark.parametrize("multi_tensor", [True, False], ids=["multi_tensor", "per_parameter"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_training_with_parameter_groups_gives_paddles_parameters(
    case: str, multi_tensor: bool
) -> None:
    weight, bias = train(phi, case, _use_multi_tensor=multi_tensor)
    np.testing.assert_allclose(weight, DATA[f"{case}_weight"], **TOLERANCE)
    np.testing.assert_allclose(bias, DATA[f"{case}_bias"], **TOLERANCE)


def test_global_norm_clipping_with_groups_differs_from_clipping_all_together() -> None:
    layer = phi.nn.Linear(3, 2)
    flat = phi.optimizer.SGD(
        0.05, parameters=layer.parameters(), grad_clip=phi.nn.ClipGradByGlobalNorm(1.0)
    )
    from tests.optimizer.regularizer_cases import BIAS, INPUT, STEPS, WEIGHT

    layer.weight.set_value(WEIGHT)
    layer.bias.set_value(BIAS)
    for _ in range(STEPS):
        out = layer(phi.to_tensor(INPUT))
        (out * out).sum().backward()
        flat.step()
        flat.clear_grad()
    grouped = DATA["sgd_global_norm_clip_per_group_weight"]
    assert np.abs(layer.weight.numpy() - grouped).max() > 1e-3


def test_a_group_learning_rate_scales_the_optimizers() -> None:
    weight = phi.to_tensor([1.0], stop_gradient=False)
    bias = phi.to_tensor([1.0], stop_gradient=False)
    optimizer = phi.optimizer.SGD(
        0.5, parameters=[{"params": [weight], "learning_rate": 0.2}, {"params": bias}]
    )
    (weight + bias).sum().backward()
    optimizer.step()
    np.testing.assert_allclose([weight.item(), bias.item()], [0.9, 0.5], rtol=1e-6)


@pytest.mark.parametrize(
    "groups, error, message",
    [
        (lambda p: [{"learning_rate": 0.1}], InvalidArgumentError, "has no 'params'"),
        (lambda p: [{"params": {p}}], InvalidArgumentError, "is a set"),
        (lambda p: [{"params": []}], InvalidArgumentError, r"\['params'\] is empty"),
        (lambda p: [{"params": [p]}, {"params": [p]}], InvalidArgumentError, "more than one"),
        (lambda p: [{"params": [p]}, p], InvalidArgumentError, "not both"),
        (lambda p: [{"params": [p], "learning_rate": -1}], InvalidArgumentError, "non-negative"),
        (lambda p: [{"params": [p], "weight_decay": "l1"}], InvalidArgumentError, "weight_decay"),
        (lambda p: [{"params": [p], "beta1": 0.5}], UnimplementedError, r"\['beta1'\]"),
    ],
)
def test_bad_groups_are_named(groups, error: type, message: str) -> None:
    parameter = phi.to_tensor([1.0], stop_gradient=False)
    with pytest.raises(error, match=message):
        phi.optimizer.Adam(parameters=groups(parameter))


def test_adamw_groups_are_not_implemented() -> None:
    parameter = phi.to_tensor([1.0], stop_gradient=False)
    with pytest.raises(UnimplementedError, match="AdamW: parameter groups are not implemented"):
        phi.optimizer.AdamW(parameters=[{"params": [parameter]}])


def test_groups_in_a_static_program_are_not_implemented() -> None:
    main, startup = phi.static.Program(), phi.static.Program()
    phi.enable_static()
    try:
        with phi.static.unique_name_guard(), phi.static.program_guard(main, startup):
            x = phi.static.data("x", [2, 3], "float32")
            layer = phi.nn.Linear(3, 1)
            loss = phi.mean(layer(x))
            optimizer = phi.optimizer.SGD(0.1, parameters=[{"params": [layer.weight]}])
            with pytest.raises(UnimplementedError, match="parameter groups are not implemented"):
                optimizer.minimize(loss)
    finally:
        phi.disable_static()
