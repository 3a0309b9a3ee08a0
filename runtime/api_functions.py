"""Compatibility view: ``API_FUNCTIONS[name]`` is the eager API function of op ``name``.

Superseded by the OpDef registry (runtime/dispatch/op_def.py): each OpDef holds its op's eager
function, bound by the generated API, and runtime code calls ``op_api(name)``. This read-only
mapping remains for code written against the older name; nothing registers here any more.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Callable, Iterator

from phiops.runtime.dispatch.op_def import OP_DEFS, op_api

__all__ = ["API_FUNCTIONS"]


class _ApiFunctions(Mapping):
    def __getitem__(self, name: str) -> Callable[..., Any]:
        return op_api(name)

    def __iter__(self) -> Iterator[str]:
        return iter([name for name, op in OP_DEFS.items() if op.api is not None])

    def __len__(self) -> int:
        return sum(1 for op in OP_DEFS.values() if op.api is not None)


API_FUNCTIONS: Mapping[str, Callable[..., Any]] = _ApiFunctions()
