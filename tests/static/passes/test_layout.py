"""The layout_choice pass (runtime/static/passes/layout.py, layout_plan.py): which ops can run
channels last, the copy of the block with chains channels last (the program untouched), the
outputs of such plans against the program's, the choice from timings, the final race and the
output check that keep the program's own plan, and the flag."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import phiops.generated as phi
import phiops.static as static
from phiops.runtime import flags
from phiops.runtime.common.place import CPUPlace
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.static.executor.builder import value_numbering
from phiops.runtime.static.executor.plan import _compile_block
from phiops.runtime.static.executor.program_info import ProgramInfo
from phiops.runtime.static.passes import layout, layout_plan, mark_inference_program
from tests.static.passes.helpers import build, plan_of, started_scope

F = phi.nn.functional
ZOO = Path(__file__).resolve().parents[2] / "data" / "zoo"


def _dense_block():
    """conv -> batch norm -> relu -> max pool, two branches joined by a concat, a residual add,
    a global pool and a linear layer: every kind of op the pass moves, and its boundary."""
    x = phi.static.data("x", [None, 3, 12, 12], "float32")
    norm = phi.nn.BatchNorm2D(8)
    norm.eval()
    stem = F.relu(norm(phi.nn.Conv2D(3, 8, 3, padding=1)(x)))
    pooled = F.max_pool2d(stem, 2, 2)
    a = phi.nn.Conv2D(8, 4, 3, padding=1)(pooled)
    b = phi.nn.ReLU6()(phi.nn.Conv2D(8, 4, 1)(pooled))
    joined = phi.concat([a, b], axis=1)
    summed = phi.add(joined, pooled) * 0.5
    flat = phi.reshape(F.adaptive_avg_pool2d(summed, 1), [-1, 8])
    return [phi.nn.Linear(8, 5)(flat), summed]


def _run(main, fresh, feed, fetches, mode):
    """The fetches of the program's second run with ``FLAGS_layout_choice`` = ``mode`` (the
    first must give the same) and the plan; ``fresh`` gives the scope (the same parameters
    each time)."""
    mark_inference_program(main)
    executor = phi.static.Executor()
    with flags.flags_guard({"layout_choice": mode}):
        scope = fresh()
        first = executor.run(main, feed, fetches, scope=scope)
        second = executor.run(main, feed, fetches, scope=scope)
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)
    return second, plan_of(executor, main)


@pytest.fixture(scope="module")
def dense_block():
    main, startup, fetches = build(_dense_block)
    rng = np.random.default_rng(26)
    feed = {"x": rng.standard_normal((2, 3, 12, 12)).astype(np.float32)}
    return main, started_scope(startup), fetches, feed


def test_channels_last_plan_gives_the_programs_outputs(dense_block):
    main, startup, fetches, feed = dense_block
    before = str(main)
    first, first_plan = _run(main, startup, feed, fetches, "NCHW")
    last, last_plan = _run(main, startup, feed, fetches, "NHWC")
    assert str(main) == before  # the pass works on a copy
    assert first_plan.report.layout is None
    report = last_plan.report.layout
    assert report.kept_because is None and len(report.chains) == 1
    chain = report.chains[0]
    assert sum("conv2d" in label for label in chain) == 3
    assert any("pool2d" in label for label in chain) and any("concat" in label for label in chain)
    # in: the feed and the three convolutions' biases [1, C, 1, 1] (constants, folded); out:
    # the fetched sum and the global pool's result, which the reshape reads channels first
    assert report.transposes == 6
    labels = [step.label for step in last_plan.ops]
    assert any("pd_op.conv2d" in label and ".nhwc" in label for label in labels)
    for got, expected in zip(last, first):
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_the_copy_runs_the_chain_channels_last(dense_block):
    main, fresh, fetches, feed = dense_block
    block = main.block
    names = value_numbering(block)
    metas = _metas(main, fresh, feed, fetches)
    members = layout.candidates(block, metas, frozenset())
    (chain,) = layout.with_convolution(block, layout.chains_of(block, members, metas))
    rewritten = layout.rewrite(block, set(chain), metas, fetches, names)
    ops = rewritten.block.ops
    # two ops a transpose (a view, a copy), one the concat's new axis, three a packed weight
    assert rewritten.packed == 3
    assert len(ops) == len(block.ops) + 2 * rewritten.transposes + 1 + 3 * rewritten.packed
    for op in ops:
        if op.name in ("pd_op.conv2d", "pd_op.pool2d", "pd_op.batch_norm_"):
            if op.attributes["data_format"].value == "NHWC":
                dims = op.results[0].type.dims
                assert dims[-1] in (4, 8)  # channels last
    concat = next(op for op in ops if op.name == "pd_op.concat")
    assert concat.operands[1].define_op.attributes["value"].value == 3.0
    assert all(
        rewritten.origin[i] is None or ops[i].name == block.ops[rewritten.origin[i]].name
        for i in range(len(ops))
    )


def _metas(main, fresh, feed, fetches):
    """The metas the program's own plan planned (compiled with the pass off)."""
    mark_inference_program(main)
    info = ProgramInfo(main)
    scope = fresh()
    params = [np.array(scope.get(name)) for name, _ in info.params]
    feeds = [feed[item.name] for item in info.feeds]
    numbering = value_numbering(main.block)
    with flags.flags_guard({"layout_choice": "NCHW"}):
        _, (_, builder) = _compile_block(
            info, main.block, None, numbering, CPUPlace(), feeds, params, list(fetches)
        )
    return builder.meta_of


