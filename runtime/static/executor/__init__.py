"""The static executor (DESIGN.md §6, docs/executor.md): ``Executor`` runs a PIR program with
kernels planned ahead of time, once per feed signature."""

from phiops.runtime.static.executor.executor import Executor

__all__ = ["Executor"]
