"""Where a phiops op and PaddlePaddle 3.3.1's ``pd_op`` of the same name differ in their
arguments, and how building (runtime/static/build.py) and the Executor bridge the difference.

Three kinds of difference, each a key of the op's entry in ops/op_traits.yaml (with its reason
there), read from the op's traits in the registry:
- ``pd_op_renames``: the same argument or result under another name (pd_op ``lambda``, phiops
  ``threshold``, as Python cannot name a parameter ``lambda``);
- ``pd_op_only``: a pd_op argument phiops' op lacks, with the one value phiops' kernel computes
  (``None``: an optional operand left out): building writes that value, the Executor rejects
  any other;
- ``phiops_only``: a phiops attribute the pd_op lacks, with the one value the pd_op computes:
  building rejects any other, the Executor passes that value.
Any other phiops attribute that the pd_op lacks cannot be built: building raises.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from phiops.runtime.dispatch.op_def import OP_DEFS
from phiops.runtime.dispatch.op_info import OpTraits
from phiops.runtime.errors import PreconditionNotMetError
from phiops.runtime.ir.dialect import OpDef

__all__ = ["PdOpNames", "pd_op_names", "result_positions"]


@dataclass(frozen=True)
class PdOpNames:
    """How one op's phiops arguments and results map to its pd_op's."""

    renames: Mapping[str, str] = field(default_factory=dict)  # pd_op name -> phiops name
    pd_op_only: Mapping[str, Any] = field(default_factory=dict)
    phiops_only: Mapping[str, Any] = field(default_factory=dict)

    def phiops_name(self, pd_op_name: str) -> str:
        return self.renames.get(pd_op_name, pd_op_name)

    def pd_op_name(self, phiops_name: str) -> str:
        for pd_op_name, ours in self.renames.items():
            if ours == phiops_name:
                return pd_op_name
        return phiops_name


_SAME = PdOpNames()
_BY_TRAITS: dict[OpTraits, PdOpNames] = {}


def pd_op_names(op: str) -> PdOpNames:
    """The mapping for phiops op ``op``, from its traits (an identity mapping where the two
    agree, or for an op the registry lacks)."""
    op_def = OP_DEFS.get(op)
    if op_def is None:
        return _SAME
    traits = op_def.info.traits
    if not (traits.pd_op_renames or traits.pd_op_only or traits.phiops_only):
        return _SAME
    found = _BY_TRAITS.get(traits)
    if found is None:
        found = _BY_TRAITS[traits] = PdOpNames(
            dict(traits.pd_op_renames), dict(traits.pd_op_only), dict(traits.phiops_only)
        )
    return found


def result_positions(op: str, pd_op: OpDef, output_names: Sequence[str]) -> list[int]:
    """For each output of phiops op ``op``, the position of its result in pd_op ``pd_op``: the
    same position where both have as many (their names may differ), else found by name."""
    if pd_op.variadic_results or len(pd_op.results) == len(output_names):
        return list(range(len(output_names)))
    names = pd_op_names(op)
    where = {names.phiops_name(result.name): i for i, result in enumerate(pd_op.results)}
    missing = [name for name in output_names if name not in where]
    if missing:
        raise PreconditionNotMetError(
            f"{op}: pd_op.{op} has no result for phiops' output(s) {', '.join(missing)}"
        )
    return [where[name] for name in output_names]
