"""The registry of argument-mapping functions, one per legacy op type (DESIGN.md §7).

Two sources fill it: ``generated/compat_signatures.py`` (from ops/op_compat.yaml, where the file
says enough) registers its functions with `register_generated_mappings` when it is imported, and
the hand-written functions of runtime/compat/mappings.py register with the
`register_argument_mapping` decorator. A legacy op with both is an error at import: the op must be
listed in ``manual_signature`` of ops/op_compat.yaml (then no function is generated for it) or the
hand-written one removed.

Until something has registered the generated functions (importing ``phiops``'s API does), a
lookup imports them by name (``phiops.generated.compat_signatures``), then the modules of any
other package's ``phiops.compat.mappings`` entry points.
"""

from __future__ import annotations

import difflib
import inspect
from dataclasses import dataclass
import importlib
from importlib.metadata import entry_points
from typing import Callable, Mapping

from phiops.runtime.dispatch.signature import ArgumentMappingContext, KernelSignature
from phiops.runtime.errors import AlreadyExistsError, NotFoundError

__all__ = [
    "MappingFunction",
    "MappingEntry",
    "register_argument_mapping",
    "register_generated_mappings",
    "argument_mapping",
    "mapping_entry",
    "legacy_op_types",
    "hand_written_op_types",
    "pd_op_name",
]

MappingFunction = Callable[[ArgumentMappingContext], KernelSignature]

GENERATED = "generated"
HAND_WRITTEN = "hand-written"


@dataclass(frozen=True)
class MappingEntry:
    """One legacy op's mapping function, the pd_op it becomes, and where the function is from."""

    legacy_op_type: str
    pd_op: str
    function: MappingFunction
    origin: str  # GENERATED or HAND_WRITTEN
    where: str


_MAPPINGS: dict[str, MappingEntry] = {}
# legacy op type -> pd_op name, for every op_compat.yaml entry (mapped or not)
_PD_OP_NAMES: dict[str, str] = {}
ENTRY_POINT_GROUP = "phiops.compat.mappings"
OWN_MAPPINGS = "phiops.generated.compat_signatures"
_generated_registered = False


def _where(function: Callable[..., object]) -> str:
    # the code object's file and first line (a decorated function's first decorator, as
    # inspect.getsourcelines says) without reading and tokenizing the source at import
    code = getattr(inspect.unwrap(function), "__code__", None)
    if code is None:
        return f"{function.__module__}.{function.__qualname__}"
    file, line = code.co_filename, code.co_firstlineno
    marker = file.replace("\\", "/")
    for root in ("/runtime/", "/generated/"):
        if root in marker:
            marker = root[1:] + marker.split(root, 1)[1]
            break
    return f"{marker}:{line}"


def _add(entry: MappingEntry) -> None:
    previous = _MAPPINGS.get(entry.legacy_op_type)
    if previous is not None and previous.function is not entry.function:
        if {previous.origin, entry.origin} == {GENERATED, HAND_WRITTEN}:
            raise AlreadyExistsError(
                f"legacy op '{entry.legacy_op_type}' has both a generated argument-mapping function "
                f"and a hand-written one ({previous.where}, {entry.where}); list the op in "
                "'manual_signature' of its ops/op_compat.yaml entry and regenerate, or remove the "
                "hand-written function"
            )
        raise AlreadyExistsError(
            f"legacy op '{entry.legacy_op_type}' has two argument-mapping functions "
            f"({previous.where}, {entry.where})"
        )
    _MAPPINGS[entry.legacy_op_type] = entry


def register_argument_mapping(
    legacy_op_type: str, pd_op: str | None = None
) -> Callable[[MappingFunction], MappingFunction]:
    """Decorator registering a hand-written mapping function for ``legacy_op_type``.

    ``pd_op`` is the phiops op the legacy op becomes; by default the name its ops/op_compat.yaml
    entry gives (known once the generated module has registered), else the legacy name."""

    def register(function: MappingFunction) -> MappingFunction:
        name = pd_op or _PD_OP_NAMES.get(legacy_op_type, legacy_op_type)
        _add(MappingEntry(legacy_op_type, name, function, HAND_WRITTEN, _where(function)))
        if pd_op is not None:
            _PD_OP_NAMES.setdefault(legacy_op_type, pd_op)
        return function

    return register


def register_generated_mappings(
    functions: Mapping[str, MappingFunction], pd_op_names: Mapping[str, str]
) -> None:
    """Register the generated functions (legacy op type -> function) and the legacy -> pd_op
    names of every op_compat.yaml entry; called by generated/compat_signatures.py."""
    global _generated_registered
    _generated_registered = True
    for legacy, name in pd_op_names.items():
        _PD_OP_NAMES.setdefault(legacy, name)
        entry = _MAPPINGS.get(legacy)
        if entry is not None and entry.origin == HAND_WRITTEN and entry.pd_op != name:
            _MAPPINGS[legacy] = MappingEntry(
                legacy, name, entry.function, entry.origin, entry.where
            )
    for legacy, function in functions.items():
        name = pd_op_names.get(legacy, legacy)
        _add(MappingEntry(legacy, name, function, GENERATED, _where(function)))


def _load_generated() -> None:
    """Import the generated mappings, and other packages' through their entry points, unless
    they are registered."""
    if _generated_registered:
        return
    importlib.import_module(OWN_MAPPINGS)
    for entry in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        entry.load()


def _not_found(legacy_op_type: str, known: list[str]) -> NotFoundError:
    close = difflib.get_close_matches(legacy_op_type, known, n=1, cutoff=0.5)
    hint = f"; the nearest known legacy op is '{close[0]}'" if close else ""
    if not _generated_registered:
        hint += " (the generated mappings are not registered: is phiops.generated missing?)"
    return NotFoundError(f"no argument-mapping function for legacy op '{legacy_op_type}'{hint}")


def mapping_entry(legacy_op_type: str) -> MappingEntry:
    """The registered entry of ``legacy_op_type``; NotFoundError naming the nearest known one."""
    _load_generated()
    try:
        return _MAPPINGS[legacy_op_type]
    except KeyError:
        raise _not_found(legacy_op_type, sorted(_MAPPINGS)) from None


def argument_mapping(legacy_op_type: str) -> MappingFunction:
    """The mapping function of ``legacy_op_type`` (``elementwise_add``, ``reshape2``,
    ``matmul_v2_grad``...); NotFoundError naming the nearest known legacy op when it has none."""
    return mapping_entry(legacy_op_type).function


def legacy_op_types() -> list[str]:
    """Every legacy op type with a mapping function, sorted."""
    _load_generated()
    return sorted(_MAPPINGS)


def hand_written_op_types() -> list[str]:
    """The legacy op types mapped by hand in runtime/compat/, sorted; it does not load the
    generated mappings (codegen asks this before it writes them)."""
    return sorted(name for name, entry in _MAPPINGS.items() if entry.origin == HAND_WRITTEN)


def pd_op_name(legacy_op_type: str) -> str:
    """The phiops (pd_op) op a legacy op becomes: ``elementwise_add`` -> ``add``, ``matmul_v2`` ->
    ``matmul``, ``reshape2`` -> ``reshape``; NotFoundError when the op is unknown."""
    _load_generated()
    entry = _MAPPINGS.get(legacy_op_type)
    if entry is not None:
        return entry.pd_op
    name = _PD_OP_NAMES.get(legacy_op_type)
    if name is None:
        raise _not_found(legacy_op_type, sorted(set(_MAPPINGS) | set(_PD_OP_NAMES)))
    return name
