"""PaddlePaddle's `VarType.TensorDesc` protobuf message (framework.proto), written and read by
hand: two fields, so a protobuf dependency would buy nothing.

    message TensorDesc {
      required Type data_type = 1;  // varint (enum VarType.Type)
      repeated int64 dims = 2;      // varint each (proto2: unpacked; packed is accepted too)
    }
"""

from __future__ import annotations

from dataclasses import dataclass

import ml_dtypes
import numpy as np

from phiops.runtime.errors import InvalidArgumentError, UnimplementedError

__all__ = [
    "TensorDesc",
    "TensorDescError",
    "encode_tensor_desc",
    "decode_tensor_desc",
    "numpy_dtype_of",
    "var_type_of",
]

# VarType.Type values of the element types (framework.proto as PaddlePaddle 3.3.1 ships it)
_VAR_TYPE_TO_NUMPY = {
    0: np.dtype("bool"),
    1: np.dtype("<i2"),
    2: np.dtype("<i4"),
    3: np.dtype("<i8"),
    4: np.dtype("<f2"),
    5: np.dtype("<f4"),
    6: np.dtype("<f8"),
    20: np.dtype("u1"),
    21: np.dtype("i1"),
    23: np.dtype("<c8"),
    24: np.dtype("<c16"),
    36: np.dtype("<u2"),
    37: np.dtype("<u4"),
    38: np.dtype("<u8"),
    22: np.dtype(ml_dtypes.bfloat16),
}
_NUMPY_TO_VAR_TYPE = {dtype.newbyteorder("<"): code for code, dtype in _VAR_TYPE_TO_NUMPY.items()}
# element types phiops has no numpy array for
_UNSUPPORTED = {19: "size_t", 32: "float8_e4m3fn", 33: "float8_e5m2"}

_FIELD_DATA_TYPE = 1
_FIELD_DIMS = 2
_VARINT, _I64, _LEN, _I32 = 0, 1, 2, 5


class TensorDescError(InvalidArgumentError):
    """A malformed TensorDesc; ``offset`` is the byte offset inside the message."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.offset = offset


@dataclass(frozen=True)
class TensorDesc:
    data_type: int
    dims: tuple[int, ...]


def numpy_dtype_of(data_type: int) -> np.dtype:
    """The (little-endian) numpy dtype of a VarType.Type element code."""
    dtype = _VAR_TYPE_TO_NUMPY.get(data_type)
    if dtype is not None:
        return dtype
    if data_type in _UNSUPPORTED:
        raise UnimplementedError(
            f"tensors of element type {_UNSUPPORTED[data_type]} (VarType {data_type}) cannot be "
            "read: phiops has no numpy dtype for it"
        )
    raise InvalidArgumentError(f"VarType {data_type} is not an element type of a tensor")


def var_type_of(dtype: np.dtype) -> int:
    """The VarType.Type element code of a numpy dtype."""
    code = _NUMPY_TO_VAR_TYPE.get(np.dtype(dtype).newbyteorder("<"))
    if code is None:
        raise InvalidArgumentError(
            f"numpy dtype {np.dtype(dtype)} has no PaddlePaddle tensor element type"
        )
    return code


def _varint(value: int) -> bytes:
    value &= (1 << 64) - 1  # int64 fields encode negatives as ten-byte two's complement
    out = bytearray()
    while True:
        low = value & 0x7F
        value >>= 7
        if value:
            out.append(low | 0x80)
        else:
            out.append(low)
            return bytes(out)


def encode_tensor_desc(desc: TensorDesc) -> bytes:
    """The message's wire bytes, field by field as protobuf's C++ serializer writes them."""
    out = bytearray(_varint(_FIELD_DATA_TYPE << 3 | _VARINT))
    out += _varint(desc.data_type)
    for dim in desc.dims:
        out += _varint(_FIELD_DIMS << 3 | _VARINT)
        out += _varint(dim)
    return bytes(out)


def _read_varint(data: bytes, pos: int) -> tuple[int, int]:
    start, result, shift = pos, 0, 0
    while True:
        if pos >= len(data):
            raise TensorDescError("truncated varint", start)
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7
        if shift >= 70:
            raise TensorDescError("varint longer than ten bytes", start)


def _signed64(value: int) -> int:
    value &= (1 << 64) - 1
    return value - (1 << 64) if value >= 1 << 63 else value


def decode_tensor_desc(data: bytes) -> TensorDesc:
    """Parse the wire bytes; unknown fields are skipped, as protobuf does."""
    data_type: int | None = None
    dims: list[int] = []
    pos = 0
    while pos < len(data):
        key_at = pos
        key, pos = _read_varint(data, pos)
        field, wire = key >> 3, key & 7
        if field == _FIELD_DATA_TYPE and wire == _VARINT:
            data_type, pos = _read_varint(data, pos)
        elif field == _FIELD_DIMS and wire == _VARINT:
            dim, pos = _read_varint(data, pos)
            dims.append(_signed64(dim))
        elif field == _FIELD_DIMS and wire == _LEN:
            length, pos = _read_varint(data, pos)
            end = pos + length
            if end > len(data):
                raise TensorDescError("packed dims run past the end of the message", key_at)
            while pos < end:
                dim, pos = _read_varint(data, pos)
                dims.append(_signed64(dim))
        elif wire == _VARINT:
            _, pos = _read_varint(data, pos)
        elif wire in (_I64, _I32):
            pos += 8 if wire == _I64 else 4
        elif wire == _LEN:
            length, pos = _read_varint(data, pos)
            pos += length
        else:
            raise TensorDescError(f"field {field} has wire type {wire}", key_at)
        if pos > len(data):
            raise TensorDescError(f"field {field} runs past the end of the message", key_at)
    if data_type is None:
        raise TensorDescError("the required field data_type (1) is missing", 0)
    return TensorDesc(data_type, tuple(dims))
