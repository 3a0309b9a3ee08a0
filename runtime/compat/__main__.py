"""``phiops compat MODEL.pdmodel [...]``: which legacy ops of a saved model phiops runs.

For each op of the model (the global block's, then, after a control-flow op, those of its
sub-blocks, labelled with their block): its argument-mapping `KernelSignature` (or why there is
none: an unknown legacy op is named with the nearest known one), the pd_ops PaddlePaddle's
translation makes of it, and the phiops kernel each of those selects on CPU for the dtype of its
``data_type`` input (or attribute), else of its first input, or why none. Then a summary: ops
covered / total. Exit status 0 when every op of every model is covered, 1 otherwise, 2 for a
file that cannot be read (or no ops registered: phiops is not installed).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Sequence, TextIO

from phiops.runtime.errors import PhiError

__all__ = ["main", "report_model"]

# pd ops that are executor steps, not kernels
_STEPS = frozenset(
    (
        "pd_op.feed",
        "pd_op.fetch",
        "builtin.combine",
        "builtin.parameter",
        "pd_op.if",
        "pd_op.while",
        "cf.yield",
    )
)
_FRAMEWORK_OPS = frozenset(("feed", "fetch"))


def _signature(op: Any, block: Any, desc: Any) -> tuple[str, bool]:
    """The op's mapping signature as text, and whether it has a mapping function."""
    from phiops.runtime.compat import argument_mapping
    from phiops.runtime.compat.opdesc_context import OpDescContext

    if op.type in _FRAMEWORK_OPS:
        return "framework op (an executor step)", True
    try:
        function = argument_mapping(op.type)
    except PhiError as error:
        return f"no mapping function: {error}", False
    try:
        return str(function(OpDescContext(op, block, desc))), True
    except PhiError as error:
        return f"mapping function failed: {error}", False


def _kernel(operation: Any) -> str:
    """The kernel ``operation`` selects, as text; raises PhiError when there is none."""
    from phiops.runtime.common import Backend, DataLayout, to_data_type
    from phiops.runtime.dispatch.op_def import OP_DEFS
    from phiops.runtime.errors import NotFoundError
    from phiops.runtime.ir.dialect import get_dialect
    from phiops.runtime.ir.types import DenseTensorType
    from phiops.runtime.kernels.kernel_factory import KERNEL_FACTORY
    from phiops.runtime.kernels.kernel_key import KernelKey

    short = operation.name.split(".", 1)[1]
    op_def = OP_DEFS.get(short) or OP_DEFS.get(short.rstrip("_"))
    if op_def is None or op_def.info.kernel is None:
        raise NotFoundError(f"phiops has no op '{short}' with a kernel")
    # the dtype the op's `data_type` names (an input or a dtype attribute), else its first input's
    operands = get_dialect("pd_op").lookup(operation.name).operands
    by_name = {o.name: v for o, v in zip(operands, operation.operands)}
    chosen = [by_name.get(n) for n in op_def.info.data_type] + list(operation.operands)
    dtype = None
    for value in chosen:
        if value is not None and isinstance(value.type, DenseTensorType):
            dtype = value.type.dtype
            break
    if op_def.info.data_type == ("dtype",) and "dtype" in operation.attributes:
        dtype = operation.attributes["dtype"].value
    key = KernelKey(Backend.CPU, DataLayout.NCHW, to_data_type(dtype or "float32"))
    kernel = KERNEL_FACTORY.select(op_def.info.kernel, key)
    function = f"{kernel.fn.__module__}.{kernel.fn.__qualname__}"
    return f"{kernel.name} {kernel.key} ({function})"


def report_model(path: str, out: TextIO) -> tuple[int, int]:
    """Print the report of one ``.pdmodel``; returns (ops covered, ops)."""
    from phiops.runtime.compat.lowering import lowerings
    from phiops.runtime.formats.pdmodel import read_program_desc
    from phiops.runtime.compat.translate import OWN_TRANSLATIONS, translate_op_by_op
    from phiops.runtime.static.executor.steps.tensor_array import TENSOR_ARRAY_STEPS

    desc = read_program_desc(path)
    program, entries = translate_op_by_op(desc)
    replaced = lowerings(program)
    total = sum(len(block.ops) for block in desc.blocks)
    if len(desc.blocks) == 1:
        out.write(f"{path}: {total} legacy ops in the global block\n")
    else:
        out.write(f"{path}: {total} legacy ops in {len(desc.blocks)} blocks\n")
    covered = 0
    for block_index, index, op, result in entries:
        signature, mapped = _signature(op, desc.blocks[block_index], desc)
        label = f"[{index}]" if block_index == 0 else f"[block {block_index} op {index}]"
        out.write(f"  {label} {op.type}: {signature}\n")
        if isinstance(result, PhiError):
            out.write(f"      not translated: {result}\n")
            continue
        ok = True
        for operation in result:
            for runs in replaced.get(operation, [operation]):
                for step in _own_operations([runs]):
                    if step.name in _STEPS:
                        continue
                    if step.name in TENSOR_ARRAY_STEPS:
                        out.write(f"      {step.name} -> executor step on a TensorArray\n")
                        continue
                    try:
                        text = _kernel(step)
                    except PhiError as error:
                        out.write(f"      {step.name}: no kernel: {error}\n")
                        ok = False
                        continue
                    lowered = f" (for {operation.name})" if step is not operation else ""
                    out.write(f"      {step.name}{lowered} -> kernel {text}\n")
        if not mapped:
            how = "its own rule" if op.type in OWN_TRANSLATIONS else "default argument names"
            out.write(f"      (translated by {how}, as PaddlePaddle's translator does)\n")
        covered += ok
    out.write(f"covered: {covered}/{total} ops\n")
    return covered, total


def _own_operations(operations: Any) -> list[Any]:
    """``operations`` and the ops of the regions they make themselves: a fake false branch, the
    branches of a lowered ``select_input`` (not a true region or a loop body, whose ops are
    those of a legacy sub-block, reported on their own)."""
    found = []
    for operation in operations:
        found.append(operation)
        if operation.name == "pd_op.if":
            fake = "fake_false_branch" in operation.attributes
            own = operation.regions[1:] if fake else operation.regions
            for region in own:
                for block in region.blocks:
                    found.extend(_own_operations(block.ops))
    return found


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="phiops compat",
        description="Report which legacy ops of PaddlePaddle .pdmodel files phiops runs.",
    )
    parser.add_argument("models", nargs="+", metavar="MODEL.pdmodel")
    args = parser.parse_args(argv)
    out = sys.stdout if out is None else out
    from phiops.runtime.dispatch.op_def import op_defs
    from phiops.runtime.ir.plugins import load_dialect_plugins

    # the ops, kernels and generated mappings come with the generated package, which the runtime
    # never imports: through the phiops.ir.dialects entry points (runtime/ir/plugins.py)
    load_dialect_plugins()
    if not any(True for _ in op_defs()):
        out.write(
            "no ops are registered: phiops is not installed here (run `make .venv/.installed` or "
            "`pip install .`, which declare the phiops.ir.dialects entry points)\n"
        )
        return 2

    status = 0
    for path in args.models:
        try:
            covered, total = report_model(path, out)
        except PhiError as error:
            out.write(f"{path}: cannot be read: {error}\n")
            status = 2
            continue
        if covered != total and status == 0:
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
