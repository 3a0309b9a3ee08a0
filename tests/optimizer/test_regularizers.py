"""``phiops.regularizer``: L1Decay and L2Decay as an optimizer's ``weight_decay`` and as a
parameter's own (``ParamAttr(regularizer=...)``, which replaces the optimizer's for it), with
SGD, Momentum (L2 fused into its op, per parameter), Adam and AdamW: a few training steps give
PaddlePaddle 3.3.1's parameters (tests/data/optimizer/regularizers.npz, from
tests/tools/make_regularizer_fixtures.py); then the terms themselves and bad arguments."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import phiops as phi
from phiops.regularizer import L1Decay, L2Decay
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.regularizer import parameter_regularizer
from tests.optimizer.regularizer_cases import CASES, train

DATA = np.load(Path(__file__).resolve().parents[1] / "data" / "optimizer" / "regularizers.npz")
TOLERANCE = {"rtol": 1e-5, "atol": 1e-6}


@pytest.mark.parametrize("multi_tensor", [True, False], ids=["multi_tensor", "per_parameter"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_training_with_the_regularizers_gives_paddles_parameters(
    case: str, multi_tensor: bool
) -> None:
    options = {} if case.startswith("sgd") else {"use_multi_tensor": multi_tensor}
    weight, bias = train(phi, case, **options)
    np.testing.assert_allclose(weight, DATA[f"{case}_weight"], **TOLERANCE)
    np.testing.assert_allclose(bias, DATA[f"{case}_bias"], **TOLERANCE)


@pytest.mark.parametrize("optimizer", ["sgd", "momentum", "adam"])
def test_each_recorded_case_differs_from_the_others(optimizer: str) -> None:
    """The fixture would catch a regularizer ignored or applied to the wrong parameter."""
    weights = {c: DATA[f"{c}_weight"] for c in CASES if c.startswith(f"{optimizer}_")}
    names = sorted(weights)
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            assert np.abs(weights[first] - weights[second]).max() > 1e-4, (first, second)


def test_l1_and_l2_terms_are_computed_with_ops() -> None:
    param = phi.to_tensor([[-2.0, 0.0, 3.0]])
    np.testing.assert_allclose(L1Decay(0.5)(param, None).numpy(), [[-0.5, 0.0, 0.5]])
    np.testing.assert_allclose(L2Decay(0.5)(param, None).numpy(), [[-1.0, 0.0, 1.5]])
    assert (str(L1Decay(0.1)), str(L2Decay())) == (
        "L1Decay, coeff=0.100000",
        "L2Decay, coeff=0.000000",
    )


def test_sgd_with_l1_decay_adds_coeff_times_sign() -> None:
    weight = phi.to_tensor([2.0, -1.0, 0.0], stop_gradient=False)
    optimizer = phi.optimizer.SGD(1.0, parameters=[weight], weight_decay=L1Decay(0.25))
    (weight * 0.0).sum().backward()
    optimizer.step()
    np.testing.assert_allclose(weight.numpy(), [1.75, -0.75, 0.0])


def test_param_attr_keeps_its_regularizer_and_the_layer_records_it() -> None:
    decay = L1Decay(0.3)
    layer = phi.nn.Linear(2, 2, weight_attr=phi.ParamAttr(regularizer=decay))
    assert parameter_regularizer(layer.weight) is decay
    assert parameter_regularizer(layer.bias) is None


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: L1Decay("0.1"), "L1Decay: coeff must be a float"),
        (lambda: L2Decay(None), "L2Decay: coeff must be a float"),
        (lambda: phi.ParamAttr(regularizer=0.1), "ParamAttr: regularizer must be an L1Decay"),
        (
            lambda: phi.optimizer.SGD(parameters=[phi.ones([1])], weight_decay="l2"),
            "SGD: weight_decay must be a float, an L1Decay",
        ),
        (
            lambda: phi.optimizer.Momentum(parameters=[phi.ones([1])], weight_decay=[0.1]),
            "Momentum: weight_decay must be a float, an L1Decay",
        ),
    ],
)
def test_bad_arguments_are_named(make, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        make()


def _static_sgd_step(weight_decay, weight_attr=None) -> tuple[list[str], np.ndarray, np.ndarray]:
    """One static SGD step (rate 1) of mean(linear(x)) with ``weight_decay``: the op names of the
    main program, and the weight before and after."""
    main, startup = phi.static.Program(), phi.static.Program()
    phi.enable_static()
    try:
        with phi.static.unique_name_guard(), phi.static.program_guard(main, startup):
            x = phi.static.data("x", [2, 3], "float32")
            layer = phi.nn.Linear(3, 1, weight_attr=weight_attr)
            loss = phi.mean(layer(x))
            phi.optimizer.SGD(1.0, weight_decay=weight_decay).minimize(loss)
        scope = phi.static.Scope()
        exe = phi.static.Executor()
        exe.run(startup, scope=scope)
        name = layer.weight.name
        before = np.asarray(scope.get(name)).copy()
        exe.run(main, feed={"x": np.ones((2, 3), "float32")}, scope=scope)
        return [op.name for op in main.global_block().ops], before, np.asarray(scope.get(name))
    finally:
        phi.disable_static()


def test_l1_decay_builds_sign_and_scale_into_a_static_program() -> None:
    ops, before, after = _static_sgd_step(L1Decay(0.5))
    assert "pd_op.sign" in ops and "pd_op.add_n" in ops
    np.testing.assert_allclose(after, before - 1.0 - 0.5 * np.sign(before), rtol=1e-6)


def test_a_param_attr_regularizer_replaces_the_optimizers_in_a_static_program() -> None:
    _, before, after = _static_sgd_step(0.9, phi.ParamAttr(regularizer=L1Decay(0.5)))
    np.testing.assert_allclose(after, before - 1.0 - 0.5 * np.sign(before), rtol=1e-6)
