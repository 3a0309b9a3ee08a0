"""Dead-code elimination (runtime/static/passes/dead_code.py): ops whose results reach no fetch
and that have no effects are not compiled; effects (scope writes, random draws, in-place ops,
control flow) keep an op."""

from __future__ import annotations

import numpy as np

import phiops.generated as phi
from phiops.runtime.static.passes.dead_code import dead_ops, has_effects
from tests.static.passes.helpers import build, run_with_and_without, started_scope

RNG = np.random.default_rng(9)


def _with_unused_branch():
    def build_fn():
        x = phi.static.data("x", [None, 4], "float32")
        phi.exp(phi.sin(x))  # read by nothing
        return [phi.tanh(x)]

    return build(build_fn)


def test_ops_reaching_no_fetch_are_not_compiled() -> None:
    main, startup, fetches = _with_unused_branch()
    feed = {"x": RNG.standard_normal((3, 4)).astype(np.float32)}
    (on,), (off,), plan = run_with_and_without(main, feed, fetches, started_scope(startup))
    np.testing.assert_array_equal(on, off)
    dead = " ".join(plan.report.dead)
    assert "pd_op.sin" in dead and "pd_op.exp" in dead and "tanh" not in dead
    assert [op.label.split(" ")[0] for op in plan.ops] == ["pd_op.tanh"]


def test_dead_ops_follow_the_fetch_list() -> None:
    main, _, fetches = _with_unused_branch()
    names = [op.name for op in main.block.ops]
    dead = {names[i] for i in dead_ops(main.block, fetches)}
    assert dead == {"pd_op.sin", "pd_op.exp"}
    everything = [op.results[0] for op in main.block.ops if op.name == "pd_op.exp"] + fetches
    assert {names[i] for i in dead_ops(main.block, everything)} == set()


def test_random_ops_and_scope_writes_have_effects() -> None:
    def build_fn():
        x = phi.static.data("x", [None, 4], "float32")
        phi.uniform([2, 2], dtype="float32", min=-1.0, max=1.0, seed=0)
        return [x + 1.0]

    main, _, _ = build(build_fn)
    by_name = {op.name: op for op in main.block.ops}
    assert has_effects(by_name["pd_op.uniform"])
    assert has_effects(by_name["pd_op.data"])
    assert not has_effects(by_name["pd_op.scale"])
