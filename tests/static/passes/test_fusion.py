"""Bias and activation fusion (runtime/static/passes/fusion.py): a matmul or convolution, the
add of a constant bias and the activation after it run as one step, in the producer's slot,
with exactly the numbers of the unfused steps."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from tests.static.passes.helpers import build, run_with_and_without, started_scope

F = phi.nn.functional
RNG = np.random.default_rng(11)
ACTIVATIONS = {
    "relu": F.relu,
    "relu6": phi.relu6,
    "hardswish": F.hardswish,
    "sigmoid": F.sigmoid,
    "gelu": F.gelu,
    "swish": phi.swish,
    "leaky_relu": lambda x: phi.leaky_relu(x, 0.1),
}


def _linear_act(activation):
    def build_fn():
        x = phi.static.data("x", [None, 6], "float32")
        return [activation(phi.nn.Linear(6, 5)(x))]

    return build_fn


@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
def test_matmul_bias_activation_is_one_step_with_the_unfused_numbers(name: str) -> None:
    main, startup, fetches = build(_linear_act(ACTIVATIONS[name]))
    feed = {"x": RNG.standard_normal((4, 6)).astype(np.float32) * 3}
    (on,), (off,), plan = run_with_and_without(main, feed, fetches, started_scope(startup))
    np.testing.assert_array_equal(on, off)
    (fused,) = plan.report.fused
    assert "pd_op.matmul" in fused and "pd_op.add" in fused and f"pd_op.{name}" in fused
    assert len(plan.ops) == 1  # the whole program: one fused step


def test_conv_bias_relu_fuse_with_the_unfused_numbers() -> None:
    def build_fn():
        x = phi.static.data("x", [None, 3, 8, 8], "float32")
        return [F.relu(phi.nn.Conv2D(3, 4, 3, padding=1)(x))]

    main, startup, fetches = build(build_fn)
    feed = {"x": RNG.standard_normal((2, 3, 8, 8)).astype(np.float32)}
    (on,), (off,), plan = run_with_and_without(main, feed, fetches, started_scope(startup))
    np.testing.assert_array_equal(on, off)
    assert len(plan.report.fused) == 1 and "pd_op.conv2d" in plan.report.fused[0]


def test_a_fused_relu_runs_in_place_with_the_kernels_numbers() -> None:
    # relu's kernel is fmax(y, 0) + 0: nan and -0.0 give +0.0; in a chain it writes into the
    # producer's array instead of a new one, with the same ufuncs
    def build_fn():
        x = phi.static.data("x", [None, 6], "float32")
        return [F.relu(phi.nn.Linear(6, 5)(x))]

    main, startup, fetches = build(build_fn)
    x = RNG.standard_normal((4, 6)).astype(np.float32) * 3
    x[1, 2] = np.nan
    (on,), (off,), plan = run_with_and_without(main, {"x": x}, fetches, started_scope(startup))
    np.testing.assert_array_equal(on, off)
    assert not np.isnan(on).any() and not np.signbit(on).any() and (on > 0).any()
    (step,) = plan.ops
    assert [m.label.endswith("[in place]") for m in step.members] == [False, True, True]
    assert "pd_op.relu" in step.members[2].label


def test_a_value_read_twice_is_not_fused_away() -> None:
    def build_fn():
        x = phi.static.data("x", [None, 6], "float32")
        hidden = phi.nn.Linear(6, 5)(x)
        return [F.relu(hidden), hidden * 2.0]

    main, startup, fetches = build(build_fn)
    feed = {"x": RNG.standard_normal((3, 6)).astype(np.float32)}
    on, off, plan = run_with_and_without(main, feed, fetches, started_scope(startup))
    for a, b in zip(on, off):
        np.testing.assert_array_equal(a, b)
    assert all("relu" not in label for label in plan.report.fused)


def test_a_fetched_intermediate_keeps_its_value() -> None:
    def build_fn():
        x = phi.static.data("x", [None, 6], "float32")
        hidden = phi.nn.Linear(6, 5)(x)
        return [hidden, F.relu(hidden)]

    main, startup, fetches = build(build_fn)
    feed = {"x": RNG.standard_normal((3, 6)).astype(np.float32)}
    on, off, _ = run_with_and_without(main, feed, fetches, started_scope(startup))
    for a, b in zip(on, off):
        np.testing.assert_array_equal(a, b)
    assert (on[0] < 0).any()  # the pre-activation value, not overwritten by relu


def test_stages_run_in_the_programs_order() -> None:
    def build_fn():
        x = phi.static.data("x", [None, 6], "float32")
        hidden = F.relu(phi.matmul(x, phi.static.create_parameter([6, 5], "float32", name="w")))
        bias = phi.static.create_parameter([5], "float32", name="b")
        return [F.sigmoid(hidden + bias)]

    main, startup, fetches = build(build_fn)
    fresh = started_scope(startup)

    def scope():
        new = fresh()
        new.var("b").set(np.full((5,), -3.0, np.float32))  # sigmoid(relu(.) - 3): order shows
        return new

    feed = {"x": RNG.standard_normal((4, 6)).astype(np.float32)}
    (on,), (off,), plan = run_with_and_without(main, feed, fetches, scope)
    np.testing.assert_array_equal(on, off)
    (fused,) = plan.report.fused
    assert fused.index("relu") < fused.index("pd_op.add") < fused.index("sigmoid")


def _residual(shortcut_first: bool):
    def build_fn():
        x = phi.static.data("x", [None, 4, 6, 6], "float32")
        if shortcut_first:
            shortcut = phi.tanh(x)
            main = phi.nn.Conv2D(4, 4, 3, padding=1)(x)
        else:
            main = phi.nn.Conv2D(4, 4, 3, padding=1)(x)
            shortcut = phi.tanh(x)
        return [F.relu(main + shortcut)]

    return build_fn


@pytest.mark.parametrize("shortcut_first", [True, False])
def test_a_residual_add_fuses_when_its_operand_is_computed_before_the_conv(shortcut_first) -> None:
    main, startup, fetches = build(_residual(shortcut_first))
    feed = {"x": RNG.standard_normal((2, 4, 6, 6)).astype(np.float32)}
    (on,), (off,), plan = run_with_and_without(main, feed, fetches, started_scope(startup))
    np.testing.assert_array_equal(on, off)
    (fused,) = plan.report.fused
    assert ("pd_op.relu" in fused) is shortcut_first
