"""``paddle.static.CompiledProgram`` and ``BuildStrategy``: PaddlePaddle's wrappers that hand a
program to its graph compiler with build options. phiops's executor plans and optimises every
program it runs (its inference passes, docs/executor.md), so a CompiledProgram only carries its
program and strategy, and ``Executor.run`` runs the program it wraps. (PaddlePaddle 3.3.1 refuses
a PIR program here with a TypeError; phiops accepts it so that code written for legacy programs
runs.)"""

from __future__ import annotations

from typing import Any

from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.ir.core import Program

__all__ = ["BuildStrategy", "CompiledProgram"]


class BuildStrategy:
    """Build options of PaddlePaddle's graph compiler. Every option is accepted and kept, and
    none changes what phiops's executor does (it fuses and plans by its own flags,
    docs/executor.md)."""

    def __init__(self) -> None:
        self.enable_inplace = False
        self.memory_optimize = False
        self.fuse_elewise_add_act_ops = False
        self.fuse_bn_act_ops = False
        self.fuse_bn_add_act_ops = False
        self.fuse_relu_depthwise_conv = False
        self.fuse_broadcast_ops = False
        self.fuse_all_optimizer_ops = False
        self.fuse_all_reduce_ops = False
        self.fuse_gemm_epilogue = False
        self.fused_attention = False
        self.fused_feedforward = False
        self.enable_auto_fusion = False
        self.enable_addto = False
        self.sequential_execution = False
        self.remove_unnecessary_lock = True
        self.sync_batch_norm = False
        self.build_cinn_pass = False
        self.debug_graphviz_path = ""

    def __repr__(self) -> str:
        options = ", ".join(f"{k}={v!r}" for k, v in sorted(vars(self).items()))
        return f"BuildStrategy({options})"


class CompiledProgram:
    """A program with a BuildStrategy, as ``Executor.run`` takes it."""

    def __init__(self, program_or_graph: Program, build_strategy: BuildStrategy | None = None):
        if isinstance(program_or_graph, CompiledProgram):
            program_or_graph = program_or_graph._program
        if not isinstance(program_or_graph, Program):
            raise InvalidArgumentError(
                "CompiledProgram(): argument 'program_or_graph' must be a Program, got "
                f"{type(program_or_graph).__name__}"
            )
        if build_strategy is not None and not isinstance(build_strategy, BuildStrategy):
            raise InvalidArgumentError(
                "CompiledProgram(): argument 'build_strategy' must be a BuildStrategy or None, "
                f"got {type(build_strategy).__name__}"
            )
        self._program = program_or_graph
        self._build_strategy = build_strategy or BuildStrategy()

    @property
    def program(self) -> Program:
        return self._program

    def __getattr__(self, name: str) -> Any:
        # what code reads of the wrapped program (global_block(), ...)
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._program, name)
