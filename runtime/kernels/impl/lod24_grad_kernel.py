"""Grad kernels of the lod24 ops (runtime/kernels/impl/lod24_kernel.py has the forward ones and
PHI's semantics), for the dtypes PaddlePaddle 3.3.1 registers on CPU (float32, float64).

- sequence_pool_grad: each row of x gets its sequence's output gradient, divided by the
  sequence's length for AVERAGE and by its square root for SQRT; LAST / FIRST give it to the
  sequence's last / first row only, MAX to the row max_index names (elementwise), zeros
  elsewhere. An empty sequence has no rows and gets nothing. x_grad carries x's LoD.
- sequence_conv_grad: the context projection's gradient (out_grad times filter transposed)
  added back to the rows each step read: x's rows, and padding_data's with padding_trainable
  (zeros without); filter_grad is the projection transposed times out_grad.
"""

from __future__ import annotations

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.backends import scatter_at
from phiops.runtime.kernels.impl.lod24_kernel import _extended, _segments, context_rows, sequence_offsets
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel
from phiops.runtime.tensor.lod import set_array_lod

__all__ = ["sequence_pool_grad_kernel", "sequence_conv_grad_kernel"]

FLOATS = (DataType.FLOAT32, DataType.FLOAT64)


@register_kernel("sequence_pool_grad", dtypes=FLOATS)
def sequence_pool_grad_kernel(
    ctx: KernelContext,
    x: Array,
    max_index: Array | None,
    out_grad: Array,
    is_test: bool,
    pooltype: str,
    pad_value: float,
) -> Array:
    xp = ctx.xp
    lod, offsets = sequence_offsets(x, "x", 2)
    count = len(offsets) - 1
    if out_grad.shape[0] != count or out_grad.shape[1:] != x.shape[1:]:
        raise InvalidArgumentError(
            f"argument 'out_grad' must have shape {[count, *x.shape[1:]]} (one row per sequence "
            f"of x), got {list(out_grad.shape)}"
        )
    rows_total = x.shape[0]
    width = int(np.prod(x.shape[1:], dtype=np.int64))
    grad = out_grad.reshape(count, width)
    starts, lengths, rows_of = _segments(xp, offsets)
    if pooltype in ("SUM", "AVERAGE", "SQRT"):
        size = xp.maximum(lengths, 1).astype(out_grad.dtype)[:, None]
        if pooltype == "AVERAGE":
            grad = grad / size
        elif pooltype == "SQRT":
            grad = grad / xp.sqrt(size)
        x_grad = grad[rows_of]
    else:
        x_grad = xp.zeros((rows_total, width), dtype=out_grad.dtype)
        if pooltype == "MAX":
            if max_index is None or max_index.shape != out_grad.shape:
                raise InvalidArgumentError(
                    "argument 'max_index' must be the forward's int32 max_index of shape "
                    f"{list(out_grad.shape)} for pooltype MAX"
                )
            index = max_index.reshape(count, -1).astype(np.int64)
            columns = xp.broadcast_to(xp.arange(width, dtype=np.int64)[None, :], index.shape)
            keep = index >= 0
            x_grad[index[keep], columns[keep]] = grad[keep]
        else:  # LAST or FIRST
            filled = lengths > 0
            at = (starts + lengths - 1) if pooltype == "LAST" else starts
            x_grad[at[filled]] = grad[filled]
    x_grad = xp.ascontiguousarray(x_grad.astype(out_grad.dtype, copy=False)).reshape(x.shape)
    set_array_lod(x_grad, lod)
    return x_grad


@register_kernel("sequence_conv_grad", dtypes=FLOATS)
def sequence_conv_grad_kernel(
    ctx: KernelContext,
    x: Array,
    padding_data: Array | None,
    filter: Array,
    out_grad: Array,
    context_length: int,
    padding_trainable: bool,
    context_start: int,
    context_stride: int,
) -> tuple[Array, Array, Array]:
    xp = ctx.xp
    lod, offsets = sequence_offsets(x, "x", 1)
    if out_grad.shape != (x.shape[0], filter.shape[1]):
        raise InvalidArgumentError(
            f"argument 'out_grad' must have shape {[x.shape[0], filter.shape[1]]}, got {list(out_grad.shape)}"
        )
    source, up_pad, down_pad = context_rows(xp, offsets, context_length, context_start)
    total, width = x.shape
    col_grad = xp.matmul(out_grad, filter.T).reshape(total * context_length, width)
    rows_grad = xp.zeros((total + up_pad + down_pad + 1, width), dtype=out_grad.dtype)
    scatter_at("add", rows_grad, source.reshape(-1), col_grad)
    x_grad = xp.ascontiguousarray(rows_grad[:total])
    set_array_lod(x_grad, lod)
    padding_grad = None
    if padding_data is not None:
        if padding_trainable:
            padding_grad = xp.ascontiguousarray(rows_grad[total : total + up_pad + down_pad])
        else:
            padding_grad = xp.zeros(padding_data.shape, dtype=padding_data.dtype)
    rows = _extended(xp, x, padding_data, padding_trainable, up_pad + down_pad)
    col = rows[source].reshape(total, context_length * width)
    filter_grad = xp.matmul(col.T, out_grad).astype(filter.dtype, copy=False)
    return x_grad, padding_grad, filter_grad
