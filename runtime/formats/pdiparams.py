"""PaddlePaddle's tensor stream: `SerializeToStream` of one DenseTensor, and the `save_combine`
file (`.pdiparams`) that concatenates them, without names, in ascending order of name.

One tensor, little endian::

    uint32  version            0
    uint64  lod_level          then per level: uint64 nbytes, nbytes of uint64 offsets
    uint32  tensor version     0
    int32   desc size          then that many bytes of a TensorDesc protobuf (tensor_desc.py)
    bytes   data               prod(dims) * itemsize bytes, C order

Parameters carry no LoD; a LoD read from a file is checked and dropped (an array has none).
"""

from __future__ import annotations

import math
import os
import struct
from typing import Mapping, Sequence, Union

import numpy as np

from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.file_limits import MAX_PARAMS_FILE_BYTES, MAX_TENSOR_DIMS, read_file_bytes
from phiops.runtime.formats.tensor_desc import (
    TensorDesc,
    TensorDescError,
    decode_tensor_desc,
    encode_tensor_desc,
    numpy_dtype_of,
    var_type_of,
)

__all__ = [
    "TensorStreamError",
    "tensor_to_bytes",
    "read_tensor",
    "save_combine",
    "load_combine",
    "read_all_tensors",
]

PathLike = Union[str, "os.PathLike[str]"]
_U32 = struct.Struct("<I")
_U64 = struct.Struct("<Q")
_I32 = struct.Struct("<i")


class TensorStreamError(InvalidArgumentError):
    """A `.pdiparams`/tensor stream that cannot be read: names the file and the byte offset."""

    def __init__(self, source: str, offset: int, message: str) -> None:
        super().__init__(f"{source}: at byte {offset}: {message}")
        self.source = source
        self.offset = offset


def tensor_to_bytes(array: np.ndarray) -> bytes:
    """One tensor in PaddlePaddle's stream form (version 0, no LoD)."""
    array = np.asarray(array)
    desc = encode_tensor_desc(TensorDesc(var_type_of(array.dtype), tuple(array.shape)))
    data = np.ascontiguousarray(array, dtype=array.dtype.newbyteorder("<")).tobytes()
    return b"".join((_U32.pack(0), _U64.pack(0), _U32.pack(0), _I32.pack(len(desc)), desc, data))


class _Reader:
    def __init__(self, data: bytes, source: str) -> None:
        self.data = data
        self.source = source
        self.pos = 0

    def error(self, message: str, offset: int | None = None) -> TensorStreamError:
        return TensorStreamError(self.source, self.pos if offset is None else offset, message)

    def take(self, size: int, what: str) -> bytes:
        end = self.pos + size
        if end > len(self.data):
            raise self.error(
                f"truncated: {what} needs {size} byte(s), only {len(self.data) - self.pos} left"
            )
        chunk = self.data[self.pos : end]
        self.pos = end
        return chunk

    def unpack(self, fmt: struct.Struct, what: str) -> int:
        return fmt.unpack(self.take(fmt.size, what))[0]


