"""Sorting kernels: argsort (values and indices; paddle.sort is its ``out``), topk, unique.

Orders are stable: equal values keep their input order, ascending or descending, so results
are deterministic (PaddlePaddle's ``stable=False`` leaves the order of ties unspecified; for
distinct values every order agrees). topk with ``sorted=False`` returns PaddlePaddle's own
unsorted order (see topk_kernel). Indices are int64.
"""

from __future__ import annotations

from typing import Any

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.impl.nth_element import nth_element
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType

# PaddlePaddle 3.3.1's CPU registrations (argsort; top_k_v2 for topk; unique).
ARGSORT_DTYPES = (D.UINT8, D.INT16, D.INT32, D.INT64, D.FLOAT16, D.BFLOAT16, D.FLOAT32)
ARGSORT_DTYPES += (D.FLOAT64,)
TOPK_DTYPES = (D.INT32, D.INT64, D.FLOAT16, D.FLOAT32, D.FLOAT64)
UNIQUE_DTYPES = (D.INT32, D.INT64, D.FLOAT32, D.FLOAT64)


def _int64_second_output(kernel: Kernel) -> None:
    kernel.output_at(1).set_dtype(DataType.INT64)


def stable_order(xp: Any, x: Array, axis: int, descending: bool) -> Array:
    """Indices that sort ``x`` along ``axis``; ties keep their input order both ways."""
    if not descending:
        return xp.argsort(x, axis=axis, kind="stable")
    extent = x.shape[axis]
    flipped = xp.flip(x, axis=axis)
    order = xp.flip(xp.argsort(flipped, axis=axis, kind="stable"), axis=axis)
    return extent - 1 - order


@register_kernel("argsort", dtypes=ARGSORT_DTYPES, configure=_int64_second_output)
def argsort_kernel(
    ctx: KernelContext, x: Array, axis: int, descending: bool, stable: bool
) -> tuple[Array, Array]:
    xp = ctx.xp
    if x.ndim == 0:
        return x.copy(), xp.zeros((), dtype=xp.int64)
    order = stable_order(xp, x, axis, descending).astype(xp.int64, copy=False)
    return xp.take_along_axis(x, order, axis=axis), order


@register_kernel("topk", dtypes=TOPK_DTYPES, configure=_int64_second_output)
def topk_kernel(
    ctx: KernelContext, x: Array, k: int, axis: int, largest: bool, sorted: bool
) -> tuple[Array, Array]:
    """The k largest (smallest) values along ``axis`` and their indices.

    Sorted results put them in order, ties in input order. With ``sorted=False`` PHI's CPU
    kernel sorts anyway when ``k * 64 < extent`` (std::partial_sort); otherwise it returns
    them in the order std::nth_element leaves them, which ``unsorted_topk`` reproduces."""
    xp = ctx.xp
    if x.ndim == 0:
        return x.copy(), xp.zeros((), dtype=xp.int64)
    if not sorted and 0 < k and k * 64 >= x.shape[axis]:
        return unsorted_topk(xp, x, k, axis, largest)
    order = stable_order(xp, x, axis, largest).astype(xp.int64, copy=False)
    picked = xp.take(order, xp.arange(k), axis=axis)
    return xp.take_along_axis(x, picked, axis=axis), picked


def _nan_first_greater(left: tuple[Any, int], right: tuple[Any, int]) -> bool:
    """PHI's topk comparison for largest=True: NaN before numbers, then descending."""
    return (left[0] != left[0] and right[0] == right[0]) or left[0] > right[0]


def _nan_last_less(left: tuple[Any, int], right: tuple[Any, int]) -> bool:
    """PHI's topk comparison for largest=False: numbers before NaN, ascending."""
    return (left[0] == left[0] and right[0] != right[0]) or left[0] < right[0]


def unsorted_topk(xp: Any, x: Array, k: int, axis: int, largest: bool) -> tuple[Array, Array]:
    """PHI's FullTopK without sorting: per row along ``axis``, (value, index) pairs put through
    std::nth_element(begin, begin + k - 1, end) with PHI's comparison (libstdc++'s algorithm,
    step for step), and the first k pairs in the order it leaves them."""
    rows = xp.moveaxis(x, axis, -1)
    width = rows.shape[-1]
    less = _nan_first_greater if largest else _nan_last_less
    values, indices = [], []
    for row in rows.reshape(-1, width).tolist():
        pairs = list(zip(row, range(width)))
        nth_element(pairs, k - 1, less)
        values.append([value for value, _ in pairs[:k]])
        indices.append([index for _, index in pairs[:k]])
    shape = rows.shape[:-1] + (k,)
    out = xp.asarray(values, dtype=x.dtype).reshape(shape)
    picked = xp.asarray(indices, dtype=xp.int64).reshape(shape)
    return xp.moveaxis(out, -1, axis), xp.moveaxis(picked, -1, axis)


@register_kernel(
    "unique",
    dtypes=UNIQUE_DTYPES,
    configure=lambda k: [k.output_at(i).set_dtype(DataType.UNDEFINED) for i in (1, 2, 3)],
)
def unique_kernel(
    ctx: KernelContext,
    x: Array,
    return_index: bool,
    return_inverse: bool,
    return_counts: bool,
    axis: tuple[int, ...],
    dtype: DataType,
) -> tuple[Array, Array, Array, Array]:
    xp = ctx.xp
    index_dtype = dtype.numpy_dtype
    if axis and x.shape[axis[0]] == 0:
        raise InvalidArgumentError(f"unique: axis {axis[0]} of 'x' is empty")
    out, first, inverse, counts = xp.unique(
        x.reshape(-1) if not axis else x,
        return_index=True,
        return_inverse=True,
        return_counts=True,
        axis=axis[0] if axis else None,
    )
    return (
        out,
        first.astype(index_dtype) if return_index else None,
        inverse.reshape(-1).astype(index_dtype) if return_inverse else None,
        counts.astype(index_dtype) if return_counts else None,
    )
