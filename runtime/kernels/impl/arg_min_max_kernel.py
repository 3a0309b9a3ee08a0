"""argmax and argmin: the index of the first extreme value along an axis.

Semantics are PHI's (paddle/phi/kernels/cpu/arg_min_max_kernel.cc with ArgMinMaxInferMeta):
``flatten`` searches the flattened tensor (``keepdims`` then keeps every dimension as 1); a 0-D
input gives index 0 (shape [1] with ``keepdims``, as PaddlePaddle's InferMeta says); the result
is int32 or int64 as ``dtype`` asks (int64 when UNDEFINED). Searching a zero-size axis raises
InvalidArgumentError.

NaN follows PaddlePaddle 3.3.1's CPU kernel (Eigen's arg-max reducer): the search starts from
index 0 holding the lowest finite value (highest, for argmin) and moves only to a strictly
greater (smaller) value, so a NaN is never chosen over a number, and a slice with no value
beyond that start (all NaN, or NaN with -inf) gives index 0.
"""

from __future__ import annotations

from typing import Any

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType

# PaddlePaddle's CPU registration (paddle/phi/kernels/cpu/arg_min_max_kernel.cc).
ARG_MIN_MAX_DTYPES = (D.UINT8, D.INT16, D.INT32, D.INT64, D.FLOAT32, D.FLOAT64)


def _output_dtype_by_attribute(kernel: Kernel) -> None:
    # As PHI's registration: the output dtype comes from the ``dtype`` attribute.
    kernel.output_at(0).set_dtype(DataType.UNDEFINED)


def _arg_extreme(
    ctx: KernelContext,
    name: str,
    x: Array,
    axis: int,
    keepdims: bool,
    flatten: bool,
    dtype: DataType,
) -> Array:
    xp = ctx.xp
    ndim = x.ndim
    out_dtype = (
        DataType.INT32.numpy_dtype if dtype is DataType.INT32 else DataType.INT64.numpy_dtype
    )
    if x.ndim == 0:
        return xp.zeros((1,) if keepdims and not flatten else (), dtype=out_dtype)
    extent = x.size if flatten else x.shape[axis]
    if extent == 0:
        raise InvalidArgumentError(
            f"{name}: cannot search an empty axis of a tensor with shape {list(x.shape)}"
        )
    if flatten:
        x, axis = x.reshape(-1), 0
    index = _search(xp, name, x, axis)
    if flatten:
        index = index.reshape((1,) * ndim if keepdims else ())
    elif not keepdims:
        index = xp.squeeze(index, axis=axis)
    return index.astype(out_dtype, copy=False)


def _search(xp: Any, name: str, x: Array, axis: int) -> Array:
    """Indices (keeping ``axis`` as 1) of the first extreme value, NaN handled as Eigen does."""
    search = xp.argmax if name == "argmax" else xp.argmin
    if x.dtype.kind != "f" or not bool(xp.isnan(x).any()):
        return search(x, axis=axis, keepdims=True)
    maximum = name == "argmax"
    filled = xp.where(xp.isnan(x), -xp.inf if maximum else xp.inf, x)
    index = search(filled, axis=axis, keepdims=True)
    best = xp.take_along_axis(filled, index, axis=axis)
    start = xp.finfo(x.dtype).min if maximum else xp.finfo(x.dtype).max
    moved = best > start if maximum else best < start
    return xp.where(moved, index, 0)


@register_kernel("argmax", dtypes=ARG_MIN_MAX_DTYPES, configure=_output_dtype_by_attribute)
def argmax_kernel(
    ctx: KernelContext, x: Array, axis: int, keepdims: bool, flatten: bool, dtype: DataType
) -> Array:
    return _arg_extreme(ctx, "argmax", x, axis, keepdims, flatten, dtype)


@register_kernel("argmin", dtypes=ARG_MIN_MAX_DTYPES, configure=_output_dtype_by_attribute)
def argmin_kernel(
    ctx: KernelContext, x: Array, axis: int, keepdims: bool, flatten: bool, dtype: DataType
) -> Array:
    return _arg_extreme(ctx, "argmin", x, axis, keepdims, flatten, dtype)
