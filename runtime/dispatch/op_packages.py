"""Out-of-tree op packages (docs/extending.md): the OpDefs a package's generated registry holds,
registered beside phiops's own, and the lookup from an IR operation's name to its OpDef.

A package's ops are registered into the one op registry (``OP_DEFS``, runtime/dispatch/op_def.py)
like phiops's own, so that eager calls, autograd, static building and the executors find them
where they find every op. Two things differ: each op's ``OpInfo.dialect`` is the package's
dialect (its operations are ``<dialect>.<op>``, not ``pd_op.<op>``), and a package may not
shadow an op that is already registered: `register_op_package` refuses it, naming both.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from phiops.runtime.dispatch.op_def import OP_DEFS, OpDef, register_op_def
from phiops.runtime.errors import AlreadyExistsError, InvalidArgumentError

__all__ = ["OpPackage", "register_op_package", "op_packages", "op_def_of_operation"]


@dataclass(frozen=True)
class OpPackage:
    """One registered op package: its import name, its dialect and its ops' names."""

    name: str
    dialect: str
    ops: tuple[str, ...]


_PACKAGES: dict[str, OpPackage] = {}  # by dialect


def register_op_package(package: str, dialect: str, ops: Mapping[str, OpDef]) -> None:
    """Register the OpDefs ``ops`` (name -> OpDef) of op package ``package`` built in
    ``dialect``; called by the package's generated ``registry.py``. Nothing is registered when
    any op is wrong: an op whose dialect is not ``dialect``, or whose name an op of phiops or of
    another package already has (AlreadyExistsError naming both definitions). Importing the
    same package twice (a reload) registers nothing new."""
    problems = []
    for name, op in ops.items():
        if op.info.dialect != dialect:
            raise InvalidArgumentError(
                f"op package '{package}': op '{name}' is built in dialect '{op.info.dialect}', "
                f"the package's dialect is '{dialect}'"
            )
        previous = OP_DEFS.get(name)
        if previous is None or (previous.info.dialect == dialect and previous.info == op.info):
            continue
        owner = (
            "phiops"
            if previous.info.dialect == "pd_op"
            else f"op package '{_package_of(previous.info.dialect)}'"
        )
        problems.append(
            f"op '{name}' ({op.location}) is already registered by {owner} ({previous.location})"
        )
    if problems:
        raise AlreadyExistsError(
            f"op package '{package}' cannot register its ops: "
            + "; ".join(problems)
            + "; an op package may not redefine an op, rename the package's op"
        )
    registered = _PACKAGES.get(dialect)
    if registered is not None and registered.name != package:
        raise AlreadyExistsError(
            f"op package '{package}': dialect '{dialect}' is already the dialect of op package "
            f"'{registered.name}'"
        )
    for op in ops.values():
        register_op_def(op)
    names = tuple(dict.fromkeys((*(registered.ops if registered else ()), *ops)))
    _PACKAGES[dialect] = OpPackage(package, dialect, names)


def _package_of(dialect: str) -> str:
    found = _PACKAGES.get(dialect)
    return found.name if found is not None else dialect


def op_packages() -> list[OpPackage]:
    """Every registered op package, by dialect name."""
    return [_PACKAGES[name] for name in sorted(_PACKAGES)]


def op_def_of_operation(name: str) -> OpDef | None:
    """The OpDef that runs the IR operation ``name`` (``pd_op.matmul``, ``my_dialect.my_op``):
    a pd_op op's phiops op of the same name, an op package's op of its dialect; None for any
    other (and for an op of the wrong dialect)."""
    dialect, _, short = name.partition(".")
    op = OP_DEFS.get(short)
    if op is None or op.info.dialect != dialect:
        return None
    return op


def is_op_package_dialect(dialect: str) -> bool:
    """Whether ``dialect`` is the dialect of a registered op package."""
    return dialect in _PACKAGES
