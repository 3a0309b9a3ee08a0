"""What an optimizer's update rule is made of, for eager steps and static programs alike.

- ``Accumulator``: one piece of per-parameter state (a moment, a beta power, a velocity), as
  PaddlePaddle's ``_add_accumulator`` makes it: named ``<parameter name>_<name>_N``, of the
  parameter's shape and dtype unless the rule says otherwise, filled with one value.
- ``OpCall``: one call of a generated op, its arguments in the op's order. The eager step calls
  it through the generated API (``run_eager``); a static ``minimize`` builds it into the main
  program (runtime/optimizer/static_program.py), the same call on Values.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from phiops.runtime.common import DataType
from phiops.runtime.dispatch.op_def import get_op_def, op_api

__all__ = ["Accumulator", "OpCall", "run_eager"]


@dataclass(frozen=True)
class Accumulator:
    """Per-parameter state: ``name`` (PaddlePaddle's accumulator name, e.g. ``moment1``),
    ``fill`` (its initial value), ``shape`` (None: the parameter's, after ``prefix``) and
    ``dtype`` (None: the parameter's)."""

    name: str
    fill: float = 0.0
    shape: tuple[int, ...] | None = None
    dtype: DataType | None = None
    prefix: tuple[int, ...] = ()

    def shape_for(self, parameter_shape: Any) -> list[int]:
        """The accumulator's shape for a parameter of ``parameter_shape``."""
        if self.shape is not None:
            return list(self.shape)
        return [*self.prefix, *parameter_shape]


@dataclass(frozen=True)
class OpCall:
    """``op(*args)``: a generated op and its positional arguments (tensor inputs, then
    attributes, in the op's spec order)."""

    op: str
    args: tuple[Any, ...]

    def named(self) -> dict[str, Any]:
        """The arguments by the names of the op's spec (``beta1``, ``lazy_mode``...)."""
        op = get_op_def(self.op)
        names = [i.name for i in op.inputs] + [a.name for a in op.attrs]
        return dict(zip(names, self.args))


def run_eager(call: OpCall) -> Any:
    """Call ``call``'s op through the generated API (the dispatcher)."""
    return op_api(call.op)(*call.args)
