"""MetaTensor: the meta of a tensor without its data, which is all InferMeta functions see."""

from __future__ import annotations

from dataclasses import dataclass

from phiops.runtime.common import DataLayout, DataType
from phiops.runtime.tensor.dense_tensor import DenseTensorMeta
from phiops.runtime.tensor.kinds import TensorKind
from phiops.runtime.errors import PreconditionNotMetError

__all__ = ["MetaTensor", "MetaConfig"]


@dataclass(frozen=True)
class MetaConfig:
    """How InferMeta runs: at run time (eager, dims are concrete) or while building a graph
    (``is_runtime=False``: an extent may be -1, unknown; see runtime/infermeta/dims.py)."""

    is_runtime: bool = True


class MetaTensor:
    """Read and write access to dims, dtype and layout.

    It wraps an existing meta (an input) or starts empty (an output that InferMeta fills in).
    The same InferMeta function can therefore serve eager calls and graph building.

    ``kind`` is the tensor kind of the meta it wraps (DENSE for an output, whose kind is the
    kernel's: dispatch makes the output meta of the kind the kernel's argument definition
    gives). For a SelectedRows, ``dims`` are the complete dims ``[height, ...]``, as PHI's
    MetaTensor reports them; for the sparse kinds, the dense dims.
    """

    __slots__ = ("_dims", "_dtype", "_layout", "_kind", "name")

    def __init__(
        self,
        meta: DenseTensorMeta | None = None,
        name: str = "",
    ) -> None:
        self.name = name
        if meta is None:
            self._dims: tuple[int, ...] | None = None
            self._dtype = DataType.UNDEFINED
            self._layout = DataLayout.NCHW
            self._kind = TensorKind.DENSE
        else:
            self._dims = meta.dims
            self._dtype = meta.dtype
            self._layout = meta.layout
            self._kind = meta.kind

    @property
    def dims(self) -> tuple[int, ...]:
        if self._dims is None:
            raise PreconditionNotMetError(f"MetaTensor {self.name!r}: dims were never set")
        return self._dims

    @property
    def dtype(self) -> DataType:
        return self._dtype

    @property
    def layout(self) -> DataLayout:
        return self._layout

    @property
    def kind(self) -> TensorKind:
        """The tensor kind (runtime/tensor/kinds.py)."""
        return self._kind

    def is_dense(self) -> bool:
        return self._kind is TensorKind.DENSE

    def is_selected_rows(self) -> bool:
        return self._kind is TensorKind.SELECTED_ROWS

    @property
    def ndim(self) -> int:
        return len(self.dims)

    def numel(self) -> int:
        """The element count; -1 when an extent is unknown (-1, while a graph is built)."""
        count = 1
        for extent in self.dims:
            if extent < 0:
                return -1
            count *= extent
        return count

    @property
    def is_initialized(self) -> bool:
        """True once dims and dtype are both set."""
        return self._dims is not None and self._dtype is not DataType.UNDEFINED

    def set_dims(self, dims: tuple[int, ...] | list[int]) -> None:
        self._dims = tuple(int(d) for d in dims)

    def set_dtype(self, dtype: DataType) -> None:
        self._dtype = DataType(dtype)

    def set_layout(self, layout: DataLayout) -> None:
        self._layout = DataLayout(layout)

    def share_meta(self, other: MetaTensor) -> None:
        """Copy dims, dtype and layout from ``other``."""
        self._dims = other.dims
        self._dtype = other.dtype
        self._layout = other.layout

    def share_dims(self, other: MetaTensor) -> None:
        self._dims = other.dims

    def __repr__(self) -> str:
        dims = "?" if self._dims is None else list(self._dims)
        kind = "" if self._kind is TensorKind.DENSE else f", kind={self._kind.title}"
        return f"MetaTensor({self.name!r}, dims={dims}, dtype={self._dtype!r}{kind})"
