"""Kernels of the quant24 optimizer and embedding ops of issue 24: lookup_table_dequant,
decayed_adagrad and ftrl (dense), for the dtypes PaddlePaddle 3.3.1 registers on CPU (float32),
with PHI's formulas (paddle/phi/kernels/cpu/lookup_table_dequant_kernel.cc (from fluid's
lookup_table_dequant_op.h), impl/decayed_adagrad_kernel_impl.h, impl/ftrl_kernel_impl.h), every
step in the parameter's dtype:

- lookup_table_dequant: each row of w is [min, max, codes...], the codes 4 bytes per float32
  (little-endian, as PHI reads them); id i gives min + code * ((max - min) / 256) for each of
  the row's (width - 2) * 4 codes; padding_idx gives a row of zeros; an id outside [0, rows)
  is an InvalidArgumentError, as 3.3.1's check.
- decayed_adagrad: moment_out = decay * moment + (1 - decay) * grad^2,
  param_out = param - lr * grad / (sqrt(moment_out) + epsilon).
- ftrl: l1 and l2 each take 1e-10 more; new = squared + grad^2;
  linear_out = linear + grad - (new^-p - squared^-p) / lr * param (p = lr_power; square roots
  for -0.5); param_out = (l1 * sign(linear_out) - linear_out) / (new^-p / lr + 2 * l2) where
  |linear_out| > l1, else 0; squared_out = new.
"""

from __future__ import annotations


import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel

F32 = (DataType.FLOAT32,)


def _int64_ids(kernel: Kernel) -> None:
    kernel.input_at(1).set_dtype(DataType.ALL_DTYPE)


@register_kernel("lookup_table_dequant", dtypes=F32, configure=_int64_ids)
def lookup_table_dequant_kernel(
    ctx: KernelContext, w: Array, ids: Array, padding_idx: int
) -> Array:
    xp = ctx.xp
    rows = w.shape[0]
    flat = ids.reshape(-1).astype(np.int64)
    padded = flat == padding_idx if padding_idx != -1 else xp.zeros(flat.shape, dtype=bool)
    bad = (~padded) & ((flat < 0) | (flat >= rows))
    if bool(bad.any()):
        raise InvalidArgumentError(
            f"lookup_table_dequant: argument 'ids' must hold ids in [0, {rows}) (or "
            f"padding_idx), got {int(flat[bad][0])}"
        )
    picked = w[xp.where(padded, 0, flat)]
    codes = xp.ascontiguousarray(picked[:, 2:]).view(np.uint8).astype(np.int32)
    low, high = picked[:, :1], picked[:, 1:2]
    scale = (high - low) / w.dtype.type(256)
    out = scale * codes.astype(w.dtype) + low
    out = xp.where(padded[:, None], w.dtype.type(0), out)
    return out.reshape(ids.shape[:-1] + (codes.shape[1],))


def _first(array: Array) -> Array:
    return array.reshape(-1)[:1].reshape(())


@register_kernel("decayed_adagrad", dtypes=F32)
def decayed_adagrad_kernel(
    ctx: KernelContext,
    param: Array,
    grad: Array,
    moment: Array,
    learning_rate: Array,
    decay: float,
    epsilon: float,
) -> tuple[Array, Array]:
    xp = ctx.xp
    kind = param.dtype.type
    d = kind(np.float32(decay))
    lr = _first(learning_rate).astype(param.dtype)
    moment_out = d * moment + (kind(1) - d) * grad * grad
    param_out = param - lr * grad / (xp.sqrt(moment_out) + kind(np.float32(epsilon)))
    return param_out, moment_out


@register_kernel("ftrl", dtypes=F32)
def ftrl_kernel(
    ctx: KernelContext,
    param: Array,
    squared_accumulator: Array,
    linear_accumulator: Array,
    grad: Array,
    learning_rate: Array,
    l1: float,
    l2: float,
    lr_power: float,
) -> tuple[Array, Array, Array]:
    xp = ctx.xp
    kind = param.dtype.type
    l1_t = kind(np.float32(l1)) + kind(1e-10)
    l2_t = kind(np.float32(l2)) + kind(1e-10)
    power = kind(np.float32(lr_power))
    lr = _first(learning_rate).astype(param.dtype)
    new_accum = squared_accumulator + grad * grad
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if power == kind(-0.5):
            grown_new, grown_old = xp.sqrt(new_accum), xp.sqrt(squared_accumulator)
        else:
            # the C library's powf (PaddlePaddle's): float64 pow rounded to float32, not numpy's
            # float32 loop, whose SIMD form on AVX-512 machines is a last-place unit off in places
            wide = xp.float64
            grown_new = xp.power(new_accum.astype(wide), -float(power)).astype(param.dtype)
            grown_old = xp.power(squared_accumulator.astype(wide), -float(power)).astype(param.dtype)
        linear_out = linear_accumulator + grad - ((grown_new - grown_old) / lr) * param
        x = l1_t * xp.sign(linear_out) - linear_out
        y = (grown_new / lr) + kind(2) * l2_t
        param_out = xp.where(xp.abs(linear_out) > l1_t, x / y, kind(0))
    return param_out.astype(param.dtype), new_accum, linear_out
