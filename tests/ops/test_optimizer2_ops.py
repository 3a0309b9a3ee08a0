"""The optimizer ops of issues 24 and 25 (adagrad_, rmsprop_, adamax_, adadelta_, lamb_, nadam_,
radam_, rprop_, asgd_, and adam_/adamw_ with amsgrad) through the generated API, against numpy
references of PaddlePaddle's kernel math (tests/optimizer/optimizer2_reference.py), over
several steps, in place."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from tests.ops.op_testing import cpu_dtypes, op_test, sample, tolerance
from tests.optimizer import optimizer2_reference as ref

D = DataType
SHAPE = (3, 4)
STEPS = 3


def _positive(shape: tuple[int, ...], dtype: DataType, seed: int) -> np.ndarray:
    return sample(shape, dtype, seed=seed, low=0.1, high=1.0)


def _full(shape: tuple[int, ...], dtype: DataType, value: float) -> np.ndarray:
    return np.full(shape, value, dtype.numpy_dtype)


def _one(dtype: DataType, value: float) -> np.ndarray:
    return np.array([value], dtype.numpy_dtype)


class Case:
    """One op: how to make its state, call it, and step the reference."""

    def __init__(
        self,
        state: Callable[[tuple[int, ...], DataType], list[np.ndarray]],
        call: Callable[[list[Any], Any, Any], Any],
        reference: Callable[[list[np.ndarray], np.ndarray, float], list[np.ndarray]],
    ) -> None:
        self.state, self.call, self.reference = state, call, reference


LR = 0.05

CASES: dict[str, Case] = {
    "adagrad_": Case(
        lambda s, d: [sample(s, d), _positive(s, d, 2)],
        lambda st, g, lr: phi.adagrad_(st[0], g, st[1], lr, None, 1e-6),
        lambda st, g, lr: list(ref.adagrad(st[0], g, st[1], lr, 1e-6)),
    ),
    "rmsprop_": Case(
        lambda s, d: [
            sample(s, d),
            _positive(s, d, 2),
            sample(s, d, seed=3),
            sample(s, d, seed=4, low=-0.1, high=0.1),
        ],
        lambda st, g, lr: phi.rmsprop_(
            st[0], st[1], g, st[2], lr, st[3], None, 1e-6, 0.9, 0.5, True
        ),
        lambda st, g, lr: (lambda out: [out[0], out[2], out[1], out[3]])(
            ref.rmsprop(st[0], st[1], g, st[2], lr, st[3], 1e-6, 0.9, 0.5, True)
        ),
    ),
    "adamax_": Case(
        lambda s, d: [sample(s, d), sample(s, d, seed=2), _positive(s, d, 3), _one(d, 0.9)],
        lambda st, g, lr: phi.adamax_(st[0], g, lr, st[1], st[2], st[3], None, 0.9, 0.99, 1e-8),
        lambda st, g, lr: [*ref.adamax(st[0], g, lr, st[1], st[2], st[3], 0.9, 0.99, 1e-8), st[3]],
    ),
    "adadelta_": Case(
        lambda s, d: [sample(s, d), _positive(s, d, 2), _positive(s, d, 3)],
        lambda st, g, lr: phi.adadelta_(st[0], g, st[1], st[2], lr, None, 0.9, 1e-6),
        lambda st, g, lr: list(ref.adadelta(st[0], g, st[1], st[2], lr, 0.9, 1e-6)),
    ),
    "lamb_": Case(
        lambda s, d: [
            sample(s, d),
            np.zeros(s, d.numpy_dtype),
            np.zeros(s, d.numpy_dtype),
            _one(d, 0.9),
            _one(d, 0.999),
        ],
        lambda st, g, lr: phi.lamb_(st[0], g, lr, *st[1:], None, None, 0.01),
        lambda st, g, lr: list(ref.lamb(st[0], g, lr, *st[1:], 0.01)),
    ),
    "nadam_": Case(
        lambda s, d: [
            sample(s, d),
            *(_full(s, d, 1.0) for _ in range(3)),
            np.zeros(s, d.numpy_dtype),
            np.zeros(s, d.numpy_dtype),
        ],
        lambda st, g, lr: phi.nadam_(st[0], g, lr, *st[1:], None),
        lambda st, g, lr: list(ref.nadam(st[0], g, lr, *st[1:])),
    ),
    "radam_": Case(
        lambda s, d: [
            sample(s, d),
            *(_full(s, d, 1.0) for _ in range(3)),
            np.zeros(s, d.numpy_dtype),
            np.zeros(s, d.numpy_dtype),
        ],
        lambda st, g, lr: phi.radam_(st[0], g, lr, *st[1:], None),
        lambda st, g, lr: list(ref.radam(st[0], g, lr, *st[1:])),
    ),
    "rprop_": Case(
        lambda s, d: [sample(s, d), np.zeros(s, d.numpy_dtype), _full(s, d, 0.01)],
        lambda st, g, lr: phi.rprop_(
            st[0],
            g,
            st[1],
            st[2],
            None,
            phi.to_tensor(np.array([1e-5, 0.05], st[0].numpy().dtype)),
            phi.to_tensor(np.array([0.5, 1.2], st[0].numpy().dtype)),
        ),
        lambda st, g, lr: list(ref.rprop(st[0], g, st[1], st[2], [1e-5, 0.05], [0.5, 1.2])),
    ),
    "asgd_": Case(
        lambda s, d: [sample(s, d), sample(s, d, seed=2), sample(s, d, seed=3), _one(d, 2)],
        lambda st, g, lr: phi.asgd_(st[0], g, lr, st[1], st[2], st[3], None),
        lambda st, g, lr: [*ref.asgd(st[0], g, lr, st[1], st[2], st[3]), st[3]],
    ),
    "adam_": Case(
        lambda s, d: [
            sample(s, d),
            np.zeros(s, d.numpy_dtype),
            np.zeros(s, d.numpy_dtype),
            _positive(s, d, 5) * 0.1,
            _one(d, 0.9),
            _one(d, 0.999),
        ],
        lambda st, g, lr: phi.adam_(st[0], g, lr, *st[1:], None, None, amsgrad=True),
        lambda st, g, lr: list(ref.adam_amsgrad(st[0], g, lr, *st[1:], 0.9, 0.999, 1e-8)),
    ),
}
KERNELS = {op: op.rstrip("_") for op in CASES}


def _steps(op: str, dtype: DataType, shape: tuple[int, ...]) -> None:
    case = CASES[op]
    start = case.state(shape, dtype)
    tensors = [phi.to_tensor(a) for a in start]
    expected = [a.astype(np.float64) for a in start]
    rate = phi.to_tensor(_one(dtype, LR))
    for step in range(STEPS):
        grad = sample(shape, dtype, seed=10 + step)
        if op == "rprop_" and step == 1:
            grad = -grad  # every sign flips: the step sizes shrink
        outputs = case.call(tensors, phi.to_tensor(grad), rate)
        assert outputs[0] is tensors[0]
        expected = case.reference(expected, grad.astype(np.float64), LR)
        for index, (tensor, want) in enumerate(zip(tensors, expected)):
            assert tensor.numpy().dtype == dtype.numpy_dtype, (op, index)
            np.testing.assert_allclose(
                tensor.numpy().astype(np.float64),
                want,
                err_msg=f"{op} state {index}",
                **tolerance(dtype),
            )


@op_test(*CASES, kind="dtypes")
@pytest.mark.parametrize(
    "op, dtype",
    [(op, dtype) for op in CASES for dtype in cpu_dtypes(KERNELS[op])],
    ids=lambda v: v if isinstance(v, str) else v.name.lower(),
)
def test_the_op_follows_paddles_formula_in_place_over_several_steps(
    op: str, dtype: DataType
) -> None:
    _steps(op, dtype, SHAPE)


@op_test(*CASES, kind="edge")
@pytest.mark.parametrize(
    "op, shape",
    # lamb_ of an empty parameter (no norm) has its own test below
    [(op, shape) for op in CASES for shape in [(), (0, 3)] if (op, shape) != ("lamb_", (0, 3))],
    ids=lambda v: v if isinstance(v, str) else ("0-d" if v == () else "empty"),
)
def test_the_op_steps_a_0d_or_an_empty_parameter(op: str, shape: tuple[int, ...]) -> None:
    _steps(op, DataType.FLOAT64, shape)


def test_lamb_of_an_empty_parameter_only_advances_the_powers() -> None:
    empty = phi.to_tensor(np.zeros((0, 3)))
    pows = [phi.to_tensor(np.array([0.9])), phi.to_tensor(np.array([0.999]))]
    phi.lamb_(empty, empty, phi.to_tensor(np.array([0.1])), empty, empty, *pows, None, None, 0.01)
    assert pows[0].numpy().tolist() == [pytest.approx(0.81)]


@pytest.mark.parametrize(
    "call, message",
    [
        (
            lambda p, o: phi.adagrad_(p, phi.to_tensor(np.ones((2, 2))), p, o, None),
            r"^adagrad_\(\): argument 'grad' with dims \[2, 2\] must have the dims of argument 'param'",
        ),
        (
            lambda p, o: phi.adagrad_(p, p, p, phi.to_tensor(np.ones(2)), None),
            r"^adagrad_\(\): argument 'learning_rate' must hold exactly one element",
        ),
        (
            lambda p, o: phi.rmsprop_(p, p, p, p, o, None, None, centered=True),
            r"^rmsprop_\(\): argument 'mean_grad' is None, but centered is true",
        ),
        (
            lambda p, o: phi.adam_(p, p, o, p, p, None, o, o, None, None, amsgrad=True),
            r"^adam_\(\): argument 'moment2_max' is None, but amsgrad is true",
        ),
        (
            lambda p, o: phi.adamw_(p, p, o, p, p, None, o, o, None, None, amsgrad=True),
            r"^adamw_\(\): argument 'moment2_max' is None, but amsgrad is true",
        ),
        (
            lambda p, o: phi.rprop_(p, p, p, p, None, o, o),
            r"^rprop_\(\): argument 'learning_rate_range' must hold exactly two elements",
        ),
        (
            lambda p, o: phi.asgd_(p, p, o, p, p, phi.to_tensor(np.ones(3)), None),
            r"^asgd_\(\): argument 'n' must hold exactly one element",
        ),
        (
            lambda p, o: phi.lamb_(p, p, o, p, p, o, phi.to_tensor(np.ones(2)), None, None, 0.1),
            r"^lamb_\(\): argument 'beta2_pow' must hold exactly one element",
        ),
    ],
)
def test_bad_inputs_are_errors_naming_the_op_and_the_argument(call: Any, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        call(phi.to_tensor(np.ones((2, 3))), phi.to_tensor(np.array([0.5])))


def test_lamb_skip_update_leaves_every_state_as_it_is() -> None:
    state = [phi.to_tensor(a) for a in CASES["lamb_"].state(SHAPE, D.FLOAT64)]
    before = [t.numpy().copy() for t in state]
    grad, rate = phi.to_tensor(sample(SHAPE, D.FLOAT64, seed=3)), phi.to_tensor(np.array([0.1]))
    phi.lamb_(state[0], grad, rate, *state[1:], None, phi.to_tensor(np.array([True])), 0.01)
    for tensor, original in zip(state, before):
        np.testing.assert_array_equal(tensor.numpy(), original)


def test_rmsprop_without_centering_leaves_mean_grad_and_returns_none_without_it() -> None:
    param, square, moment = (phi.to_tensor(sample(SHAPE, D.FLOAT64, seed=s)) for s in (1, 2, 3))
    square = phi.to_tensor(np.abs(square.numpy()))
    mean_grad = phi.to_tensor(np.full(SHAPE, 0.25))
    grad, rate = phi.to_tensor(sample(SHAPE, D.FLOAT64, seed=4)), phi.to_tensor(np.array([0.1]))
    phi.rmsprop_(param, square, grad, moment, rate, mean_grad, None)
    assert (mean_grad.numpy() == 0.25).all()
    outputs = phi.rmsprop_(param, square, grad, moment, rate, None, None)
    assert outputs[3] is None and outputs[4] is None


def test_adamw_with_amsgrad_decays_then_takes_the_amsgrad_step() -> None:
    start = CASES["adam_"].state(SHAPE, D.FLOAT64)
    tensors = [phi.to_tensor(a) for a in start]
    grad = sample(SHAPE, D.FLOAT64, seed=7)
    rate = phi.to_tensor(np.array([0.01]))
    outputs = phi.adamw_(
        tensors[0], phi.to_tensor(grad), rate, *tensors[1:], None, None,
        lr_ratio=0.5, coeff=0.2, with_decay=True, amsgrad=True,
    )  # fmt: skip
    assert outputs[3] is tensors[3]
    # lr_ratio and coeff are float attributes: PHI's kernel takes their float32 roundings
    decayed = start[0] - 0.01 * float(np.float32(0.5)) * float(np.float32(0.2)) * start[0]
    expected = ref.adam_amsgrad(decayed, grad, 0.01, *start[1:], 0.9, 0.999, 1e-8)
    for tensor, want in zip(tensors, expected):
        np.testing.assert_allclose(tensor.numpy(), want, rtol=1e-12, atol=1e-12)


def test_adam_without_amsgrad_ignores_moment2_max() -> None:
    start = CASES["adam_"].state(SHAPE, D.FLOAT64)
    with_max = [phi.to_tensor(a) for a in start]
    without = [phi.to_tensor(a) for a in start[:3] + start[4:]]
    grad, rate = phi.to_tensor(sample(SHAPE, D.FLOAT64, seed=8)), phi.to_tensor(np.array([0.01]))
    outputs = phi.adam_(with_max[0], grad, rate, *with_max[1:], None, None)
    phi.adam_(without[0], grad, rate, *without[1:3], None, *without[3:], None, None)
    assert outputs[3] is None
    np.testing.assert_array_equal(with_max[3].numpy(), start[3])
    np.testing.assert_array_equal(with_max[0].numpy(), without[0].numpy())
