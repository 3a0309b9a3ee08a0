"""Optimizer.minimize in a static program (runtime/optimizer/static_program.py); the programs and values
are checked against PaddlePaddle's in test_static_training.py."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime import optimizer
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError


def regression(programs):
    x = phi.static.data("x", [-1, 3], "float32")
    y = phi.static.data("y", [-1, 1], "float32")
    w = phi.static.create_parameter([3, 1], "float32", name="w")
    b = phi.static.create_parameter([1], "float32", name="b", is_bias=True)
    prediction = phi.add(phi.matmul(x, w), b)
    return w, b, phi.mean(phi.square(prediction - y))


def test_given_parameters_are_the_only_ones_updated(programs) -> None:
    main, startup = programs
    w, b, loss = regression(programs)
    ops, pairs = optimizer.SGD(learning_rate=0.1, parameters=[w]).minimize(loss)
    assert [p for p, _ in pairs] == [w]
    assert [op.name for op in ops] == ["pd_op.sgd_"]
    scope = phi.static.Scope()
    exe = phi.static.Executor()
    exe.run(startup, scope=scope)
    bias = np.asarray(scope.get("b")).copy()
    weight = np.asarray(scope.get("w")).copy()
    feed = {"x": np.ones((4, 3), "float32"), "y": np.full((4, 1), 2.0, "float32")}
    exe.run(main, feed=feed, scope=scope)
    np.testing.assert_array_equal(np.asarray(scope.get("b")), bias)
    assert not np.array_equal(np.asarray(scope.get("w")), weight)


def test_adam_state_lives_in_the_scope_and_training_lowers_the_loss(programs) -> None:
    main, startup = programs
    _, _, loss = regression(programs)
    optimizer.Adam(learning_rate=0.1).minimize(loss)
    scope = phi.static.Scope()
    exe = phi.static.Executor()
    exe.run(startup, scope=scope)
    assert float(np.asarray(scope.get("learning_rate_0"))) == pytest.approx(0.1)
    np.testing.assert_allclose(np.asarray(scope.get("w_beta1_pow_acc_0")), [0.9])
    rng = np.random.default_rng(0)
    x = rng.normal(size=(16, 3)).astype("float32")
    feed = {"x": x, "y": x @ np.array([[1.0], [-2.0], [0.5]], "float32")}
    losses = [float(exe.run(main, feed=feed, fetch_list=[loss], scope=scope)[0]) for _ in range(30)]
    assert losses[-1] < losses[0] / 4
    np.testing.assert_allclose(np.asarray(scope.get("w_beta1_pow_acc_0")), [0.9**31], rtol=1e-5)


def test_loss_must_have_one_element(programs) -> None:
    x = phi.static.data("x", [2, 3], "float32")
    w = phi.static.create_parameter([3, 1], "float32", name="w")
    with pytest.raises(InvalidArgumentError, match="must have one element, got shape \\[2, 1\\]"):
        optimizer.SGD(0.1).minimize(phi.matmul(x, w))


def test_adamw_with_lr_ratio_is_not_implemented_statically(programs) -> None:
    # (weight decay and AdamW build as PaddlePaddle's: tests/static/test_static_training.py)
    _, _, loss = regression(programs)
    with pytest.raises(
        UnimplementedError, match="AdamW.minimize\\(\\) in a static program with lr_ratio"
    ):
        optimizer.AdamW(0.1, lr_ratio=lambda p: 0.5).minimize(loss)


def test_eager_parameters_are_still_required_outside_static_mode() -> None:
    phi.disable_static()
    try:
        with pytest.raises(InvalidArgumentError, match="'parameters' is empty"):
            optimizer.SGD(0.1)
    finally:
        phi.enable_static()


SAME_RULE = {
    "sgd_l2": lambda ps, **kw: optimizer.SGD(0.1, parameters=ps, weight_decay=0.05),
    "momentum_nesterov_l2": lambda ps, **kw: optimizer.Momentum(
        0.1, 0.8, parameters=ps, use_nesterov=True, weight_decay=0.01, **kw
    ),
    "adam_l2": lambda ps, **kw: optimizer.Adam(0.05, parameters=ps, weight_decay=0.1, **kw),
    "adamw_decay_w_only": lambda ps, **kw: optimizer.AdamW(
        0.05, parameters=ps, weight_decay=0.3, apply_decay_param_fun=lambda n: n == "w", **kw
    ),
}


@pytest.mark.parametrize("multi_tensor", [False, True])
@pytest.mark.parametrize("kind", sorted(SAME_RULE))
def test_a_static_program_trains_as_the_eager_step_of_the_same_rule(
    programs, kind: str, multi_tensor: bool
) -> None:
    main, startup = programs
    w, b, loss = regression(programs)
    SAME_RULE[kind](None).minimize(loss)
    scope = phi.static.Scope()
    exe = phi.static.Executor()
    exe.run(startup, scope=scope)
    start = {name: np.asarray(scope.get(name)).copy() for name in ("w", "b")}
    rng = np.random.default_rng(0)
    feeds = [
        {
            "x": rng.normal(size=(8, 3)).astype("float32"),
            "y": rng.normal(size=(8, 1)).astype("float32"),
        }
        for _ in range(3)
    ]
    for feed in feeds:
        exe.run(main, feed=feed, scope=scope)

    phi.disable_static()
    try:
        params = {}
        for name, value in start.items():
            params[name] = phi.to_tensor(value, stop_gradient=False)
            params[name].name = name
        extra = {} if kind == "sgd_l2" else {"use_multi_tensor": multi_tensor}
        eager = SAME_RULE[kind]([params["w"], params["b"]], **extra)
        for feed in feeds:
            prediction = phi.add(phi.matmul(phi.to_tensor(feed["x"]), params["w"]), params["b"])
            phi.mean(phi.square(prediction - phi.to_tensor(feed["y"]))).backward()
            eager.step()
            eager.clear_grad()
    finally:
        phi.enable_static()
    for name, tensor in params.items():
        np.testing.assert_array_equal(tensor.numpy(), np.asarray(scope.get(name)))
