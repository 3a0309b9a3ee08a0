"""Memory planning: values reuse the slots of values whose last reader has run (the builder's
free list, `PlanBuilder.reuse_slots`), and the plan's peak memory is computed from the lifetimes:
the largest sum of the bytes of the intermediate arrays alive at once (feeds, parameters and
folded constants are counted apart), against the sum of all of them (what a plan that never
released a value would hold)."""

from __future__ import annotations

from dataclasses import dataclass

from phiops.runtime.ir.core import Block, Value
from phiops.runtime.static.executor.metas import has_unknown_dims

__all__ = ["MemoryReport", "memory_report"]


@dataclass(frozen=True)
class MemoryReport:
    """Bytes: ``peak`` of the intermediates alive at once, ``total`` of all intermediates,
    ``resident`` of feeds, parameters and folded constants; ``buffers``: the slots the
    intermediates live in; ``unknown``: intermediates whose size is known only when they run
    (not counted)."""

    peak: int
    total: int
    resident: int
    buffers: int
    unknown: int


def memory_report(
    block: Block,
    slot_of: dict[Value, int],
    meta_of: dict,
    last_use: dict[Value, int],
    resident: set[Value],
) -> MemoryReport:
    """The memory report of a plan whose values live in ``slot_of`` with metas ``meta_of``,
    read last at the op indices ``last_use``; ``resident`` are the values placed before a run
    (feeds, parameters, folded constants)."""
    index_of = {op: index for index, op in enumerate(block.ops)}
    intervals: dict[int, list[list[int]]] = {}
    unknown = 0
    resident_bytes = 0
    for value, slot in slot_of.items():
        meta = meta_of.get(value)
        if meta is None or isinstance(meta, tuple):
            continue
        size = _bytes(meta)
        if value in resident:
            resident_bytes += size or 0
            continue
        start = index_of.get(value.define_op) if value.define_op is not None else None
        if start is None:
            continue
        if size is None:
            unknown += 1
            continue
        end = max(start, last_use.get(value, start))
        intervals.setdefault(slot, []).append([start, end, size])
    events: list[tuple[int, int]] = []
    total = 0
    for spans in intervals.values():
        spans.sort()
        merged: list[list[int]] = []
        for start, end, size in spans:
            if merged and start <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], end)
                merged[-1][2] = max(merged[-1][2], size)
            else:
                merged.append([start, end, size])
        for start, end, size in merged:
            total += size
            events.append((start, size))
            events.append((end + 1, -size))
    peak = alive = 0
    for _, change in sorted(events, key=lambda event: (event[0], event[1])):
        alive += change
        peak = max(peak, alive)
    return MemoryReport(peak, total, resident_bytes, len(intervals), unknown)


def _bytes(meta) -> int | None:
    if has_unknown_dims(meta):
        return None
    count = 1
    for extent in meta.dims:
        count *= extent
    return count * meta.dtype.numpy_dtype.itemsize
