"""The layout_choice pass as the executor runs it (runtime/static/passes/layout.py): whether it
applies to a compilation (``layout_applies``), and the choice between the program's plan and
the plans of its copies with convolution chains channels last (``choose_layout``), by the
``layout_choice`` flag's mode."""

from __future__ import annotations

import time
from typing import Any, Callable

import numpy as np

from phiops.runtime.backends import to_numpy
from phiops.runtime.common import Backend, Place
from phiops.runtime.dispatch.op_def import OP_DEFS
from phiops.runtime.errors import PhiError
from phiops.runtime.ir.core import Block, Value
from phiops.runtime.static.passes.config import layout_mode
from phiops.runtime.static.passes.layout import (
    TIMING_RUNS,
    LayoutReport,
    best_times,
    candidates,
    chains_of,
    choose,
    op_times,
    rewrite,
    with_convolution,
)
from phiops.runtime.static.scope import Scope

__all__ = ["choose_layout", "layout_applies"]

# the outputs of the channels-last plan must match the channels-first plan's within this share
# of their scale (the two differ by the order of the sums only)
AGREEMENT = 1e-4
# the chosen plan's whole run must be this share faster than the program's own (timing noise)
SWITCH_MARGIN = 0.02
# a program whose run takes less keeps its layout: what it could gain is less than the timing
# costs at its first run (14 to 15 runs)
MIN_RUN_SECONDS = 2e-3


def layout_applies(passes: Any, block: Block, place: Place) -> bool:
    """Whether the layout pass runs on this compilation: the passes ran (a program marked for
    inference, not a training one), ``layout_choice`` is among them and its mode is not NCHW,
    on CPU, a block without regions nor ops whose extra runs would be seen (random, printing,
    writing a parameter)."""
    if "layout_choice" not in passes.passes or layout_mode() == "NCHW":
        return False
    if place.backend is not Backend.CPU:
        return False
    for op in block.ops:
        if op.regions or op.dialect not in ("pd_op", "builtin"):
            return False
        short = op.name.partition(".")[2]
        if short in ("print", "set_parameter"):
            return False
        op_def = OP_DEFS.get(short.rstrip("_"))
        draws = "seed" in op.attributes or (op_def is not None and "seed" in op_def.info.attr_names)
        is_test = op.attributes.get("is_test")
        if draws and not (is_test is not None and is_test.value is True):
            return False  # a test-mode dropout draws nothing
    return True


def choose_layout(
    compile_block: Callable[..., tuple],
    block: Block,
    feed_arrays: list,
    param_arrays: list,
    fetched: list[Value],
    numbering: dict[Value, str],
    plan: Any,
    compiled: tuple,
) -> Any:
    """The plan to run: ``plan`` (the program's own, with ``compiled`` = its passes' rewrite
    and builder) or that of a copy of ``block`` with convolution chains channels last, as the
    ``layout_choice`` mode has it (the module doc of layout.py). ``compile_block(block,
    values, numbering)`` compiles a copy. The chosen plan's report says what was done."""
    passes, builder = compiled
    metas = builder.meta_of
    mode = layout_mode()
    report = LayoutReport(mode=mode)
    passes.report.layout = report
    found = candidates(block, metas, passes.dead)
    chains = with_convolution(block, chains_of(block, found, metas))
    if not chains:
        report.kept_because = "no convolution chain can run channels last"
        return plan
    if mode == "NHWC":
        return _switched(compile_block, block, chains, metas, fetched, numbering, report)[0]
    scope = Scope()

    def run(candidate: Any, profiled: bool = False) -> Any:
        feeds = [np.array(a) if isinstance(a, np.ndarray) else a for a in feed_arrays]
        if profiled:
            return candidate.run_profiled(scope, feeds, param_arrays)
        return candidate.run(scope, feeds, param_arrays)

    expected = run(plan)  # the first run checks each kernel
    first_runs = [run(plan, True)[1] for _ in range(TIMING_RUNS)]
    first_seconds = _best_total(first_runs)
    if first_seconds < MIN_RUN_SECONDS:
        report.kept_because = (
            f"a run takes {first_seconds * 1e3:.2f} ms, under the "
            f"{MIN_RUN_SECONDS * 1e3:.0f} ms worth timing layouts for"
        )
        return plan
    first_times = best_times([op_times(timings, None) for timings in first_runs])
    try:
        last_plan, rewritten = _switched(
            compile_block, block, chains, metas, fetched, numbering, LayoutReport(mode=mode)
        )
        outputs = run(last_plan)
    except PhiError as error:
        report.kept_because = f"the channels-last plan failed: {error}"
        return plan
    disagreement = _disagreement(expected, outputs)
    if disagreement is not None:
        report.kept_because = f"the channels-last plan's outputs differ: {disagreement}"
        return plan
    last_runs = [run(last_plan, True)[1] for _ in range(TIMING_RUNS)]
    last_times = best_times([op_times(timings, rewritten.origin) for timings in last_runs])
    kept = choose(block, chains, metas, set(fetched), first_times, last_times)
    if not kept:
        report.kept_because = "no chain ran faster channels last"
        return plan
    if kept == chains:
        chosen, chosen_report = last_plan, last_plan.report.layout
    else:
        chosen, _ = _switched(
            compile_block, block, kept, metas, fetched, numbering, LayoutReport(mode=mode)
        )
        chosen_report = chosen.report.layout
        disagreement = _disagreement(expected, run(chosen))
        if disagreement is not None:
            report.kept_because = f"the channels-last plan's outputs differ: {disagreement}"
            return plan
    first_seconds, chosen_seconds = _compare(lambda: run(plan), lambda: run(chosen))
    report.first_seconds, report.chosen_seconds = first_seconds, chosen_seconds
    if chosen_seconds >= first_seconds * (1 - SWITCH_MARGIN):
        report.kept_because = (
            f"the plan with {len(kept)} chain(s) channels last ran less than "
            f"{SWITCH_MARGIN:.0%} faster ({chosen_seconds * 1e3:.2f} ms against "
            f"{first_seconds * 1e3:.2f} ms)"
        )
        return plan
    chosen_report.first_seconds, chosen_report.chosen_seconds = first_seconds, chosen_seconds
    return chosen


