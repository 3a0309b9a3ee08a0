"""Every scheduler of ``phiops.optimizer.lr`` gives PaddlePaddle 3.3.1's learning rates
(tests/data/optimizer/lr_schedulers.json, from tests/tools/make_lr_fixtures.py): 25 steps of each
case of tests/optimizer/lr_cases.py, jumps with ``step(epoch)``, ReduceOnPlateau's reductions, and
the state dicts; then the base class's contract, bad arguments, and optimizers taking them."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

import phiops as phi
from phiops.optimizer import lr
from phiops.runtime.errors import InvalidArgumentError
from tests.optimizer.lr_cases import CASES, JUMPS, PLATEAU_CASES, PLATEAU_METRICS, STEPS

DATA = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "optimizer" / "lr_schedulers.json").read_text()
)
SCHEDULERS = DATA["schedulers"]


def test_every_paddle_scheduler_is_here_and_recorded() -> None:
    assert sorted(lr.__all__) == sorted(
        [
            "LRScheduler",
            "NoamDecay",
            "PiecewiseDecay",
            "NaturalExpDecay",
            "InverseTimeDecay",
            "PolynomialDecay",
            "LinearWarmup",
            "ExponentialDecay",
            "MultiStepDecay",
            "StepDecay",
            "LambdaDecay",
            "ReduceOnPlateau",
            "CosineAnnealingDecay",
            "MultiplicativeDecay",
            "OneCycleLR",
            "CyclicLR",
            "LinearLR",
            "CosineAnnealingWarmRestarts",
        ]
    )
    covered = {type(make(lr)).__name__ for make in CASES.values()} | {"ReduceOnPlateau"}
    assert covered == set(lr.__all__) - {"LRScheduler"}
    assert sorted(SCHEDULERS) == sorted(CASES)


@pytest.mark.parametrize("case", sorted(CASES))
def test_rates_over_steps_equal_paddles(case: str) -> None:
    scheduler = CASES[case](lr)
    rates = []
    for _ in range(STEPS):
        rates.append(scheduler())
        scheduler.step()
    np.testing.assert_allclose(rates, SCHEDULERS[case]["rates"], rtol=1e-13, atol=0)


@pytest.mark.parametrize("case", sorted(CASES))
def test_state_dict_after_the_steps_equals_paddles(case: str) -> None:
    scheduler = CASES[case](lr)
    for _ in range(STEPS):
        scheduler.step()
    expected = SCHEDULERS[case]["state"]
    got = scheduler.state_dict()
    assert sorted(got) == sorted(expected)
    assert got["last_epoch"] == expected["last_epoch"]
    assert math.isclose(got["last_lr"], expected["last_lr"], rel_tol=1e-13)


@pytest.mark.parametrize("case", sorted(JUMPS))
def test_step_to_an_epoch_equals_paddles(case: str) -> None:
    scheduler = CASES[case](lr)
    got = []
    for epoch in JUMPS[case]:
        scheduler.step(epoch)
        got.append(scheduler())
    np.testing.assert_allclose(got, SCHEDULERS[case]["jumps"], rtol=1e-13, atol=0)


@pytest.mark.parametrize("case", sorted(PLATEAU_CASES))
def test_reduce_on_plateau_equals_paddles(case: str) -> None:
    scheduler = lr.ReduceOnPlateau(**PLATEAU_CASES[case])
    got = []
    for metric in PLATEAU_METRICS:
        scheduler.step(metric)
        got.append(scheduler())
    np.testing.assert_allclose(got, DATA["plateau"][case]["rates"], rtol=1e-13, atol=0)
    assert scheduler.state_dict() == pytest.approx(DATA["plateau"][case]["state"])


def test_reduce_on_plateau_takes_a_one_element_tensor_or_array() -> None:
    scheduler = lr.ReduceOnPlateau(1.0, patience=0)
    scheduler.step(phi.to_tensor([2.0]))
    scheduler.step(np.array(3.0))
    assert scheduler() == pytest.approx(0.1)
    with pytest.raises(InvalidArgumentError, match="one element"):
        scheduler.step(phi.to_tensor([1.0, 2.0]))
    with pytest.raises(InvalidArgumentError, match="metrics must be a number"):
        scheduler.step("low")


def test_set_state_dict_resumes_the_schedule() -> None:
    first = CASES["linear_warmup_scheduler"](lr)
    for _ in range(9):
        first.step()
    resumed = CASES["linear_warmup_scheduler"](lr)
    resumed.set_state_dict(first.state_dict())
    assert resumed.state_dict() == first.state_dict()
    for _ in range(5):
        first.step()
        resumed.step()
        assert resumed() == first()


def test_set_dict_is_set_state_dict_and_a_missing_key_is_named() -> None:
    scheduler = lr.StepDecay(0.5, step_size=2)
    scheduler.set_dict({"last_epoch": 6, "last_lr": 0.005})
    assert (scheduler.last_epoch, scheduler()) == (6, 0.005)
    with pytest.raises(InvalidArgumentError, match="no 'last_lr'"):
        scheduler.set_state_dict({"last_epoch": 3})
    with pytest.warns(UserWarning, match="does not use"):
        scheduler.set_state_dict({"last_epoch": 3, "last_lr": 0.1, "other": 1})


def test_the_base_class_needs_get_lr_and_a_subclass_with_one_works() -> None:
    with pytest.raises(NotImplementedError):
        lr.LRScheduler(0.1)

    class Halving(lr.LRScheduler):
        def get_lr(self) -> float:
            return self.base_lr * 0.5**self.last_epoch

    scheduler = Halving(learning_rate=0.8)
    scheduler.step()
    assert (scheduler.last_epoch, scheduler(), scheduler.last_lr) == (1, 0.4, 0.4)


def test_verbose_prints_each_new_rate(capsys: pytest.CaptureFixture[str]) -> None:
    scheduler = lr.ExponentialDecay(0.5, gamma=0.5, verbose=True)
    scheduler.step()
    assert capsys.readouterr().out.splitlines()[-1] == (
        "Epoch 1: ExponentialDecay set learning rate to 0.25."
    )


def test_one_cycle_refuses_steps_past_total_steps() -> None:
    scheduler = lr.OneCycleLR(1.0, total_steps=2)
    scheduler.step()
    with pytest.raises(InvalidArgumentError, match="past total_steps"):
        scheduler.step()
        scheduler.step()


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: lr.StepDecay(-0.1, step_size=2), "learning_rate must be >= 0"),
        (lambda: lr.StepDecay("0.1", step_size=2), "learning_rate must be a float"),
        (lambda: lr.StepDecay(0.1, step_size=0), "step_size must be a positive int"),
        (lambda: lr.StepDecay(0.1, step_size=2, gamma=1.5), "gamma must be < 1.0"),
        (lambda: lr.NoamDecay(0, 10), "d_model must be > 0"),
        (lambda: lr.PiecewiseDecay([], [0.1]), "boundaries is empty"),
        (lambda: lr.PiecewiseDecay([2], [0.1]), "one more element"),
        (lambda: lr.NaturalExpDecay(0.1, gamma=0.0), "gamma must be > 0"),
        (lambda: lr.PolynomialDecay(0.1, decay_steps=2.5), "decay_steps must be a positive int"),
        (lambda: lr.PolynomialDecay(0.1, 5, power=0), "power must be > 0"),
        (lambda: lr.LinearWarmup("x", 5, 0.0, 0.1), "learning_rate must be a float"),
        (lambda: lr.LinearWarmup(0.1, 5, 0.2, 0.1), "end_lr .* must be greater"),
        (lambda: lr.ExponentialDecay(0.1, gamma=1.0), r"gamma must be in \(0, 1\)"),
        (lambda: lr.MultiStepDecay(0.1, milestones=3), "milestones must be a list"),
        (lambda: lr.MultiStepDecay(0.1, milestones=[5, 2]), "milestones must increase"),
        (lambda: lr.LambdaDecay(0.1, lr_lambda=0.5), "lr_lambda must be callable"),
        (lambda: lr.MultiplicativeDecay(0.1, lr_lambda=None), "lr_lambda must be callable"),
        (lambda: lr.ReduceOnPlateau(0.1, mode="up"), "mode must be 'min' or 'max'"),
        (lambda: lr.ReduceOnPlateau(0.1, factor=2.0), "factor must be < 1.0"),
        (lambda: lr.ReduceOnPlateau(0.1, threshold_mode="x"), "threshold_mode must be"),
        (lambda: lr.CosineAnnealingDecay(0.1, T_max=0), "T_max must be a positive int"),
        (lambda: lr.OneCycleLR(0.1, total_steps=10, phase_pct=1), "phase_pct must be a float"),
        (lambda: lr.OneCycleLR(0.1, 10, anneal_strategy="exp"), "anneal_strategy must be"),
        (
            lambda: lr.OneCycleLR(0.1, 10, phase_pct=0.6, three_phase=True),
            "phase_pct must be < 0.5",
        ),
        (lambda: lr.CyclicLR(0.1, 1.0, step_size_up=0), "step_size_up must be a positive int"),
        (lambda: lr.CyclicLR(0.1, 1.0, 2, mode="saw"), "mode must be"),
        (lambda: lr.CyclicLR(0.1, 1.0, 2, scale_mode="x"), "scale_mode must be"),
        (lambda: lr.CyclicLR(0.1, 1.0, 2, exp_gamma=1), "exp_gamma must be a float"),
        (lambda: lr.LinearLR(0.1, 10, start_factor=0), "start_factor must be in"),
        (lambda: lr.LinearLR(0.1, 10, end_factor=2.0), "end_factor must be in"),
        (lambda: lr.LinearLR(0.1, 0), "total_steps must be a positive int"),
        (lambda: lr.CosineAnnealingWarmRestarts(0.1, T_0=0), "T_0 must be a positive int"),
        (lambda: lr.CosineAnnealingWarmRestarts(0.1, 5, T_mult=0), "T_mult must be an int"),
    ],
)
def test_bad_arguments_are_named(make, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        make()


@pytest.mark.parametrize("case", ["noam", "one_cycle_cos", "cyclic_triangular", "warm_restarts"])
@pytest.mark.parametrize("optimizer", ["SGD", "Momentum", "Adam", "AdamW"])
def test_every_optimizer_follows_a_scheduler(case: str, optimizer: str) -> None:
    scheduler = CASES[case](lr)
    weight = phi.to_tensor([1.0, -2.0], stop_gradient=False)
    opt = getattr(phi.optimizer, optimizer)(learning_rate=scheduler, parameters=[weight])
    for _ in range(4):
        (weight * weight).sum().backward()
        opt.step()
        opt.clear_grad()
        assert opt.get_lr() == scheduler()
        scheduler.step()
    assert opt.state_dict()["LR_Scheduler"] == scheduler.state_dict()


def test_sgd_steps_with_reduce_on_plateau_rates() -> None:
    scheduler = lr.ReduceOnPlateau(1.0, patience=0, factor=0.5)
    weight = phi.to_tensor([1.0], stop_gradient=False)
    opt = phi.optimizer.SGD(learning_rate=scheduler, parameters=[weight])
    expected = 1.0
    for metric in [3.0, 4.0, 5.0]:
        (weight * 1.0).sum().backward()
        opt.step()
        opt.clear_grad()
        expected -= scheduler()
        scheduler.step(metric)
    np.testing.assert_allclose(weight.numpy(), [expected], rtol=1e-6)
    assert expected == 1.0 - 1.0 - 1.0 - 0.5
