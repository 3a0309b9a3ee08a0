"""weight_quantize and dgc_momentum (issue 24, misc24c); embedding_grad_dense runs embedding_grad's
kernel (runtime/kernels/impl/index_grad_kernel.py).

weight_quantize follows PaddlePaddle 3.3.1's CPU kernel (paddle/phi/kernels/cpu/
weight_quantize_kernel.cc, impl/weight_quantize_kernel_impl.h) on x [m, n]:

- scale per column (group_size -1: [n]) or per group of group_size rows and column
  ([ceil(m / group_size), n]): max |x| / 127 (7 for weight_only_int4), computed in float32 and
  stored in x's dtype (float32 for llm.int8);
- q = x / scale in float32 (the stored scale), rounded half away from zero (C's ``round``) and
  clipped to [-127, 127] ([-7, 7]); a column or group of zeros divides 0 by 0, and as in the C++
  NaN becomes 127 for int8 (``std::min(127.f, NaN)`` is 127) and -7 for int4 (the int cast of
  NaN is INT_MIN on x86), an infinite or huge quotient -7 for int4 likewise;
- llm.int8: out = q transposed, [n, m];
- the weight-only algos, arch 70: the bytes of q row-major (int4: two per byte, the even column
  in the low nibble) relabelled [n, m] ([n / 2, m]), biased to unsigned (+128, +8 per nibble) and
  interleaved (bytes 1 and 2 of every 4 swapped; int4: the nibbles of every 32-bit word
  reordered even positions first);
- arch 75 to 100: rows permuted within tiles of 16 (int4: 32) for the mixed GEMM
  (permute_B_rows_for_mixed_gemm), transposed to [n, m] (subbyte_transpose_impl), columns
  interleaved in tiles of 64 rows by 2 (int4: 4) (interleave_column_major_tensor), then biased
  and interleaved as for arch 70.

dgc_momentum follows impl/dgc_momentum_kernel_impl.h: grad_out = grad / nranks, then before
rampup_begin_step a momentum step (momentum_'s formula, l2_decay included),
from it on an SGD step ``param - learning_rate * grad`` (velocity_out keeps velocity). As
PHI's CPU momentum kernel (paddle/phi/kernels/impl/momentum_kernel_impl.h, CPUDenseMomentumFunctor)
the momentum step ignores rescale_grad. The step
takes the scaled gradient: 3.3.1 runs the kernel only with grad_out sharing grad's storage (its
eager call fails with "Tensor holds no memory" since its InferMeta gives grad_out no dims; its
static DGC program writes grad_out into grad), so its update reads grad / nranks. With
rampup_begin_step negative the kernel does nothing, and the outputs are the inputs unchanged.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel

__all__ = ["weight_quantize_kernel", "dgc_momentum_kernel"]

# PaddlePaddle 3.3.1's CPU registrations
WEIGHT_QUANTIZE_DTYPES = (DataType.FLOAT16, DataType.BFLOAT16)
DGC_MOMENTUM_DTYPES = (DataType.FLOAT32,)

# the order of the 8 nibbles of a 32-bit word after add_bias_and_interleave_inplace<4>
_INT4_WORD_ORDER = [0, 2, 4, 6, 1, 3, 5, 7]


def _int8_output(kernel: Kernel) -> None:
    kernel.output_at(0).set_dtype(DataType.INT8)
    kernel.output_at(1).set_dtype(DataType.ALL_DTYPE)


def _round_half_away(xp: ModuleType, q: Array) -> Array:
    return xp.copysign(xp.floor(xp.abs(q) + 0.5), q)


def _quantize(xp: ModuleType, x: Array, bits: int, group_size: int, scale_dtype: Any):
    """(q [m, n] int8 in [-bound, bound], scale) as PaddlePaddle's per_channel/group_wise
    scale and quant functions compute them."""
    m, n = x.shape
    bound = np.float32(127.0 if bits == 8 else 7.0)
    values = x.astype(np.float32)
    magnitude = xp.abs(values)
    if group_size == -1:
        scale = (magnitude.max(axis=0) / bound).astype(scale_dtype)
        divisor = scale.astype(np.float32)[None, :]
    else:
        groups = -(-m // group_size)
        padded = xp.zeros((groups * group_size, n), dtype=np.float32)
        padded[:m] = magnitude
        scale = (padded.reshape(groups, group_size, n).max(axis=1) / bound).astype(scale_dtype)
        divisor = xp.repeat(scale.astype(np.float32), group_size, axis=0)[:m]
    with np.errstate(divide="ignore", invalid="ignore"):
        q = _round_half_away(xp, values / divisor)
    if bits == 8:
        q = xp.where(xp.isnan(q), np.float32(127), xp.clip(q, -127, 127))
    else:
        wild = ~xp.isfinite(q) | (xp.abs(q) >= np.float32(2**31))
        q = xp.where(wild, np.float32(-7), xp.clip(q, -7, 7))
    return q.astype(np.int8), scale


def _bias_and_interleave(xp: ModuleType, elements: Array, bits: int) -> Array:
    """add_bias_and_interleave_inplace on the elements in memory order (int8 values, or int4
    values one per entry), returned as the bytes it leaves."""
    if bits == 8:
        biased = (elements.astype(np.int16) + 128).astype(np.uint8)
        return biased.reshape(-1, 4)[:, [0, 2, 1, 3]].reshape(-1).view(np.int8)
    nibbles = (elements.astype(np.int16) + 8).astype(np.uint8)
    nibbles = nibbles.reshape(-1, 8)[:, _INT4_WORD_ORDER].reshape(-1, 2)
    return (nibbles[:, 0] | (nibbles[:, 1] << 4)).view(np.int8)


def _mixed_gemm_row_order(m: int, bits: int) -> np.ndarray:
    """permute_B_rows_for_mixed_gemm's read row for each written row."""
    per_register = 32 // bits
    tile = 8 * (16 // bits)
    rows = np.arange(tile)
    within = 8 * ((rows % per_register) // 2) + rows % 2 + 2 * (rows // per_register)
    return (np.arange(0, m, tile)[:, None] + within[None, :]).reshape(-1)


@register_kernel("weight_quantize", dtypes=WEIGHT_QUANTIZE_DTYPES, configure=_int8_output)
def weight_quantize_kernel(
    ctx: KernelContext, x: Array, algo: str, arch: int, group_size: int
) -> tuple[Array, Array]:
    xp = ctx.xp
    m, n = x.shape
    bits = 4 if algo == "weight_only_int4" else 8
    scale_dtype = np.float32 if algo == "llm.int8" else x.dtype
    rows = n // 2 if bits == 4 else n
    if m == 0:
        groups = (n,) if group_size == -1 else (0, n)
        return xp.zeros((rows, 0), dtype=np.int8), xp.zeros(groups, dtype=scale_dtype)
    q, scale = _quantize(xp, x, bits, group_size, scale_dtype)
    if algo == "llm.int8":
        return xp.ascontiguousarray(q.T), scale
    if arch == 70:
        return _bias_and_interleave(xp, q.reshape(-1), bits).reshape(rows, m), scale
    order = xp.asarray(_mixed_gemm_row_order(m, bits))
    transposed = q[order].T
    interleave = 2 if bits == 8 else 4
    tiled = transposed.reshape(n // interleave, interleave, m // 64, 64).transpose(0, 2, 1, 3)
    return _bias_and_interleave(xp, tiled.reshape(-1), bits).reshape(rows, m), scale


def _keep_step_dtypes(kernel: Kernel) -> None:
    for index in (5, 6):  # current_step_tensor, nranks_tensor: read as they come
        kernel.input_at(index).set_dtype(DataType.ALL_DTYPE)


@register_kernel("dgc_momentum", dtypes=DGC_MOMENTUM_DTYPES, configure=_keep_step_dtypes)
def dgc_momentum_kernel(
    ctx: KernelContext,
    param: Array,
    grad: Array,
    velocity: Array,
    learning_rate: Array,
    master_param: Array | None,
    current_step_tensor: Array,
    nranks_tensor: Array,
    mu: float,
    use_nesterov: bool,
    regularization_method: str,
    regularization_coeff: float,
    multi_precision: bool,
    rescale_grad: float,
    rampup_begin_step: float,
) -> tuple[Array, Array, Array, Array]:
    xp = ctx.xp
    if multi_precision:
        raise UnimplementedError(
            "dgc_momentum: multi_precision is not implemented (PaddlePaddle 3.3.1 registers the "
            "kernel for float32 only, where a float32 master copy adds nothing)"
        )
    master_out = None if master_param is None else master_param.copy()
    if int(rampup_begin_step) < 0:
        return param.copy(), velocity.copy(), master_out, grad.copy()
    ranks = float(np.float32(nranks_tensor.reshape(-1)[0].item()))  # .item(): CuPy too
    if not np.isfinite(ranks):
        raise InvalidArgumentError(
            f"dgc_momentum: argument 'nranks_tensor' must hold a finite count, got {ranks}"
        )
    nranks = int(ranks)
    if nranks <= 1:
        raise InvalidArgumentError(
            f"dgc_momentum: DGC is not useful when num_trainers <= 1, but now nranks={nranks}"
        )
    dtype = param.dtype
    grad_out = dtype.type(1.0 / nranks) * grad
    rate = learning_rate.reshape(-1)[0].astype(dtype)
    step = float(np.float32(current_step_tensor.reshape(-1)[0].item()))
    if not np.isfinite(step):
        raise InvalidArgumentError(
            f"dgc_momentum: argument 'current_step_tensor' must hold a finite step, got {step}"
        )
    if int(step) < int(rampup_begin_step):
        g = grad_out  # PHI's CPU momentum kernel ignores rescale_grad
        if regularization_method == "l2_decay":
            g = g + dtype.type(regularization_coeff) * param
        velocity_out = velocity * dtype.type(mu) + g
        if use_nesterov:
            param_out = param - (g + velocity_out * dtype.type(mu)) * rate
        else:
            param_out = param - rate * velocity_out
        return param_out, velocity_out, master_out, grad_out
    return param - rate * grad_out, velocity.copy(), master_out, grad_out
