"""IR types: dense tensors, the null type, vectors and dialect types, each printing as 3.3.1."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "Type",
    "NullType",
    "NULL_TYPE",
    "DenseTensorType",
    "VectorType",
    "SelectedRowsType",
    "TensorArrayType",
    "SparseCooTensorType",
    "SparseCsrTensorType",
    "SimpleDialectType",
    "ELEMENT_TYPES",
    "format_dims",
]

# element spelling inside `tensor<...>` -> DataType attribute spelling (dtype:float32)
ELEMENT_TYPES = {
    "f32": "float32",
    "f64": "float64",
    "f16": "float16",
    "bf16": "bfloat16",
    "b": "bool",
    "i8": "int8",
    "u8": "uint8",
    "i16": "int16",
    "i32": "int32",
    "i64": "int64",
    "c64": "complex64",
    "c128": "complex128",
    "f8e4m3fn": "float8_e4m3fn",
    "f8e5m2": "float8_e5m2",
    "index": "index",
    "undefined": "Undefined",
}


class Type:
    """Base of every IR type; subclasses are frozen dataclasses (hashable, comparable)."""

    __slots__ = ()


@dataclass(frozen=True)
class NullType(Type):
    """The type of an absent value: `<<NULL TYPE>>`."""

    def __str__(self) -> str:
        return "<<NULL TYPE>>"


NULL_TYPE = NullType()


def format_dims(dims: tuple[int, ...], element: str) -> str:
    return "".join(f"{d}x" for d in dims) + element


@dataclass(frozen=True)
class DenseTensorType(Type):
    """`tensor<2x-1xf32>`: dims (-1 unknown), element type; layout, LoD and offset are kept (the
    JSON has them) but not printed."""

    dims: tuple[int, ...]
    element: str
    layout: str = "NCHW"
    lod: tuple[tuple[int, ...], ...] = ()
    offset: int = 0

    def __str__(self) -> str:
        return f"tensor<{format_dims(self.dims, self.element)}>"

    @property
    def dtype(self) -> str:
        return ELEMENT_TYPES[self.element]


@dataclass(frozen=True)
class VectorType(Type):
    """`vec[A,B]`: the tuple type of builtin.combine."""

    types: tuple[Type, ...]

    def __str__(self) -> str:
        return "vec[" + ",".join(str(t) for t in self.types) + "]"


@dataclass(frozen=True)
class SelectedRowsType(Type):
    """`pd_op.selectedrows<DIMSxELEM>`."""

    dims: tuple[int, ...]
    element: str
    layout: str = "NCHW"
    lod: tuple[tuple[int, ...], ...] = ()
    offset: int = 0

    def __str__(self) -> str:
        return f"pd_op.selectedrows<{format_dims(self.dims, self.element)}>"


@dataclass(frozen=True)
class TensorArrayType(Type):
    """`pd_op.tensor_array<f32>`; its dims (kept by the JSON) are not printed."""

    element: str
    dims: tuple[int, ...] = ()
    layout: str = "NCHW"

    def __str__(self) -> str:
        return f"pd_op.tensor_array<{self.element}>"


# the type PaddlePaddle 3.3.1 gives the parts of a sparse tensor type it builds (its JSON writes
# them; neither the text nor phiops reads them)
_SPARSE_PART = DenseTensorType((), "f32", "Undefined(AnyLayout)")


@dataclass(frozen=True)
class SparseCooTensorType(Type):
    """`pd_op.sparsecootensor<3x4xf32>`: a COO tensor's dense dims and element type; the JSON
    also keeps `non_zero_dims`, the layout and the types of its indices and values."""

    dims: tuple[int, ...]
    element: str
    non_zero_dims: tuple[int, ...] = ()
    layout: str = "NCHW"
    indices: DenseTensorType = _SPARSE_PART
    values: DenseTensorType = _SPARSE_PART

    def __str__(self) -> str:
        return f"pd_op.sparsecootensor<{format_dims(self.dims, self.element)}>"

    @property
    def dtype(self) -> str:
        return ELEMENT_TYPES[self.element]


@dataclass(frozen=True)
class SparseCsrTensorType(Type):
    """`pd_op.sparsecsrtensor<3x4xf32>` (phiops's spelling: PaddlePaddle 3.3.1 has the type and
    writes it to JSON, but its printer has no text for it); the JSON also keeps the layout and
    the types of its crows, cols and values."""

    dims: tuple[int, ...]
    element: str
    layout: str = "NCHW"
    crows: DenseTensorType = _SPARSE_PART
    cols: DenseTensorType = _SPARSE_PART
    values: DenseTensorType = _SPARSE_PART

    def __str__(self) -> str:
        return f"pd_op.sparsecsrtensor<{format_dims(self.dims, self.element)}>"

    @property
    def dtype(self) -> str:
        return ELEMENT_TYPES[self.element]


@dataclass(frozen=True)
class SimpleDialectType(Type):
    """A parameterless dialect type printed as its name, e.g. `cf.stack`."""

    name: str

    def __str__(self) -> str:
        return self.name
