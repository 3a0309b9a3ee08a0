"""When a slot can be emptied: after the last top-level op that reads any value living in it
(a result nobody reads, right after the op that made it); fetched values are kept to the end."""

from __future__ import annotations

from phiops.runtime.ir.core import Block, Operation, Value

__all__ = ["Lifetimes", "operands_within"]


def operands_within(op: Operation) -> list[Value]:
    """The operands of ``op`` and of every op in its regions (the values it reads)."""
    found = [v for v in op.operands if v is not None]
    for region in op.regions:
        for block in region.blocks:
            for inner in block.ops:
                found.extend(operands_within(inner))
    return found


class Lifetimes:
    """The index of the last top-level op that reads each value and each slot (-1: none). A
    value read inside a region counts as read by the top-level op holding the region; the ops
    ``skipped`` (removed by dead-code elimination) read nothing."""

    __slots__ = ("last_use", "slot_last")

    def __init__(
        self, block: Block, fetched: list[Value], skipped: frozenset[int] = frozenset()
    ) -> None:
        self.last_use: dict[Value, int] = {}
        for index, op in enumerate(block.ops):
            if index in skipped:  # not compiled (dead code): its reads do not count
                continue
            for operand in operands_within(op):
                self.last_use[operand] = index
        for value in fetched:
            self.last_use[value] = len(block.ops)
        self.slot_last: dict[int, int] = {}

    def new_slot(self, slot: int, value: Value) -> None:
        """``value`` is the first to live in ``slot``."""
        self.slot_last[slot] = self.last_use.get(value, -1)

    def share_slot(self, slot: int, value: Value) -> None:
        """``value`` lives in ``slot`` too: the slot is kept until the last reader of either."""
        self.slot_last[slot] = max(self.slot_last[slot], self.last_use.get(value, -1))

    def ending_at(self, index: int, op: Operation, slot_of: dict[Value, int]) -> set[int]:
        """The slots whose last reader is top-level op ``index`` (or, for results nobody reads,
        op ``index`` itself)."""
        slots = set()
        for value in [*operands_within(op), *op.results]:
            slot = slot_of.get(value)
            if slot is not None and self.slot_last[slot] <= index:
                slots.add(slot)
        return slots
