"""phiops.runtime.optimizer against PaddlePaddle 3.3.1's optimizers: the same parameters trained for
several steps on the same loss, by phiops's multi-tensor and per-parameter paths and by
PaddlePaddle's; and the optimizer ops against ``paddle._C_ops``. Runs only where PaddlePaddle is
installed.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops.generated as phi  # noqa: E402
from phiops.runtime import optimizer as phi_optim  # noqa: E402

SHAPES = [(3, 4), (4,), (5, 1), (2,)]
STEPS = 5
TOLERANCE = {"rtol": 2e-5, "atol": 2e-6}


def start() -> list[np.ndarray]:
    rng = np.random.default_rng(16)
    return [rng.uniform(-1, 1, shape).astype(np.float32) for shape in SHAPES]


def loss_of(params: list[Any], add: Callable[[Any, Any], Any], total: Callable[[Any], Any]) -> Any:
    """sum(p^3 + p) over the parameters: a gradient 3p^2 + 1 that changes every step."""
    loss = None
    for p in params:
        term = total(add(p * p * p, p))
        loss = term if loss is None else add(loss, term)
    return loss


def train_paddle(make: Callable[..., Any], options: dict[str, Any]) -> list[np.ndarray]:
    params = [paddle.to_tensor(a, stop_gradient=False) for a in start()]
    options = _resolve(options, [p.name for p in params], paddle.nn)
    optimizer = make(parameters=params, **options)
    for _ in range(STEPS):
        loss_of(params, lambda a, b: a + b, paddle.sum).backward()
        optimizer.step()
        optimizer.clear_grad()
    return [p.numpy() for p in params]


def train_phiops(make: Callable[..., Any], options: dict[str, Any]) -> list[np.ndarray]:
    params = [phi.to_tensor(a, stop_gradient=False) for a in start()]
    for index, p in enumerate(params):
        p.name = f"w{index}"
    options = _resolve(options, [p.name for p in params], phi.nn)
    optimizer = make(parameters=params, **options)
    for step in range(STEPS):
        loss_of(params, phi.add, phi.sum).backward()
        optimizer.step()
        optimizer.clear_grad(set_to_zero=step % 2 == 0)
    return [p.numpy() for p in params]


def _resolve(options: dict[str, Any], names: list[str], nn: Any) -> dict[str, Any]:
    """``decay_first_and_third`` becomes an apply_decay_param_fun on this library's names, and
    ``clip`` (class name, arguments) this library's gradient clip."""
    options = dict(options)
    if "clip" in options:
        kind, arguments = options.pop("clip")
        options["grad_clip"] = getattr(nn, kind)(*arguments)
    if options.pop("decay_first_and_third", False):
        chosen = {names[0], names[2]}
        options["apply_decay_param_fun"] = lambda name: name in chosen
    return options


CASES = [
    ("SGD", {"learning_rate": 0.05}),
    ("SGD", {"learning_rate": 0.05, "weight_decay": 0.1}),
    ("Momentum", {"learning_rate": 0.05}),
    ("Momentum", {"learning_rate": 0.05, "momentum": 0.8, "use_nesterov": True}),
    ("Momentum", {"learning_rate": 0.05, "weight_decay": 0.1}),
    ("Momentum", {"learning_rate": 0.05, "use_nesterov": True, "weight_decay": 0.2}),
    ("Adam", {"learning_rate": 0.05}),
    ("Adam", {"learning_rate": 0.05, "beta1": 0.8, "beta2": 0.95, "epsilon": 1e-6}),
    ("Adam", {"learning_rate": 0.05, "weight_decay": 0.1}),
    ("AdamW", {"learning_rate": 0.05}),
    ("AdamW", {"learning_rate": 0.05, "weight_decay": 0.3, "beta2": 0.99}),
    ("AdamW", {"learning_rate": 0.05, "weight_decay": 0.3, "decay_first_and_third": True}),
    # gradient clipping (before weight decay, as there): the loss's gradients 3p^2 + 1 have a
    # global norm of about 6-8 and per-tensor norms of about 1.5-6
    ("SGD", {"learning_rate": 0.05, "clip": ("ClipGradByGlobalNorm", (1.0,))}),
    ("SGD", {"learning_rate": 0.05, "weight_decay": 0.1, "clip": ("ClipGradByNorm", (2.0,))}),
    ("Momentum", {"learning_rate": 0.05, "clip": ("ClipGradByValue", (1.5, 1.1))}),
    ("Adam", {"learning_rate": 0.05, "clip": ("ClipGradByGlobalNorm", (50.0, "g", True))}),
    ("AdamW", {"learning_rate": 0.05, "weight_decay": 0.3, "clip": ("ClipGradByValue", (2.0,))}),
]


def _id(case: tuple[str, dict[str, Any]]) -> str:
    name, options = case
    return name + "".join(
        f"-{k}={v[0] if k == 'clip' else v}" for k, v in options.items() if k != "learning_rate"
    )


# SGD has one path (an sgd_ call per parameter); the others run both.
RUNS = [
    (case, multi) for case in CASES for multi in ((None,) if case[0] == "SGD" else (True, False))
]


def _run_id(run: tuple[tuple[str, dict[str, Any]], bool | None]) -> str:
    case, multi = run
    return _id(case) + {None: "", True: "-multi-tensor", False: "-per-parameter"}[multi]