def _read_one(reader: _Reader, label: str) -> np.ndarray:
    start = reader.pos
    version = reader.unpack(_U32, f"the version of {label}")
    if version != 0:
        raise reader.error(
            f"{label}: version {version}, expected 0 (is this a PaddlePaddle parameter file?)",
            start,
        )
    lod_level = reader.unpack(_U64, f"the LoD level of {label}")
    for level in range(lod_level):
        at = reader.pos
        nbytes = reader.unpack(_U64, f"the size of LoD level {level} of {label}")
        if nbytes % 8:
            raise reader.error(
                f"{label}: LoD level {level} has {nbytes} bytes, not a multiple of 8", at
            )
        reader.take(nbytes, f"LoD level {level} of {label}")
    at = reader.pos
    tensor_version = reader.unpack(_U32, f"the tensor version of {label}")
    if tensor_version != 0:
        raise reader.error(f"{label}: tensor version {tensor_version}, expected 0", at)
    at = reader.pos
    desc_size = reader.unpack(_I32, f"the TensorDesc size of {label}")
    if desc_size < 0:
        raise reader.error(f"{label}: negative TensorDesc size {desc_size}", at)
    desc_at = reader.pos
    try:
        desc = decode_tensor_desc(reader.take(desc_size, f"the TensorDesc of {label}"))
    except TensorDescError as error:
        raise reader.error(f"{label}: bad TensorDesc: {error}", desc_at + error.offset) from None
    try:
        dtype = numpy_dtype_of(desc.data_type)
    except UnimplementedError as error:
        raise UnimplementedError(f"{reader.source}: at byte {desc_at}: {label}: {error}") from None
    except InvalidArgumentError as error:
        raise reader.error(f"{label}: {error}", desc_at) from None
    if len(desc.dims) > MAX_TENSOR_DIMS:
        raise reader.error(
            f"{label}: {len(desc.dims)} dims; a tensor has at most {MAX_TENSOR_DIMS} "
            "(phiops.runtime.file_limits.MAX_TENSOR_DIMS)",
            desc_at,
        )
    if any(d < 0 for d in desc.dims):
        raise reader.error(f"{label}: dims {list(desc.dims)} are not all known", desc_at)
    count = math.prod(desc.dims)  # Python's ints: a product past int64 is no wrapped count
    if count * dtype.itemsize > len(reader.data) - reader.pos:
        raise reader.error(
            f"truncated: the data of {label} ({list(desc.dims)} {dtype}) needs "
            f"{count * dtype.itemsize} byte(s), only {len(reader.data) - reader.pos} left"
        )
    raw = reader.take(count * dtype.itemsize, f"the data of {label} ({list(desc.dims)} {dtype})")
    array = np.frombuffer(raw, dtype=dtype).reshape(desc.dims)
    return array.astype(dtype.newbyteorder("="), copy=True)


def read_tensor(data: bytes, offset: int = 0, source: str = "<bytes>") -> tuple[np.ndarray, int]:
    """The tensor that starts at ``offset`` of ``data`` and the offset just after it."""
    reader = _Reader(data, source)
    reader.pos = offset
    array = _read_one(reader, "tensor")
    return array, reader.pos


def save_combine(path: PathLike, arrays: Mapping[str, np.ndarray]) -> None:
    """Write ``arrays`` as PaddlePaddle's `save_combine` file: ascending name order, no names."""
    with open(path, "wb") as f:
        for name in sorted(arrays):
            try:
                f.write(tensor_to_bytes(arrays[name]))
            except InvalidArgumentError as error:
                raise InvalidArgumentError(f"{os.fspath(path)}: parameter '{name}': {error}")


def _read_file(path: PathLike) -> tuple[bytes, str]:
    source = os.fspath(path)
    data = read_file_bytes(path, MAX_PARAMS_FILE_BYTES, "MAX_PARAMS_FILE_BYTES", "parameter file")
    return data, source


def load_combine(path: PathLike, names: Sequence[str]) -> dict[str, np.ndarray]:
    """Read a `save_combine` file holding exactly the tensors ``names`` (matched in sorted
    order); an error names the file and the byte offset when it holds fewer or more."""
    data, source = _read_file(path)
    reader = _Reader(data, source)
    ordered = sorted(names)
    arrays: dict[str, np.ndarray] = {}
    for index, name in enumerate(ordered):
        if reader.pos == len(data):
            raise reader.error(
                f"the file ends after {index} tensor(s), the program has {len(ordered)} "
                f"parameter(s); missing: {', '.join(ordered[index:])}"
            )
        arrays[name] = _read_one(reader, f"tensor {index} ('{name}')")
    if reader.pos != len(data):
        raise reader.error(
            f"{len(data) - reader.pos} byte(s) left after the {len(ordered)} tensor(s) of the "
            f"program's parameters: the file holds more tensors than the program names"
        )
    return arrays


def read_all_tensors(path: PathLike) -> list[np.ndarray]:
    """Every tensor of a `save_combine` file, in file order (the names are not in the file)."""
    data, source = _read_file(path)
    reader = _Reader(data, source)
    arrays = []
    while reader.pos < len(data):
        arrays.append(_read_one(reader, f"tensor {len(arrays)}"))
    return arrays
