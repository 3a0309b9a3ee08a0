"""LoD (level of detail): the sequence offsets a dense tensor may carry, as PaddlePaddle 3.3.1's
DenseTensor still does (``set_lod``, ``lod()``).

A LoD is a tuple of levels, each a tuple of non-decreasing offsets starting at 0; the last
level's offsets index the tensor's rows (``[[0, 2, 5]]``: rows 0-1 are one sequence, rows 2-4
the next), each higher level's index the sequences of the level below it. The sequence ops
(sequence_pool, sequence_conv, lstm, gru) read it, and those that carry it in PaddlePaddle give
their outputs one.

PHI keeps the LoD in the tensor's meta. Here metas are interned per dtype, dims, layout and place
(dispatch plans by their identity) and a kernel receives arrays, so the LoD is kept with the
*array*: a table from the array's identity to its LoD, holding the array weakly (an entry goes
when its array does). ``DenseTensor.set_lod`` and ``lod()`` read and write the entry of the
tensor's array, so a kernel sees its input's LoD (``lod_of(x)``) and gives an output one
(``set_array_lod``), which the Tensor wrapping that output then reports. An op that makes a new
array without setting one drops the LoD, as PaddlePaddle's ops that do not share it do; a
view, a cast or a copy of a tensor is a new array, without LoD (the static executor's feed carries
a fed tensor's LoD to its copy, runtime/static/executor/feeds.py).
"""

from __future__ import annotations

import weakref
from typing import Any, Sequence

from phiops.runtime.errors import InvalidArgumentError

__all__ = ["Lod", "check_lod", "lod_of", "set_array_lod", "carry_lod", "lengths_to_lod", "lod_to_lengths"]

Lod = tuple[tuple[int, ...], ...]

# id(array) -> (weak reference to the array, its LoD)
_LODS: dict[int, tuple[weakref.ref, Lod]] = {}


def lod_of(array: Any) -> Lod:
    """The LoD ``array`` carries; ``()`` for none."""
    entry = _LODS.get(id(array))
    if entry is None or entry[0]() is not array:
        return ()
    return entry[1]


def set_array_lod(array: Any, lod: Lod) -> None:
    """Make ``array`` carry ``lod`` (already checked: ``check_lod``); ``()`` removes its LoD."""
    key = id(array)
    if not lod:
        _LODS.pop(key, None)
        return

    def forget(ref: weakref.ref, key: int = key) -> None:
        entry = _LODS.get(key)
        if entry is not None and entry[0] is ref:
            del _LODS[key]

    _LODS[key] = (weakref.ref(array, forget), lod)


def carry_lod(source: Any, target: Any) -> Any:
    """``target``, carrying ``source``'s LoD (a copy of a LoD tensor's array keeps it)."""
    lod = lod_of(source)
    if lod and target is not source:
        set_array_lod(target, lod)
    return target


def check_lod(lod: Any, rows: int | None, where: str) -> Lod:
    """``lod`` (a sequence of levels of offsets) as a Lod, checked as PaddlePaddle's ``CheckLoD``
    does: every level has at least two offsets, starts at 0 and never decreases; each level ends
    at the number of entries of the level below it (at ``rows``, the tensor's first extent, for
    the last level; unchecked where ``rows`` is None). InvalidArgumentError naming ``where``."""
    if not isinstance(lod, Sequence) or isinstance(lod, (str, bytes)):
        raise InvalidArgumentError(f"{where}: the LoD must be a list of levels (lists of offsets), got {type(lod).__name__}")
    levels = []
    for number, level in enumerate(lod):
        if not isinstance(level, Sequence) or isinstance(level, (str, bytes)):
            raise InvalidArgumentError(
                f"{where}: LoD level {number} must be a list of offsets, got {type(level).__name__}"
            )
        offsets = []
        for offset in level:
            if isinstance(offset, bool) or not hasattr(offset, "__index__"):
                raise InvalidArgumentError(
                    f"{where}: LoD level {number} holds {offset!r}; offsets must be integers"
                )
            offsets.append(int(offset))
        if len(offsets) < 2 or offsets[0] != 0 or any(b < a for a, b in zip(offsets, offsets[1:])):
            raise InvalidArgumentError(
                f"{where}: LoD level {number} {offsets} is invalid: a level needs at least two "
                "offsets, starting at 0 and never decreasing"
            )
        levels.append(tuple(offsets))
    for number, (upper, lower) in enumerate(zip(levels, levels[1:])):
        if upper[-1] != len(lower) - 1:
            raise InvalidArgumentError(
                f"{where}: LoD level {number} ends at {upper[-1]}, but level {number + 1} holds "
                f"{len(lower) - 1} sequences"
            )
    if levels and rows is not None and levels[-1][-1] != rows:
        raise InvalidArgumentError(
            f"{where}: the LoD's last level ends at {levels[-1][-1]}, but the tensor has {rows} rows"
        )
    return tuple(levels)


def lengths_to_lod(lengths: Any, where: str) -> Lod:
    """The offsets LoD of recursive sequence lengths (``[[2, 3]]`` -> ``((0, 2, 5),)``)."""
    if not isinstance(lengths, Sequence) or isinstance(lengths, (str, bytes)):
        raise InvalidArgumentError(
            f"{where}: the sequence lengths must be a list of levels (lists of lengths), got "
            f"{type(lengths).__name__}"
        )
    lod = []
    for number, level in enumerate(lengths):
        if not isinstance(level, Sequence) or isinstance(level, (str, bytes)):
            raise InvalidArgumentError(
                f"{where}: level {number} of the sequence lengths must be a list, got {type(level).__name__}"
            )
        offsets = [0]
        for length in level:
            if isinstance(length, bool) or not hasattr(length, "__index__") or int(length) < 0:
                raise InvalidArgumentError(
                    f"{where}: level {number} of the sequence lengths holds {length!r}; lengths "
                    "must be integers >= 0"
                )
            offsets.append(offsets[-1] + int(length))
        lod.append(offsets)
    return tuple(tuple(level) for level in lod)


def lod_to_lengths(lod: Lod) -> list[list[int]]:
    """The recursive sequence lengths of an offsets LoD (``((0, 2, 5),)`` -> ``[[2, 3]]``)."""
    return [[b - a for a, b in zip(level, level[1:])] for level in lod]