def _chain_program():
    """conv -> relu -> conv -> pool: one chain."""
    x = phi.static.data("x", [None, 4, 8, 8], "float32")
    a = F.relu(phi.nn.Conv2D(4, 6, 3, padding=1)(x))
    b = phi.nn.Conv2D(6, 6, 3, padding=1)(a)
    return [F.max_pool2d(b, 2, 2)]


@pytest.fixture(scope="module")
def chain_program():
    main, startup, fetches = build(_chain_program)
    feed = {"x": np.random.default_rng(1).standard_normal((1, 4, 8, 8)).astype(np.float32)}
    block = main.block
    metas = _metas(main, started_scope(startup), feed, fetches)
    members = layout.candidates(block, metas, frozenset())
    chains = layout.with_convolution(block, layout.chains_of(block, members, metas))
    return block, metas, chains


def _times(block, chain, conv_first, conv_last, other_first=1e-5, other_last=1e-5):
    first, last = {}, {}
    for index in chain:
        conv = block.ops[index].name == "pd_op.conv2d"
        first[index] = conv_first if conv else other_first
        last[index] = conv_last if conv else other_last
    return first, last


def test_a_chain_whose_convolutions_gain_is_kept(chain_program):
    block, metas, chains = chain_program
    (chain,) = chains
    assert [block.ops[i].name for i in chain] == [
        "pd_op.conv2d",
        "pd_op.add",
        "pd_op.relu",
        "pd_op.conv2d",
        "pd_op.add",
        "pd_op.pool2d",
    ]  # fmt: skip (each convolution's bias add)
    first, last = _times(block, chain, 1e-3, 5e-4)
    cheap = lambda shape: 1e-6  # noqa: E731
    assert layout.choose(block, chains, metas, set(), first, last, cheap) == chains
    # the transposes in and out cost more than the convolutions gain: kept channels first
    dear = lambda shape: 1e-3  # noqa: E731
    assert layout.choose(block, chains, metas, set(), first, last, dear) == []
    # convolutions that run no faster channels last (within 5%): nothing to gain
    first, last = _times(block, chain, 1e-3, 0.97e-3)
    assert layout.choose(block, chains, metas, set(), first, last, cheap) == []


def test_an_op_that_runs_slower_channels_last_splits_the_chain(chain_program):
    block, metas, chains = chain_program
    (chain,) = chains
    first, last = _times(block, chain, 1e-3, 5e-4)
    relu = next(i for i in chain if block.ops[i].name == "pd_op.relu")
    last[relu] = 1e-4  # ten times slower channels last: stays channels first
    kept = layout.choose(block, chains, metas, set(), first, last, lambda shape: 1e-6)
    assert [[block.ops[i].name for i in c] for c in kept] == [
        ["pd_op.conv2d", "pd_op.add"], ["pd_op.conv2d", "pd_op.add", "pd_op.pool2d"]
    ]  # fmt: skip
    # and the first convolution losing leaves the second chain alone
    conv = chain[0]
    last[conv] = 2e-3
    kept = layout.choose(block, chains, metas, set(), first, last, lambda shape: 1e-6)
    assert [[block.ops[i].name for i in c] for c in kept] == [
        ["pd_op.conv2d", "pd_op.add", "pd_op.pool2d"]
    ]


def test_a_plan_with_chains_channels_last_says_its_rounding_changes():
    main, startup, fetches = build(_chain_program)
    fresh = started_scope(startup)
    feed = {"x": np.random.default_rng(4).standard_normal((1, 4, 8, 8)).astype(np.float32)}
    (first,), first_plan = _run(main, fresh, feed, fetches, "NCHW")
    (last,), last_plan = _run(main, fresh, feed, fetches, "NHWC")
    assert not first_plan.report.changes_rounding  # no batch norm, no cut: the same bits
    assert last_plan.report.layout.switched and last_plan.report.changes_rounding
    np.testing.assert_allclose(last, first, rtol=1e-5, atol=1e-5)