@pytest.mark.parametrize("run", RUNS, ids=[_run_id(r) for r in RUNS])
def test_training_matches_paddle(run: tuple[tuple[str, dict[str, Any]], bool | None]) -> None:
    (name, options), use_multi_tensor = run
    extra = {} if use_multi_tensor is None else {"use_multi_tensor": use_multi_tensor}
    expected = train_paddle(getattr(paddle.optimizer, name), options)
    actual = train_phiops(getattr(phi_optim, name), {**options, **extra})
    for got, want, start_value in zip(actual, expected, start()):
        assert not np.allclose(want, start_value)
        np.testing.assert_allclose(got, want, **TOLERANCE)


@pytest.mark.parametrize("name", ["Momentum", "Adam"])
def test_paddles_multi_tensor_path_agrees_too(name: str) -> None:
    options = {"learning_rate": 0.05, "weight_decay": 0.1}
    expected = train_paddle(getattr(paddle.optimizer, name), {**options, "use_multi_tensor": True})
    actual = train_phiops(getattr(phi_optim, name), options)
    for got, want in zip(actual, expected):
        np.testing.assert_allclose(got, want, **TOLERANCE)


def _paddle(array: np.ndarray) -> Any:
    return paddle.to_tensor(array)


def test_merged_adam_op_matches_paddles() -> None:
    rng = np.random.default_rng(3)
    params = [rng.standard_normal(s).astype(np.float32) for s in SHAPES]
    grads = [rng.standard_normal(s).astype(np.float32) for s in SHAPES]
    moments = [rng.uniform(0, 1, s).astype(np.float32) for s in SHAPES]
    rates = [np.array([0.01 * (i + 1)], np.float32) for i in range(len(SHAPES))]
    pows = [np.array([0.9**3], np.float32), np.array([0.999**3], np.float32)]

    def run(to: Callable[[np.ndarray], Any], paddle_layout: bool) -> list[np.ndarray]:
        state = [
            [to(p.copy()) for p in params],
            [to(g) for g in grads],
            [to(r) for r in rates],
            [to(m.copy()) for m in moments],
            [to(m.copy() * 0.5) for m in moments],
            [to(pows[0].copy()) for _ in SHAPES],
            [to(pows[1].copy()) for _ in SHAPES],
        ]
        if paddle_layout:  # PaddlePaddle 3.3.1 adds moment2_max and amsgrad
            paddle._C_ops.merged_adam_(
                *state[:5], None, *state[5:], None, 0.85, 0.99, 1e-6, False, False, False
            )
        else:
            phi.merged_adam_(*state, None, 0.85, 0.99, 1e-6, False, False)
        return [t.numpy() for column in (state[0], state[3], state[4], state[5]) for t in column]

    actual = run(phi.to_tensor, False)
    expected = run(_paddle, True)
    for got, want in zip(actual, expected):
        np.testing.assert_allclose(got, want, **TOLERANCE)


@pytest.mark.parametrize("nesterov", [False, True])
def test_merged_momentum_op_matches_paddles(nesterov: bool) -> None:
    rng = np.random.default_rng(4)
    params = [rng.standard_normal(s).astype(np.float32) for s in SHAPES]
    grads = [rng.standard_normal(s).astype(np.float32) for s in SHAPES]
    velocities = [rng.standard_normal(s).astype(np.float32) for s in SHAPES]
    methods, coeffs = ["l2_decay", "", "l2_decay", ""], [0.1, 0.0, 0.3, 0.0]

    def run(to: Callable[[np.ndarray], Any], op: Callable[..., Any]) -> list[np.ndarray]:
        ps, vs = [to(p.copy()) for p in params], [to(v.copy()) for v in velocities]
        rate = [to(np.array([0.05], np.float32))]
        op(ps, [to(g) for g in grads], vs, rate, None, 0.9, nesterov, methods, coeffs, False, 1.0)
        return [t.numpy() for t in ps + vs]

    for got, want in zip(
        run(phi.to_tensor, phi.merged_momentum_), run(_paddle, paddle._C_ops.merged_momentum_)
    ):
        np.testing.assert_allclose(got, want, **TOLERANCE)


def test_adamw_op_matches_paddles_with_an_lr_ratio() -> None:
    rng = np.random.default_rng(5)
    arrays = [rng.standard_normal((3, 4)).astype(np.float32) for _ in range(2)]
    moment = rng.uniform(0, 1, (3, 4)).astype(np.float32)

    def run(to: Callable[[np.ndarray], Any], paddle_layout: bool) -> np.ndarray:
        param = to(arrays[0].copy())
        tail = (to(np.array([0.81], np.float32)), to(np.array([0.998], np.float32)), None, None)
        head = (param, to(arrays[1]), to(np.array([0.1], np.float32)), to(moment.copy()))
        head += (to(moment.copy() * 0.5),)
        attrs = (0.9, 0.999, 1e-8, 0.5, 0.2, True, False, 1000, False, False, False)
        # both with PaddlePaddle 3.3.1's moment2_max (None) and amsgrad (False)
        (paddle._C_ops if paddle_layout else phi).adamw_(*head, None, *tail, *attrs)
        return param.numpy()

    np.testing.assert_allclose(run(phi.to_tensor, False), run(_paddle, True), **TOLERANCE)
