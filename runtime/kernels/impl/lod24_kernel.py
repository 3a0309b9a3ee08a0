"""Kernels of the lod24 ops of issue 24: the sequence ops that read their input's LoD
(runtime/tensor/lod.py: ``lod_of(x)``), for the dtypes PaddlePaddle 3.3.1 registers on CPU
(paddle/phi/kernels/cpu/sequence_pool_kernel.cc: float32, float64).

PHI's semantics (paddle/phi/kernels/funcs/sequence_pooling.cc), checked against 3.3.1:

- sequence_pool: the sequences are the rows between consecutive offsets of the LoD's last level;
  each gives one output row: AVERAGE its mean, SUM its sum (accumulated row after row, as PHI's
  jit kernel does), SQRT its sum divided by sqrt(length), MAX the elementwise maximum (the first
  of equal ones, its row in max_index), LAST / FIRST its last / first row. An empty sequence
  gives ``pad_value`` everywhere (and -1 in max_index). With a two-level LoD the output carries
  the first level. No LoD, more than two levels, or a LoD whose last level does not end at x's
  rows is an InvalidArgumentError naming the argument.
- sequence_conv: row t of a sequence of length L sees its steps p = t + context_start + j
  (j < context_length); a step outside [0, L) is a zero row, or with padding_trainable a row of
  padding_data: row up_pad + p before the sequence, row up_pad + (p - L) after it. Those rows
  side by side (the context projection, [T, context_length * width]) times filter give the
  output, which carries x's LoD (one level only).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from phiops.runtime.backends import scatter_at
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel
from phiops.runtime.tensor.lod import Lod, lod_of, set_array_lod

__all__ = ["sequence_offsets", "sequence_pool_kernel", "context_rows", "sequence_conv_kernel"]

FLOATS = (DataType.FLOAT32, DataType.FLOAT64)


def sequence_offsets(x: Array, name: str, max_levels: int) -> tuple[Lod, list[int]]:
    """``x``'s LoD and its last level (the sequences' row offsets), checked: present, at most
    ``max_levels`` levels, the last ending at x's rows."""
    lod = lod_of(x)
    if not lod:
        raise InvalidArgumentError(
            f"argument '{name}' carries no LoD: set one (Tensor.set_lod, or feed a LoD tensor) "
            "giving its sequences' row offsets"
        )
    if len(lod) > max_levels:
        raise InvalidArgumentError(
            f"argument '{name}' has a LoD of {len(lod)} levels, at most {max_levels} allowed"
        )
    offsets = list(lod[-1])
    if offsets[-1] != x.shape[0]:
        raise InvalidArgumentError(
            f"argument '{name}': its LoD's last level ends at {offsets[-1]}, but it has {x.shape[0]} rows"
        )
    return lod, offsets


def _segments(xp: Any, offsets: list[int]) -> tuple[Any, Any, Any]:
    """starts, lengths (int64 arrays, one per sequence) and each row's sequence number."""
    bounds = np.asarray(offsets, dtype=np.int64)
    starts, lengths = bounds[:-1], np.diff(bounds)
    rows_of = np.repeat(np.arange(len(lengths), dtype=np.int64), lengths)
    return xp.asarray(starts), xp.asarray(lengths), xp.asarray(rows_of)


