"""Batch norms as affine steps (runtime/static/passes/batch_norm_affine.py): a test-mode
batch_norm that folds into no producer (after a concat, an add, a feed) runs as one step
``y = x * m + a`` per channel, with the relu reading its result joined to it; results equal the
unpassed program's within 1e-5 relative to the output's scale and a numpy reference, relu's NaN
and -0.0 handling is kept, and the compiled kernel and the numpy path give the same bits."""

from __future__ import annotations

import io
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import phiops
import phiops.generated as phi
from phiops.runtime import flags
from phiops.runtime.common import Backend, DataType, Place
from phiops.runtime.ir.attributes import Attribute
from phiops.runtime.kernels import native
from phiops.runtime.kernels.impl import channel_affine as affine_module
from phiops.runtime.kernels.impl.channel_affine import channel_affine
from phiops.runtime.static.__main__ import main as phiops_run
from phiops.runtime.static.passes import mark_inference_program
from phiops.runtime.static.passes.batch_norm_affine import AffineBatchNorm, affine_step
from phiops.runtime.tensor.dense_tensor import DenseTensorMeta
from tests.ops.test_fastconv_conv import NOT_BUILT, NativeSpy
from tests.static.passes.helpers import (
    build,
    randomised_statistics,
    run_with_and_without,
    started_scope,
)

F = phi.nn.functional
RNG = np.random.default_rng(11)
CHANNELS = 4


def _close(got: np.ndarray, want: np.ndarray) -> None:
    scale = float(np.abs(want).max())
    assert np.abs(got - want).max() <= 1e-5 * scale, (np.abs(got - want).max(), scale)


def _shape(data_format: str, channels: int = CHANNELS) -> list:
    return [None, channels, 5, 5] if data_format == "NCHW" else [None, 5, 5, channels]


