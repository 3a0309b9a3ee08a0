"""ops/op_traits.yaml: the facts about an op that PaddlePaddle's YAML schema has no key for.

Type promotion, static-building quirks, where the op differs from PaddlePaddle 3.3.1's pd_op of
its name, the Python operators and Tensor method aliases that call it, legacy translation: one
entry per op, keyed by op name (docs/op_traits.md has the schema). Its own model and parser, to
the standards of the op specs: every value located, keys consumed one by one (a leftover key is an
error with a "did you mean"), every diagnostic collected before stopping. An entry::

    - op : subtract
      promotes : [x, y]
      operators : [__sub__, __rsub__]
      scalar_operators : {__sub__ : minus, __rsub__ : rminus}
      method_aliases : [sub, sub_]
      legacy_elementwise : elementwise_sub

`check_op_traits(path, specs)` checks the entries against phiops' op specs when it is given them:
the op exists, the inputs and attributes named are the op's, an alias or operator belongs to one
op only. Codegen records each op's entry in its OpInfo (`traits`, generated/registry.py).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from .errors import Diagnostic, SpecError, sort_diagnostics
from .loader import YMap, YScalar, YSeq
from .model import Location, OpSpec, SpecSet
from .parse import _EntryParser, _kind_phrase, suggest

__all__ = [
    "OP_TRAITS_FILE_NAME",
    "OP_TRAITS_KEYS",
    "BINARY_OPERATORS",
    "REFLECTED_OPERATORS",
    "SCALAR_RULES",
    "KERNEL_TRANSFORMS",
    "OpTraitsEntry",
    "check_op_traits",
    "op_traits_by_op",
    "is_op_traits_file",
]

OP_TRAITS_FILE_NAME = "op_traits.yaml"
OP_TRAITS_KEYS = (
    "op",
    "promotes",
    "same_dtype",
    "float_math",
    "true_division",
    "kernel_transform",
    "zero_d_promotion",
    "integer_kernel",
    "results_stop_gradient",
    "value_attributes",
    "pd_op_renames",
    "pd_op_only",
    "phiops_only",
    "operators",
    "static_operators",
    "static_unswapped",
    "scalar_operators",
    "numpy_int16_own_dtype",
    "small_numpy_scalars",
    "numpy_scalar_by_value",
    "method_aliases",
    "legacy_elementwise",
    "translator_attributes",
)
# Python's binary operator methods an op may implement, and their reflected forms
BINARY_OPERATORS = (
    "__add__", "__sub__", "__mul__", "__truediv__", "__floordiv__", "__mod__", "__pow__",
    "__matmul__", "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__and__", "__or__",
    "__xor__",
)  # fmt: skip
REFLECTED_OPERATORS = (
    "__radd__", "__rsub__", "__rmul__", "__rtruediv__", "__rfloordiv__", "__rmod__", "__rpow__",
    "__rmatmul__", "__rand__", "__ror__", "__rxor__",
)  # fmt: skip
# how a Tensor or Value meeting a Python number computes without a 0-D operand: one scale
# (plus, minus, rminus, times, over; runtime/eager/scalar_operands.py, runtime/static/value_api.py)
# or, for a Tensor, one pow (power)
SCALAR_RULES = ("plus", "minus", "rminus", "times", "over", "power")
# the dtypes `float_math` may name: the integer ones
_INTEGER_DTYPES = ("uint8", "int8", "int16", "int32", "int64")
_LIST_KEYS = (
    "promotes",
    "same_dtype",
    "float_math",
    "value_attributes",
    "operators",
    "static_unswapped",
    "numpy_int16_own_dtype",
)
_BOOL_KEYS = (
    "true_division",
    "integer_kernel",
    "results_stop_gradient",
    "static_operators",
    "small_numpy_scalars",
    "numpy_scalar_by_value",
)
# the data transforms a no-promotion op's kernel applies to mixed dtypes
# (runtime/common/promotion.py kernel_transform)
KERNEL_TRANSFORMS = ("into_complex", "matmul")
# how a promoting op's 0-D tensor operand promotes (runtime/common/promotion.py
# zero_d_tensor_dtype): like a number (PHI's GetPromoteDtype), or always by PHI's table
ZERO_D_PROMOTIONS = ("number", "table")


@dataclass(frozen=True)
class OpTraitsEntry:
    """One op's entry, each value as the file gives it (mappings as (key, value) pairs in the
    file's order)."""

    op: str
    loc: Location
    promotes: tuple[str, ...] = ()
    same_dtype: tuple[str, ...] = ()
    float_math: tuple[str, ...] = ()
    true_division: bool = False
    kernel_transform: str | None = None
    zero_d_promotion: str | None = None
    integer_kernel: bool = False
    results_stop_gradient: bool = False
    value_attributes: tuple[str, ...] = ()
    pd_op_renames: tuple[tuple[str, str], ...] = ()
    pd_op_only: tuple[tuple[str, Any], ...] = ()
    phiops_only: tuple[tuple[str, Any], ...] = ()
    operators: tuple[str, ...] = ()
    static_operators: bool = True
    static_unswapped: tuple[str, ...] = ()
    scalar_operators: tuple[tuple[str, str], ...] = ()
    numpy_int16_own_dtype: tuple[str, ...] = ()
    small_numpy_scalars: bool = False
    numpy_scalar_by_value: bool = False
    method_aliases: tuple[str, ...] = ()
    legacy_elementwise: str | None = None
    translator_attributes: tuple[tuple[str, str], ...] = ()
    key_locs: tuple[tuple[str, Location], ...] = field(default=(), compare=False)

    def loc_of(self, key: str) -> Location:
        """Where ``key`` (``promotes``, ``promotes.0``, ``pd_op_only.bias`` ...) is given, else
        the entry's."""
        for name, loc in self.key_locs:
            if name == key:
                return loc
        return self.loc


