"""Kernels of the quant24b optimizer ops of issue 24, for the dtypes PaddlePaddle 3.3.1
registers on CPU, with PHI's formulas:

- average_accumulates (paddle/phi/kernels/impl/average_accumulates_kernel_impl.h, float32 and
  float64; the counters int64): num_updates and num_accumulates each grow by one; sum_1 takes
  param; every 16384th update sum_2 takes sum_1 and sum_1 is zeroed; once num_accumulates
  reaches min_average_window and min(max_average_window, num_updates * average_window) (the
  product in float32, truncated to int64, as C++ converts it), sum_3 becomes sum_1 + sum_2,
  both are zeroed, old_num_accumulates takes num_accumulates and num_accumulates becomes 0.
  PHI's kernel reads in_sum_1 and in_sum_2 after writing out_sum_1 and out_sum_2, and the op
  is in place, so those reads see the new values; the kernel here computes what the in-place
  call leaves (sum_2 + (sum_1 + param) on the 16384th update, and the zeroed sum_1 in sum_3
  when both happen at once).
- dpsgd (paddle/phi/kernels/impl/dpsgd_kernel_impl.h, float32 and float64): scale is
  norm(grad) / clip where the norm exceeds clip, else 1; one Gaussian value, drawn as PHI draws
  it (below), so a nonzero seed gives PaddlePaddle's step bit for bit (checked against 3.3.1
  for both dtypes); param_out = param - lr * (grad / scale + noise / batch_size). Seed 0 seeds
  with the time in seconds, as PHI does, so such steps are not reproducible on either side.
- dgc_clip_by_norm (paddle/phi/kernels/impl/dgc_clip_by_norm_kernel_impl.h and
  clip_by_norm_kernel, float32): with rampup_begin_step >= 0 and current_step at or past it
  (both truncated to int), x * max_norm / norm(x) where norm(x) > max_norm, else x; PHI
  leaves out unset otherwise, phiops returns x unchanged (what DGC's in-place use keeps).
"""

from __future__ import annotations

import time

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel

# sum_1 moves into sum_2 every this many updates, against the loss of precision of long sums
_MAX_NUM_ACCUMULATES = 16384
_INT64_MAX = np.iinfo(np.int64).max


def _int64_counters(kernel: Kernel) -> None:
    for index in (4, 5, 6):
        kernel.input_at(index).set_dtype(DataType.ALL_DTYPE)
    for index in (3, 4, 5):
        kernel.output_at(index).set_dtype(DataType.INT64)


def _window_limit(num_updates: int, average_window: float, max_average_window: int) -> int:
    product = float(np.float32(num_updates) * np.float32(average_window))
    if not product < 2.0**63:  # beyond int64 (or NaN): the cap is max_average_window
        return max_average_window
    return min(max_average_window, int(product))


@register_kernel(
    "average_accumulates",
    dtypes=(DataType.FLOAT32, DataType.FLOAT64),
    configure=_int64_counters,
)
def average_accumulates_kernel(
    ctx: KernelContext,
    param: Array,
    in_sum_1: Array,
    in_sum_2: Array,
    in_sum_3: Array,
    in_num_accumulates: Array,
    in_old_num_accumulates: Array,
    in_num_updates: Array,
    average_window: float,
    max_average_window: int,
    min_average_window: int,
) -> tuple[Array, Array, Array, Array, Array, Array]:
    xp = ctx.xp
    num_updates = int(in_num_updates.reshape(-1)[0]) + 1
    num_accumulates = int(in_num_accumulates.reshape(-1)[0]) + 1
    old_num_accumulates = int(in_old_num_accumulates.reshape(-1)[0])
    sum_1 = in_sum_1 + param
    sum_2 = in_sum_2.copy()
    sum_3 = in_sum_3.copy()
    if num_updates % _MAX_NUM_ACCUMULATES == 0:
        sum_2 = in_sum_2 + sum_1
        sum_1 = xp.zeros_like(sum_1)
    if num_accumulates >= min_average_window and num_accumulates >= _window_limit(
        num_updates, average_window, max_average_window
    ):
        sum_3 = sum_1 + sum_2
        sum_1 = xp.zeros_like(sum_1)
        sum_2 = xp.zeros_like(sum_2)
        old_num_accumulates = num_accumulates
        num_accumulates = 0

    def counter(value: int) -> Array:
        return xp.asarray([value], dtype=np.int64)

    return (
        sum_1,
        sum_2,
        sum_3,
        counter(num_accumulates),
        counter(old_num_accumulates),
        counter(num_updates),
    )


