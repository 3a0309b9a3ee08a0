"""InferMeta functions of ops with no tensor input."""

from __future__ import annotations

import math

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor
from phiops.runtime.infermeta.dims import integer_scalar
from phiops.runtime.errors import InvalidArgumentError

_RUNTIME = MetaConfig()

# PaddlePaddle 3.3.1's CPU registrations of arange.
ARANGE_DTYPES = (DataType.INT32, DataType.INT64, DataType.FLOAT32, DataType.FLOAT64)


def create_infer_meta(
    shape: tuple[int, ...], dtype: DataType, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``out`` has dims ``shape`` (every size >= 0; -1, unknown, while a graph is built) and
    dtype ``dtype``."""
    if any(extent < 0 and (config.is_runtime or extent != -1) for extent in shape):
        raise InvalidArgumentError(f"argument 'shape' must hold sizes >= 0, got {list(shape)}")
    if dtype is DataType.UNDEFINED:
        raise InvalidArgumentError("argument 'dtype' must be a defined data type, got UNDEFINED")
    out.set_dims(shape)
    out.set_dtype(dtype)


def assign_value_infer_meta(
    shape: tuple[int, ...], dtype: DataType, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """PHI's AssignValueInferMeta: ``out`` has dims ``shape`` and dtype ``dtype``."""
    create_infer_meta(shape, dtype, out, config)


# Random and creation ops ----------------------------------------------------------------------


def uniform_random_infer_meta(
    shape: tuple[int, ...], dtype: DataType, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``out`` has dims ``shape`` and dtype ``dtype``."""
    create_infer_meta(shape, dtype, out, config)


def gaussian_infer_meta(
    shape: tuple[int, ...],
    mean: float,
    std: float,
    seed: int,
    dtype: DataType,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``out`` has dims ``shape`` and dtype ``dtype``."""
    create_infer_meta(shape, dtype, out, config)


def randint_infer_meta(
    low: int,
    high: int,
    shape: tuple[int, ...],
    dtype: DataType,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """Integers in [low, high): ``low`` must be below ``high``; dims ``shape``."""
    if low >= high:
        raise InvalidArgumentError(
            f"argument 'low' must be less than argument 'high', got low = {low}, high = {high}"
        )
    create_infer_meta(shape, dtype, out, config)


def randperm_infer_meta(
    n: int, dtype: DataType, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """A permutation of 0..n-1: dims [n], ``n`` >= 0."""
    if n < 0:
        raise InvalidArgumentError(f"argument 'n' must be >= 0, got {n}")
    create_infer_meta((n,), dtype, out, config)


def eye_infer_meta(
    num_rows: int, num_columns: int, dtype: DataType, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """A [num_rows, num_columns] identity (num_columns -1 means num_rows)."""
    num_rows = integer_scalar(num_rows, "num_rows")
    num_columns = integer_scalar(num_columns, "num_columns")
    if num_columns == -1:
        num_columns = num_rows
    if num_rows < 0 or num_columns < 0:
        raise InvalidArgumentError(
            f"arguments 'num_rows' and 'num_columns' must be >= 0 (num_columns may be -1), got "
            f"{num_rows} and {num_columns}"
        )
    create_infer_meta((num_rows, num_columns), dtype, out, config)


def create_vec_shape_infer_meta(
    value: tuple[int, ...], dtype: DataType, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """A 1-D tensor of len(value) elements."""
    create_infer_meta((len(value),), dtype, out, config)


def arange_values(
    start: float, end: float, step: float, dtype: DataType
) -> tuple[np.generic, np.generic, int]:
    """(first value, step, count) of arange in ``dtype``, as PaddlePaddle 3.3.1 computes them:
    start, end and step are first converted to ``dtype`` (a float truncated toward zero for an
    integer dtype, as paddle.arange's fill_constant/cast do), then the count is taken in that
    type (funcs::GetSize: 0 when step points away from end). A dtype arange has no kernel for
    is counted in float64."""
    for name, value in (("start", start), ("end", end), ("step", step)):
        if isinstance(value, complex) or not math.isfinite(value):
            raise InvalidArgumentError(
                f"argument '{name}' must be a finite real number, got {value}"
            )
    kind = dtype.numpy_dtype.type if dtype in ARANGE_DTYPES else np.float64
    if issubclass(kind, np.integer):
        first, last, stride = int(start), int(end), int(step)
    else:
        first, last, stride = kind(start), kind(end), kind(step)
    if stride == 0:
        raise InvalidArgumentError(f"argument 'step' must not be 0 once converted to {dtype}")
    if (first < last and stride < 0) or (first > last and stride > 0):
        return kind(first), kind(stride), 0
    if issubclass(kind, np.integer):
        count = (abs(last - first) + abs(stride) - 1) // abs(stride)
    else:
        count = float(np.ceil(np.abs((last - first) / stride)))
        if not math.isfinite(count):
            raise InvalidArgumentError(
                f"arange from {start} to {end} by {step} has too many values to count in {dtype}"
            )
    return kind(first), kind(stride), int(count)


def arange_infer_meta(
    start: float,
    end: float,
    step: float,
    dtype: DataType,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """A 1-D tensor of the values start, start + step, ... before ``end`` (see arange_values)."""
    create_infer_meta((arange_values(start, end, step, dtype)[2],), dtype, out, config)


def linspace_infer_meta(
    start: float,
    stop: float,
    number: int,
    dtype: DataType,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``number`` (>= 0) evenly spaced values from ``start`` to ``stop``."""
    if number < 0:
        raise InvalidArgumentError(f"argument 'number' must be >= 0, got {number}")
    create_infer_meta((number,), dtype, out, config)


def data_infer_meta(
    name: str,
    shape: tuple[int, ...],
    dtype: DataType,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's DataInferMeta: ``out`` (the program input ``name``) has dims ``shape`` and dtype
    ``dtype``. An extent may be -1 (unknown) in a program; an eager tensor's are all known."""
    if config.is_runtime and any(extent < 0 for extent in shape):
        raise InvalidArgumentError(
            f"argument 'shape' is {list(shape)}: an unknown (-1) or negative extent is only "
            f"allowed while a program is built (the feed of input '{name}' gives it), an eager "
            "tensor's extents are sizes >= 0"
        )
    create_infer_meta(shape, dtype, out, config)
