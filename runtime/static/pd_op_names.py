"""Where a phiops op and PaddlePaddle 3.3.1's ``pd_op`` of the same name differ in their
arguments, and how building (runtime/static/build.py) and the Executor bridge the difference.

Three kinds of difference, each a table entry below with its reason:
- a *rename*: the same argument or result under another name (pd_op ``lambda``, phiops
  ``threshold``, as Python cannot name a parameter ``lambda``);
- a pd_op argument phiops' op lacks, with the one value phiops' kernel computes (``None``: an
  optional operand left out): building writes that value, the Executor rejects any other;
- a phiops attribute the pd_op lacks, with the one value the pd_op computes: building rejects
  any other, the Executor passes that value.
Any other phiops attribute that the pd_op lacks cannot be built: building raises.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

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
# amsgrad (3.3.1): the moment2_max operand and result exist only when amsgrad is true, which
# phiops' Adam kernels do not implement
_NO_AMSGRAD = PdOpNames(pd_op_only={"moment2_max": None, "moment2_max_out": None, "amsgrad": False})
_MISH = PdOpNames(renames={"lambda": "threshold"})
_TABLE: dict[str, PdOpNames] = {
    "adam_": _NO_AMSGRAD,
    "adamw_": _NO_AMSGRAD,
    "merged_adam_": _NO_AMSGRAD,
    "mish": _MISH,
    "mish_grad": _MISH,
    # 3.3.1 names the forward op's grad input grad_out (backward.yaml: fwd_grad_out)
    "sigmoid_double_grad": PdOpNames(
        renames={"grad_out": "fwd_grad_out", "grad_out_grad": "fwd_grad_out_grad"}
    ),
    "meshgrid_grad": PdOpNames(renames={"out_grad": "outputs_grad"}),
    # 3.3.1's static unique keeps the legacy first-appearance order behind is_sorted=false;
    # phiops' unique is the sorted one (PaddlePaddle's dygraph unique)
    "unique": PdOpNames(pd_op_only={"is_sorted": True}),
    # 3.3.1's instance_norm_grad takes bias (unused by its kernel); phiops' does not
    "instance_norm_grad": PdOpNames(pd_op_only={"bias": None}),
    # 3.3.1 has a separate embedding_sparse_grad; its embedding_grad is the dense one
    "embedding_grad": PdOpNames(phiops_only={"sparse": False}),
}


def pd_op_names(op: str) -> PdOpNames:
    """The mapping for phiops op ``op`` (an identity mapping where the two agree)."""
    return _TABLE.get(op, _SAME)


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