# -- dpsgd ------------------------------------------------------------------------------------
# paddle/phi/kernels/impl/dpsgd_kernel_impl.h: one Gaussian draw for the whole step, from
# std::minstd_rand seeded with `seed` (0: the time) through std::uniform_real_distribution<T>
# and the polar Box-Muller method, in float; the gradient's L2 norm accumulated in float.

_MINSTD_MODULUS = 2147483647
_MINSTD_MULTIPLIER = 48271


def _minstd_seeded(seed: int) -> int:
    state = (seed & 0xFFFFFFFF) % _MINSTD_MODULUS
    return state if state else 1


def _canonical(state: int, kind: type) -> tuple[float, int]:
    """libstdc++'s generate_canonical<T> over minstd_rand: one draw for float, two for double
    (30 bits a draw), summed and divided in T."""
    r = 2147483646  # max - min + 1
    draws = 1 if kind is np.float32 else 2
    total, scale = kind(0), kind(1)
    for _ in range(draws):
        state = state * _MINSTD_MULTIPLIER % _MINSTD_MODULUS
        total = kind(total + kind(state - 1) * scale)
        scale = kind(float(scale) * r)
    value = kind(total / scale)
    if value >= kind(1):
        value = np.nextafter(kind(1), kind(0))
    return value, state


def dpsgd_gaussian(seed: int, sigma: float, kind: type) -> np.float32:
    """The kernel's one noise value: mu + X * sigma, X from the polar Box-Muller method."""
    state = _minstd_seeded(seed)
    f32 = np.float32
    while True:
        u1, state = _canonical(state, kind)
        u2, state = _canonical(state, kind)
        v1 = f32(2) * f32(u1) - f32(1)
        v2 = f32(2) * f32(u2) - f32(1)
        s = v1 * v1 + v2 * v2
        if not (s >= f32(1) or s == f32(0)):
            break
    x = v1 * np.sqrt(f32(-2) * np.log(s) / s)  # std::log and std::sqrt of float
    return f32(f32(0) + x * f32(sigma))


@register_kernel("dpsgd", dtypes=(DataType.FLOAT32, DataType.FLOAT64))
def dpsgd_kernel(
    ctx: KernelContext,
    param: Array,
    grad: Array,
    learning_rate: Array,
    clip: float,
    batch_size: float,
    sigma: float,
    seed: int,
) -> Array:
    xp = ctx.xp
    kind = param.dtype.type
    squares = (grad * grad).reshape(-1)
    if squares.size:
        # PHI adds the squares one by one into a float; numpy's cumsum adds them in order
        # too (a float64 gradient's in float64, rounded to float at the end, where PHI rounds
        # after each addition: the norm may differ in float's last bit)
        l2_norm = np.float32(np.sqrt(np.float32(float(xp.cumsum(squares)[-1]))))
    else:
        l2_norm = np.float32(0)
    clip_t = kind(np.float32(clip))
    scale = np.float32(float(l2_norm) / float(clip_t)) if kind(l2_norm) > clip_t else np.float32(1)
    if seed == 0:
        seed = int(time.time())
    noise = dpsgd_gaussian(seed, sigma, kind)
    lr = learning_rate.reshape(-1)[0].astype(param.dtype)
    batch = kind(np.float32(batch_size))
    step = grad / kind(scale) + kind(noise) / batch
    return (param - lr * step).astype(param.dtype)


@register_kernel("dgc_clip_by_norm", dtypes=(DataType.FLOAT32,))
def dgc_clip_by_norm_kernel(
    ctx: KernelContext,
    x: Array,
    current_step: Array,
    max_norm: float,
    rampup_begin_step: float,
) -> Array:
    xp = ctx.xp
    if current_step.size != 1 or current_step.dtype != x.dtype:
        raise InvalidArgumentError(
            "dgc_clip_by_norm: argument 'current_step' must be one element of x's dtype "
            f"{x.dtype}, got {current_step.dtype} of shape {list(current_step.shape)}"
        )
    if not np.isfinite(rampup_begin_step):
        raise InvalidArgumentError(
            "dgc_clip_by_norm: argument 'rampup_begin_step' must be finite, got "
            f"{rampup_begin_step}"
        )
    begin = int(np.float32(rampup_begin_step))
    if begin < 0 or int(current_step.reshape(-1)[0]) < begin:
        return x.copy()  # PHI leaves out unset here; x is what DGC's in-place use keeps
    kind = x.dtype.type
    norm = xp.sqrt(xp.sum(x * x, dtype=x.dtype))
    limit = kind(np.float32(max_norm))
    if bool(norm <= limit):
        return x.copy()
    epsilon = kind(1e-6) if bool(norm <= kind(1e-30)) else kind(0)
    return x * (limit / (norm + epsilon))
