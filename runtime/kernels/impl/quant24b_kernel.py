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
"""

from __future__ import annotations

import numpy as np

from phiops.runtime.common import DataType
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
