"""paddle.optimizer's Adagrad, RMSProp, Adamax, Adadelta, Lamb, NAdam, RAdam, Rprop, ASGD and
Adam/AdamW with amsgrad, against PaddlePaddle 3.3.1's runs of tests/optimizer/optimizer2_cases.py
(tests/data/optimizer/optimizers2.npz and resume/, from tests/tools/make_optimizer2_fixtures.py):
the parameters after 20 steps, the state_dict's keys and values halfway, and training resumed
from the .pdparams/.pdopt files PaddlePaddle saved halfway. Then their signatures, their checks,
phiops's own save/resume round trip and what they refuse."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import phiops as phi
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from tests import paddle_api
from tests.optimizer.optimizer2_cases import CASES, RESUME_AT, STEPS, build, state_arrays, train

DATA_DIR = Path(__file__).resolve().parents[1] / "data" / "optimizer"
DATA = np.load(DATA_DIR / "optimizers2.npz")
TOLERANCE = {"rtol": 2e-5, "atol": 2e-6}
NAMES = ["Adagrad", "RMSProp", "Adamax", "Adadelta", "Lamb", "NAdam", "RAdam", "Rprop", "ASGD"]


@pytest.fixture(autouse=True)
def _names_from_zero() -> Any:
    """Each test names its layer linear_0 and its accumulators ..._0, as a new process would."""
    with phi.static.unique_name_guard():
        yield


def _assert_paddles_parameters(case: str, layer: Any) -> None:
    np.testing.assert_allclose(layer.weight.numpy(), DATA[f"{case}/weight"], **TOLERANCE)
    np.testing.assert_allclose(layer.bias.numpy(), DATA[f"{case}/bias"], **TOLERANCE)


@pytest.mark.parametrize("case", sorted(CASES))
def test_twenty_steps_give_paddles_parameters(case: str) -> None:
    layer, optimizer, scheduler = build(phi, case)
    train(phi, layer, optimizer, scheduler, 0, STEPS)
    _assert_paddles_parameters(case, layer)


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_state_dict_has_paddles_keys_and_values(case: str) -> None:
    layer, optimizer, scheduler = build(phi, case)
    train(phi, layer, optimizer, scheduler, 0, RESUME_AT)
    state = state_arrays(optimizer)
    assert list(state) == DATA[f"{case}/keys"].tolist()
    for key, value in state.items():
        if isinstance(value, dict):
            continue
        want = DATA[f"{case}/state/{key}"]
        assert value.dtype == want.dtype, key
        np.testing.assert_allclose(value, want, err_msg=key, **TOLERANCE)


@pytest.mark.parametrize("case", sorted(CASES))
def test_training_resumes_from_paddles_pdopt(case: str) -> None:
    layer, optimizer, scheduler = build(phi, case)
    layer.set_state_dict(phi.load(str(DATA_DIR / "resume" / f"{case}.pdparams")))
    optimizer.set_state_dict(phi.load(str(DATA_DIR / "resume" / f"{case}.pdopt")))
    if scheduler is not None:  # the optimizer's scheduler took the saved state
        assert scheduler.last_epoch == RESUME_AT
    train(phi, layer, optimizer, scheduler, RESUME_AT, STEPS)
    _assert_paddles_parameters(case, layer)


@pytest.mark.parametrize("case", sorted(CASES))
def test_training_resumed_from_phiops_pdopt_equals_training_never_stopped(
    case: str, tmp_path: Path
) -> None:
    layer, optimizer, scheduler = build(phi, case)
    train(phi, layer, optimizer, scheduler, 0, STEPS)
    expected = [p.numpy() for p in layer.parameters()]
    with phi.static.unique_name_guard():
        layer, optimizer, scheduler = build(phi, case)
        train(phi, layer, optimizer, scheduler, 0, RESUME_AT)
        phi.save(layer.state_dict(), str(tmp_path / "m.pdparams"))
        phi.save(optimizer.state_dict(), str(tmp_path / "m.pdopt"))
    with phi.static.unique_name_guard():
        layer, optimizer, scheduler = build(phi, case)
        layer.set_state_dict(phi.load(str(tmp_path / "m.pdparams")))
        optimizer.set_state_dict(phi.load(str(tmp_path / "m.pdopt")))
        train(phi, layer, optimizer, scheduler, RESUME_AT, STEPS)
    for parameter, values in zip(layer.parameters(), expected):
        np.testing.assert_array_equal(parameter.numpy(), values)


@pytest.mark.parametrize("name", NAMES)
def test_the_signature_is_paddles(name: str) -> None:
    ours = inspect.signature(getattr(phi.optimizer, name)).parameters
    theirs = paddle_api.parameters(f"paddle.optimizer.{name}")
    assert list(ours) == [p["name"] for p in theirs]
    for parameter in theirs:
        default = ours[parameter["name"]].default
        if "default" in parameter:
            assert repr(default) == parameter["default"], (name, parameter["name"])
        else:
            assert default is inspect.Parameter.empty, (name, parameter["name"])
    assert getattr(phi.optimizer, name).__doc__


def _parameters() -> list[Any]:
    return phi.nn.Linear(2, 2).parameters()


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda ps: phi.optimizer.Adagrad(None, parameters=ps), r"Adagrad: learning_rate"),
        (lambda ps: phi.optimizer.RMSProp(0.1, rho=-1.0, parameters=ps), r"RMSProp: rho must"),
        (lambda ps: phi.optimizer.Adamax(beta1=1.0, parameters=ps), r"Adamax: beta1 must be in"),
        (lambda ps: phi.optimizer.Adadelta(rho=None, parameters=ps), r"Adadelta: rho must"),
        (lambda ps: phi.optimizer.NAdam(-0.1, parameters=ps), r"NAdam: learning_rate must be >="),
        (lambda ps: phi.optimizer.RAdam(beta2=1.5, parameters=ps), r"RAdam: beta2 must be in"),
        (
            lambda ps: phi.optimizer.Rprop(1.0, learning_rate_range=(1e-5, 0.5), parameters=ps),
            r"Rprop: 0 < learning_rate_range\[0\] <= learning_rate",
        ),
        (lambda ps: phi.optimizer.Rprop(etas=(0.5, 0.9), parameters=ps), r"Rprop: 0 < etas"),
        (lambda ps: phi.optimizer.ASGD(batch_num=0, parameters=ps), r"ASGD: batch_num must"),
        (
            lambda ps: phi.optimizer.Lamb(exclude_from_weight_decay_fn=1, parameters=ps),
            r"Lamb: exclude_from_weight_decay_fn must be callable",
        ),
    ],
)
def test_bad_arguments_are_errors_naming_the_optimizer(make: Any, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        make(_parameters())


def test_asgd_keeps_batch_num_gradients_and_counts_steps_in_int64() -> None:
    layer, optimizer, scheduler = build(phi, "asgd")
    train(phi, layer, optimizer, scheduler, 0, 4)
    state = optimizer.state_dict()
    assert state["linear_0.w_0_y_0"].shape == [3, 4, 3]
    assert state["linear_0.w_0_m_0"].numpy().tolist() == [4]
    assert state["linear_0.w_0_m_0"].dtype == phi.int64


def test_adamax_advances_its_beta1_power_after_each_step() -> None:
    layer, optimizer, scheduler = build(phi, "adamax")
    train(phi, layer, optimizer, scheduler, 0, 3)
    power = optimizer.state_dict()["linear_0.w_0_beta1_pow_acc_0"].numpy()
    np.testing.assert_allclose(power, [0.9**4], rtol=1e-6)


@pytest.mark.parametrize("name", ["Rprop", "ASGD"])
def test_a_static_minimize_of_an_eager_only_optimizer_is_unimplemented(name: str) -> None:
    phi.enable_static()
    try:
        main, startup = phi.static.Program(), phi.static.Program()
        with phi.static.program_guard(main, startup):
            x = phi.static.data("x", [4, 2], "float32")
            loss = phi.mean(phi.nn.Linear(2, 1)(x))
            with pytest.raises(UnimplementedError, match=f"{name}.minimize"):
                getattr(phi.optimizer, name)(learning_rate=0.01).minimize(loss)
    finally:
        phi.disable_static()


def test_a_group_option_the_optimizer_does_not_take_is_unimplemented_naming_those_it_takes() -> None:
    layer = phi.nn.Linear(2, 2)
    with pytest.raises(
        UnimplementedError,
        match=r"parameters\[0\]: the parameter group options \['beta1'\] are not implemented; "
        r"a group of RMSProp takes \['params', 'learning_rate', 'weight_decay', 'centered', "
        r"'epsilon', 'momentum', 'rho'\]",
    ):
        phi.optimizer.RMSProp(0.1, parameters=[{"params": layer.parameters(), "beta1": 0.5}])
