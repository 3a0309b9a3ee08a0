"""DenseTensorMeta and DenseTensor: an array with its meta."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from phiops.runtime.common import DataLayout, DataType, Place
from phiops.runtime.common.data_type import from_numpy_dtype
from phiops.runtime.tensor.kinds import TensorKind
from phiops.runtime.tensor.lod import check_lod, lengths_to_lod, lod_of, lod_to_lengths, set_array_lod

__all__ = ["DenseTensorMeta", "DenseTensor", "TensorBase"]


class DenseTensorMeta:
    """dtype, dims, layout and place of a dense tensor.

    Metas are interned: equal metas are the same object, so the dispatch caches can key on
    them by identity (fast C-level hashing) while comparing by value. Place is part of the
    meta here because an array's device is part of what selects a kernel.

    ``kind`` (a class attribute) is the tensor kind the meta describes: DENSE here; the metas
    of the other kinds (runtime/tensor/selected_rows.py, sparse.py) are subclasses with their
    own kind and their own interning, so a meta of another kind is never the same object as a
    dense one and never hits a dense plan in the dispatch caches.
    """

    __slots__ = ("dtype", "dims", "layout", "place", "__weakref__")

    kind = TensorKind.DENSE

    _interned: dict[tuple, DenseTensorMeta] = {}

    dtype: DataType
    dims: tuple[int, ...]
    layout: DataLayout
    place: Place

    @classmethod
    def get(
        cls,
        dtype: DataType,
        dims: tuple[int, ...],
        layout: DataLayout = DataLayout.NCHW,
        place: Place | None = None,
    ) -> DenseTensorMeta:
        """The interned meta for these values."""
        from phiops.runtime.common import CPUPlace

        if place is None:
            place = CPUPlace()
        key = (dtype, dims, layout, place)
        meta = cls._interned.get(key)
        if meta is None:
            meta = object.__new__(cls)
            meta.dtype, meta.dims, meta.layout, meta.place = key
            cls._interned[key] = meta
        return meta

    @property
    def numel(self) -> int:
        count = 1
        for extent in self.dims:
            count *= extent
        return count

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}({self.dtype!r}, {list(self.dims)}, {self.layout!r}, "
            f"{self.place!r})"
        )


class TensorBase:
    """What every tensor implementation offers: its meta (whose ``kind`` says which
    implementation it is, runtime/tensor/kinds.py) and its data. DenseTensor, SelectedRows,
    SparseCooTensor, SparseCsrTensor, TensorArray and StringTensor derive from it."""

    __slots__ = ()

    meta: DenseTensorMeta

    @property
    def kind(self) -> TensorKind:
        """The tensor kind (its meta's)."""
        return self.meta.kind

    def to_numpy(self) -> np.ndarray:
        raise NotImplementedError


class DenseTensor(TensorBase):
    """A backend array (numpy or CuPy) and its interned meta.

    The user-facing ``Tensor`` is a subclass (one object per tensor, autograd slots added); a
    plain DenseTensor is storage a grad node keeps apart from any Tensor (a saved output, a
    shared ``no_need_buffer`` placeholder, values kept before an in-place write).

    ``_base`` is set on a view (reshape, squeeze, ... of another DenseTensor): the DenseTensor
    whose ``_version`` it shares (runtime/tensor/version.py); None or unset on one that is no view.
    ``_version`` counts in-place writes (unset means 0); autograd compares it with the version a
    grad node saved. This constructor and ``wrap_array`` set both (0, None): reading an unset slot
    with a default costs more than the stores, and autograd reads them for every saved tensor.
    """

    __slots__ = ("array", "meta", "_version", "_base")

    def __init__(self, array: Any, meta: DenseTensorMeta | None = None) -> None:
        from phiops.runtime.device import place_of_array

        self.array = array
        self._version = 0
        self._base = None
        if meta is None:
            meta = DenseTensorMeta.get(
                from_numpy_dtype(array.dtype),
                tuple(array.shape),
                DataLayout.NCHW,
                place_of_array(array),
            )
        self.meta = meta

    def to_numpy(self) -> np.ndarray:
        array = self.array
        if isinstance(array, np.ndarray):
            return array
        from phiops.runtime.device import to_backend
        from phiops.runtime.common import CPUPlace

        return to_backend(array, CPUPlace())

    # -- LoD (runtime/tensor/lod.py: kept with the array, which kernels receive) --------------
    def lod(self) -> list[list[int]]:
        """The LoD: a list of levels of sequence offsets (``[]`` for none), as PaddlePaddle's
        ``DenseTensor.lod()``."""
        return [list(level) for level in lod_of(self.array)]

    def set_lod(self, lod: Sequence[Sequence[int]]) -> None:
        """Set the LoD (levels of offsets: ``[[0, 2, 5]]``); ``[]`` removes it.
        InvalidArgumentError unless each level starts at 0, never decreases and ends at the
        count of the level below it, the last at the tensor's first extent."""
        self._set_lod(lod, "set_lod()")

    def _set_lod(self, lod: Sequence[Sequence[int]], where: str) -> None:
        rows = self.meta.dims[0] if self.meta.dims else 0
        set_array_lod(self.array, check_lod(lod, rows, where))

    def recursive_sequence_lengths(self) -> list[list[int]]:
        """The LoD as sequence lengths per level (offsets ``[[0, 2, 5]]`` -> ``[[2, 3]]``)."""
        return lod_to_lengths(lod_of(self.array))

    def set_recursive_sequence_lengths(self, recursive_sequence_lengths: Sequence[Sequence[int]]) -> None:
        """Set the LoD from sequence lengths per level (``[[2, 3]]`` is the LoD ``[[0, 2, 5]]``);
        checked as ``set_lod`` checks offsets."""
        where = "set_recursive_sequence_lengths()"
        self._set_lod(lengths_to_lod(recursive_sequence_lengths, where), where)

    def has_valid_recursive_sequence_lengths(self) -> bool:
        """Whether the LoD fits the tensor (always, for one ``set_lod`` accepted, until an
        in-place change of the first extent); True without LoD."""
        rows = self.meta.dims[0] if self.meta.dims else 0
        lod = lod_of(self.array)
        return not lod or lod[-1][-1] == rows
