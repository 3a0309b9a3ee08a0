"""Reduction kernels: sum, mean, max, min, prod.

``axis`` arrives checked by InferMeta (ReduceIntArrayAxisInferMeta / SumInferMeta): an empty
``axis`` (or ``reduce_all``) reduces every axis, negative entries count from the end. Semantics
are PHI's (paddle/phi/kernels/reduce_*_kernel.cc):
- sum of bool and int32 gives int64 unless ``dtype`` says otherwise; other inputs keep their
  dtype (integers wrap around as C++ does) and float16 accumulates in float32;
- mean of bool, int32 and int64 is computed in floating point and cast back to the input dtype
  (truncated toward zero; bool: any nonzero mean is True); the mean of zero elements is nan;
- max and min over a zero-size axis have no identity and raise InvalidArgumentError.
"""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import ALL_TYPES, register_kernel

D = DataType

# PaddlePaddle's CPU registrations without bfloat16.
SUM_DTYPES = ALL_TYPES
MEAN_DTYPES = (D.BOOL, D.INT32, D.INT64, D.FLOAT32, D.FLOAT64, D.COMPLEX64, D.COMPLEX128)
MAX_MIN_DTYPES = (D.INT32, D.INT64, D.FLOAT32, D.FLOAT64)
PROD_DTYPES = (D.INT32, D.INT64, D.FLOAT32, D.FLOAT64, D.COMPLEX64, D.COMPLEX128)


_INT64 = D.INT64.numpy_dtype
_FLOAT16 = D.FLOAT16.numpy_dtype
# Half-precision sums accumulate in float32, as PHI's reduce kernels do.
_HALF = (_FLOAT16, D.BFLOAT16.numpy_dtype)
_FLOAT32 = D.FLOAT32.numpy_dtype
_WIDENED_BY_SUM = (D.BOOL.numpy_dtype, D.INT32.numpy_dtype)


def _output_dtype_by_attribute(kernel: Kernel) -> None:
    # As PHI's sum registration: the output dtype comes from the ``dtype`` attribute.
    kernel.output_at(0).set_dtype(DataType.UNDEFINED)


def reduction_axes(axis: tuple[int, ...], ndim: int, reduce_all: bool = False) -> tuple[int, ...]:
    """The axes a reduction (or its grad) runs over, non-negative and sorted: every axis when
    ``axis`` is empty or ``reduce_all``; none for a 0-D tensor."""
    if reduce_all or not axis:
        return tuple(range(ndim))
    return tuple(sorted({entry + ndim if entry < 0 else entry for entry in axis})) if ndim else ()


def _count(shape: tuple[int, ...], axes: tuple[int, ...]) -> int:
    count = 1
    for index in axes:
        count *= shape[index]
    return count


def _reduced_shape(shape: tuple[int, ...], axes: tuple[int, ...], keepdim: bool) -> tuple[int, ...]:
    return tuple(
        1 if i in axes else extent for i, extent in enumerate(shape) if keepdim or i not in axes
    )


@register_kernel("sum", dtypes=SUM_DTYPES, configure=_output_dtype_by_attribute)
def sum_kernel(
    ctx: KernelContext, x: Array, axis: tuple[int, ...], dtype: DataType, keepdim: bool
) -> Array:
    if dtype is not DataType.UNDEFINED:
        out_dtype = dtype.numpy_dtype
    elif x.dtype in _WIDENED_BY_SUM:
        out_dtype = _INT64
    else:
        out_dtype = x.dtype
    # A 0-D tensor accepts axis 0 or -1 (PaddlePaddle), which numpy rejects: reduce nothing.
    axes = (axis or None) if x.ndim else ()
    if out_dtype in _HALF:
        total = x.sum(axis=axes, dtype=_FLOAT32, keepdims=keepdim)
        return total.astype(out_dtype)
    # ndarray.sum, not xp.sum: the method skips a Python-level wrapper (a third of a small call).
    return x.sum(axis=axes, dtype=out_dtype, keepdims=keepdim)


@register_kernel("mean", dtypes=MEAN_DTYPES)
def mean_kernel(ctx: KernelContext, x: Array, axis: tuple[int, ...], keepdim: bool) -> Array:
    xp = ctx.xp
    axes = reduction_axes(axis, x.ndim)
    exact = x.dtype.kind in "biu"
    if _count(x.shape, axes) == 0:
        if exact:
            raise InvalidArgumentError(
                f"mean: the mean of zero elements of a {x.dtype} tensor with shape {list(x.shape)} "
                "has no value in that dtype"
            )
        return xp.full(_reduced_shape(x.shape, axes, keepdim), xp.nan, dtype=x.dtype)
    if exact:
        return xp.mean(x, axis=axes, dtype=xp.float64, keepdims=keepdim).astype(x.dtype)
    return xp.mean(x, axis=axes, keepdims=keepdim)


def _extreme(
    ctx: KernelContext, x: Array, axis: tuple[int, ...], keepdim: bool, name: str
) -> Array:
    axes = reduction_axes(axis, x.ndim)
    if _count(x.shape, axes) == 0:
        raise InvalidArgumentError(
            f"{name}: zero-size tensor with shape {list(x.shape)} cannot be reduced along axes "
            f"{list(axes)}: the reduction has no identity"
        )
    reduce = ctx.xp.max if name == "max" else ctx.xp.min
    return reduce(x, axis=axes, keepdims=keepdim)


@register_kernel("max", dtypes=MAX_MIN_DTYPES)
def max_kernel(ctx: KernelContext, x: Array, axis: tuple[int, ...], keepdim: bool) -> Array:
    return _extreme(ctx, x, axis, keepdim, "max")


@register_kernel("min", dtypes=MAX_MIN_DTYPES)
def min_kernel(ctx: KernelContext, x: Array, axis: tuple[int, ...], keepdim: bool) -> Array:
    return _extreme(ctx, x, axis, keepdim, "min")


@register_kernel("prod", dtypes=PROD_DTYPES)
def prod_kernel(
    ctx: KernelContext, x: Array, axis: tuple[int, ...], keepdim: bool, reduce_all: bool
) -> Array:
    return ctx.xp.prod(
        x, axis=reduction_axes(axis, x.ndim, reduce_all), dtype=x.dtype, keepdims=keepdim
    )