class _TraitsParser(_EntryParser):
    """Consumes one ops/op_traits.yaml entry's keys into an OpTraitsEntry."""

    def run_traits(self) -> OpTraitsEntry | None:
        entry = self.entry
        if "op" not in entry.items:
            self.error(entry.loc, "entry has no 'op' key", "start the entry with '- op : name'")
            self.consume(entry, OP_TRAITS_KEYS)
            return None
        name_key, name_node = entry.items["op"]
        name = self.string("op", name_node)
        if name is not None and not name.value.isidentifier():
            self.error(name.loc, f"op: '{name.value}' is not an op name")
            name = None
        if name is not None:
            self.op = name.value
        values = self.consume(entry, OP_TRAITS_KEYS)
        ok = True
        fields: dict[str, Any] = {}
        for key in _LIST_KEYS + ("method_aliases",):
            if key in values:
                found = self.identifiers(key, values[key])
                ok &= found is not None
                fields[key] = found
        for key in _BOOL_KEYS:
            if key in values:
                found = self.boolean(key, values[key])
                ok &= found is not None
                fields[key] = found
        for key in ("pd_op_renames", "scalar_operators", "translator_attributes"):
            if key in values:
                found = self.pairs(key, values[key], strings=True)
                ok &= found is not None
                fields[key] = found
        for key in ("pd_op_only", "phiops_only"):
            if key in values:
                found = self.pairs(key, values[key], strings=False)
                ok &= found is not None
                fields[key] = found
        for key in ("legacy_elementwise", "kernel_transform", "zero_d_promotion"):
            if key in values:
                found = self.identifier(key, values[key])
                ok &= found is not None
                fields[key] = found
        if ok:
            ok = self.check_values(fields)
        if name is None or not ok:
            return None
        return OpTraitsEntry(
            op=name.value, loc=name_key.loc, key_locs=tuple(self.key_locs), **fields
        )

    def identifier(self, key: str, node) -> str | None:
        scalar = self.string(key, node)
        if scalar is None:
            return None
        if not scalar.value.isidentifier():
            self.error(scalar.loc, f"{key}: '{scalar.value}' is not a name")
            return None
        return scalar.value

    def identifiers(self, key: str, node) -> tuple[str, ...] | None:
        """A YAML list of names, each located as ``key.<index>``."""
        if not isinstance(node, YSeq):
            self.error(node.loc, f"'{key}' must be a list like [a, b], not {_kind_phrase(node)}")
            return None
        found = []
        for index, item in enumerate(node.items):
            self.key_locs.append((f"{key}.{index}", item.loc))
            if not isinstance(item, YScalar) or not isinstance(item.value, str):
                self.error(item.loc, f"{key}: items must be names, not {_kind_phrase(item)}")
                return None
            if not item.value.isidentifier():
                self.error(item.loc, f"{key}: '{item.value}' is not a name")
                return None
            if item.value in found:
                self.error(item.loc, f"{key}: '{item.value}' is given twice")
                return None
            found.append(item.value)
        return tuple(found)

    def boolean(self, key: str, node) -> bool | None:
        if isinstance(node, YScalar) and isinstance(node.value, bool):
            return node.value
        self.error(node.loc, f"'{key}' must be true or false, not {_kind_phrase(node)}")
        return None

    def pairs(self, key: str, node, *, strings: bool) -> tuple[tuple[str, Any], ...] | None:
        """A YAML mapping of names to strings (``strings``) or to scalars (null, a bool, a
        number or a string), each value located as ``key.<name>``."""
        mapping = self.mapping(key, node)
        if mapping is None:
            return None
        for name, loc, first in mapping.duplicates:
            self.error(loc, f"duplicate key '{key}.{name}' (first given at line {first.line})")
            return None
        for key_node in mapping.bad_keys:
            self.error(key_node.loc, f"{key}: keys must be names, got {_kind_phrase(key_node)}")
            return None
        found = []
        for name, (key_node, value) in mapping.items.items():
            if not name.isidentifier():
                self.error(key_node.loc, f"{key}: '{name}' is not a name")
                return None
            self.key_locs.append((f"{key}.{name}", value.loc))
            if not isinstance(value, YScalar) or (strings and not isinstance(value.value, str)):
                wanted = "a string" if strings else "null, true, false, a number or a string"
                self.error(value.loc, f"{key}.{name} must be {wanted}, not {_kind_phrase(value)}")
                return None
            found.append((name, value.value))
        return tuple(found)

    def check_values(self, fields: dict[str, Any]) -> bool:
        """The values each key allows, independent of the op specs."""
        ok = True
        for index, dtype in enumerate(fields.get("float_math", ())):
            if dtype not in _INTEGER_DTYPES:
                self.error(
                    self.loc_of(f"float_math.{index}"),
                    f"float_math: '{dtype}' is not an integer dtype",
                    suggest(dtype, _INTEGER_DTYPES) or f"one of {', '.join(_INTEGER_DTYPES)}",
                )
                ok = False
        transform = fields.get("kernel_transform")
        if transform is not None and transform not in KERNEL_TRANSFORMS:
            self.error(
                self.loc_of("kernel_transform"),
                f"kernel_transform: '{transform}' is not a data transform",
                suggest(transform, KERNEL_TRANSFORMS) or f"one of {', '.join(KERNEL_TRANSFORMS)}",
            )
            ok = False
        if transform is not None and "same_dtype" not in fields:
            self.error(
                self.loc_of("kernel_transform"),
                "kernel_transform: only an op whose inputs are 'same_dtype' has one",
            )
            ok = False
        zero_d = fields.get("zero_d_promotion")
        if zero_d is not None and zero_d not in ZERO_D_PROMOTIONS:
            self.error(
                self.loc_of("zero_d_promotion"),
                f"zero_d_promotion: '{zero_d}' is not a 0-D promotion rule",
                suggest(zero_d, ZERO_D_PROMOTIONS) or f"one of {', '.join(ZERO_D_PROMOTIONS)}",
            )
            ok = False
        if zero_d is not None and "promotes" not in fields:
            self.error(
                self.loc_of("zero_d_promotion"),
                "zero_d_promotion: only an op whose inputs 'promote' has one",
            )
            ok = False
        known = BINARY_OPERATORS + REFLECTED_OPERATORS
        for index, dunder in enumerate(fields.get("operators", ())):
            if dunder not in known:
                self.error(
                    self.loc_of(f"operators.{index}"),
                    f"operators: '{dunder}' is not a binary operator method",
                    suggest(dunder, known) or f"one of {', '.join(known)}",
                )
                ok = False
        operators = fields.get("operators", ())
        for index, dunder in enumerate(fields.get("static_unswapped", ())):
            if dunder not in operators or dunder not in REFLECTED_OPERATORS:
                self.error(
                    self.loc_of(f"static_unswapped.{index}"),
                    f"static_unswapped: '{dunder}' is not one of the entry's reflected operators",
                    "name a reflected operator (__radd__, ...) of 'operators'",
                )
                ok = False
        for index, dunder in enumerate(fields.get("numpy_int16_own_dtype", ())):
            if dunder not in operators:
                self.error(
                    self.loc_of(f"numpy_int16_own_dtype.{index}"),
                    f"numpy_int16_own_dtype: '{dunder}' is not one of the entry's operators",
                    "add it to 'operators' or remove it here",
                )
                ok = False
        for dunder, rule in fields.get("scalar_operators", ()):
            loc = self.loc_of(f"scalar_operators.{dunder}")
            if dunder not in operators:
                self.error(
                    loc,
                    f"scalar_operators: '{dunder}' is not one of the entry's operators",
                    "add it to 'operators' or remove it here",
                )
                ok = False
            elif rule not in SCALAR_RULES:
                self.error(
                    loc,
                    f"scalar_operators.{dunder}: '{rule}' is not a scale rule",
                    suggest(rule, SCALAR_RULES) or f"one of {', '.join(SCALAR_RULES)}",
                )
                ok = False
        if "promotes" in fields and "same_dtype" in fields:
            self.error(
                self.loc_of("same_dtype"),
                "an op either promotes its inputs or takes one dtype: give 'promotes' or "
                "'same_dtype', not both",
            )
            ok = False
        return ok

    def loc_of(self, key: str) -> Location:
        for name, loc in self.key_locs:
            if name == key:
                return loc
        return self.entry.loc


