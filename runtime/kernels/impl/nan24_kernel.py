"""Kernels of the nan24 ops of issue 24 (numerics checks, reduce_as and buffer ops), for the
dtypes PaddlePaddle 3.3.1 registers on CPU, with PHI's semantics:

- check_numerics (paddle/phi/kernels/cpu/check_numerics_kernel.cc and
  funcs/check_numerics_utils.h; float16, bfloat16, float32, float64, complex64, complex128):
  one pass (3.3.1 asks OpenMP for its thread count outside a parallel region, so it always
  gets one thread) in float32 (float64 for float64 tensors) counts NaNs, infinities and zeros,
  keeps max and min by ``std::max``/``std::min`` (which never replace a value by NaN, so NaNs
  are skipped unless the first element is one) and adds value / numel in order for the mean.
  A tensor with NaN or Inf is reported ("[PRECISION] [ERROR] in ...") and, at level 0 without
  an output_dir, refused with a PreconditionNotMetError; levels 2 (float32 values beyond
  float16's range) and 3 report other tensors too. With an output_dir the report is appended
  to output_dir + "worker_cpu". A complex tensor is only checked for NaN and Inf (the report
  names no dtype); 3.3.1 leaves its stats and values unset, phiops gives zeros.
- check_model_nan_inf (paddle/phi/kernels/check_model_nan_inf_kernel.h): a copy of x, and
  FLAGS_check_nan_inf set to ``flag != 0``.
- reduce_as (paddle/phi/kernels/cpu/reduce_as_kernel.cc): the sum of x over its leading axes
  that target lacks and over the axes where target has extent 1, bool and int32 into int64,
  other integers wrapping in their own dtype, float16 and bfloat16 summed in float32.
- coalesce_tensor (paddle/phi/kernels/coalesce_tensor_kernel.cc; int32, float32, float64): one
  1-D buffer holding each input at an offset rounded up to the alignment (align_size bytes, or
  PaddlePaddle's CPU chunk of 4096), the outputs views of it; copy_data copies the inputs in,
  else set_constant fills the whole buffer with the float32 constant converted to dtype. What
  neither writes is 0 here; 3.3.1 leaves it as allocated.
"""

from __future__ import annotations

import math
import os
import sys

import numpy as np

from phiops.runtime import flags
from phiops.runtime.common import DataType
from phiops.runtime.errors import PreconditionNotMetError, ResourceExhaustedError
from phiops.runtime.infermeta.nan24 import coalesced_length
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import ALL_TYPES, register_kernel

D = DataType
CHECK_NUMERICS_DTYPES = (D.FLOAT16, D.BFLOAT16, D.FLOAT32, D.FLOAT64, D.COMPLEX64, D.COMPLEX128)
CHECK_MODEL_NAN_INF_DTYPES = (
    D.BOOL, D.INT32, D.INT64, D.FLOAT16, D.BFLOAT16, D.FLOAT32, D.FLOAT64, D.COMPLEX64,
    D.COMPLEX128,
)  # fmt: skip
REDUCE_AS_DTYPES = ALL_TYPES

_DTYPE_NAMES = {"float32": "fp32", "float64": "fp64", "float16": "fp16", "bfloat16": "bf16"}
_FLOAT16_MAX = 65504.0


def _stats_dtypes(kernel: Kernel) -> None:
    kernel.output_at(0).set_dtype(DataType.INT64)
    kernel.output_at(1).set_dtype(DataType.FLOAT32)


def _printf_e(value: float) -> str:
    """C's ``%e``, which writes a NaN with its sign bit set (inf - inf's) as -nan."""
    if math.isnan(value):
        return "-nan" if math.copysign(1.0, value) < 0 else "nan"
    return f"{value:e}"


def _report(hint: str, numel: int, counts: tuple[int, int, int], values: tuple[float, ...]) -> str:
    num_nan, num_inf, num_zero = counts
    largest, smallest, mean = (_printf_e(v) for v in values)
    if num_nan or num_inf:
        return (
            f"[PRECISION] [ERROR] in {hint}, numel={numel}, num_nan={num_nan}, "
            f"num_inf={num_inf}, num_zero={num_zero}, max={largest}, min={smallest}, mean={mean}"
        )
    return (
        f"[PRECISION] in {hint}, numel={numel}, num_zero={num_zero}, max={largest}, "
        f"min={smallest}, mean={mean}"
    )


def _needs_report(is_float32: bool, largest: float, smallest: float, level: int) -> bool:
    if level >= 3:
        return True
    return is_float32 and level >= 2 and (largest > _FLOAT16_MAX or smallest < -_FLOAT16_MAX)


def _write_report(output_dir: str, line: str) -> None:
    try:
        os.mkdir(output_dir)
    except OSError:
        pass  # there already, or its parent is missing: opening the file says which
    filename = output_dir + "worker_cpu"
    try:
        with open(filename, "a", encoding="utf-8") as log:
            log.write(line + "\n")
    except OSError as exc:
        raise ResourceExhaustedError(
            f"check_numerics: fail to open output file {filename}, please check the specified "
            f"output_dir ({output_dir}): {exc.strerror}"
        ) from None


