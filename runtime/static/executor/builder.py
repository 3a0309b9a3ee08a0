"""What a plan is built from while a program is compiled: each value's slot, meta, constant and
scope name, the steps built so far, and the names errors give the ops."""

from __future__ import annotations

from typing import Any, Callable

from phiops.runtime.common import DataLayout, DataType, Place
from phiops.runtime.tensor.dense_tensor import DenseTensorMeta
from phiops.runtime.errors import UnimplementedError
from phiops.runtime.ir.core import Block, Operation, Value
from phiops.runtime.ir.types import DenseTensorType, NullType, VectorType
from phiops.runtime.static.executor.liveness import Lifetimes
from phiops.runtime.static.executor.metas import check_fits, dtype_of
from phiops.runtime.static.executor.steps.step import SCOPE_SLOT, OpStep

__all__ = ["PlanBuilder", "value_numbering"]


def value_numbering(block: Block) -> dict[Value, str]:
    """The names the printer gives the values of ``block`` (`%3`), for errors."""
    from phiops.runtime.ir.printer import Namer

    namer = Namer()
    namer.name_block(block)
    return dict(namer.names)


class PlanBuilder:
    """The state of one compilation: where each value lives (``slot_of``), its planned meta
    (``meta_of``; None for an absent optional result or a stack), the value of the constants
    other ops fold as attributes (``constant_of``), the scope variable a value is
    (``scope_name_of``), and the steps built so far (``ops``). ``compile_op_steps`` builds the
    steps of one op; control flow calls it for the ops of its blocks."""

    def __init__(
        self,
        place: Place,
        numbering: dict[Value, str],
        lifetimes: Lifetimes,
        compile_op_steps: Callable[[PlanBuilder, Operation, str], None],
    ) -> None:
        self.place = place
        self.numbering = numbering
        self.lifetimes = lifetimes
        self._compile_op_steps = compile_op_steps
        self.num_slots = SCOPE_SLOT + 1
        self.ops: list[OpStep] = []
        self.slot_of: dict[Value, int] = {}
        self.meta_of: dict[Value, Any] = {}
        self.constant_of: dict[Value, Any] = {}
        self.scope_name_of: dict[Value, str] = {}
        # slot of a cf stack -> the metas of what its tuple_push pushes (for its tuple_pop)
        self.pushed: dict[int, list] = {}
        # > 0 while planning the body of a while loop that carries values of changing extents:
        # PaddlePaddle types the body's ops before it knows the extents change, so the declared
        # extents of ops planned when they run are not checked there (dtype and rank are)
        self.loose_extents = 0
        # values whose declared type may have another rank than the data (a sparse op's values or
        # indices, typed as PaddlePaddle types them: runtime/static/sparse.py), and the results
        # of ops planned when they run from them: their declared types are not checked
        self.rank_unknown: set[Value] = set()
        # memory planning (runtime/static/passes/memory_planning.py): the slots emptied so far,
        # which new values take before the list grows; None: every value gets a slot of its own
        self.free_slots: list[int] | None = None

    def compile_op_steps(self, op: Operation, where: str) -> None:
        """Append the steps of ``op`` (named ``where`` in errors)."""
        self._compile_op_steps(self, op, where)

    # -- slots and lifetimes -----------------------------------------------------------------
    def new_slot(self, value: Value) -> int:
        if self.free_slots:
            slot = self.slot_of[value] = self.free_slots.pop()
        else:
            slot = self.slot_of[value] = self.num_slots
            self.num_slots += 1
        self.lifetimes.new_slot(slot, value)
        return slot

    def bare_slot(self) -> int:
        """A slot of no value, never emptied (a constant the plan places before each run)."""
        self.num_slots += 1
        return self.num_slots - 1

    def share_slot(self, value: Value, source: Value) -> None:
        """``value`` lives in ``source``'s slot (an in-place output, a fetch); the slot is kept
        until the last reader of either."""
        slot = self.slot_of[value] = self.slot_of[source]
        self.lifetimes.share_slot(slot, value)

    def release(self, index: int, op: Operation) -> None:
        """Empty the slots whose last reader is op ``index`` (or, for results nobody reads, op
        ``index`` itself), by appending the releases to the last step so far."""
        slots = self.lifetimes.ending_at(index, op, self.slot_of)
        if slots and self.ops:
            last = self.ops[-1]
            fresh = slots - set(last.releases)
            last.releases = tuple(sorted(set(last.releases) | slots))
            if self.free_slots is not None:
                self.free_slots.extend(sorted(fresh, reverse=True))

    # -- metas -------------------------------------------------------------------------------
    def meta(self, array: Any, dtype: DataType) -> DenseTensorMeta:
        return DenseTensorMeta.get(dtype, tuple(array.shape), DataLayout.NCHW, self.place)

    def where(self, index: int, op: Operation) -> str:
        results = ", ".join(self.numbering.get(v, "?") for v in op.results)
        return f"{op.name} (op {index}{', ' + results if results else ''})"

    def check_declared(self, value: Value, meta: Any, where: str) -> None:
        """PreconditionNotMetError unless ``meta`` fits the value's declared type."""
        check_fits(meta, value.type, where)

    def declared_meta(self, value: Value, where: str) -> Any:
        """The meta a value's declared type gives (-1 where it does not know a dim), for the
        results of an op planned when it runs; None for an absent (null) result."""
        declared = value.type
        if isinstance(declared, VectorType):
            return tuple(self.declared_meta_of_type(t, where) for t in declared.types)
        return self.declared_meta_of_type(declared, where)

    def declared_meta_of_type(self, declared: Any, where: str) -> Any:
        if isinstance(declared, NullType):
            return None
        if not isinstance(declared, DenseTensorType):
            raise UnimplementedError(
                f"{where}: the executor cannot hold a value of type {declared}"
            )
        dtype = dtype_of(declared.element, where)
        return DenseTensorMeta.get(dtype, tuple(declared.dims), DataLayout.NCHW, self.place)
