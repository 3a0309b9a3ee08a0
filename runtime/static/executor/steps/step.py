"""One op's step in a plan (``OpStep``: a closure over slots, the scope writes and the slot
releases after it), and how a list of them runs: checked the first time, then as one fused
closure per op."""

from __future__ import annotations

import time
from typing import Callable

from phiops.runtime.dispatch.dispatcher import check_outputs
from phiops.runtime.errors import PhiError

__all__ = ["SCOPE_SLOT", "OpStep", "RegionSteps", "kernel_text", "named", "run_checked"]

SCOPE_SLOT = 0  # slot 0 holds the scope of the current run, for the steps that write to it

# a kernel op's fused step for the slots it releases; None where the op has none of its own
Fuse = Callable[[tuple[int, ...]], Callable[[list], None] | None]


class OpStep:
    """One op of a compiled program: ``core`` moves arrays between slots (runs the kernel);
    ``writes`` are (slot, name) pairs stored in the scope after it; ``releases`` the slots
    emptied after it; ``check`` is (where, KernelPlan, OpInfo) for a kernel op, whose first
    result is checked against the plan's metas."""

    __slots__ = ("core", "out_slots", "many", "check", "writes", "releases", "fuse", "label")

    def __init__(
        self,
        core: Callable[[list], None],
        out_slots: tuple[int, ...] = (),
        many: bool = False,
        check: tuple | None = None,
        writes: tuple[tuple[int, str], ...] = (),
        fuse: Fuse | None = None,
    ) -> None:
        self.core = core
        self.out_slots = out_slots
        self.many = many
        self.check = check
        self.writes = writes
        self.releases: tuple[int, ...] = ()
        # a kernel op's: builds one closure running the kernel and emptying its releases
        self.fuse = fuse
        self.label = ""  # the op it runs, as errors name it (set when its op is compiled)

    def fast(self) -> Callable[[list], None]:
        """``core``, its scope writes and its releases as one closure."""
        if self.fuse is not None and not self.writes and self.releases:
            fused = self.fuse(self.releases)
            if fused is not None:
                return fused
        step = self.core
        if self.writes:
            step = _with_scope_writes(step, self.writes)
        if self.releases:
            step = _with_release(step, self.releases)
        return step


def named(where: str, run: Callable[[list], None]) -> Callable[[list], None]:
    """``run`` with the PhiErrors it raises prefixed by ``where`` (the op, as errors name it)."""

    def step(s: list) -> None:
        try:
            run(s)
        except PhiError as error:
            raise type(error)(f"{where}: {error}") from None

    return step


def run_checked(
    ops: list[OpStep], slots: list, timings: list[tuple[str, str, float]] | None = None
) -> None:
    """Run ``ops`` checking each kernel's result against its planned metas."""
    for op in ops:
        if timings is None:
            op.core(slots)
        else:
            start = time.perf_counter()
            op.core(slots)
            timings.append((op.label, kernel_text(op), time.perf_counter() - start))
        if op.check is not None:
            where, kernel_plan, op_info = op.check
            result = (
                tuple(slots[slot] for slot in op.out_slots) if op.many else slots[op.out_slots[0]]
            )
            try:
                check_outputs(kernel_plan, result, op_info)
            except PhiError as error:
                raise type(error)(f"{where}: {error}") from None
        scope = slots[SCOPE_SLOT]
        for slot, name in op.writes:
            scope.var(name).array = slots[slot]
        for slot in op.releases:
            slots[slot] = None


class RegionSteps:
    """The steps of a block of `pd_op.if` / `pd_op.while`, planned with the program: its first
    run checks each kernel's result, as a plan's first run does; later runs only call steps."""

    __slots__ = ("ops", "steps")

    def __init__(self, ops: list[OpStep]) -> None:
        self.ops = ops
        self.steps: tuple[Callable[[list], None], ...] | None = None

    def run(self, slots: list) -> None:
        steps = self.steps
        if steps is None:
            run_checked(self.ops, slots)
            self.steps = tuple(op.fast() for op in self.ops)
        else:
            for step in steps:
                step(slots)


def kernel_text(op: OpStep) -> str:
    """The kernel a step runs, as ``module.function [backend, layout, dtype]``; "" for a step
    that runs none; a fused step's kernels joined by " + "; the ``kernel_label`` of a step that
    runs a kernel of its own (a batch_norm run as an affine step)."""
    members = getattr(op, "members", None)
    if members is not None:
        return " + ".join(text for text in (kernel_text(member) for member in members) if text)
    label = getattr(op, "kernel_label", None)
    if label is not None:
        return label
    if op.check is None:
        return ""
    kernel = op.check[1].kernel
    key = kernel.key
    return (
        f"{kernel.fn.__module__}.{kernel.fn.__qualname__} "
        f"[{key.backend.name}, {key.layout.name}, {key.dtype.name}]"
    )


def _with_release(step: Callable[[list], None], slots: tuple[int, ...]) -> Callable[[list], None]:
    if len(slots) == 1:
        (only,) = slots

        def released_one(s: list) -> None:
            step(s)
            s[only] = None

        return released_one

    def released(s: list) -> None:
        step(s)
        for slot in slots:
            s[slot] = None

    return released


def _with_scope_writes(
    step: Callable[[list], None], writes: tuple[tuple[int, str], ...]
) -> Callable[[list], None]:
    def written(s: list) -> None:
        step(s)
        scope = s[SCOPE_SLOT]
        for slot, name in writes:
            scope.var(name).array = s[slot]

    return written
