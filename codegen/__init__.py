"""phiops' generator: op-spec YAML -> model -> generated Python.

`load(paths)` reads spec files into a validated `SpecSet` or raises `SpecError`;
`check(paths)` returns the set (or None) and every diagnostic without raising.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable, Union

from .errors import ERROR, INCONSISTENCY, Diagnostic, SpecError, sort_diagnostics
from .model import (
    Arg,
    ArgList,
    Call,
    CallArg,
    Candidate,
    Candidates,
    DataTransform,
    DataTypeConst,
    Default,
    ForwardSig,
    InferMetaSpec,
    KernelFunc,
    KernelSpec,
    Location,
    OpSpec,
    Output,
    OutputList,
    Pair,
    SizeExpr,
    SpecSet,
    Type,
)
from .validate import validate_op, validate_set

PathLike = Union[str, "os.PathLike[str]"]

__all__ = [
    "load",
    "check",
    "collect",
    "SpecError",
    "Diagnostic",
    "ERROR",
    "INCONSISTENCY",
    "Location",
    "Type",
    "Default",
    "Arg",
    "ArgList",
    "Output",
    "OutputList",
    "SizeExpr",
    "Pair",
    "Candidate",
    "DataTypeConst",
    "Candidates",
    "KernelFunc",
    "KernelSpec",
    "InferMetaSpec",
    "CallArg",
    "Call",
    "ForwardSig",
    "DataTransform",
    "OpSpec",
    "SpecSet",
]


def _display_name(path: Path, base: PathLike | None) -> str:
    if base is not None:
        # abspath first: a spec file may be a symlink to somewhere else (even /dev/zero)
        for where, root in (
            (Path(os.path.abspath(path)), Path(os.path.abspath(base))),
            (path.resolve(), Path(base).resolve()),
        ):
            try:
                return where.relative_to(root).as_posix()
            except ValueError:
                pass
    return path.as_posix()


def collect(
    paths: PathLike | Iterable[PathLike],
    *,
    base: PathLike | None = None,
    python_api: bool = True,
) -> tuple[list[OpSpec], list[str], list[Diagnostic]]:
    """Every op that parsed (even with errors elsewhere), the file names, all diagnostics.

    ``python_api=False`` leaves out what only phiops' Python API requires (for PaddlePaddle's
    own files). A file named op_compat.yaml is read as one (`phiops.codegen.compat`) and checked against
    the op specs among ``paths``; so is one named python_api.yaml (`phiops.codegen.python_api`), one named docs.yaml
    (`phiops.codegen.docs`) and one named op_traits.yaml (`phiops.codegen.op_traits`)."""
    # Imported here, not at the top: pyyaml is the `codegen` extra, and `phiops codegen`
    # from a wheel installed without it must be able to say so.
    from .loader import read_entries, read_spec_file
    from .parse import parse_entry

    from .compat import check_compat, is_compat_file
    from .python_api import check_python_api, is_python_api_file
    from .docs import check_docs, is_docs_file
    from .op_traits import check_op_traits, is_op_traits_file

    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    paths = list(paths)
    compat_paths = [p for p in paths if is_compat_file(p)]
    python_api_paths = [p for p in paths if is_python_api_file(p)]
    docs_paths = [p for p in paths if is_docs_file(p)]
    traits_paths = [p for p in paths if is_op_traits_file(p)]
    paths = [
        p
        for p in paths
        if not (
            is_compat_file(p) or is_python_api_file(p) or is_docs_file(p) or is_op_traits_file(p)
        )
    ]
    diagnostics: list[Diagnostic] = []
    specs: list[OpSpec] = []
    broken: set[int] = set()
    files: list[str] = []
    for raw in paths:
        path = Path(raw)
        display = _display_name(path, base)
        files.append(display)
        text, unreadable = read_spec_file(path, display)
        diagnostics.extend(unreadable)
        if text is None:
            continue
        entries, found = read_entries(text, display)
        diagnostics.extend(found)
        for entry in entries:
            spec, failed = parse_entry(entry, diagnostics)
            if spec is None:
                continue
            specs.append(spec)
            if failed:
                broken.add(id(spec))
            else:
                diagnostics.extend(validate_op(spec, python_api=python_api))
    diagnostics.extend(validate_set(specs, broken))
    if python_api:
        diagnostics.extend(_generation_problems(specs, broken, diagnostics))
    # an op_compat.yaml is checked against the op specs loaded with it, if any
    by_name = {spec.name: spec for spec in specs} if specs else None
    for raw in compat_paths:
        files.append(_display_name(Path(raw), base))
        diagnostics.extend(check_compat(raw, by_name, base=base)[1])
    # so is a python_api.yaml (the paddle.* functions declared over single ops)
    for raw in python_api_paths:
        files.append(_display_name(Path(raw), base))
        diagnostics.extend(check_python_api(raw, by_name, base=base)[1])
    for raw in docs_paths:
        files.append(_display_name(Path(raw), base))
        diagnostics.extend(check_docs(raw, by_name, base=base)[1])
    for raw in traits_paths:
        files.append(_display_name(Path(raw), base))
        diagnostics.extend(check_op_traits(raw, by_name, base=base)[1])
    return specs, files, sort_diagnostics(diagnostics)


def _generation_problems(
    specs: list[OpSpec], broken: set[int], diagnostics: list[Diagnostic]
) -> list[Diagnostic]:
    """What generation rejects in ops that passed every other check (so that a view is never
    built from a spec that does not hold together), short of the runtime's own checks."""
    from .api.views import generation_problems

    flagged = {d.op for d in diagnostics}
    by_name: dict[str, OpSpec] = {}
    for spec in specs:
        by_name.setdefault(spec.name, spec)
    names = set(by_name)
    found: list[Diagnostic] = []
    for spec in specs:
        backward = by_name.get(spec.backward) if spec.backward is not None else None
        if by_name[spec.name] is not spec or id(spec) in broken or spec.name in flagged:
            continue
        if backward is not None and (id(backward) in broken or backward.name in flagged):
            continue
        found.extend(generation_problems(spec, names, backward))
    return found


def check(
    paths: PathLike | Iterable[PathLike],
    *,
    base: PathLike | None = None,
    python_api: bool = True,
) -> tuple[SpecSet | None, list[Diagnostic]]:
    """Load `paths` as one set; return it (None if there are schema errors) and all diagnostics.

    Locations name each file relative to `base` when it is given and contains the file, else
    as the path was given.  Never raises for bad input.
    """
    specs, files, diagnostics = collect(paths, base=base, python_api=python_api)
    if any(d.severity == ERROR for d in diagnostics):
        return None, diagnostics
    spec_set = SpecSet(
        ops=tuple(s for s in specs if not s.is_backward),
        backward_ops=tuple(s for s in specs if s.is_backward),
        files=tuple(files),
    )
    return spec_set, diagnostics


def load(
    paths: PathLike | Iterable[PathLike],
    *,
    strict: bool = True,
    base: PathLike | None = None,
    python_api: bool = True,
) -> SpecSet:
    """Load and validate `paths` as one set of op specs.

    Raises SpecError listing every diagnostic when there is a schema error, or (with
    strict=True) an inconsistency: entries or keys that disagree (see `phiops.codegen.errors`).
    """
    spec_set, diagnostics = check(paths, base=base, python_api=python_api)
    if spec_set is None or (strict and diagnostics):
        raise SpecError(diagnostics)
    return spec_set
