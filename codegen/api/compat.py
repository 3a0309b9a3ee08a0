"""op_compat.yaml + op specs -> the legacy ops' argument-mapping functions (their Python spellings).

One function per legacy op type that phiops runs with a kernel of its own:

- a forward op: the kernel's inputs, attributes and outputs (generated/signatures.py's order) by
  their legacy names (`inputs`/`attrs`/`outputs` of the entry, else the phiops name); a
  Scalar/IntArray attribute comes from the entry's `tensor_name` input when the op has it, else
  from its `tensors_name` list when that is not empty, else from the attribute itself; `extra`
  outputs (XShape) are dropped;
- a first-order backward op listed in the entry's `backward` (or of an op without an entry): the
  same names, a gradient `<name>_grad` spelled `<legacy name>@GRAD` (PaddlePaddle's GradVarName);
- an op without an entry maps under its own name, as PaddlePaddle's generated legacy ops do.

Not generated: ops named in `manual_signature` (hand-written in runtime/compat/mappings.py), ops
that invoke another op, and higher-order grads (their legacy argument names follow no rule the
file states).
"""

from __future__ import annotations

from dataclasses import dataclass

from phiops.codegen.api.registry import kernel_name
from phiops.codegen.compat import CompatEntry, CompatSet
from phiops.codegen.errors import Diagnostic
from phiops.codegen.model import Location, OpSpec, SpecSet

__all__ = ["MappingView", "mapping_views", "pd_op_names"]

GRAD_SUFFIX = "@GRAD"


@dataclass(frozen=True)
class MappingView:
    """One generated mapping function, as the template places it."""

    legacy: str  # the legacy op type
    function: str  # the Python function's name
    pd_op: str
    kernel: str
    choices: tuple[tuple[str, str], ...]  # (variable, expression choosing a legacy name)
    inputs: str  # Python tuple source
    attrs: str
    outputs: str
    doc: str


def _names(items: list[str]) -> str:
    return "(" + ", ".join(repr(i) for i in items) + ("," if len(items) == 1 else "") + ")"


def _attr_slots(
    op: OpSpec, entry: CompatEntry | None, attrs: list[str]
) -> tuple[list[tuple[str, str]], list[str]]:
    """Choices for attributes that may come as tensors, and the attrs tuple's items (source)."""
    choices: list[tuple[str, str]] = []
    items: list[str] = []
    for name in attrs:
        legacy = entry.legacy_attr(name) if entry is not None else name
        mutable = entry.mutable_attr(name) if entry is not None else None
        if mutable is None or (mutable.tensor_name is None and mutable.tensors_name is None):
            items.append(repr(legacy))
            continue
        expression = repr(legacy)
        if mutable.tensors_name is not None:
            expression = (
                f"{mutable.tensors_name!r} if ctx.input_size({mutable.tensors_name!r}) > 0 "
                f"else {expression}"
            )
        if mutable.tensor_name is not None:
            expression = f"{mutable.tensor_name!r} if ctx.has_input({mutable.tensor_name!r}) else {expression}"
        variable = f"{name}_slot"
        choices.append((variable, expression))
        items.append(variable)
    return choices, items


def _tuple_source(items: list[str]) -> str:
    return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"


def _forward_view(op: OpSpec, entry: CompatEntry | None, legacy: str) -> MappingView:
    kernel = kernel_name(op)
    inputs = {a.name for a in op.inputs}
    params = op.kernel_params()
    extra_outputs = set(entry.extra.outputs) if entry is not None else set()
    legacy_input = entry.legacy_input if entry is not None else (lambda n: n)
    legacy_output = entry.legacy_output if entry is not None else (lambda n: n)
    choices, attr_items = _attr_slots(op, entry, [p for p in params if p not in inputs])
    return MappingView(
        legacy=legacy,
        function=f"{legacy}_mapping",
        pd_op=op.name,
        kernel=kernel,
        choices=tuple(choices),
        inputs=_names([legacy_input(p) for p in params if p in inputs]),
        attrs=_tuple_source(attr_items),
        outputs=_names([legacy_output(o.name) for o in op.outputs if o.name not in extra_outputs]),
        doc=f"Legacy `{legacy}` -> kernel `{kernel}` of op `{op.name}` ({op.loc}).",
    )