@register_kernel("check_numerics", dtypes=CHECK_NUMERICS_DTYPES, configure=_stats_dtypes)
def check_numerics_kernel(
    ctx: KernelContext,
    tensor: Array,
    op_type: str,
    var_name: str,
    check_nan_inf_level: int,
    stack_height_limit: int,
    output_dir: str,
) -> tuple[Array, Array]:
    xp = ctx.xp
    stats = xp.zeros(3, dtype=np.int64)
    values = xp.zeros(3, dtype=np.float32)
    if tensor.size == 0:
        return stats, values
    dtype_name = _DTYPE_NAMES.get(np.dtype(tensor.dtype).name, "")
    hint = f"[device=cpu, op={op_type}, tensor={var_name}, dtype={dtype_name}]"
    if tensor.dtype.kind == "c":
        if not bool(xp.isfinite(tensor).all()):
            raise PreconditionNotMetError(f"check_numerics: There are NAN or INF in {hint}.")
        return stats, values
    flat = tensor.reshape(-1)
    if flat.dtype != np.float64:
        flat = flat.astype(np.float32)
    is_nan = xp.isnan(flat)
    counts = (int(is_nan.sum()), int(xp.isinf(flat).sum()), int((flat == 0).sum()))
    if bool(is_nan[0]):
        largest = smallest = float("nan")
    else:
        kept = xp.where(is_nan, flat[0], flat)
        largest, smallest = float(kept.max()), float(kept.min())
    with np.errstate(invalid="ignore", over="ignore"):
        mean = float(xp.cumsum(flat / flat.dtype.type(flat.size), dtype=flat.dtype)[-1])
    found = np.array([largest, smallest, mean], dtype=np.float32)
    stats = xp.asarray(np.array(counts, dtype=np.int64))
    values = xp.asarray(found)
    shown = tuple(float(v) for v in found)
    bad = counts[0] > 0 or counts[1] > 0
    is_float32 = tensor.dtype == np.float32
    if not bad and not _needs_report(is_float32, largest, smallest, check_nan_inf_level):
        return stats, values
    line = _report(hint, flat.size, counts, shown)
    if output_dir:
        _write_report(output_dir, line)
        return stats, values
    sys.stdout.write(line + "\n")
    if bad and check_nan_inf_level == 0:
        raise PreconditionNotMetError(
            f"check_numerics: There are NAN or INF (num_nan={counts[0]}, num_inf={counts[1]}, "
            f"num_zero={counts[2]}) in {hint}."
        )
    return stats, values


@register_kernel("check_model_nan_inf", dtypes=CHECK_MODEL_NAN_INF_DTYPES)
def check_model_nan_inf_kernel(ctx: KernelContext, x: Array, flag: int) -> Array:
    wanted = flag != 0
    if flags.flag_value("check_nan_inf") != wanted:
        flags.set_flags({"check_nan_inf": wanted})
    return x.copy()


def reduce_as_axes(x_shape: tuple[int, ...], target_shape: tuple[int, ...]) -> tuple[int, ...]:
    """The axes of x that reduce_as sums: those target lacks, and those where it has 1."""
    lead = len(x_shape) - len(target_shape)
    return tuple(range(lead)) + tuple(
        lead + axis
        for axis, extent in enumerate(target_shape)
        if extent == 1 and x_shape[lead + axis] != 1
    )


def _reduce_as_dtypes(kernel: Kernel) -> None:
    kernel.input_at(1).set_dtype(DataType.ALL_DTYPE)  # only its dims are read
    if kernel.key.dtype in (DataType.BOOL, DataType.INT32):
        kernel.output_at(0).set_dtype(DataType.INT64)


@register_kernel("reduce_as", dtypes=REDUCE_AS_DTYPES, configure=_reduce_as_dtypes)
def reduce_as_kernel(ctx: KernelContext, x: Array, target: Array) -> Array:
    xp = ctx.xp
    axes = reduce_as_axes(tuple(x.shape), tuple(target.shape))
    if x.dtype in (np.bool_, np.int32):
        return xp.sum(x, axis=axes, dtype=np.int64).reshape(target.shape)
    if x.dtype == np.float16 or x.dtype.kind == "V":  # bfloat16 (ml_dtypes)
        summed = xp.sum(x.astype(np.float32), axis=axes, dtype=np.float32)
        return summed.astype(x.dtype).reshape(target.shape)
    return xp.sum(x, axis=axes, dtype=x.dtype).reshape(target.shape)


@register_kernel("coalesce_tensor", dtypes=(D.INT32, D.FLOAT32, D.FLOAT64))
def coalesce_tensor_kernel(
    ctx: KernelContext,
    input: list[Array],
    dtype: DataType,
    copy_data: bool,
    set_constant: bool,
    persist_output: bool,
    constant: float,
    use_align: bool,
    align_size: int,
    size_of_dtype: int,
    concated_shapes: list[int],
    concated_ranks: list[int],
) -> tuple[list[Array], Array]:
    xp = ctx.xp
    kind = dtype.numpy_dtype
    element_size = size_of_dtype if size_of_dtype > 0 else kind.itemsize
    lengths = [coalesced_length(x.size, use_align, align_size, element_size) for x in input]
    fused = xp.zeros(sum(lengths), dtype=kind)
    if not copy_data and set_constant:
        fused[...] = np.float32(constant).astype(kind)
    views, offset = [], 0
    for x, length in zip(input, lengths):
        view = fused[offset : offset + x.size]
        if copy_data:
            view[...] = x.reshape(-1)
        views.append(view.reshape(x.shape))
        offset += length
    return views, fused
