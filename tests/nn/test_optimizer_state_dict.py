"""Optimizer.state_dict() / set_state_dict() with PaddlePaddle 3.3.1's keys, and their round trip
through ``phiops.save`` / ``phiops.load`` as a ``.pdopt`` file: training resumed from saved
state takes the same steps, bit for bit, as training never interrupted."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest

import phiops as phi
from phiops.runtime.errors import InvalidArgumentError

Make = Callable[[list[Any]], Any]


def linear() -> Any:
    """A Linear(3, 2) with the same values each time; named linear_0.w_0, linear_0.b_0 in a
    fresh ``unique_name_guard`` (as in a new process)."""
    phi.seed(7)
    return phi.nn.Linear(3, 2)


def train(layer: Any, optimizer: Any, steps: int, first: int = 0) -> None:
    for step in range(first, first + steps):
        x = phi.to_tensor(np.linspace(-1.0, 1.0, 12, dtype=np.float32).reshape(4, 3) * (step + 1))
        loss = phi.mean(phi.square(layer(x)))
        loss.backward()
        optimizer.step()
        optimizer.clear_grad()
        if isinstance(optimizer._scheduler, phi.optimizer.lr.LRScheduler):
            optimizer._scheduler.step()


def fresh(make: Make) -> tuple[Any, Any]:
    layer = linear()
    return layer, make(layer.parameters())


# each test runs as a new process would: the unique names (linear_0, ..._moment1_0) from 0
@pytest.fixture(autouse=True)
def _names_from_zero() -> Any:
    with phi.static.unique_name_guard():
        yield


OPTIMIZERS: dict[str, Make] = {
    "sgd_scheduled": lambda ps: phi.optimizer.SGD(
        phi.optimizer.lr.StepDecay(0.1, step_size=1, gamma=0.5), parameters=ps
    ),
    "momentum": lambda ps: phi.optimizer.Momentum(0.1, parameters=ps, weight_decay=0.01),
    "momentum_per_parameter": lambda ps: phi.optimizer.Momentum(
        0.1, parameters=ps, use_nesterov=True, use_multi_tensor=False
    ),
    "adam_scheduled": lambda ps: phi.optimizer.Adam(
        phi.optimizer.lr.CosineAnnealingDecay(0.05, T_max=4), parameters=ps, weight_decay=0.1
    ),
    "adam_per_parameter": lambda ps: phi.optimizer.Adam(
        0.05, parameters=ps, use_multi_tensor=False
    ),
    "adamw": lambda ps: phi.optimizer.AdamW(0.05, parameters=ps, weight_decay=0.3),
    "adamw_per_parameter": lambda ps: phi.optimizer.AdamW(
        0.05, parameters=ps, weight_decay=0.3, use_multi_tensor=False
    ),
}


def test_adams_state_dict_has_paddles_keys_accumulator_by_accumulator() -> None:
    layer, optimizer = fresh(OPTIMIZERS["adamw"])
    assert optimizer.state_dict() == {}
    train(layer, optimizer, 1)
    state = optimizer.state_dict()
    assert list(state) == [
        f"linear_0.{p}_0_{acc}_0"
        for acc in ("moment1", "moment2", "beta1_pow_acc", "beta2_pow_acc")
        for p in ("w", "b")
    ]
    assert state["linear_0.w_0_moment1_0"].shape == [3, 2]
    assert state["linear_0.b_0_moment2_0"].shape == [2]
    np.testing.assert_array_equal(
        state["linear_0.w_0_beta1_pow_acc_0"].numpy(), [np.float32(0.9) * np.float32(0.9)]
    )


def test_momentums_state_is_its_velocities_and_sgds_only_the_scheduler() -> None:
    layer, momentum = fresh(OPTIMIZERS["momentum"])
    train(layer, momentum, 1)
    assert list(momentum.state_dict()) == ["linear_0.w_0_velocity_0", "linear_0.b_0_velocity_0"]
    layer, sgd = fresh(OPTIMIZERS["sgd_scheduled"])
    train(layer, sgd, 3)
    assert sgd.state_dict() == {"LR_Scheduler": {"last_epoch": 3, "last_lr": 0.1 * 0.5**3}}


def test_an_optimizers_name_goes_before_the_accumulators() -> None:
    layer = linear()
    optimizer = phi.optimizer.Momentum(0.1, parameters=layer.parameters(), name="opt")
    train(layer, optimizer, 1)
    assert list(optimizer.state_dict())[0] == "linear_0.w_0_opt_velocity_0"


@pytest.mark.parametrize("kind", sorted(OPTIMIZERS))
def test_training_resumed_from_a_saved_pdopt_equals_training_never_stopped(
    kind: str, tmp_path: Path
) -> None:
    with phi.static.unique_name_guard():
        layer, optimizer = fresh(OPTIMIZERS[kind])
        train(layer, optimizer, 4)
        expected = [p.numpy() for p in layer.parameters()]

    with phi.static.unique_name_guard():
        layer, optimizer = fresh(OPTIMIZERS[kind])
        train(layer, optimizer, 2)
        phi.save(layer.state_dict(), str(tmp_path / "model.pdparams"))
        phi.save(optimizer.state_dict(), str(tmp_path / "model.pdopt"))

    with phi.static.unique_name_guard():
        layer, optimizer = fresh(OPTIMIZERS[kind])
        layer.set_state_dict(phi.load(str(tmp_path / "model.pdparams")))
        optimizer.set_state_dict(phi.load(str(tmp_path / "model.pdopt")))
        train(layer, optimizer, 2, first=2)
    for parameter, values in zip(layer.parameters(), expected):
        np.testing.assert_array_equal(parameter.numpy(), values)


def test_a_state_loaded_into_a_stepped_optimizer_replaces_its_state_in_place() -> None:
    layer, optimizer = fresh(OPTIMIZERS["adamw"])
    train(layer, optimizer, 2)
    saved = {k: v.numpy().copy() for k, v in optimizer.state_dict().items()}
    parameters = [p.numpy().copy() for p in layer.parameters()]
    train(layer, optimizer, 3, first=2)
    expected = [p.numpy() for p in layer.parameters()]

    for parameter, values in zip(layer.parameters(), parameters):
        parameter.set_value(values)
    moment = optimizer.state_dict()["linear_0.w_0_moment1_0"]
    optimizer.set_state_dict(saved)
    assert optimizer.state_dict()["linear_0.w_0_moment1_0"] is moment
    train(layer, optimizer, 3, first=2)
    for parameter, values in zip(layer.parameters(), expected):
        np.testing.assert_array_equal(parameter.numpy(), values)


def test_a_pdopt_file_is_paddles_pickle_of_arrays_keyed_by_accumulator_name(tmp_path: Path) -> None:
    layer, optimizer = fresh(OPTIMIZERS["adam_scheduled"])
    train(layer, optimizer, 1)
    phi.save(optimizer.state_dict(), str(tmp_path / "opt.pdopt"))
    with open(tmp_path / "opt.pdopt", "rb") as f:
        raw = pickle.load(f)
    names = [k for k in optimizer.state_dict() if k != "LR_Scheduler"]
    assert raw["StructuredToParameterName@@"] == {name: name for name in names}
    assert isinstance(raw["linear_0.w_0_moment2_0"], np.ndarray)
    assert raw["LR_Scheduler"] == {"last_epoch": 1, "last_lr": optimizer.get_lr()}


def test_a_missing_key_is_an_error_naming_it() -> None:
    layer, optimizer = fresh(OPTIMIZERS["adam_per_parameter"])
    train(layer, optimizer, 1)
    state = optimizer.state_dict()
    del state["linear_0.b_0_beta2_pow_acc_0"]
    with pytest.raises(InvalidArgumentError, match="no 'linear_0.b_0_beta2_pow_acc_0'"):
        optimizer.set_state_dict(state)
    with phi.static.unique_name_guard():
        _, new = fresh(OPTIMIZERS["adam_per_parameter"])
        with pytest.raises(InvalidArgumentError, match="no 'linear_0.b_0_beta2_pow_acc_0'"):
            new.set_state_dict(state)


def test_a_value_of_another_shape_is_an_error_naming_its_key() -> None:
    layer, optimizer = fresh(OPTIMIZERS["momentum"])
    train(layer, optimizer, 1)
    state = optimizer.state_dict()
    state["linear_0.w_0_velocity_0"] = np.zeros([2, 3], np.float32)
    with pytest.raises(InvalidArgumentError, match=r"'linear_0.w_0_velocity_0' has shape \[2, 3\]"):
        optimizer.set_state_dict(state)
    with phi.static.unique_name_guard():
        _, new = fresh(OPTIMIZERS["momentum"])
        with pytest.raises(
            InvalidArgumentError, match=r"'linear_0.w_0_velocity_0' has shape \[2, 3\]"
        ):
            new.set_state_dict(state)


def test_a_scheduled_optimizer_needs_the_schedulers_state() -> None:
    layer, optimizer = fresh(OPTIMIZERS["sgd_scheduled"])
    with pytest.raises(InvalidArgumentError, match="'LR_Scheduler'"):
        optimizer.set_state_dict({})


def test_a_loaded_scheduler_state_sets_the_next_steps_rate() -> None:
    _, optimizer = fresh(OPTIMIZERS["sgd_scheduled"])
    optimizer.set_state_dict({"LR_Scheduler": {"last_epoch": 2, "last_lr": 0.025}})
    assert optimizer.get_lr() == 0.025


def test_a_state_saved_under_other_parameter_names_is_an_error_naming_both() -> None:
    layer, optimizer = fresh(OPTIMIZERS["adamw"])
    train(layer, optimizer, 1)
    state = optimizer.state_dict()
    _, same_process = fresh(OPTIMIZERS["adamw"])  # linear_1, without a new unique_name_guard
    with pytest.raises(
        InvalidArgumentError, match="linear_0.b_0_beta1_pow_acc_0.*such as 'linear_1.w_0_moment1_0'"
    ):
        same_process.set_state_dict(state)


def test_a_parameter_the_state_lacks_may_not_step() -> None:
    layer, optimizer = fresh(OPTIMIZERS["momentum"])
    train(layer, optimizer, 1)
    state = optimizer.state_dict()
    with phi.static.unique_name_guard():
        layer = linear()
        extra = phi.to_tensor(np.ones(2, np.float32), stop_gradient=False)
        extra.name = "extra"
        resumed = phi.optimizer.Momentum(0.1, parameters=[*layer.parameters(), extra])
        resumed.set_state_dict(state)
    train(layer, resumed, 1)  # extra has no gradient: fine
    phi.sum(extra).backward()
    with pytest.raises(InvalidArgumentError, match="'extra' has a gradient.*no 'extra_velocity_0'"):
        resumed.step()