def _backward_view(
    op: OpSpec, forward: OpSpec, entry: CompatEntry | None, legacy: str
) -> MappingView:
    kernel = kernel_name(op)
    forward_inputs = {a.name for a in forward.inputs}
    forward_outputs = {o.name for o in forward.outputs}

    def legacy_tensor(name: str) -> str:
        if name.endswith("_grad") and name[:-5] in forward_inputs | forward_outputs:
            return legacy_tensor(name[:-5]) + GRAD_SUFFIX
        if entry is None:
            return name
        if name in forward_inputs:
            return entry.legacy_input(name)
        return entry.legacy_output(name)

    inputs = {a.name for a in op.inputs}
    params = op.kernel_params()
    choices, attr_items = _attr_slots(op, entry, [p for p in params if p not in inputs])
    return MappingView(
        legacy=legacy,
        function=f"{legacy}_mapping",
        pd_op=op.name,
        kernel=kernel,
        choices=tuple(choices),
        inputs=_names([legacy_tensor(p) for p in params if p in inputs]),
        attrs=_tuple_source(attr_items),
        outputs=_names([legacy_tensor(o.name) for o in op.outputs]),
        doc=f"Legacy `{legacy}` -> kernel `{kernel}` of op `{op.name}` ({op.loc}).",
    )


def mapping_views(
    specs: SpecSet, compat: CompatSet, hand_written: set[str]
) -> tuple[list[MappingView], list[Diagnostic]]:
    """Every generated mapping function, sorted by legacy op type, and the problems: two
    functions for one legacy op, or a generated one for an op with a hand-written function."""
    views: list[MappingView] = []
    mapped: set[str] = set()
    problems: list[Diagnostic] = []

    def add(view: MappingView, loc: Location) -> None:
        if view.legacy in hand_written:
            problems.append(
                Diagnostic(
                    loc,
                    view.pd_op,
                    f"legacy op '{view.legacy}' has a hand-written mapping function "
                    "(runtime/compat/mappings.py) and would get a generated one",
                    f"add '{view.pd_op}' to the entry's manual_signature",
                )
            )
            return
        if view.legacy in mapped:
            problems.append(
                Diagnostic(loc, view.pd_op, f"legacy op '{view.legacy}' would be mapped twice")
            )
            return
        mapped.add(view.legacy)
        views.append(view)

    for op in specs.ops:
        if kernel_name(op) is None:
            continue
        entry = compat.find(op.name)
        if entry is not None and entry.op.name != op.name:
            entry = None  # the op is another entry's backward name; it has no entry of its own
        if entry is None or op.name not in entry.manual_signature:
            legacy = entry.op.legacy_name if entry is not None else op.name
            add(_forward_view(op, entry, legacy), op.loc)
        for backward_op in specs.backward_ops:
            if backward_op.forward is None or backward_op.forward.name != op.name:
                continue
            if kernel_name(backward_op) is None:
                continue
            if entry is None:
                add(_backward_view(backward_op, op, None, backward_op.name), backward_op.loc)
                continue
            listed = [b for b in entry.backward if b.name == backward_op.name]
            if not listed or backward_op.name in entry.manual_signature:
                continue
            view = _backward_view(backward_op, op, entry, listed[0].legacy_name)
            add(view, entry.loc_of("backward"))
    return sorted(views, key=lambda v: v.legacy), problems


def pd_op_names(specs: SpecSet, compat: CompatSet) -> list[tuple[str, str]]:
    """(legacy op type, phiops op) for every op phiops has that op_compat.yaml names, and every
    other op under its own name; sorted."""
    ours = {op.name for op in specs.ops} | {op.name for op in specs.backward_ops}
    named = [n for entry in compat.entries for n in (entry.op, *entry.backward) if n.name in ours]
    renamed = {n.name for n in named if n.legacy is not None}
    found = {name: name for name in ours - renamed}
    for name in named:
        found[name.legacy_name] = name.name
    return sorted(found.items())
