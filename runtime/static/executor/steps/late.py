"""The step of an op planned when it runs: its input dims or attributes depend on the data (a
shape from `pd_op.shape` arithmetic, the result of `masked_select`), so each run plans it for the
actual input metas and attribute values, once per distinct set of them."""

from __future__ import annotations

from typing import Any, Callable

from phiops.runtime.dispatch.dispatcher import check_outputs, execute
from phiops.runtime.dispatch.op_def import OpDef
from phiops.runtime.errors import PhiError
from phiops.runtime.static.executor.arrays import array_meta
from phiops.runtime.static.executor.attributes import Computed
from phiops.runtime.static.executor.metas import check_fits

__all__ = ["late_step"]

_PLAN_LIMIT = 64  # kernel plans kept per op planned when it runs; more clears them


def late_step(
    op_def: OpDef,
    where: str,
    input_slots: tuple[int | None, ...],
    attrs: tuple,
    out_slots: tuple[int, ...],
    many: bool,
    declared: list[Any],
) -> Callable[[list], None]:
    """The step of an op planned when it runs (its input dims or attributes depend on the data):
    it plans for the actual input metas and attribute values, once per distinct set of them,
    checks the first result of each plan against the ``declared`` result types, then executes."""
    dispatcher = op_def.dispatcher
    info = op_def.info
    plans: dict[tuple, Any] = {}
    computed = any(isinstance(a, Computed) for a in attrs)

    def step(s: list) -> None:
        arrays = tuple(None if slot is None else s[slot] for slot in input_slots)
        values = (
            tuple(a.value(s) if isinstance(a, Computed) else a for a in attrs)
            if computed
            else attrs
        )
        metas = tuple(array_meta(array) for array in arrays)
        key = (metas, values)
        kernel_plan = plans.get(key)
        try:
            if kernel_plan is None:
                kernel_plan = dispatcher.plan(metas, values)
                result = execute(kernel_plan, arrays, values)
                check_outputs(kernel_plan, result, info)
                _check_late_result(kernel_plan, declared, many, "the result")
                if len(plans) >= _PLAN_LIMIT:
                    plans.clear()
                plans[key] = kernel_plan
            else:
                result = execute(kernel_plan, arrays, values)
        except PhiError as error:
            raise type(error)(f"{where}: {error}") from None
        if many:
            for slot, array in zip(out_slots, result):
                s[slot] = array
        else:
            s[out_slots[0]] = result

    return step


def _check_late_result(kernel_plan: Any, declared: list, many: bool, where: str) -> None:
    metas = kernel_plan.out_metas if many else (kernel_plan.out_metas,)
    for meta, declared_type in zip(metas, declared):
        if declared_type is not None:  # None: an output whose declaration is not checked
            check_fits(meta, declared_type, where)