@register_kernel("sequence_pool", dtypes=FLOATS)
def sequence_pool_kernel(
    ctx: KernelContext, x: Array, is_test: bool, pooltype: str, pad_value: float
) -> tuple[Array, Array]:
    xp = ctx.xp
    lod, offsets = sequence_offsets(x, "x", 2)
    count = len(offsets) - 1
    width = int(np.prod(x.shape[1:], dtype=np.int64))
    rows = x.reshape(x.shape[0], width)
    starts, lengths, rows_of = _segments(xp, offsets)
    empty = (lengths == 0)[:, None]
    pad = xp.asarray(pad_value, dtype=x.dtype)
    index = xp.zeros((0,), dtype=np.int32)
    if pooltype in ("SUM", "AVERAGE", "SQRT"):
        total = xp.zeros((count, width), dtype=x.dtype)
        scatter_at("add", total, rows_of, rows)
        size = xp.maximum(lengths, 1).astype(x.dtype)[:, None]
        if pooltype == "AVERAGE":
            total = total / size
        elif pooltype == "SQRT":
            total = total / xp.sqrt(size)
        pooled = xp.where(empty, pad, total)
    elif pooltype in ("LAST", "FIRST"):
        at = starts + lengths - 1 if pooltype == "LAST" else starts
        picked = rows[xp.clip(at, 0, x.shape[0] - 1)] if x.shape[0] else xp.zeros((count, width), dtype=x.dtype)
        pooled = xp.where(empty, pad, picked)
    else:  # MAX (InferMeta admits nothing else)
        longest = int(max(np.diff(offsets).max(initial=0), 1))
        steps = xp.arange(longest, dtype=np.int64)
        at = starts[:, None] + steps[None, :]
        inside = steps[None, :] < lengths[:, None]
        if x.shape[0]:
            window = rows[xp.clip(at, 0, x.shape[0] - 1)]
        else:
            window = xp.zeros((count, longest, width), dtype=x.dtype)
        lowest = xp.asarray(-np.inf, dtype=x.dtype)
        window = xp.where(inside[:, :, None], window, lowest)
        best = xp.argmax(window, axis=1)
        pooled = xp.take_along_axis(window, best[:, None, :], axis=1)[:, 0, :]
        pooled = xp.where(empty, pad, pooled)
        index = xp.where(empty, -1, starts[:, None] + best).astype(np.int32)
        index = index.reshape((count, *x.shape[1:]))
    out = xp.ascontiguousarray(pooled.astype(x.dtype, copy=False)).reshape((count, *x.shape[1:]))
    if len(lod) > 1:
        set_array_lod(out, lod[:1])
    return out, index


def context_rows(
    xp: Any, offsets: list[int], context_length: int, context_start: int
) -> tuple[Any, int, int]:
    """For each row of x and step j of its context, the row of ``[x; padding rows; one zero
    row]`` it reads ([T, context_length] int64), and up_pad, down_pad."""
    up_pad, down_pad = max(0, -context_start), max(0, context_start + context_length - 1)
    bounds = np.asarray(offsets, dtype=np.int64)
    lengths = np.diff(bounds)
    total = int(bounds[-1])
    start = np.repeat(bounds[:-1], lengths)
    length = np.repeat(lengths, lengths)
    step = np.arange(total, dtype=np.int64) - start
    p = step[:, None] + context_start + np.arange(context_length, dtype=np.int64)[None, :]
    outside = np.where(p < 0, total + up_pad + p, total + up_pad + (p - length[:, None]))
    source = np.where((p >= 0) & (p < length[:, None]), start[:, None] + p, outside)
    return xp.asarray(source), up_pad, down_pad


def _extended(
    xp: Any, x: Array, padding_data: Array | None, padding_trainable: bool, pads: int
) -> Array:
    """x's rows, then the pads padding rows (padding_data's, or zeros), then one zero row."""
    if padding_trainable:
        pad_rows = padding_data.astype(x.dtype, copy=False)
        return xp.concatenate([x, pad_rows, xp.zeros((1, x.shape[1]), dtype=x.dtype)])
    return xp.concatenate([x, xp.zeros((pads + 1, x.shape[1]), dtype=x.dtype)])


@register_kernel("sequence_conv", dtypes=FLOATS)
def sequence_conv_kernel(
    ctx: KernelContext,
    x: Array,
    padding_data: Array | None,
    filter: Array,
    context_length: int,
    padding_trainable: bool,
    context_start: int,
    context_stride: int,
) -> Array:
    xp = ctx.xp
    lod, offsets = sequence_offsets(x, "x", 1)
    source, up_pad, down_pad = context_rows(xp, offsets, context_length, context_start)
    rows = _extended(xp, x, padding_data, padding_trainable, up_pad + down_pad)
    col = rows[source].reshape(x.shape[0], context_length * x.shape[1])
    out = xp.ascontiguousarray(xp.matmul(col, filter).astype(x.dtype, copy=False))
    set_array_lod(out, lod)
    return out
