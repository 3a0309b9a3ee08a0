"""The inference passes as the executor runs them while it compiles a plan: which apply to a
program (``inference_rewrite``), what they change (``InferenceRewrite``: ops not compiled,
constants computed once, producers compiled with their folded weight and fused epilogue) and
what they report (``PassReport``, which `phiops run --plan` prints)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable

import numpy as np

from phiops.runtime.common import Backend
from phiops.runtime.device import to_backend
from phiops.runtime.ir.core import Block, Operation, Value
from phiops.runtime.static.executor.builder import PlanBuilder
from phiops.runtime.static.executor.steps.step import OpStep
from phiops.runtime.static.passes.batch_norm_affine import (
    AffineBatchNorm,
    affine_step,
    match_affine_batch_norms,
    runs_as_affine,
)
from phiops.runtime.static.passes.batch_norm_folding import BatchNormFold, match_batch_norm_folds
from phiops.runtime.static.passes.config import (
    enabled_passes,
    is_marked_for_inference,
    training_reason,
)
from phiops.runtime.static.passes.constant_folding import fold_constants, foldable_ops
from phiops.runtime.static.passes.dead_code import dead_ops
from phiops.runtime.static.passes.fusion import (
    FusedStep,
    Fusion,
    activation_in_place,
    channel_vector,
    in_place_add,
    in_place_add_value,
    in_place_bias_activation,
    in_place_relu,
    match_fusions,
)
from phiops.runtime.static.passes.memory_planning import MemoryReport
from phiops.runtime.static.passes.patterns import Uses
from phiops.runtime.static.passes.tap_pruning import CONVOLUTIONS, TapCut, tap_cut

__all__ = ["InferenceRewrite", "PassReport", "inference_rewrite"]

CompileOp = Callable[[PlanBuilder, int, Operation], None]


@dataclass
class PassReport:
    """What the passes did to one plan: the passes run (none, with ``skipped`` saying why, on a
    training program), the ops removed as dead, the constants folded (op labels and bytes),
    the batch norms folded, the batch norms run as affine steps, the convolutions whose kernels
    were cut to the taps that read their input, the fused steps (their labels), and the memory
    report."""

    passes: tuple[str, ...] = ()
    skipped: str | None = None
    dead: list[str] = field(default_factory=list)
    folded: list[str] = field(default_factory=list)
    folded_bytes: int = 0
    batch_norms: list[str] = field(default_factory=list)
    affine: list[str] = field(default_factory=list)
    pruned: list[str] = field(default_factory=list)
    fused: list[str] = field(default_factory=list)
    memory: MemoryReport | None = None
    layout: Any = None  # the layout_choice pass's LayoutReport (layout.py), when it ran

    @property
    def changes_rounding(self) -> bool:
        """Whether the plan's results may differ from the unpassed program's by rounding (a
        batch norm folded or run as an affine step, a convolution's kernel cut, chains run
        channels last); else they are the same bit for bit."""
        switched = self.layout is not None and self.layout.switched
        return bool(self.batch_norms or self.affine or self.pruned or switched)


def inference_rewrite(
    module: Operation, block: Block, fetched: list[Value], parameters: set[Value]
) -> InferenceRewrite | PassReport | None:
    """The rewrite of the passes the ``inference_passes`` flag enables for a program marked for
    inference; a PassReport saying why none run on a training program; None for a program
    not marked (or no pass enabled)."""
    if not is_marked_for_inference(module):
        return None
    passes = enabled_passes()
    if not passes:
        return None
    reason = training_reason(block, parameters)
    if reason is not None:
        return PassReport(skipped=f"a training program: {reason}")
    return InferenceRewrite(passes, block, fetched)


class InferenceRewrite:
    """The passes' changes to one compilation: ``dead`` ops are not compiled (nor their reads
    counted), ``prepare`` folds constants and matches the folds and fusions, ``compile``
    compiles or skips one op in their place."""

    def __init__(self, passes: tuple[str, ...], block: Block, fetched: list[Value]) -> None:
        self.passes = passes
        self.block = block
        self.fetched = set(fetched)
        self.dead = dead_ops(block, fetched) if "dead_code_elimination" in passes else frozenset()
        self.report = PassReport(passes=passes)
        self.constant_slots: list[tuple[int, Any]] = []
        self.consumed: set[Value] = set()  # the parameters the folded constants were made from
        self.folded_values: set[Value] = set()
        self._folded: set[int] = set()
        self._heads: dict[int, _Head] = {}
        # convolution op -> (its constant weight, whether a parameter): tap pruning's candidates
        self._convolutions: dict[int, tuple[Any, bool]] = {}
        self._absorbed: set[int] = set()

    @property
    def plans_memory(self) -> bool:
        """Whether slots are reused (memory planning, on a block without regions, whose stacks
        and region values keep their own slots)."""
        return "memory_planning" in self.passes and not any(
            op.regions or op.dialect == "cf" for op in self.block.ops
        )

    def prepare(
        self, builder: PlanBuilder, parameters: dict[Value, Any], compile_op: CompileOp
    ) -> None:
        """Fold the constants (their arrays go to ``constant_slots``) and match the batch-norm
        folds and fusions against the parameters and constants."""
        block = self.block
        for index in sorted(self.dead):
            self.report.dead.append(builder.where(index, block.ops[index]))
        constants = dict(parameters)
        if "constant_folding" in self.passes:
            indices = foldable_ops(block, self.dead, set(parameters))
            folded = fold_constants(builder, block, indices, parameters, compile_op)
            self._folded = set(indices)
            for index in indices:
                op = block.ops[index]
                self.consumed.update(v for v in op.operands if v in parameters)
                self.report.folded.append(builder.where(index, op))
            self.folded_values = set(folded)
            for value, array in folded.items():
                self.constant_slots.append((builder.slot_of[value], array))
                self.report.folded_bytes += _nbytes(array)
            constants.update(folded)
        uses = Uses(block, self.dead, self.fetched)
        folds: dict[int, BatchNormFold] = {}
        affine: dict[int, AffineBatchNorm] = {}
        if "batch_norm_folding" in self.passes:
            for fold in match_batch_norm_folds(block, uses, constants):
                fold.weight = to_backend(fold.weight, builder.place)
                fold.bias = to_backend(fold.bias, builder.place)
                folds[fold.producer] = fold
                self._absorbed.update(fold.chain)
                self._note_consumed(fold.producer, fold.chain, parameters)
                labels = [builder.where(i, block.ops[i]) for i in [fold.producer, *fold.chain]]
                self.report.batch_norms.append(" + ".join(labels))
            for item in match_affine_batch_norms(block, uses, constants, self._absorbed):
                item.scale = to_backend(item.scale, builder.place)
                item.shift = to_backend(item.shift, builder.place)
                affine[item.index] = item
                self._note_consumed(item.index, [], parameters)
        fusions: dict[int, Fusion] = {}
        if "bias_activation_fusion" in self.passes:
            start = {index: fold.values[-1] for index, fold in folds.items()}
            for fusion in match_fusions(block, uses, constants, start, frozenset(affine)):
                fusions[fusion.producer] = fusion
                members = [stage.index for stage in fusion.stages]
                self._absorbed.update(members)
                self._note_consumed(fusion.producer, members, parameters)
        for index in sorted(set(folds) | set(fusions) | set(affine)):
            self._heads[index] = _Head(folds.get(index), fusions.get(index), affine.get(index))
        if "tap_pruning" in self.passes and builder.place.backend is Backend.CPU:
            for index, op in enumerate(block.ops):
                weight = op.operands[1] if len(op.operands) > 1 else None
                if op.name in CONVOLUTIONS and index not in self.dead and weight in constants:
                    self._convolutions[index] = (constants[weight], weight in parameters)

    @staticmethod
    def _bias_member(
        members: list[OpStep], constant: Any, result: Value, cpu: bool
    ) -> tuple[OpStep, Any, bool] | None:
        """(the last member, its constant as a per-channel vector, channels last) when the last
        member is the in-place add of ``constant`` (a folded batch norm's bias, a constant
        stage; None: it is not) and that is a per-channel vector on CPU: an activation after
        it may run in the same pass."""
        if not cpu or constant is None or not members:
            return None
        rank = len(getattr(result.type, "dims", ()))
        found = channel_vector(constant, rank) if rank else None
        return None if found is None else (members[-1], *found)

    def _cut(
        self, builder: PlanBuilder, index: int, op: Operation, weight: Any = None
    ) -> TapCut | None:
        """The cut of convolution ``index`` for its input's extents in this plan, when tap
        pruning runs and every weight it drops is finite (a NaN or infinity there would have
        made its products of padding NaN); ``weight`` the folded weight, else its constant."""
        candidate = self._convolutions.get(index)
        meta = builder.meta_of.get(op.operands[0])
        if candidate is None or meta is None:
            return None
        array = candidate[0] if weight is None else weight
        if type(array) is not np.ndarray or array.ndim != 4:
            return None
        cut = tap_cut(op, tuple(meta.dims), array.shape)
        if cut is None:
            return None
        kept = np.zeros(array.shape[2:], bool)
        kept[cut.y0 : cut.y1, cut.x0 : cut.x1] = True
        return cut if np.isfinite(array[:, :, ~kept]).all() else None

    def _note_consumed(self, producer: int, chain: list[int], parameters: dict) -> None:
        for index in [producer, *chain]:
            self.consumed.update(v for v in self.block.ops[index].operands if v in parameters)

    def compile(
        self, builder: PlanBuilder, index: int, op: Operation, compile_op: CompileOp
    ) -> bool:
        """Compile op ``index`` as the passes have it (True), or leave it to the executor
        (False): a dead or folded op is skipped, an absorbed one only releases its slots, a
        producer is compiled with its fold and fusion, a batch norm as its affine step."""
        if index in self.dead or index in self._folded:
            return True
        head = self._heads.get(index)
        if head is None and index in self._convolutions and self._cut(builder, index, op):
            head = _Head(None, None, None)
        if head is not None:
            self._compile_fused(builder, index, op, head, compile_op)
            builder.release(index, op)
            return True
        if index in self._absorbed:
            builder.release(index, op)
            return True
        return False

    def _compile_fused(
        self,
        builder: PlanBuilder,
        index: int,
        op: Operation,
        head: _Head,
        compile_op: CompileOp,
    ) -> None:
        fold, fusion, affine = head.fold, head.fusion, head.affine
        first = len(builder.ops)
        cut = self._cut(builder, index, op, fold.weight if fold is not None else None)
        if fold is not None or cut is not None:
            weight = op.operands[fold.weight_operand if fold is not None else 1]
            array = fold.weight if fold is not None else self._convolutions[index][0]
            if cut is not None:
                array = cut.weight(array)
                shape = op.operands[1].type.dims
                self.report.pruned.append(
                    f"{builder.where(index, op)}: {shape[2]}x{shape[3]} -> "
                    f"{cut.y1 - cut.y0}x{cut.x1 - cut.x0}"
                )
                if fold is None and self._convolutions[index][1]:
                    self.consumed.add(weight)  # recut when the scope's parameter is replaced
            slot = builder.bare_slot()
            self.constant_slots.append((slot, array))
            original = builder.slot_of[weight]
            builder.slot_of[weight] = slot
            paddings = op.attributes.get("paddings")
            weight_meta = builder.meta_of.get(weight)
            if cut is not None:  # the kernel is planned for the cut weight and paddings
                op.attributes["paddings"] = cut.attribute()
                if weight_meta is not None:
                    builder.meta_of[weight] = builder.meta(array, weight_meta.dtype)
            try:
                compile_op(builder, index, op)
            finally:
                builder.slot_of[weight] = original
                if cut is not None:
                    op.attributes["paddings"] = paddings
                    if weight_meta is not None:
                        builder.meta_of[weight] = weight_meta
        else:
            compile_op(builder, index, op)
        members = builder.ops[first:]
        del builder.ops[first:]
        result = op.results[0]
        slot = builder.slot_of[result]
        on_cpu = builder.place.backend is Backend.CPU
        chained = [*(fold.values if fold else ()), *(fusion.values if fusion else ())]
        for value in chained:
            builder.meta_of[value] = builder.meta_of[result]
            builder.share_slot(value, result)
        if fold is not None:
            last = self.block.ops[fold.chain[-1]]
            members.append(
                _labelled(
                    in_place_add(slot, fold.bias, on_cpu), builder, fold.chain[-1], last, "folded"
                )
            )
        # the batch norm's affine step, which a relu reading its result may still join
        as_affine: Callable[..., OpStep] | None = None
        if affine is not None:
            x = op.operands[0]
            source, x_meta = builder.slot_of[x], builder.meta_of[x]
            if runs_as_affine(members, x_meta):
                as_affine = partial(affine_step, affine, source, slot, x_meta, builder.place)
                members = [_relabelled(as_affine(), f"{builder.where(index, op)} [affine]")]
        # (the step, the vector, channels last) of the per-channel bias add members ends with
        bias = self._bias_member(members, fold.bias if fold else None, result, on_cpu)
        for position, stage in enumerate(fusion.stages if fusion is not None else ()):
            stage_op = self.block.ops[stage.index]
            if stage.constant is not None:
                core = in_place_add(slot, stage.constant, on_cpu)
                members.append(_labelled(core, builder, stage.index, stage_op, "in place"))
            elif stage.operand is not None:
                core = in_place_add_value(slot, builder.slot_of[stage.operand], on_cpu)
                members.append(_labelled(core, builder, stage.index, stage_op, "in place"))
            else:
                first = len(builder.ops)
                compile_op(builder, stage.index, stage_op)
                compiled = builder.ops[first:]
                del builder.ops[first:]
                kind = activation_in_place(stage_op, compiled) if on_cpu else None
                if kind == "relu":
                    if as_affine is not None and position == 0:
                        label = f"{members[0].label} + {compiled[0].label} [in place]"
                        members = [_relabelled(as_affine(relu=compiled[0]), label)]
                        continue
                    compiled = [in_place_relu(slot, compiled[0])]
                if kind is not None and bias is not None and bias[0] is members[-1]:
                    # the bias add just before it and this activation in one pass
                    _, vector, columns = bias
                    members[-1] = in_place_bias_activation(
                        slot, vector, columns, kind, members[-1], compiled[0]
                    )
                    continue
                members.extend(compiled)
            bias = self._bias_member(members, stage.constant, result, on_cpu)
        if as_affine is not None:
            self.report.affine.append(members[0].label)
        if len(members) == 1:
            builder.ops.append(members[0])
            return
        fused = FusedStep(members)
        builder.ops.append(fused)
        self.report.fused.append(fused.label)


@dataclass(frozen=True)
class _Head:
    """What op compiles as the head of a chain: the batch norm folded into it, the chain fused
    after it, and (for a batch norm that folds into no producer) its affine map."""

    fold: BatchNormFold | None
    fusion: Fusion | None
    affine: AffineBatchNorm | None


def _relabelled(step: OpStep, label: str) -> OpStep:
    step.label = label
    return step


def _labelled(
    core: Callable[[list], None], builder: PlanBuilder, index: int, op: Operation, how: str
) -> OpStep:
    step = OpStep(core)
    step.label = f"{builder.where(index, op)} [{how}]"
    return step


def _nbytes(array: Any) -> int:
    if isinstance(array, list):
        return sum(_nbytes(item) for item in array)
    return int(getattr(array, "nbytes", 0))
