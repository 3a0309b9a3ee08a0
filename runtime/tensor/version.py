"""Version counters: how many in-place writes a tensor's storage has had.

A view (the output of an op with a ``view`` pair, such as reshape) shares its base's storage, so
it shares its base's counter too: a write through either is seen by a grad node that saved
either. The counter lives on the base DenseTensor (``_version``, unset meaning 0; a Tensor is a
DenseTensor); a view's ``_base`` points to it (None or unset on a tensor that is no view).
``DenseTensor()`` and ``wrap_array`` set both: an unset slot read with a default raises and
catches an AttributeError inside, several times the cost of the two stores, and autograd reads
them for every saved tensor.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from phiops.runtime.tensor.dense_tensor import DenseTensor

__all__ = [
    "version_of",
    "bump_version",
    "share_version",
    "share_view",
    "share_storage",
    "is_view_of",
    "detached_storage",
]


def _root(impl: DenseTensor) -> DenseTensor:
    """The tensor holding ``impl``'s counter. A view points at its base's root when it is made,
    but that root may itself become a view later (``detached_storage`` turns a saved output
    that already has aliases into a view of the storage its grad node keeps), so the chain is
    followed; it is one or two links long."""
    base = getattr(impl, "_base", None)
    while base is not None:
        impl = base
        base = getattr(impl, "_base", None)
    return impl


def version_of(impl: DenseTensor) -> int:
    """The number of in-place writes to ``impl``'s storage (its base's, for a view)."""
    base = getattr(impl, "_base", None)
    if base is None:
        return getattr(impl, "_version", 0)
    return getattr(_root(base), "_version", 0)


def bump_version(impl: DenseTensor) -> None:
    """Count one in-place write to ``impl``'s storage."""
    base = getattr(impl, "_base", None)
    root = impl if base is None else _root(base)
    root._version = getattr(root, "_version", 0) + 1


def share_storage(alias: DenseTensor, tensor: DenseTensor) -> None:
    """Make ``alias``, a new tensor over ``tensor``'s very array (``detach()``, a basic slice
    that is a view), share ``tensor``'s version counter: a write through either is seen by a
    grad node that saved either."""
    if alias is not tensor:
        alias._base = _root(tensor)


def share_version(view: DenseTensor, base: DenseTensor) -> None:
    """Make ``view`` share ``base``'s version counter when its array shares ``base``'s memory
    (a kernel that had to copy, such as a reshape of a non-contiguous array, made no view)."""
    if view is not base and _shares_memory(view.array, base.array):
        view._base = _root(base)


def share_view(view: Any, base: Any) -> None:
    """``share_version`` for the tensors an op with a ``view`` pair got and gave (nothing for
    the Values of a static program, or an optional input or output that is None)."""
    if isinstance(view, DenseTensor) and isinstance(base, DenseTensor):
        share_version(view, base)


def detached_storage(tensor: DenseTensor) -> DenseTensor:
    """A plain DenseTensor with ``tensor``'s array and meta that shares its version counter, for a
    grad node to keep without keeping ``tensor`` itself (a saved output: its grad node would
    otherwise hold the tensor that holds the node, a reference cycle). A tensor that is no view
    becomes a view of it, so that both count the same writes."""
    storage = _new_dense(DenseTensor)
    storage.array = tensor.array
    storage.meta = tensor.meta
    base = tensor._base
    if base is None:
        storage._version = tensor._version
        storage._base = None
        tensor._base = storage
    else:
        storage._version = 0
        storage._base = base
    return storage


_new_dense = object.__new__


def is_view_of(view: DenseTensor, base: DenseTensor) -> bool:
    """Whether ``view`` and ``base`` share one version counter."""
    return _root(view) is _root(base)


def _shares_memory(a: Any, b: Any) -> bool:
    # numpy points a view's ``base`` at the array that owns the memory (a chain of views
    # collapses to it), and two arrays that each own their memory share none: two identity
    # tests instead of may_share_memory's bounds check, which costs more than a small reshape.
    if type(a) is np.ndarray and type(b) is np.ndarray:
        owner_a = a if a.base is None else a.base
        owner_b = b if b.base is None else b.base
        if owner_a is owner_b:
            return True
        if (
            type(owner_a) is np.ndarray
            and type(owner_b) is np.ndarray
            and owner_a.base is None
            and owner_b.base is None
        ):
            return False
    from phiops.runtime.device import module_of

    xp = module_of(a)
    return xp is module_of(b) and bool(xp.may_share_memory(a, b))
