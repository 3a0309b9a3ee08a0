"""Memory planning (runtime/static/passes/memory_planning.py): values take the slots of values
whose last reader has run, and the plan reports its peak memory from the lifetimes."""

from __future__ import annotations

import numpy as np

import phiops.generated as phi
from tests.static.passes.helpers import build, run_with_and_without, started_scope

RNG = np.random.default_rng(4)


def _chain(length: int):
    def build_fn():
        x = phi.static.data("x", [None, 256], "float32")
        for _ in range(length):
            x = phi.tanh(x)
        return [x]

    return build(build_fn)


def test_a_chain_reuses_two_slots_and_gives_the_same_numbers() -> None:
    main, startup, fetches = _chain(20)
    feed = {"x": RNG.standard_normal((8, 256)).astype(np.float32)}
    (on,), (off,), plan = run_with_and_without(main, feed, fetches, started_scope(startup))
    np.testing.assert_array_equal(on, off)
    written = {slot for op in plan.ops for slot in op.out_slots}
    assert len(written) <= 3  # 20 results, a few slots


def test_peak_memory_counts_the_intermediates_alive_at_once() -> None:
    main, startup, fetches = _chain(20)
    feed = {"x": RNG.standard_normal((8, 256)).astype(np.float32)}
    _, _, plan = run_with_and_without(main, feed, fetches, started_scope(startup))
    memory = plan.report.memory
    one = 8 * 256 * 4
    assert memory.peak == 2 * one  # an op's input and its result
    assert memory.total == 20 * one
    assert memory.resident == one  # the feed


def test_without_the_pass_every_value_has_its_own_slot() -> None:
    main, startup, fetches = _chain(20)
    feed = {"x": RNG.standard_normal((8, 256)).astype(np.float32)}
    passes = "dead_code_elimination,constant_folding"
    _, _, plan = run_with_and_without(main, feed, fetches, started_scope(startup), passes)
    assert len({slot for op in plan.ops for slot in op.out_slots}) == 20
