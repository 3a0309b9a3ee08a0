"""phiops.runtime.optimizer: SGD, Momentum, Adam and AdamW on the in-place ops, with PaddlePaddle's
interface; the multi-tensor path against the per-parameter one."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.optimizer import SGD, Adam, AdamW, Momentum


def param(values: list[float]) -> phi.Tensor:
    return phi.to_tensor(np.array(values, np.float32), stop_gradient=False)


def test_sgd_step_moves_against_the_gradient_in_place() -> None:
    w = param([1.0, 2.0])
    storage = w._impl.array
    optimizer = SGD(learning_rate=0.5, parameters=[w])
    phi.sum(phi.multiply(w, w)).backward()  # grad = 2w
    optimizer.step()
    assert w._impl.array is storage
    np.testing.assert_allclose(w.numpy(), [0.0, 0.0])


def test_step_skips_parameters_without_a_gradient() -> None:
    used, unused = param([1.0]), param([1.0])
    optimizer = SGD(learning_rate=1.0, parameters=[used, unused])
    phi.sum(used).backward()
    optimizer.step()
    assert used.numpy().tolist() == [0.0] and unused.numpy().tolist() == [1.0]


def test_adam_matches_the_reference_formula_over_three_steps() -> None:
    w = param([1.0, -2.0, 3.0])
    optimizer = Adam(learning_rate=0.1, parameters=[w])
    reference = np.array([1.0, -2.0, 3.0])
    m = v = np.zeros(3)
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    for step in range(1, 4):
        optimizer.clear_grad()
        phi.sum(phi.multiply(w, w)).backward()
        optimizer.step()
        grad = 2 * reference
        m = beta1 * m + (1 - beta1) * grad
        v = beta2 * v + (1 - beta2) * grad * grad
        lr = 0.1 * np.sqrt(1 - beta2**step) / (1 - beta1**step)
        reference = reference - lr * m / (np.sqrt(v) + eps * np.sqrt(1 - beta2**step))
    np.testing.assert_allclose(w.numpy(), reference, rtol=1e-5)


def test_step_records_no_gradient() -> None:
    w = param([1.0])
    optimizer = Adam(parameters=[w])
    phi.sum(w).backward()
    optimizer.step()
    assert w.is_leaf and not w.stop_gradient


def test_set_lr_changes_the_next_step() -> None:
    w = param([1.0])
    optimizer = SGD(learning_rate=0.1, parameters=[w])
    optimizer.set_lr(1.0)
    phi.sum(w).backward()
    optimizer.step()
    assert optimizer.get_lr() == 1.0 and w.numpy().tolist() == [0.0]


def test_clear_grad_without_set_to_zero_drops_the_gradients_and_backward_writes_anew() -> None:
    w = param([1.0, 2.0])
    optimizer = SGD(parameters=[w])
    phi.sum(phi.multiply(w, w)).backward()
    optimizer.clear_grad(set_to_zero=False)
    assert w.grad is None
    phi.sum(phi.multiply(w, w)).backward()
    assert w.grad.numpy().tolist() == [2.0, 4.0]


def test_clear_grad_resets_every_parameter() -> None:
    w = param([1.0])
    optimizer = SGD(parameters=[w])
    phi.sum(w).backward()
    optimizer.clear_grad()
    assert w.grad.numpy().tolist() == [0.0]


def test_a_tensor_that_takes_no_gradient_is_accepted_and_left_alone() -> None:
    """As PaddlePaddle's optimizers take a frozen parameter (ParamAttr(trainable=False))."""
    frozen, w = phi.to_tensor([1.0]), param([1.0])
    optimizer = SGD(learning_rate=0.5, parameters=[frozen, w])
    phi.sum(phi.multiply(frozen, w)).backward()
    optimizer.step()
    assert frozen.numpy().tolist() == [1.0] and w.numpy().tolist() == [0.5]


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: SGD(parameters=[]), "SGD: 'parameters' is empty"),
        (lambda: SGD(parameters=[np.ones(1)]), r"SGD: parameters\[0\] is a ndarray, not a Tensor"),
        (
            lambda: SGD(learning_rate=-1.0, parameters=[param([1.0])]),
            "learning_rate must be a non-negative number, got -1.0",
        ),
        (
            lambda: Adam(beta1=1.0, parameters=[param([1.0])]),
            r"Adam: beta1 must be in \[0, 1\), got 1.0",
        ),
        (
            lambda: Adam(epsilon=0.0, parameters=[param([1.0])]),
            "Adam: epsilon must be positive, got 0.0",
        ),
    ],
)
def test_bad_arguments_are_named(make: object, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        make()


SHAPES = [(3, 4), (4,), (), (2, 1)]


def model(seed: int = 0) -> list[phi.Tensor]:
    rng = np.random.default_rng(seed)
    return [
        phi.to_tensor(rng.standard_normal(shape).astype(np.float32), stop_gradient=False)
        for shape in SHAPES
    ]


def train(optimizer_type: type, steps: int = 4, **options: object) -> list[np.ndarray]:
    """Parameters after ``steps`` steps on sum(p^3 / 3 + p) of every parameter, with the
    gradients dropped between steps."""
    params = model()
    for index, p in enumerate(params):
        p.name = f"w{index}"
    optimizer = optimizer_type(parameters=params, **options)
    for _ in range(steps):
        loss = None
        for p in params:
            term = phi.sum(phi.add(phi.multiply(phi.multiply(p, p), p), p))
            loss = term if loss is None else phi.add(loss, term)
        loss.backward()
        optimizer.step()
        optimizer.clear_grad(set_to_zero=False)
    return [p.numpy() for p in params]


VARIANTS = [
    pytest.param(Momentum, {"learning_rate": 0.05}, id="momentum"),
    pytest.param(
        Momentum,
        {"learning_rate": 0.05, "momentum": 0.8, "use_nesterov": True, "weight_decay": 0.1},
        id="momentum-nesterov-l2",
    ),
    pytest.param(Momentum, {"learning_rate": 0.05, "rescale_grad": 0.5}, id="momentum-rescaled"),
    pytest.param(Adam, {"learning_rate": 0.05}, id="adam"),
    pytest.param(Adam, {"learning_rate": 0.05, "beta1": 0.8, "weight_decay": 0.1}, id="adam-l2"),
    pytest.param(AdamW, {"learning_rate": 0.05}, id="adamw"),
    pytest.param(
        AdamW,
        {
            "learning_rate": 0.05,
            "weight_decay": 0.3,
            "lr_ratio": lambda p: 0.5 if p.name == "w0" else 1.0,
            "apply_decay_param_fun": lambda name: name != "w1",
        },
        id="adamw-ratio-selective",
    ),
]


@pytest.mark.parametrize("optimizer_type, options", VARIANTS)
def test_multi_tensor_step_gives_the_bits_of_the_per_parameter_step(optimizer_type, options):
    fused = train(optimizer_type, use_multi_tensor=True, **options)
    single = train(optimizer_type, use_multi_tensor=False, **options)
    for a, b in zip(fused, single):
        np.testing.assert_array_equal(a, b)
    start = model()
    assert all(not np.array_equal(a, b.numpy()) for a, b in zip(fused, start))


def adam_steps_over_changing_gradients(use_multi_tensor: bool) -> list[np.ndarray]:
    """Three Adam steps: the first with a gradient for one parameter only, then for both, then
    for the other one only."""
    params = [
        phi.to_tensor(np.array([1.0, -2.0]), stop_gradient=False),
        phi.to_tensor(np.array([0.5]), stop_gradient=False),
    ]
    optimizer = Adam(learning_rate=0.1, parameters=params, use_multi_tensor=use_multi_tensor)
    for used in ([0], [0, 1], [1]):
        loss = phi.sum(phi.multiply(params[used[0]], params[used[0]]))
        for index in used[1:]:
            loss = phi.add(loss, phi.sum(phi.multiply(params[index], params[index])))
        loss.backward()
        optimizer.step()
        optimizer.clear_grad(set_to_zero=False)
    return [p.numpy() for p in params]


def test_multi_tensor_adam_follows_which_parameters_have_a_gradient():
    fused = adam_steps_over_changing_gradients(use_multi_tensor=True)
    single = adam_steps_over_changing_gradients(use_multi_tensor=False)
    for a, b in zip(fused, single):
        np.testing.assert_array_equal(a, b)


def test_momentum_matches_the_reference_formula():
    w = param([1.0, -2.0])
    optimizer = Momentum(learning_rate=0.1, momentum=0.9, parameters=[w])
    reference, velocity = np.array([1.0, -2.0]), np.zeros(2)
    for _ in range(3):
        optimizer.clear_grad()
        phi.sum(phi.multiply(w, w)).backward()
        optimizer.step()
        velocity = 0.9 * velocity + 2 * reference
        reference = reference - 0.1 * velocity
    np.testing.assert_allclose(w.numpy(), reference, rtol=1e-6)


def test_adamw_decays_before_the_adam_step():
    w = param([2.0])
    optimizer = AdamW(learning_rate=0.1, weight_decay=0.5, parameters=[w])
    phi.sum(phi.multiply(w, phi.to_tensor(np.zeros(1, np.float32)))).backward()  # zero gradient
    optimizer.step()
    assert w.numpy().tolist() == [pytest.approx(2.0 * (1 - 0.1 * 0.5))]


def test_multi_tensor_is_the_default_of_momentum_adam_and_adamw():
    for optimizer_type in (Momentum, Adam, AdamW):
        assert optimizer_type(parameters=[param([1.0])])._use_multi_tensor


def test_the_multi_tensor_step_updates_each_dtype_group():
    w32, w64 = param([1.0]), phi.to_tensor(np.array([1.0]), stop_gradient=False)
    optimizer = Adam(learning_rate=0.5, parameters=[w32, w64])
    phi.add(phi.sum(w32), phi.cast(phi.sum(w64), phi.DataType.FLOAT32)).backward()
    optimizer.step()
    assert w32.numpy().tolist() == [pytest.approx(0.5)] and w64.numpy().tolist() == [
        pytest.approx(0.5)
    ]
    assert w64.dtype == phi.DataType.FLOAT64


@pytest.mark.parametrize(
    "make, message",
    [
        (
            lambda: AdamW(parameters=[param([1.0])], use_lowprecision_moment=True),
            "AdamW: use_lowprecision_moment is not implemented",
        ),
        (
            lambda: Momentum(parameters=[{"params": [param([1.0])], "momentum": 0.5}]),
            r"Momentum: parameters\[0\]: the parameter group options \['momentum'\] are not "
            "implemented",
        ),
        (
            lambda: AdamW(parameters=[param([1.0])], weight_decay=object()),
            "AdamW: weight_decay must be a float",
        ),
    ],
)
def test_unimplemented_options_say_so(make: object, message: str) -> None:
    with pytest.raises(UnimplementedError, match=message):
        make()