def _batch_norm_program(
    position: str, data_format: str, affine: bool = True, then: str | None = "relu"
) -> tuple[Any, Any, list]:
    """A batch norm in eval mode reading a feed (``first``), the concat of two feeds or the sum
    of two, followed by ``then`` (an activation of F) or nothing."""
    channel_axis = 1 if data_format == "NCHW" else 3

    def build_fn():
        if position == "concat":
            half = _shape(data_format, CHANNELS // 2)
            parts = [phi.static.data(name, half, "float32") for name in ("a", "b")]
            x = phi.concat(parts, axis=channel_axis)
        elif position == "add":
            shape = _shape(data_format)
            x = phi.static.data("a", shape, "float32") + phi.static.data("b", shape, "float32")
        else:
            x = phi.static.data("a", _shape(data_format), "float32")
        norm = phi.nn.BatchNorm2D(
            CHANNELS,
            data_format=data_format,
            weight_attr=None if affine else False,
            bias_attr=None if affine else False,
        )
        norm.eval()
        y = norm(x)
        return [y if then is None else getattr(F, then)(y)]

    return build(build_fn)


def _feed(position: str, data_format: str) -> dict[str, np.ndarray]:
    full = (2, CHANNELS, 5, 5) if data_format == "NCHW" else (2, 5, 5, CHANNELS)
    if position != "concat":
        names = ("a", "b") if position == "add" else ("a",)
        return {name: RNG.standard_normal(full).astype(np.float32) for name in names}
    half = list(full)
    half[1 if data_format == "NCHW" else 3] = CHANNELS // 2
    return {name: RNG.standard_normal(half).astype(np.float32) for name in ("a", "b")}


def _input_of(position: str, data_format: str, feed: dict) -> np.ndarray:
    if position == "concat":
        return np.concatenate([feed["a"], feed["b"]], axis=1 if data_format == "NCHW" else 3)
    if position == "add":
        return feed["a"] + feed["b"]
    return feed["a"]


def _statistics(scope: Any) -> tuple[np.ndarray, ...]:
    """(mean, variance, scale or None, bias or None) of the one batch norm in ``scope``, by the
    names BatchNorm2D gives them."""
    arrays = {name: np.array(scope.get(name)) for name in scope.local_var_names()}

    def named(suffix: str) -> np.ndarray | None:
        return next((a for name, a in arrays.items() if name.endswith(suffix)), None)

    return named(".w_1"), named(".w_2"), named(".w_0"), named(".b_0")


def _reference(x: np.ndarray, scope: Any, data_format: str, relu: bool) -> np.ndarray:
    mean, variance, gamma, beta = _statistics(scope)
    shape = (1, -1, 1, 1) if data_format == "NCHW" else (1, 1, 1, -1)
    epsilon = float(np.float32(1e-5))  # as the kernel holds the attribute: rounded to float32
    y = (x.astype(np.float64) - mean.reshape(shape)) / np.sqrt(variance.reshape(shape) + epsilon)
    if gamma is not None:
        y = y * gamma.reshape(shape) + beta.reshape(shape)
    return np.maximum(y, 0) if relu else y


@pytest.mark.parametrize("then", ["relu", None])
@pytest.mark.parametrize("affine", [True, False], ids=["scale_bias", "no_scale_bias"])
@pytest.mark.parametrize("data_format", ["NCHW", "NHWC"])
@pytest.mark.parametrize("position", ["concat", "add", "first"])
def test_a_batch_norm_no_producer_takes_runs_as_one_affine_step(
    position: str, data_format: str, affine: bool, then: str | None
) -> None:
    main, startup, fetches = _batch_norm_program(position, data_format, affine, then)
    feed = _feed(position, data_format)
    statistics = randomised_statistics(started_scope(startup), RNG)
    (on,), (off,), plan = run_with_and_without(main, feed, fetches, statistics)
    _close(on, off)
    x = _input_of(position, data_format, feed)
    _close(on, _reference(x, statistics(), data_format, then == "relu"))
    assert plan.report.batch_norms == []
    (label,) = plan.report.affine
    assert "[affine]" in label
    assert ("+ pd_op.relu" in label) == (then == "relu")
    affine_steps = [op for op in plan.ops if "[affine]" in op.label]
    assert len(affine_steps) == 1 and affine_steps[0].label == label
    assert not any(op.label.startswith("pd_op.relu") for op in plan.ops)


def test_the_affine_step_belongs_to_the_batch_norm_folding_pass() -> None:
    main, startup, fetches = _batch_norm_program("concat", "NCHW")
    feed = _feed("concat", "NCHW")
    statistics = randomised_statistics(started_scope(startup), RNG)
    others = "dead_code_elimination,constant_folding,bias_activation_fusion,memory_planning"
    (on,), (off,), plan = run_with_and_without(main, feed, fetches, statistics, passes=others)
    assert plan.report.affine == [] and not plan.report.changes_rounding
    np.testing.assert_array_equal(on, off)
    (on,), _, plan = run_with_and_without(
        main, feed, fetches, statistics, passes="batch_norm_folding"
    )
    assert len(plan.report.affine) == 1
    _close(on, off)


def test_a_float64_batch_norm_runs_as_an_affine_step_in_float64() -> None:
    def build_fn():
        x = phi.static.data("a", [None, 3, 4, 4], "float64")
        norm = phi.nn.BatchNorm2D(3)  # float64 statistics: the default dtype
        norm.eval()
        return [F.relu(norm(x + x))]

    phiops.set_default_dtype("float64")
    try:
        main, startup, fetches = build(build_fn)
    finally:
        phiops.set_default_dtype("float32")
    feed = {"a": RNG.standard_normal((2, 3, 4, 4))}
    statistics = randomised_statistics(started_scope(startup), RNG)
    (on,), (off,), plan = run_with_and_without(main, feed, fetches, statistics)
    assert on.dtype == np.float64 and len(plan.report.affine) == 1
    want = _reference(2 * feed["a"], statistics(), "NCHW", True)
    assert np.abs(on - want).max() <= 1e-13 * np.abs(want).max()
    assert np.abs(on - off).max() <= 1e-13 * np.abs(want).max()


def _special_statistics(fresh: Any) -> Any:
    """Statistics under which channel 0 maps -0.0 to -0.0: mean 0 and bias -0.0 (so its addend
    is -0.0 - 0 * m = -0.0); the other channels random."""

    def scope() -> Any:
        new = fresh()
        for name in new.local_var_names():
            array = np.array(new.get(name))
            if array.ndim != 1:
                continue
            array = (np.random.default_rng(3).random(array.shape) + 0.5).astype(array.dtype)
            if name.endswith(".w_1"):  # the mean
                array[0] = 0.0
            if name.endswith(".b_0"):  # the bias
                array[0] = -0.0
            new.var(name).set(array)
        return new

    return scope


@pytest.mark.parametrize("then", ["relu", None])
def test_nan_and_negative_zero_keep_relus_semantics(then: str | None) -> None:
    main, startup, fetches = _batch_norm_program("first", "NCHW", then=then)
    feed = _feed("first", "NCHW")
    x = feed["a"]
    x[0, 0, 0, 0] = np.nan
    x[0, 0, 0, 1] = -0.0
    x[1, 2, 3, 3] = np.nan
    statistics = _special_statistics(started_scope(startup))
    (on,), (off,), plan = run_with_and_without(main, feed, fetches, statistics)
    assert len(plan.report.affine) == 1
    special = [(0, 0, 0, 0), (0, 0, 0, 1), (1, 2, 3, 3)]
    got = np.array([on[i] for i in special])
    want = np.array([off[i] for i in special])
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
    if then == "relu":  # relu: NaN and -0.0 become +0.0
        assert not np.isnan(got).any() and not np.signbit(got).any() and not got.any()
    else:
        assert np.isnan(got[[0, 2]]).all() and got[1] == 0 and np.signbit(got[1])
    mask = np.ones(on.shape, bool)
    for i in special:
        mask[i] = False
    _close(on[mask], off[mask])


def _batch_norm_op(main: Any) -> Any:
    (op,) = [op for op in main.block.ops if op.name.startswith("pd_op.batch_norm")]
    return op


@pytest.mark.parametrize("result", [1, 2, 3, 4])
def test_a_batch_norm_whose_statistics_are_fetched_runs_its_kernel(result: int) -> None:
    main, startup, fetches = _batch_norm_program("concat", "NCHW")
    fetches = [*fetches, _batch_norm_op(main).results[result]]
    feed = _feed("concat", "NCHW")
    statistics = randomised_statistics(started_scope(startup), RNG)
    on, off, plan = run_with_and_without(main, feed, fetches, statistics)
    assert plan.report.affine == [] and not plan.report.changes_rounding
    for a, b in zip(on, off):
        np.testing.assert_array_equal(a, b)


def test_a_batch_norm_whose_statistics_another_op_reads_runs_its_kernel() -> None:
    def build_fn():
        a = phi.static.data("a", _shape("NCHW"), "float32")
        norm = phi.nn.BatchNorm2D(CHANNELS)
        norm.eval()
        y = F.relu(norm(a + a))
        op = _batch_norm_op(phi.static.default_main_program())
        return [y + phi.sum(op.results[1])]

    main, startup, fetches = build(build_fn)
    feed = _feed("first", "NCHW")
    statistics = randomised_statistics(started_scope(startup), RNG)
    (on,), (off,), plan = run_with_and_without(main, feed, fetches, statistics)
    assert plan.report.affine == []
    np.testing.assert_array_equal(on, off)


def test_a_training_batch_norm_runs_its_kernel() -> None:
    def build_fn():
        a = phi.static.data("a", _shape("NCHW"), "float32")
        return [F.relu(phi.nn.BatchNorm2D(CHANNELS)(a + a))]  # training: batch statistics

    main, startup, fetches = build(build_fn)
    on, off, plan = run_with_and_without(
        main, _feed("first", "NCHW"), fetches, started_scope(startup)
    )
    assert plan.report.skipped is not None and plan.report.affine == []
    np.testing.assert_array_equal(on[0], off[0])


def test_a_test_mode_batch_norm_with_trainable_statistics_runs_its_kernel() -> None:
    # is_test with trainable_statistics normalises with the batch's statistics (the kernel's
    # uses_global_stats): not an affine map of constants
    def build_fn():
        a = phi.static.data("a", _shape("NCHW"), "float32")
        norm = phi.nn.BatchNorm2D(CHANNELS, use_global_stats=False)
        norm.eval()
        return [F.relu(norm(a + a))]

    main, startup, fetches = build(build_fn)
    op = _batch_norm_op(main)
    assert op.attributes["is_test"].value and not op.attributes["use_global_stats"].value
    op.attributes["trainable_statistics"] = Attribute("bool", True)
    statistics = randomised_statistics(started_scope(startup), RNG)
    (on,), (off,), plan = run_with_and_without(main, _feed("first", "NCHW"), fetches, statistics)
    assert plan.report.skipped is None and plan.report.affine == []
    np.testing.assert_array_equal(on, off)


def test_a_batch_norm_of_fed_statistics_runs_its_kernel() -> None:
    def build_fn():
        a = phi.static.data("a", _shape("NCHW"), "float32")
        mean = phi.static.data("mean", [CHANNELS], "float32")
        variance = phi.static.data("variance", [CHANNELS], "float32")
        return [F.relu(F.batch_norm(a + a, mean, variance, training=False))]

    main, startup, fetches = build(build_fn)
    feed = {
        **_feed("first", "NCHW"),
        "mean": RNG.standard_normal(CHANNELS).astype(np.float32),
        "variance": (RNG.random(CHANNELS) + 0.5).astype(np.float32),
    }
    (on,), (off,), plan = run_with_and_without(main, feed, fetches, started_scope(startup))
    assert plan.report.affine == []
    np.testing.assert_array_equal(on, off)


def test_a_relu_that_is_not_the_only_reader_runs_after_the_affine_step() -> None:
    def build_fn():
        a = phi.static.data("a", _shape("NCHW"), "float32")
        norm = phi.nn.BatchNorm2D(CHANNELS)
        norm.eval()
        y = norm(a + a)
        return [F.relu(y), y]

    main, startup, fetches = build(build_fn)
    statistics = randomised_statistics(started_scope(startup), RNG)
    on, off, plan = run_with_and_without(main, _feed("first", "NCHW"), fetches, statistics)
    for a, b in zip(on, off):
        _close(a, b)
    (label,) = plan.report.affine
    assert label.endswith("[affine]")
    assert any(op.label.startswith("pd_op.relu") for op in plan.ops)


def test_other_activations_fuse_after_the_affine_step() -> None:
    main, startup, fetches = _batch_norm_program("concat", "NHWC", then="sigmoid")
    feed = _feed("concat", "NHWC")
    statistics = randomised_statistics(started_scope(startup), RNG)
    (on,), (off,), plan = run_with_and_without(main, feed, fetches, statistics)
    _close(on, off)
    (fused,) = plan.report.fused
    assert "[affine] + pd_op.sigmoid" in fused


@pytest.mark.parametrize("data_format", ["NCHW", "NHWC"])
def test_the_compiled_kernel_and_numpy_give_the_same_bits(
    data_format: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not native.NATIVE_BUILT:
        pytest.skip(NOT_BUILT)
    main, startup, fetches = _batch_norm_program("concat", data_format)
    feed = _feed("concat", data_format)
    feed["a"][0, 0, 0, 0] = np.nan
    statistics = randomised_statistics(started_scope(startup), RNG)
    mark_inference_program(main)
    results = {}
    for use_native in (True, False):
        spy = NativeSpy(native._native)
        monkeypatch.setattr(native, "_native", spy)
        with flags.flags_guard({"use_native_kernels": use_native}):
            results[use_native] = phi.static.Executor().run(
                main, feed, fetches, scope=statistics()
            )[0]
        assert ("channel_affine" in spy.calls) == use_native
    np.testing.assert_array_equal(results[True], results[False])


def _vectors(channels: int, dtype: Any) -> tuple[np.ndarray, np.ndarray]:
    scale = RNG.standard_normal(channels).astype(dtype)
    shift = RNG.standard_normal(channels).astype(dtype)
    return scale, shift


def _numpy_affine(x, scale, shift, channels_last, relu):
    with flags.flags_guard({"use_native_kernels": False}):
        return channel_affine(x, scale, shift, channels_last, relu)


@pytest.mark.parametrize("threads", [2, 3])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape, channels_last", [((3, 5, 4, 3), False), ((3, 4, 3, 5), True)])
def test_splitting_the_rows_between_threads_gives_the_same_bits(
    shape: tuple, channels_last: bool, dtype: Any, threads: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not native.NATIVE_BUILT:
        pytest.skip(NOT_BUILT)
    monkeypatch.setattr(native, "PARALLEL_MIN_WORK", 0)
    monkeypatch.setattr(affine_module, "PARALLEL_MIN_ELEMENTS", 0)
    spy = NativeSpy(native._native)
    monkeypatch.setattr(native, "_native", spy)
    x = RNG.standard_normal(shape).astype(dtype)
    x.flat[::7] = -0.0
    scale, shift = _vectors(shape[-1] if channels_last else shape[1], dtype)
    for relu in (False, True):
        with flags.flags_guard({"intra_op_threads": 1}):
            whole = channel_affine(x, scale, shift, channels_last, relu)
        with flags.flags_guard({"intra_op_threads": threads}):
            split = channel_affine(x, scale, shift, channels_last, relu)
        np.testing.assert_array_equal(split, whole)
        assert np.signbit(split).tobytes() == np.signbit(whole).tobytes()
        np.testing.assert_array_equal(split, _numpy_affine(x, scale, shift, channels_last, relu))
    assert spy.calls.count("channel_affine") > 2 * 2  # each split call ran several ranges


@pytest.mark.parametrize("shape", [(6, 5), (2, 5, 7), (1, 5, 1, 1), (0, 5, 3, 3)])
def test_the_kernel_maps_any_rank_and_a_non_contiguous_input(shape: tuple) -> None:
    x = RNG.standard_normal(shape).astype(np.float32)
    scale, shift = _vectors(5, np.float32)
    broadcast = (5,) + (1,) * (len(shape) - 2)
    want = x * scale.reshape(broadcast) + shift.reshape(broadcast)
    np.testing.assert_array_equal(channel_affine(x, scale, shift, False, False), want)
    transposed = np.swapaxes(x, 0, -1) if len(shape) > 2 else x.T.copy().T
    np.testing.assert_array_equal(
        channel_affine(transposed, scale, shift, False, False),
        transposed * scale.reshape(broadcast) + shift.reshape(broadcast),
    )


def test_the_compiled_kernel_refuses_arguments_that_do_not_fit() -> None:
    if not native.NATIVE_BUILT:
        pytest.skip(NOT_BUILT)
    kernel = native._native.channel_affine
    x = np.zeros((2, 3, 4), np.float32)
    out = np.empty_like(x)
    scale = shift = np.ones(3, np.float32)
    with pytest.raises(ValueError, match="equal to the row length"):
        kernel(x, scale, shift, 6, 4, 3, True, False, 0, 6, out)
    with pytest.raises(ValueError, match=r"0 <= r0 <= r1 <= rows \(6\), got r0 0, r1 7"):
        kernel(x, scale, shift, 6, 4, 3, False, False, 0, 7, out)
    with pytest.raises(TypeError, match="scale: expected buffer format 'f', got 'd'"):
        kernel(x, np.ones(3), shift, 6, 4, 3, False, False, 0, 6, out)
    with pytest.raises(ValueError, match="shift: expected 3 elements, got 4"):
        kernel(x, scale, np.ones(4, np.float32), 6, 4, 3, False, False, 0, 6, out)


def test_off_the_cpu_the_step_uses_the_arrays_operators() -> None:
    # a device array module (CuPy) has the operators numpy has: numpy arrays stand in for it
    scale, shift = _vectors(3, np.float32)
    item = AffineBatchNorm(0, scale, shift, channels_last=False)
    meta = DenseTensorMeta.get(DataType.FLOAT32, (2, 3, 4, 4))
    step = affine_step(item, 1, 2, meta, Place(Backend.GPU, 0))
    x = RNG.standard_normal((2, 3, 4, 4)).astype(np.float32)
    slots = [None, x, None]
    step.core(slots)
    np.testing.assert_array_equal(slots[2], x * scale.reshape(3, 1, 1) + shift.reshape(3, 1, 1))
    assert step.kernel_label == "x * scale + shift [GPU, NCHW, FLOAT32]"


def test_phiops_run_plan_shows_the_affine_step(tmp_path: Path) -> None:
    main, startup, fetches = _batch_norm_program("concat", "NCHW")
    feeds = [op.results[0] for op in main.block.ops if op.name == "pd_op.data"]
    executor = phi.static.Executor()
    scope = randomised_statistics(started_scope(startup), RNG)()
    prefix = tmp_path / "model"
    phi.static.save_inference_model(
        str(prefix), feeds, fetches, executor, program=main, scope=scope
    )
    feed = _feed("concat", "NCHW")
    arguments = []
    for name, array in feed.items():
        np.save(tmp_path / f"{name}.npy", array)
        arguments += ["--input", f"{name}={tmp_path / f'{name}.npy'}"]
    out = io.StringIO()
    with redirect_stdout(out):
        assert phiops_run(["run", str(prefix), *arguments, "--plan"]) == 0
    text = out.getvalue()
    assert "batch norms as affine steps: 1\n" in text
    (step,) = [line for line in text.splitlines() if " us  pd_op.batch_norm" in line]
    assert "[affine] + pd_op.relu (op " in step and "[in place]" in step
    assert "channel_affine.channel_affine [CPU, NCHW, FLOAT32, relu]" in step