def is_op_traits_file(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is an op_traits.yaml file (by its name), not an op-spec file."""
    return Path(path).name == OP_TRAITS_FILE_NAME


def check_op_traits(
    path: str | os.PathLike[str],
    specs: Mapping[str, OpSpec] | None = None,
    *,
    base: str | os.PathLike[str] | None = None,
) -> tuple[tuple[OpTraitsEntry, ...] | None, list[Diagnostic]]:
    """Read and check op_traits.yaml ``path``; with ``specs`` (phiops' ops by name, forward and
    backward), check each entry against its op. Returns the entries (None when there is an
    error) and every diagnostic, sorted. Never raises for bad input."""
    from .entry_files import read_entry_file

    read = read_entry_file(path, base, lambda node, said: _TraitsParser(node, said).run_traits())
    if read.diagnostics and not read.is_entry_list and not read.nodes:
        return None, read.diagnostics
    entries, diagnostics = read.entries, read.diagnostics
    diagnostics.extend(_duplicates(read.nodes))
    diagnostics.extend(_claimed_twice(entries))
    if specs is not None:
        for entry in entries:
            diagnostics.extend(_check_against_spec(entry, specs))
    diagnostics = sort_diagnostics(diagnostics)
    if diagnostics:
        return None, diagnostics
    return tuple(entries), diagnostics


def op_traits_by_op(
    path: Path, specs: SpecSet, *, base: str | os.PathLike[str] | None = None
) -> dict[str, OpTraitsEntry]:
    """For generation: each op's entry, by op name, from op_traits.yaml ``path`` checked against
    ``specs``; SpecError on any diagnostic. A project without the file: {}."""
    if not path.exists():
        return {}
    by_name = {op.name: op for op in (*specs.ops, *specs.backward_ops)}
    entries, diagnostics = check_op_traits(path, by_name, base=base)
    if entries is None or diagnostics:
        raise SpecError(diagnostics)
    return {entry.op: entry for entry in entries}


def _duplicates(nodes: list[YMap]) -> list[Diagnostic]:
    """A second entry for the same op."""
    found = []
    first: dict[str, Location] = {}
    for node in nodes:
        item = node.items.get("op")
        if item is None or not isinstance(item[1], YScalar) or not isinstance(item[1].value, str):
            continue
        name, loc = item[1].value, item[0].loc
        if name in first:
            found.append(
                Diagnostic(
                    loc,
                    name,
                    f"a second entry for op '{name}' (the first is at line {first[name].line})",
                    "merge the two entries",
                )
            )
        else:
            first[name] = loc
    return found


def _claimed_twice(entries: list[OpTraitsEntry]) -> list[Diagnostic]:
    """An operator, a method alias or a legacy op type that two ops claim."""
    found = []
    owners: dict[tuple[str, str], str] = {}
    for entry in entries:
        claims = [("operators", index, name) for index, name in enumerate(entry.operators)]
        claims += [("method_aliases", i, name) for i, name in enumerate(entry.method_aliases)]
        if entry.legacy_elementwise is not None:
            claims.append(("legacy_elementwise", None, entry.legacy_elementwise))
        for key, index, name in claims:
            owner = owners.setdefault((key, name), entry.op)
            if owner != entry.op:
                where = key if index is None else f"{key}.{index}"
                found.append(
                    Diagnostic(
                        entry.loc_of(where),
                        entry.op,
                        f"{key}: '{name}' already belongs to op '{owner}'",
                        "an operator, alias or legacy op type calls one op: remove one of them",
                    )
                )
    return found


def _check_against_spec(entry: OpTraitsEntry, specs: Mapping[str, OpSpec]) -> list[Diagnostic]:
    found: list[Diagnostic] = []

    def say(key: str, message: str, hint: str | None = None) -> None:
        found.append(Diagnostic(entry.loc_of(key), entry.op, message, hint))

    op = specs.get(entry.op)
    if op is None:
        say(
            "op",
            f"phiops has no op '{entry.op}'",
            suggest(entry.op, sorted(specs)) or "remove the entry or add the op to ops/",
        )
        return found
    inputs = [a.name for a in op.inputs]
    attrs = [a.name for a in op.attrs]
    outputs = [o.name for o in op.outputs]

    def check_names(key: str, names, allowed: list[str], what: str) -> None:
        for index, name in enumerate(names):
            if name not in allowed:
                say(
                    f"{key}.{index}",
                    f"{key}: '{name}' is not an {what} of op '{op.name}'",
                    suggest(name, allowed) or f"its {what}s: {', '.join(allowed) or 'none'}",
                )

    check_names("promotes", entry.promotes, inputs, "input")
    check_names("same_dtype", entry.same_dtype, inputs, "input")
    check_names("value_attributes", entry.value_attributes, attrs, "attribute")
    for name, _ in entry.phiops_only:
        if name not in attrs:
            say(
                f"phiops_only.{name}",
                f"phiops_only: '{name}' is not an attribute of op '{op.name}'",
                suggest(name, attrs) or f"its attributes: {', '.join(attrs) or 'none'}",
            )
    arguments = inputs + attrs + outputs
    for pd_op_name, ours in entry.pd_op_renames:
        if ours not in arguments:
            say(
                f"pd_op_renames.{pd_op_name}",
                f"pd_op_renames.{pd_op_name}: '{ours}' is not an argument or output of op "
                f"'{op.name}'",
                suggest(ours, arguments) or f"its arguments: {', '.join(arguments) or 'none'}",
            )
    if entry.float_math and not inputs:
        say("float_math", f"float_math: op '{op.name}' has no input")
    for index, alias in enumerate(entry.method_aliases):
        if alias.endswith("_") and not op.inplace:
            say(
                f"method_aliases.{index}",
                f"method_aliases: '{alias}' calls the in-place '{op.name}_', which op "
                f"'{op.name}' does not have",
                "give the op 'inplace', or drop the trailing '_'",
            )
    if entry.operators and len(inputs) < 2:
        say("operators", f"operators: op '{op.name}' has fewer than two inputs")
    return found
