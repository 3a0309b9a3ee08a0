"""The liveness facts the passes use (runtime/static/executor/liveness.py,
runtime/static/passes/memory_planning.py): ops removed as dead read nothing, and the peak
memory of a plan is the largest sum of the intermediates alive at once."""

from __future__ import annotations

import numpy as np

import phiops.generated as phi
from phiops.runtime.common import CPUPlace, DataLayout, DataType
from phiops.runtime.static.executor.liveness import Lifetimes
from phiops.runtime.static.passes.memory_planning import memory_report
from phiops.runtime.tensor.dense_tensor import DenseTensorMeta
from tests.static.passes.helpers import build


def _diamond():
    def build_fn():
        x = phi.static.data("x", [4, 8], "float32")
        a = phi.exp(x)  # op 1, read by ops 2 and 3
        b = phi.sin(a)  # op 2
        c = phi.cos(a)  # op 3
        return [b + c]  # op 4

    return build(build_fn)


def test_skipped_ops_read_nothing() -> None:
    main, _, fetches = _diamond()
    a = main.block.ops[1].results[0]
    assert Lifetimes(main.block, fetches).last_use[a] == 3
    assert Lifetimes(main.block, fetches, frozenset({3})).last_use[a] == 2


def test_peak_memory_from_lifetimes() -> None:
    main, _, fetches = _diamond()
    ops = main.block.ops
    lifetimes = Lifetimes(main.block, fetches)
    meta = DenseTensorMeta.get(DataType.FLOAT32, (4, 8), DataLayout.NCHW, CPUPlace())
    values = [op.results[0] for op in ops[:5]]
    slot_of = {value: slot for slot, value in enumerate(values, start=1)}
    report = memory_report(
        main.block, slot_of, {v: meta for v in values}, lifetimes.last_use, {values[0]}
    )
    one = 4 * 8 * 4
    # a lives from op 1 to op 3, b from 2 to 4, c from 3 to 4, the sum from 4 (fetched)
    assert report.peak == 3 * one
    assert report.total == 4 * one
    assert report.resident == one
    assert report.buffers == 4
    assert np.isclose(report.peak / one, 3)
