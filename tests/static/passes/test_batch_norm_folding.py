"""Batch-norm folding (runtime/static/passes/batch_norm_folding.py): a test-mode batch_norm (and
the per-channel adds, multiplies and scales before it) folds into the convolution or matmul
that produces its input; results equal the unfolded program's within 1e-5 relative to the
output's scale, against a numpy reference too."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.ir.attributes import Attribute
from phiops.runtime.static.passes.batch_norm_folding import match_batch_norm_folds
from tests.static.passes.helpers import (
    build,
    plan_of,
    randomised_statistics,
    run_with_and_without,
    started_scope,
)

F = phi.nn.functional
RNG = np.random.default_rng(5)
LEGACY = Path(__file__).resolve().parents[2] / "data" / "legacy" / "cnn"


def _close(got: np.ndarray, want: np.ndarray) -> None:
    scale = float(np.abs(want).max())
    assert np.abs(got - want).max() <= 1e-5 * scale, (np.abs(got - want).max(), scale)


def _conv_bn(data_format: str = "NCHW", bias: bool = True):
    def build_fn():
        shape = [None, 3, 6, 6] if data_format == "NCHW" else [None, 6, 6, 3]
        x = phi.static.data("x", shape, "float32")
        conv = phi.nn.Conv2D(
            3, 4, 3, padding=1, bias_attr=None if bias else False, data_format=data_format
        )
        norm = phi.nn.BatchNorm2D(4, data_format=data_format)
        norm.eval()
        return [F.relu(norm(conv(x)))]

    return build_fn


@pytest.mark.parametrize("data_format", ["NCHW", "NHWC"])
def test_conv_bias_batch_norm_relu_fold_into_one_step(data_format: str) -> None:
    main, startup, fetches = build(_conv_bn(data_format))
    shape = (2, 3, 6, 6) if data_format == "NCHW" else (2, 6, 6, 3)
    feed = {"x": RNG.standard_normal(shape).astype(np.float32)}
    statistics = randomised_statistics(started_scope(startup), RNG)
    (on,), (off,), plan = run_with_and_without(main, feed, fetches, statistics)
    _close(on, off)
    assert len(plan.report.batch_norms) == 1
    assert len(plan.ops) == 1


def test_folded_conv_matches_a_numpy_reference() -> None:
    main, startup, fetches = build(_conv_bn(bias=False))
    scope = randomised_statistics(started_scope(startup), RNG)()
    names = {n: np.array(scope.get(n)) for n in scope.local_var_names()}
    weight = next(a for a in names.values() if a.ndim == 4)
    x = RNG.standard_normal((1, 3, 6, 6)).astype(np.float32)
    from phiops.runtime.static.passes import mark_inference_program

    mark_inference_program(main)
    (got,) = phi.static.Executor().run(main, {"x": x}, fetches, scope=scope)
    padded = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
    conv = np.zeros((1, 4, 6, 6))
    for i in range(6):
        for j in range(6):
            conv[0, :, i, j] = np.einsum("oikl,ikl->o", weight, padded[0, :, i : i + 3, j : j + 3])
    ops = [op for op in main.block.ops if op.name.startswith("pd_op.batch_norm")]
    mean, variance, gamma, beta = (
        names[o.define_op.attributes["parameter_name"].value] for o in ops[0].operands[1:]
    )
    shape = (1, 4, 1, 1)
    want = (conv - mean.reshape(shape)) / np.sqrt(variance.reshape(shape) + 1e-5)
    want = np.maximum(want * gamma.reshape(shape) + beta.reshape(shape), 0)
    _close(got, want)


def test_linear_batch_norm_folds_into_the_matmul() -> None:
    def build_fn():
        x = phi.static.data("x", [None, 6], "float32")
        norm = phi.nn.BatchNorm1D(5)
        norm.eval()
        return [norm(phi.nn.Linear(6, 5)(x))]

    main, startup, fetches = build(build_fn)
    feed = {"x": RNG.standard_normal((4, 6)).astype(np.float32)}
    statistics = randomised_statistics(started_scope(startup), RNG)
    (on,), (off,), plan = run_with_and_without(main, feed, fetches, statistics)
    _close(on, off)
    assert len(plan.report.batch_norms) == 1 and "pd_op.matmul" in plan.report.batch_norms[0]


def test_a_scale_between_conv_and_batch_norm_folds_too() -> None:
    def build_fn():
        x = phi.static.data("x", [None, 3, 6, 6], "float32")
        norm = phi.nn.BatchNorm2D(4)
        norm.eval()
        return [norm(phi.nn.Conv2D(3, 4, 3)(x) * 0.5 + 1.0)]

    main, startup, fetches = build(build_fn)
    feed = {"x": RNG.standard_normal((2, 3, 6, 6)).astype(np.float32)}
    statistics = randomised_statistics(started_scope(startup), RNG)
    (on,), (off,), plan = run_with_and_without(main, feed, fetches, statistics)
    _close(on, off)
    (folded,) = plan.report.batch_norms
    assert "pd_op.scale" in folded


def test_the_scope_keeps_its_parameters() -> None:
    main, startup, fetches = build(_conv_bn())
    scope = started_scope(startup)()
    before = {n: np.array(scope.get(n)) for n in scope.local_var_names()}
    from phiops.runtime.static.passes import mark_inference_program

    mark_inference_program(main)
    phi.static.Executor().run(main, {"x": np.ones((1, 3, 6, 6), np.float32)}, fetches, scope=scope)
    for name, array in before.items():
        np.testing.assert_array_equal(np.array(scope.get(name)), array)


def test_the_legacy_cnn_fixture_folds_and_gives_paddles_outputs() -> None:
    scope, executor = phi.static.Scope(), phi.static.Executor()
    program, feeds, fetches = phi.static.load_inference_model(
        str(LEGACY / "model"), executor, scope=scope
    )
    inputs, outputs = np.load(LEGACY / "inputs.npz"), np.load(LEGACY / "outputs.npz")
    (got,) = executor.run(program, {feeds[0]: inputs[inputs.files[0]]}, fetches, scope)
    _close(got, outputs[outputs.files[0]])
    report = plan_of(executor, program).report
    assert len(report.batch_norms) == 1 and "relu" in report.fused[0]


def test_a_training_batch_norm_is_not_folded() -> None:
    def build_fn():
        x = phi.static.data("x", [None, 3, 6, 6], "float32")
        return [phi.nn.BatchNorm2D(3)(x)]  # training mode: batch statistics

    main, startup, fetches = build(build_fn)
    feed = {"x": RNG.standard_normal((2, 3, 6, 6)).astype(np.float32)}
    (on,), (off,), plan = run_with_and_without(main, feed, fetches, started_scope(startup))
    np.testing.assert_array_equal(on, off)
    assert plan.report.skipped is not None and "is_test" in plan.report.skipped


def test_matching_needs_the_statistics_as_constants() -> None:
    main, _, fetches = build(_conv_bn())
    from phiops.runtime.static.passes.patterns import Uses

    uses = Uses(main.block, frozenset(), set(fetches))
    assert match_batch_norm_folds(main.block, uses, {}) == []


def test_a_depthwise_conv_folds_its_batch_norm() -> None:
    def build_fn():
        x = phi.static.data("x", [None, 4, 6, 6], "float32")
        norm = phi.nn.BatchNorm2D(4)
        norm.eval()
        return [F.relu(norm(phi.nn.Conv2D(4, 4, 3, padding=1, groups=4)(x)))]

    main, startup, fetches = build(build_fn)
    feed = {"x": RNG.standard_normal((2, 4, 6, 6)).astype(np.float32)}
    statistics = randomised_statistics(started_scope(startup), RNG)
    (on,), (off,), plan = run_with_and_without(main, feed, fetches, statistics)
    _close(on, off)
    assert len(plan.report.batch_norms) == 1


def test_a_matmul_by_a_transposed_weight_folds_along_its_rows() -> None:
    def build_fn():
        x = phi.static.data("x", [None, 6], "float32")
        w = phi.static.create_parameter([5, 6], "float32", name="w")
        norm = phi.nn.BatchNorm1D(5)
        norm.eval()
        return [norm(phi.matmul(x, w, transpose_y=True))]

    main, startup, fetches = build(build_fn)
    feed = {"x": RNG.standard_normal((4, 6)).astype(np.float32)}
    statistics = randomised_statistics(started_scope(startup), RNG)
    (on,), (off,), plan = run_with_and_without(main, feed, fetches, statistics)
    _close(on, off)
    assert len(plan.report.batch_norms) == 1


def test_a_test_mode_batch_norm_with_trainable_statistics_is_not_folded() -> None:
    # is_test with trainable_statistics normalises with the batch's statistics (the kernel's
    # uses_global_stats): no map of constants to fold
    def build_fn():
        x = phi.static.data("x", [None, 3, 6, 6], "float32")
        norm = phi.nn.BatchNorm2D(4, use_global_stats=False)
        norm.eval()
        return [norm(phi.nn.Conv2D(3, 4, 3)(x))]

    main, startup, fetches = build(build_fn)
    (op,) = [op for op in main.block.ops if op.name.startswith("pd_op.batch_norm")]
    op.attributes["trainable_statistics"] = Attribute("bool", True)
    feed = {"x": RNG.standard_normal((2, 3, 6, 6)).astype(np.float32)}
    statistics = randomised_statistics(started_scope(startup), RNG)
    (on,), (off,), plan = run_with_and_without(main, feed, fetches, statistics)
    assert plan.report.batch_norms == [] and plan.report.skipped is None
    np.testing.assert_array_equal(on, off)