def test_op_times_come_from_the_steps_labels():
    timings = [
        ("pd_op.conv2d (op 3, %3) + pd_op.relu (op 4, %4) [in place]", "k", 2e-3),
        ("pd_op.transpose (op 5, %3.nhwc.view)", "k", 1e-5),
        ("pd_op.pool2d (op 6, %5)", "k", 1e-4),
        ("pd_op.pool2d (op 6, %5)", "k", 1e-4),
    ]
    assert layout.op_times(timings, None) == {3: 2e-3, 5: 1e-5, 6: 2e-4}
    origin = [0, 1, 2, 10, 11, None, 12]
    assert layout.op_times(timings, origin) == {10: 2e-3, None: 1e-5, 12: 2e-4}
    assert layout.best_times([{1: 3.0, 2: 1.0}, {1: 2.0, 2: 4.0}]) == {1: 2.0, 2: 1.0}


def _timed_mode(monkeypatch, dense_block, race):
    """The dense block's plan in auto mode with every chain chosen and the whole runs' times
    ``race`` (channels first, channels last)."""
    main, fresh, fetches, feed = dense_block
    monkeypatch.setattr(layout_plan, "choose", lambda block, chains, *rest: chains)
    monkeypatch.setattr(layout_plan, "_compare", lambda first, chosen: race)
    monkeypatch.setattr(layout_plan, "MIN_RUN_SECONDS", 0.0)
    return _run(main, fresh, feed, fetches, "auto")


def test_auto_switches_when_the_whole_run_is_faster(monkeypatch, dense_block):
    main, fresh, fetches, feed = dense_block
    first, _ = _run(main, fresh, feed, fetches, "NCHW")
    outputs, plan = _timed_mode(monkeypatch, dense_block, (2e-3, 1e-3))
    report = plan.report.layout
    assert report.kept_because is None and len(report.chains) == 1
    assert (report.first_seconds, report.chosen_seconds) == (2e-3, 1e-3)
    for got, expected in zip(outputs, first):
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_auto_keeps_the_program_when_the_whole_run_is_not_faster(monkeypatch, dense_block):
    _, plan = _timed_mode(monkeypatch, dense_block, (1e-3, 0.99e-3))
    assert "ran less than 2% faster (0.99 ms against 1.00 ms)" in plan.report.layout.kept_because
    _, plan = _timed_mode(monkeypatch, dense_block, (1e-3, 1e-3))
    report = plan.report.layout
    assert "ran less than 2% faster (1.00 ms against 1.00 ms)" in report.kept_because
    assert not any(".nhwc" in step.label for step in plan.ops)


def test_auto_keeps_the_program_when_the_outputs_differ(monkeypatch, dense_block):
    monkeypatch.setattr(layout_plan, "_disagreement", lambda expected, got: "fetch 0: off")
    _, plan = _timed_mode(monkeypatch, dense_block, (2e-3, 1e-3))
    assert (
        plan.report.layout.kept_because == "the channels-last plan's outputs differ: fetch 0: off"
    )
    assert not any(".nhwc" in step.label for step in plan.ops)


def test_a_program_that_runs_in_under_2_ms_keeps_its_layout(dense_block):
    main, fresh, fetches, feed = dense_block
    _, plan = _run(main, fresh, feed, fetches, "auto")
    assert "ms worth timing layouts for" in plan.report.layout.kept_because
    assert not any(".nhwc" in step.label for step in plan.ops)


def test_disagreement_is_relative_to_the_outputs_scale():
    base = np.array([[100.0, -3.0]], np.float32)
    assert layout_plan._disagreement([base], [base + np.float32(5e-3)]) is None
    assert "off by" in layout_plan._disagreement([base], [base + np.float32(0.1)])
    assert "other places" in layout_plan._disagreement([base], [np.array([[np.nan, 1]], "f4")])
    assert "int64[2]" in layout_plan._disagreement([base], [np.zeros(2, np.int64)])


def test_an_unknown_mode_is_refused(dense_block):
    main, fresh, fetches, feed = dense_block
    with pytest.raises(InvalidArgumentError, match="FLAGS_layout_choice: 'nhwc' is not one of"):
        _run(main, fresh, feed, fetches, "nhwc")


