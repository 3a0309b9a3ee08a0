"""Consistency checks between an op's registration and the runtime that must serve it.

Run by codegen before it writes anything (reported as spec errors with file:line) and by
``generated/registry.py`` at import, so that a mismatch never surfaces later as a wrong argument
inside a kernel.
"""

from __future__ import annotations

import inspect
from typing import Iterable

from phiops.runtime.dispatch.op_info import OpInfo
from phiops.runtime.errors import NotFoundError, PreconditionNotMetError
from phiops.runtime.infermeta import get_infer_meta
from phiops.runtime.kernels import KERNEL_FACTORY

__all__ = ["check_op", "check_registry"]


def check_op(info: OpInfo) -> list[tuple[str, str]]:
    """Problems of one op as ``(key, message)`` pairs; key is ``infer_meta`` or ``kernel``."""
    problems: list[tuple[str, str]] = []
    if info.infer_meta is not None:
        problems.extend(("infer_meta", m) for m in _check_infer_meta(info))
    if info.kernel is not None:
        problems.extend(("kernel", m) for m in _check_kernel(info))
    return problems


def check_registry(infos: Iterable[OpInfo]) -> None:
    """Raise PreconditionNotMetError listing every problem of every op."""
    lines = [
        f"{info.location}: op '{info.name}': {message}"
        for info in infos
        for _, message in check_op(info)
    ]
    if lines:
        raise PreconditionNotMetError(
            "the generated registry does not match the runtime (regenerate with `phiops codegen` "
            "or fix the runtime):\n" + "\n".join(lines)
        )


def _check_infer_meta(info: OpInfo) -> list[str]:
    try:
        function = get_infer_meta(info.infer_meta)
    except NotFoundError as error:
        return [str(error)]
    expected = list(info.infer_meta_params) + [o.name for o in info.outputs]
    parameters = [p for p in inspect.signature(function).parameters.values() if p.name != "config"]
    if len(parameters) != len(expected):
        return [
            f"InferMeta {info.infer_meta} ({function.__module__}.{function.__name__}) takes "
            f"{len(parameters)} arguments ({', '.join(p.name for p in parameters)}) besides config; "
            f"the spec passes {len(expected)} ({', '.join(expected)})"
        ]
    return []


def _check_kernel(info: OpInfo) -> list[str]:
    registrations = KERNEL_FACTORY.kernels.get(info.kernel)
    if not registrations:
        return [f"kernel '{info.kernel}' is not registered for any backend or dtype"]
    inputs = {i.name: i for i in info.inputs}
    expected = []
    for name in info.kernel_params:
        spec = inputs.get(name)
        if spec is None:
            expected.append((name, "attribute"))
        else:
            kind = "Tensor[]" if spec.is_list else "Tensor"
            expected.append((name, f"optional {kind}" if spec.optional else kind))
    problems: list[str] = []
    seen = set()
    for kernel in registrations.values():
        if kernel.fn in seen:
            continue
        seen.add(kernel.fn)
        where = f"kernel '{info.kernel}' ({kernel.fn.__module__}.{kernel.fn.__qualname__})"
        actual = [(d.name, d.kind) for d in kernel.args_def.inputs]
        actual += [(a.name, "attribute") for a in kernel.args_def.attributes]
        if actual != expected:
            problems.append(f"{where} {_difference(actual, expected)}")
        outputs = kernel.args_def.outputs
        want_list = len(info.outputs) == 1 and info.outputs[0].is_list
        if want_list != kernel.args_def.outputs_are_list or (
            not want_list and [o.is_list for o in outputs] != [o.is_list for o in info.outputs]
        ):
            kinds = ", ".join("list[Array]" if o.is_list else "Array" for o in info.outputs)
            if not info.outputs:
                problems.append(f"{where} must return tuple[()]: the op has no outputs")
                return problems
            if want_list:
                shape = "list[Array]"
            elif len(info.outputs) == 1:
                shape = "Array"
            elif any(o.is_list for o in info.outputs):
                shape = f"tuple[{kinds}]"
            else:
                shape = f"tuple of {len(info.outputs)} Arrays"
            problems.append(
                f"{where} must return {shape} for outputs ({', '.join(o.name for o in info.outputs)})"
            )
    return problems


def _difference(actual: list[tuple[str, str]], expected: list[tuple[str, str]]) -> str:
    for position, (got, want) in enumerate(zip(actual, expected)):
        if got != want:
            return (
                f"takes {got[1]} '{got[0]}' as argument {position + 1}, "
                f"the spec passes {want[1]} '{want[0]}'"
            )
    names = lambda items: ", ".join(n for n, _ in items) or "nothing"  # noqa: E731
    return f"takes {len(actual)} arguments ({names(actual)}), the spec passes {len(expected)} ({names(expected)})"
