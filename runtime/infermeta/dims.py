"""Unknown dimensions: what InferMeta does with ``-1`` extents while a graph is being built.

Eagerly (``MetaConfig(is_runtime=True)``) every extent is known. While a static program is built
(``MetaConfig(is_runtime=False)``) an extent may be ``UNKNOWN`` (-1), e.g. a batch dimension
declared as None. PHI's InferMeta functions then (1) propagate an unknown extent to the outputs
that depend on it and (2) check a condition only where the extents it compares are known; where
either side is unknown the check is left to run time. The helpers below are that pattern; an
InferMeta function that compares extents or counts elements uses them instead of ``==`` and a
product, e.g.::

    if not dims_match(label.dims, input.dims, config):
        raise InvalidArgumentError(...)
    out.set_dims(input.dims[:axis] + (sum_extents(sizes),) + input.dims[axis + 1 :])

Checks of ranks and attributes (axes, permutations) need no helper: ranks are always known.
"""

from __future__ import annotations

from typing import Iterable

from phiops.runtime.errors import InvalidArgumentError

from phiops.runtime.common import DataType
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = [
    "UNKNOWN",
    "is_known",
    "numel",
    "extents_match",
    "dims_match",
    "merge_extents",
    "merge_dims",
    "sum_extents",
]

UNKNOWN = -1


def is_known(extent: int) -> bool:
    return extent >= 0


def numel(dims: Iterable[int]) -> int:
    """The element count of ``dims``; UNKNOWN when any extent is unknown."""
    count = 1
    for extent in dims:
        if extent < 0:
            return UNKNOWN
        count *= extent
    return count


def extents_match(a: int, b: int, config: MetaConfig) -> bool:
    """``a == b``; while building a graph an unknown extent matches anything."""
    return a == b or (not config.is_runtime and (a < 0 or b < 0))


def dims_match(a: tuple[int, ...], b: tuple[int, ...], config: MetaConfig) -> bool:
    """Same rank and every extent matches (``extents_match``)."""
    return len(a) == len(b) and all(extents_match(x, y, config) for x, y in zip(a, b))


def merge_extents(a: int, b: int) -> int:
    """Of two matching extents, the known one (UNKNOWN when both are unknown)."""
    return a if a >= 0 else b


def merge_dims(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """``merge_extents`` position by position, for dims that ``dims_match``."""
    return tuple(merge_extents(x, y) for x, y in zip(a, b))


def sum_extents(extents: Iterable[int]) -> int:
    """The sum of ``extents``; UNKNOWN when any is unknown (a concatenated dimension)."""
    total = 0
    for extent in extents:
        if extent < 0:
            return UNKNOWN
        total += extent
    return total


def integer_scalar(value: object, name: str) -> int:
    """``value`` as an int: a Scalar attribute that sizes or indexes something must be a whole,
    finite real number (InvalidArgumentError naming ``name`` otherwise)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise InvalidArgumentError(f"argument '{name}' must be an integer, got {value!r}")
    if isinstance(value, float) and not value.is_integer():
        raise InvalidArgumentError(f"argument '{name}' must be an integer, got {value!r}")
    return int(value)


def set_output(out: MetaTensor, dims: Iterable[int], dtype: DataType, like: MetaTensor) -> None:
    """Give ``out`` the dims ``dims``, the dtype ``dtype`` and the layout of ``like``."""
    out.set_dims(tuple(dims))
    out.set_dtype(dtype)
    out.set_layout(like.layout)