def _switched(
    compile_block: Callable[..., tuple],
    block: Block,
    chains: list[list[int]],
    metas: dict,
    fetched: list[Value],
    numbering: dict[Value, str],
    report: LayoutReport,
) -> tuple[Any, Any]:
    """The plan of the copy of ``block`` with ``chains`` channels last, its report saying so."""
    members = {index for chain in chains for index in chain}
    rewritten = rewrite(block, members, metas, fetched, numbering)
    plan, _ = compile_block(rewritten.block, rewritten.values, rewritten.names)
    report.chains = [
        [f"{block.ops[i].name} (op {i})" for i in chain if block.ops[i].name != "builtin.combine"]
        for chain in chains
    ]
    report.transposes = rewritten.transposes
    if plan.report is not None:
        plan.report.layout = report
    return plan, rewritten


def _disagreement(expected: list, outputs: list) -> str | None:
    """Why ``outputs`` are not ``expected`` up to rounding (AGREEMENT of their scale), or None."""
    for position, (want, got) in enumerate(zip(expected, outputs)):
        want, got = to_numpy(want), to_numpy(got)
        if want.shape != got.shape or want.dtype != got.dtype:
            return f"fetch {position}: {got.dtype}{list(got.shape)}, not {want.dtype}{list(want.shape)}"
        if want.dtype.kind != "f":
            if not np.array_equal(want, got):
                return f"fetch {position} differs"
            continue
        finite = np.isfinite(want)
        if not np.array_equal(finite, np.isfinite(got)):
            return f"fetch {position}: NaN or infinity at other places"
        if not finite.any():
            continue
        scale = float(np.max(np.abs(want[finite]))) or 1.0
        error = float(np.max(np.abs(want[finite].astype(np.float64) - got[finite])))
        if error > AGREEMENT * scale:
            return f"fetch {position}: off by {error:.3g} at scale {scale:.3g}"
    return None


def _compare(first: Callable[[], Any], chosen: Callable[[], Any]) -> tuple[float, float]:
    """The seconds of a whole run of the program's own plan (``first`` runs it) and of the
    chosen one: the best of TIMING_RUNS runs each, alternating (the machine's speed drifts)."""
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(TIMING_RUNS):
        for position, call in enumerate((first, chosen)):
            start = time.perf_counter()
            call()
            times[position].append(time.perf_counter() - start)
    return min(times[0]), min(times[1])


def _best_total(runs: list) -> float:
    return min(sum(seconds for _, _, seconds in timings) for timings in runs)
