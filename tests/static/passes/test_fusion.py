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
    # the bias add and the relu: one step (one compiled pass, `in_place_bias_activation`)
    assert [m.label.endswith("[in place]") for m in step.members] == [False, True]
    assert "pd_op.add" in step.members[1].label and "pd_op.relu" in step.members[1].label


def _conv_bias_act(activation, channels_last: bool = False):
    def build_fn():
        shape = [None, 8, 8, 3] if channels_last else [None, 3, 8, 8]
        x = phi.static.data("x", shape, "float32")
        layout = "NHWC" if channels_last else "NCHW"
        return [activation(phi.nn.Conv2D(3, 5, 3, padding=1, data_format=layout)(x))]

    return build_fn


@pytest.mark.parametrize("native", [True, False], ids=["native", "numpy"])
@pytest.mark.parametrize("channels_last", [False, True], ids=["NCHW", "NHWC"])
@pytest.mark.parametrize("name", ["relu", "relu6"])
def test_bias_and_relu_or_relu6_run_in_one_pass_with_the_kernels_bits(
    monkeypatch, name, channels_last, native
):
    """A per-channel bias add and the relu/relu6 after it: one compiled pass where the extension
    runs (the two steps without it), bit for bit the unfused kernels' numbers, NaN and -0.0
    included (relu gives +0.0 for both, relu6 keeps NaN)."""
    from phiops.runtime import flags
    from phiops.runtime.kernels.native import NATIVE_BUILT

    if native and not NATIVE_BUILT:
        pytest.skip("the extension is not built")
    from phiops.runtime.static.passes import fusion

    found = fusion.native_function
    ran: list[str] = []

    def spying(x, function_name):
        kernel = found(x, function_name)
        if kernel is not None:
            ran.append(function_name)
        return kernel

    monkeypatch.setattr(fusion, "native_function", spying)
    main, startup, fetches = build(_conv_bias_act(ACTIVATIONS[name], channels_last))
    x = RNG.standard_normal((2, 8, 8, 3) if channels_last else (2, 3, 8, 8)).astype(np.float32)
    x *= 4
    x[0, 1, 2] = np.nan
    with flags.flags_guard({"use_native_kernels": native}):
        (on,), (off,), plan = run_with_and_without(main, {"x": x}, fetches, started_scope(startup))
    np.testing.assert_array_equal(on, off)  # NaN where NaN
    assert np.array_equal(np.signbit(on), np.signbit(off))
    assert (on == 6).any() if name == "relu6" else (on > 6).any()
    assert bool(np.isnan(on).any()) == (name == "relu6")
    (step,) = plan.ops
    last = step.members[-1]
    assert "pd_op.add" in last.label and f"pd_op.{name}" in last.label, last.label
    # the compiled pass ran in both runs (the checked one and the fast one), or never
    assert ran == (["bias_activation"] * 2 if native else [])


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


def test_the_extension_rejects_bad_bias_activation_calls() -> None:
    from phiops.runtime.kernels import native

    if not native.NATIVE_BUILT:
        pytest.skip("the extension is not built")
    module = native._native
    y = np.zeros((2, 3, 4), np.float32)  # rows of 4, channel r % 3
    bias = np.zeros(3, np.float32)
    with pytest.raises(ValueError, match="act 0, 1 or 2, got 3"):
        module.bias_activation(y, bias, 6, 4, 3, False, 3, 0, 6)
    with pytest.raises(ValueError, match="equal to the row length"):
        module.bias_activation(y, bias, 6, 4, 3, True, 1, 0, 6)
    with pytest.raises(ValueError, match=r"0 <= r0 <= r1 <= rows \(6\), got r0 2, r1 1"):
        module.bias_activation(y, bias, 6, 4, 3, False, 1, 2, 1)
    with pytest.raises(ValueError, match="bias: expected 3 elements, got 4"):
        module.bias_activation(y, np.zeros(4, np.float32), 6, 4, 3, False, 1, 0, 6)
    with pytest.raises(TypeError, match="bias: expected buffer format 'f', got 'd'"):
        module.bias_activation(y, bias.astype(np.float64), 6, 4, 3, False, 1, 0, 6)
    readonly = y.copy()
    readonly.flags.writeable = False
    with pytest.raises((BufferError, ValueError, TypeError)):
        module.bias_activation(readonly, bias, 6, 4, 3, False, 1, 0, 6)
