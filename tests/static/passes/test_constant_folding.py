"""Constant folding (runtime/static/passes/constant_folding.py): ops reading only parameters and
constants run once when the plan is compiled; their results are constants of the plan, the
scope's parameters stay as they are, and a parameter replaced in the scope is folded anew."""

from __future__ import annotations

import numpy as np

import phiops.generated as phi
from phiops.runtime.static.passes import mark_inference_program
from tests.static.passes.helpers import build, plan_of, run_with_and_without, started_scope

RNG = np.random.default_rng(3)


def _scaled_weight():
    def build_fn():
        x = phi.static.data("x", [None, 4], "float32")
        w = phi.static.create_parameter([4, 3], "float32", name="w")
        return [phi.matmul(x, phi.exp(w) * 2.0)]

    return build(build_fn)


def test_parameter_only_ops_run_once_at_compile_time_with_the_same_numbers() -> None:
    main, startup, fetches = _scaled_weight()
    feed = {"x": RNG.standard_normal((5, 4)).astype(np.float32)}
    (on,), (off,), plan = run_with_and_without(main, feed, fetches, started_scope(startup))
    np.testing.assert_array_equal(on, off)
    folded = " ".join(plan.report.folded)
    assert "pd_op.exp" in folded and "pd_op.scale" in folded
    assert [op.label.split(" ")[0] for op in plan.ops] == ["pd_op.matmul"]
    assert plan.report.folded_bytes >= 4 * 3 * 4


def test_the_result_equals_a_numpy_reference_and_the_scope_is_unchanged() -> None:
    main, startup, fetches = _scaled_weight()
    mark_inference_program(main)
    scope = started_scope(startup)()
    w = np.array(scope.get("w"))
    x = RNG.standard_normal((5, 4)).astype(np.float32)
    (got,) = phi.static.Executor().run(main, {"x": x}, fetches, scope=scope)
    np.testing.assert_allclose(got, x @ (np.exp(w) * 2.0), rtol=1e-5)
    np.testing.assert_array_equal(np.array(scope.get("w")), w)


def test_a_parameter_replaced_in_the_scope_is_folded_anew() -> None:
    main, startup, fetches = _scaled_weight()
    mark_inference_program(main)
    scope = started_scope(startup)()
    executor = phi.static.Executor()
    x = RNG.standard_normal((5, 4)).astype(np.float32)
    executor.run(main, {"x": x}, fetches, scope=scope)
    w = RNG.standard_normal((4, 3)).astype(np.float32)
    scope.var("w").set(w)
    (got,) = executor.run(main, {"x": x}, fetches, scope=scope)
    np.testing.assert_allclose(got, x @ (np.exp(w) * 2.0), rtol=1e-5)


def test_a_plan_run_twice_places_its_constants_each_run() -> None:
    main, startup, fetches = _scaled_weight()
    mark_inference_program(main)
    scope = started_scope(startup)()
    executor = phi.static.Executor()
    x = RNG.standard_normal((5, 4)).astype(np.float32)
    first = executor.run(main, {"x": x}, fetches, scope=scope)[0]
    second = executor.run(main, {"x": x}, fetches, scope=scope)[0]
    assert plan_of(executor, main).steps is not None  # the second run used the fast steps
    np.testing.assert_array_equal(first, second)
