"""Running a program with the inference passes on and off (runtime/static/passes)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

import phiops.generated as phi
from phiops.runtime import flags
from phiops.runtime.static.passes import mark_inference_program, training_reason

ALL_PASSES = flags.flag_value("inference_passes")


def plan_of(executor: Any, program: Any) -> Any:
    """The one plan ``executor`` compiled for ``program``."""
    (plan,) = executor._programs[id(program.module)][1].values()
    return plan


def run_with_and_without(
    program: Any,
    feed: dict,
    fetch_list: list,
    scope_of: Callable[[], Any],
    passes: str = ALL_PASSES,
    layout: str = "NCHW",
) -> tuple[list[np.ndarray], list[np.ndarray], Any]:
    """(fetches with ``passes``, fetches without passes, the plan with them), each run on a
    fresh scope from ``scope_of`` by an executor of its own, the program marked for inference.
    Each is run twice, the first run checking each step, the second running the fast steps
    (fused closures): both must give the same arrays (unless the program trains: its second
    run starts from updated parameters), and the second run's are returned. The layout pass
    runs in mode ``layout`` (tests/static/passes/test_layout.py tests it; its default timing
    runs would run the plan more often than these tests count)."""
    mark_inference_program(program)
    parameters = {op.results[0] for op in program.block.ops if op.name == "builtin.parameter"}
    trains = training_reason(program.block, parameters) is not None
    results = []
    plans = []
    for setting in (passes, ""):
        executor = phi.static.Executor()
        with flags.flags_guard({"inference_passes": setting, "layout_choice": layout}):
            scope = scope_of()
            first = executor.run(program, feed, fetch_list, scope=scope)
            second = executor.run(program, feed, fetch_list, scope=scope)
            for a, b in zip(first, second):
                if not trains:
                    np.testing.assert_array_equal(a, b)
            assert plan_of(executor, program).steps is not None  # the fast steps ran
            results.append(second)
            plans.append(plan_of(executor, program))
    return results[0], results[1], plans[0]


def build(build_fn: Callable[[], list]) -> tuple[Any, Any, list]:
    """(main, startup, fetch values) built under program_guard by ``build_fn``."""
    main, startup = phi.static.Program(), phi.static.Program()
    phi.enable_static()
    try:
        with phi.static.unique_name_guard(), phi.static.program_guard(main, startup):
            fetches = build_fn()
    finally:
        phi.disable_static()
    return main, startup, fetches


def started_scope(startup: Any) -> Callable[[], Any]:
    """A function giving a fresh scope holding what ``startup`` wrote (run once)."""
    scope = phi.static.Scope()
    phi.static.Executor().run(startup, scope=scope)
    arrays = {name: np.array(scope.get(name)) for name in scope.local_var_names()}

    def fresh() -> Any:
        new = phi.static.Scope()
        for name, array in arrays.items():
            new.var(name).set(array.copy())
        return new

    return fresh


def randomised_statistics(fresh: Callable[[], Any], rng: np.random.Generator) -> Callable[[], Any]:
    """``fresh`` with the 1-D parameters (a batch norm's mean, variance, scale and bias, a
    conv's bias) drawn once from [0.5, 1.5), the same for every scope it gives."""
    drawn = {}
    template = fresh()
    for name in template.local_var_names():
        array = np.array(template.get(name))
        if array.ndim == 1:
            drawn[name] = (rng.random(array.shape) + 0.5).astype(array.dtype)

    def scope() -> Any:
        new = fresh()
        for name, array in drawn.items():
            new.var(name).set(array.copy())
        return new

    return scope
