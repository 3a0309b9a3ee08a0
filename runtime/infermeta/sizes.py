"""Output sizes checked after InferMeta, before any kernel allocates them.

numpy cannot hold more than ``MAX_NDIM`` dimensions or more than ``MAX_BYTES`` bytes in one array;
``FLAGS_max_alloc_bytes`` (0: no limit) lowers the second bound. A shape past either is an
error naming the op, the output and its size, instead of numpy's ValueError or MemoryError, or a
machine brought to a halt by a silent multi-gigabyte allocation. Kernels whose scratch memory can
outgrow their output (conv's im2col columns, interpolation matrices, pooling windows) check it
against the same flag with `check_scratch_size` before allocating it.
"""

from __future__ import annotations

from typing import Any, Iterable

import numpy as np

from phiops.runtime import runtime_flags
from phiops.runtime.errors import InvalidArgumentError, ResourceExhaustedError

__all__ = ["MAX_NDIM", "MAX_BYTES", "check_output_sizes", "check_scratch_size"]

MAX_NDIM = 64
"""numpy's NPY_MAXDIMS."""
MAX_BYTES = int(np.iinfo(np.intp).max)
"""The largest byte count numpy can index."""


def check_output_sizes(
    op: str, names: Iterable[str], metas: Iterable[Any], max_alloc_bytes: int
) -> None:
    """Raise when an output meta (a DenseTensorMeta, a tuple of them, or None) has more dims
    than numpy holds, more bytes than numpy indexes, or more bytes than ``max_alloc_bytes``
    (when it is positive)."""
    for name, meta in zip(names, metas):
        items = meta if isinstance(meta, tuple) else (meta,)
        for position, item in enumerate(items):
            if item is None:
                continue
            where = f"{name}[{position}]" if isinstance(meta, tuple) else name
            _check_one(op, where, item, max_alloc_bytes)


def _check_one(op: str, name: str, meta: Any, max_alloc_bytes: int) -> None:
    dims = meta.dims
    if len(dims) > MAX_NDIM:
        raise InvalidArgumentError(
            f"{op}(): output '{name}' would have {len(dims)} dimensions; at most {MAX_NDIM} are "
            "supported"
        )
    elements = 1
    for size in dims:
        elements *= size
    nbytes = elements * meta.dtype.numpy_dtype.itemsize
    if nbytes > MAX_BYTES:
        raise InvalidArgumentError(
            f"{op}(): output '{name}' of shape {list(dims)} ({elements} elements, {nbytes} bytes) "
            f"is larger than any array can be ({MAX_BYTES} bytes)"
        )
    if 0 < max_alloc_bytes < nbytes:
        raise ResourceExhaustedError(
            f"{op}(): output '{name}' of shape {list(dims)} ({meta.dtype.name.lower()}) needs "
            f"{nbytes} bytes, more than FLAGS_max_alloc_bytes={max_alloc_bytes}"
        )


def check_scratch_size(what: str, shape: tuple[int, ...], itemsize: int) -> None:
    """Raise `ResourceExhaustedError` when a kernel's scratch buffer ``what`` of ``shape`` (items
    of ``itemsize`` bytes) needs more bytes than ``FLAGS_max_alloc_bytes`` (when positive):
    called before the buffer is allocated, as outputs are checked before their kernel runs.
    The dispatcher puts the op's name in front of the message."""
    limit = runtime_flags.SWITCHES.max_alloc_bytes
    if limit <= 0:
        return
    nbytes = itemsize
    for size in shape:
        nbytes *= size
    if nbytes > limit:
        raise ResourceExhaustedError(
            f"its {what} of shape {list(shape)} needs {nbytes} bytes of scratch memory, "
            f"more than FLAGS_max_alloc_bytes={limit}"
        )
