"""Executor: runs a static program with kernels selected ahead of time (DESIGN.md §6).

``Executor.run(program, feed, fetch_list, scope)`` compiles the program's top-level block once
per *feed signature* (the shapes of the fed arrays and the fetch targets; a plan also remembers
the shapes and dtypes of the parameters it was made for, and is made anew when they change):
every operation is planned with its op's dispatcher (``plan`` from runtime/dispatch/dispatcher.py:
kernel, data transforms, concrete output metas), attributes that PaddlePaddle passes as tensors
from constant ops (``full_int_array``, ``full``) are folded into the plan, and each operation
becomes one *step*, a closure over the planned kernel, its attributes and the slots its inputs and
outputs live in. The first run of a plan also checks every kernel's
result against its planned metas (``check_outputs``), once; later runs only call the steps.

Values live in a list of slots; a slot is emptied right after the last step that reads it (a
fetched value is kept until the end). An in-place op (``sgd_``, ``batch_norm_``, ``relu_``)
writes its output into its input's slot, and where that input is a scope variable (a parameter,
a persistable ``data``) the step also stores the new array in the scope, as PaddlePaddle does.
"""

from __future__ import annotations

import weakref
from typing import Any, Sequence

import numpy as np

from phiops.runtime import runtime_flags
from phiops.runtime.common import CPUPlace, Place, to_place
from phiops.runtime.eager.tensor import wrap_array
from phiops.runtime.tensor.selected_rows import SelectedRows
from phiops.runtime.device import check_place_available
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.ir.core import Program, Value
from phiops.runtime.static.compiled import CompiledProgram
from phiops.runtime.static.executor.arrays import meta_of_array, to_numpy
from phiops.runtime.static.executor.feeds import feed_arrays, scope_arrays
from phiops.runtime.static.executor.plan import Plan, compile_plan
from phiops.runtime.static.executor.program_info import ProgramInfo
from phiops.runtime.static.scope import Scope, global_scope

__all__ = ["Executor", "clear_executor_plans"]

_PLAN_LIMIT = 64  # plans kept per program (one per feed signature); more clears them
_PROGRAM_LIMIT = 64  # programs an executor keeps plans for; more clears them
# every executor, so a dispatch flag change (kernel fallback, ...) drops their plans
_EXECUTORS: weakref.WeakSet[Executor] = weakref.WeakSet()


def clear_executor_plans() -> None:
    """Forget every compiled plan (after a flag that changes dispatch was set)."""
    for executor in list(_EXECUTORS):
        for _, plans in executor._programs.values():
            plans.clear()


runtime_flags.on_dispatch_flag_change(clear_executor_plans)


class Executor:
    """Runs programs on ``place`` (CPU when None). ``run`` plans a program once per feed
    signature and caches the plan; see the module docstring."""

    def __init__(self, place: Place | str | None = None) -> None:
        self.place = CPUPlace() if place is None else to_place(place, "Executor(place)")
        check_place_available(self.place, "Executor")
        # id of the program's module op -> what the executor knows of it and its plans per
        # feed signature; an entry keeps its program alive (its plans refer to the program's
        # values), so the count is bounded
        self._programs: dict[int, tuple[ProgramInfo, dict[tuple, Plan]]] = {}
        self._profile: list[tuple[str, str, float]] | None = None
        _EXECUTORS.add(self)

    def compiled_plans(self, program: Program) -> list[Plan]:
        """The plans compiled for ``program`` so far (one per feed signature), oldest first:
        their steps, and ``report``, what the inference passes did (None for a program not
        marked for them)."""
        known = self._programs.get(id(program.module))
        if known is None or known[0].module is not program.module:
            return []
        return list(known[1].values())

    def run_profiled(
        self,
        program: Program,
        feed: dict[str, Any] | None = None,
        fetch_list: Sequence[Value | str] | Value | str | None = None,
        scope: Scope | None = None,
    ) -> tuple[list[Any], list[tuple[str, str, float]]]:
        """``run`` (numpy results) timing each step of the plan: returns the fetched arrays and,
        per step, (the op, as errors name it; the kernel it selected ahead of time, or "" for
        a builtin step; seconds). On the first run for a feed signature the times include
        checking each result against its planned meta."""
        self._profile = []
        try:
            results = self.run(program, feed, fetch_list, scope)
            return results, self._profile
        finally:
            self._profile = None

    def run(
        self,
        program: Program | None = None,
        feed: dict[str, Any] | None = None,
        fetch_list: Sequence[Value | str] | Value | str | None = None,
        scope: Scope | None = None,
        return_numpy: bool = True,
    ) -> list[Any]:
        """Run ``program`` with the arrays of ``feed`` (data name -> array, Tensor or nested
        list) and return the arrays of ``fetch_list`` (Values of the program, or names: a
        ``pd_op.fetch`` name, a ``shadow_output`` name, a ``data`` name or a parameter name), as
        numpy arrays (a SelectedRows as it is) or, with ``return_numpy=False``, Tensors. Without ``fetch_list`` the
        program's own ``pd_op.fetch`` ops are fetched. Parameters are read from and written to
        ``scope`` (the global scope when None)."""
        if program is None:
            from phiops.runtime.static.program import default_main_program

            program = default_main_program()
        if isinstance(program, CompiledProgram):
            program = program.program
        if not isinstance(program, Program):
            raise InvalidArgumentError(
                f"Executor.run(): program must be a Program, got {type(program).__name__}"
            )
        if scope is None:
            scope = global_scope()
        elif not isinstance(scope, Scope):
            raise InvalidArgumentError(
                f"Executor.run(): scope must be a Scope, got {type(scope).__name__}"
            )
        if feed is None:
            feed = {}
        elif not isinstance(feed, dict):
            raise InvalidArgumentError(
                f"Executor.run(): feed must be a dict of data name -> array, got "
                f"{type(feed).__name__}"
            )
        module = program.module
        known = self._programs.get(id(module))
        if (
            known is None
            or known[0].module is not module
            or len(known[0].block.ops) != known[0].num_ops
        ):
            if len(self._programs) >= _PROGRAM_LIMIT:
                self._programs.clear()
            known = self._programs[id(module)] = (ProgramInfo(program), {})
        info, plans = known
        if fetch_list is None:
            fetch_key: tuple = ()
        elif isinstance(fetch_list, (Value, str)):
            fetch_key = (fetch_list,)
        else:
            fetch_key = tuple(fetch_list)
        fed, feed_key = feed_arrays(info.feeds, info.feed_names, feed, self.place, scope)
        param_arrays = scope_arrays(info.params, scope, self.place)
        key = (feed_key, fetch_key)
        plan = plans.get(key)
        if plan is None or not plan.fits(param_arrays):
            if len(plans) >= _PLAN_LIMIT:
                plans.clear()
            plan = plans[key] = compile_plan(info, self.place, fed, param_arrays, fetch_key)
        if self._profile is not None:
            results, timings = plan.run_profiled(scope, fed, param_arrays)
            self._profile.extend(timings)
        else:
            results = plan.run(scope, fed, param_arrays)
        if return_numpy:
            # numpy cannot hold a SelectedRows: it comes as it is (rows, height, value)
            return [
                r if type(r) is np.ndarray or type(r) is SelectedRows else to_numpy(r)
                for r in results
            ]
        return [
            wrap_array(
                r,
                meta
                if type(r) is SelectedRows or r.shape == meta.dims
                else meta_of_array(r, meta),
            )
            for r, meta in zip(results, plan.fetch_metas)
        ]