def test_a_vector_along_the_width_keeps_its_add_channels_first():
    """``x + v`` with v [W] broadcasts along the last axis: channels last it would add along
    the channels, so the add is no candidate and the result stays right."""

    def build_fn():
        x = phi.static.data("x", [None, 3, 5, 5], "float32")
        y = phi.nn.Conv2D(3, 4, 3, padding=1)(x)
        v = phi.static.create_parameter([5], "float32")
        return [F.relu(y + v)]

    main, startup, fetches = build(build_fn)
    fresh = started_scope(startup)
    feed = {"x": np.random.default_rng(2).standard_normal((1, 3, 5, 5)).astype(np.float32)}
    (first,), _ = _run(main, fresh, feed, fetches, "NCHW")
    (last,), plan = _run(main, fresh, feed, fetches, "NHWC")
    (chain,) = plan.report.layout.chains  # the convolution and its bias add, not the vector's
    assert [label.split(" ")[0] for label in chain] == ["pd_op.conv2d", "pd_op.add"]
    np.testing.assert_allclose(last, first, rtol=1e-5, atol=1e-5)


def test_a_program_that_draws_random_numbers_is_left_alone():
    def build_fn():
        x = phi.static.data("x", [None, 3, 5, 5], "float32")
        noise = phi.uniform([1, 4, 5, 5], "float32", -1.0, 1.0, 0)
        return [phi.nn.Conv2D(3, 4, 3, padding=1)(x) + noise]

    main, startup, fetches = build(build_fn)
    feed = {"x": np.ones((1, 3, 5, 5), np.float32)}
    mark_inference_program(main)
    executor = phi.static.Executor()
    with flags.flags_guard({"layout_choice": "NHWC"}):
        executor.run(main, feed, fetches, scope=started_scope(startup)())
    assert plan_of(executor, main).report.layout is None


def _zoo_cnns():
    manifest = json.loads((ZOO / "manifest.json").read_text())
    names = []
    for model in manifest["models"]:
        folder = ZOO / model["name"]
        if (folder / "pir").is_dir() and (folder / "inputs_0.npz").exists():
            names.append(model["name"])
    return names


@pytest.mark.parametrize("name", _zoo_cnns())
def test_zoo_models_channels_last_give_their_outputs(name):
    """Every committed zoo model with every chain channels last gives the outputs of its own
    plan (1e-4 of their scale): the rewrite across real graphs (residual adds, concats,
    squeeze-excite multiplies, depthwise convolutions, transposed ones, detection heads)."""
    folder = ZOO / name
    with np.load(folder / "inputs_0.npz") as data:
        feed = dict(data)
    results = {}
    for mode in ("NCHW", "NHWC"):
        with flags.flags_guard({"layout_choice": mode}):
            executor = static.Executor()
            program, _, fetches = static.load_inference_model(
                str(folder / "pir" / "model"), executor
            )
            results[mode] = executor.run(program, feed=feed, fetch_list=fetches)
            plan = plan_of(executor, program)
            results[mode + " report"] = plan.report.layout if plan.report else None
    report = results["NHWC report"]
    has_conv = report is not None and report.kept_because is None
    if report is not None and report.kept_because is not None:
        assert report.kept_because == "no convolution chain can run channels last"
    for got, expected in zip(results["NHWC"], results["NCHW"]):
        got, expected = np.asarray(got), np.asarray(expected)
        assert got.shape == expected.shape and got.dtype == expected.dtype
        if expected.dtype.kind == "f":
            scale = max(float(np.max(np.abs(expected))), 1.0) if expected.size else 1.0
            np.testing.assert_allclose(got, expected, rtol=0, atol=1e-4 * scale)
        else:
            np.testing.assert_array_equal(got, expected)
    if has_conv:
        assert report.chains


def test_packed_weights_reach_the_kernel_without_a_copy(monkeypatch, dense_block):
    """Channels last, a conv2d's weight is a view of the same values stored [kh, kw, C, M]
    (folded once): the GEMM's [kh * kw * C, M] matrix is that memory, not a copy made at each
    run; channels first the kernel still copies (the weight's own layout)."""
    from phiops.runtime.kernels.impl import conv_kernel

    matrix = conv_kernel.filter_matrix
    shared = []

    def spy(xp, filter, groups):
        result = matrix(xp, filter, groups)
        shared.append(np.shares_memory(result, filter))
        return result

    monkeypatch.setattr(conv_kernel, "filter_matrix", spy)
    main, fresh, fetches, feed = dense_block
    _run(main, fresh, feed, fetches, "NHWC")
    assert shared and all(shared)  # both 3x3 convolutions, at every run
