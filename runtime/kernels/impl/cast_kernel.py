"""cast and assign: element-type conversion and copy."""

from __future__ import annotations

from runtime.common import Backend, DataType
from runtime.kernels.kernel import Array, Kernel, KernelContext
from runtime.kernels.floating_point import ieee_results
from runtime.kernels.registration import ALL_TYPES, register_kernel

# PaddlePaddle's CPU registration (paddle/phi/kernels/cpu/cast_kernel.cc) without bfloat16 and
# float8: the dtypes ``x`` may have; the target may be any dtype numpy has.
CAST_DTYPES = ALL_TYPES


def _output_dtype_from_attribute(kernel: Kernel) -> None:
    """PHI: OutputAt(0).SetDataType(UNDEFINED), the output dtype is the ``dtype`` attribute."""
    kernel.output_at(0).set_dtype(DataType.UNDEFINED)


def _any_backend_input(kernel: Kernel) -> None:
    """PHI registers assign for every dtype, with InputAt(0).SetBackend(ALL_BACKEND)."""
    kernel.input_at(0).set_backend(Backend.ALL_BACKEND)


@register_kernel("cast", dtypes=CAST_DTYPES, configure=_output_dtype_from_attribute)
@ieee_results
def cast_kernel(ctx: KernelContext, x: Array, dtype: DataType) -> Array:
    """x converted to ``dtype`` as C++'s static_cast converts each element: floats to integers
    truncate toward zero (out-of-range values and nan give unspecified integers), anything to
    bool is ``!= 0`` (nan is true), complex to a real type keeps the real part. Always a copy,
    also when the dtype does not change."""
    target = dtype.numpy_dtype
    if x.dtype.kind == "c" and target.kind != "c":
        if target.kind == "b":
            return ctx.xp.not_equal(x, 0)
        x = x.real
    return x.astype(target, copy=True)


@register_kernel("assign", dtypes=(DataType.ALL_DTYPE,), configure=_any_backend_input)
def assign_kernel(ctx: KernelContext, x: Array) -> Array:
    """A copy of x (never a view of it)."""
    return x.copy()
