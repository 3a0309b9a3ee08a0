"""``rrelu``, as PaddlePaddle 3.3.1's CPU kernel (paddle/phi/kernels/cpu/rrelu_kernel.cc)
computes it: out = x where x >= 0, else x * slope, with ``noise`` holding each element's slope
(1 where x >= 0). In training (``is_test`` false) the slopes are uniform in [lower, upper),
drawn in float32 as PHI's ``std::uniform_real_distribution<float>``; with ``is_test`` they are
(lower + upper) / 2, computed in float32.

The draws differ from PaddlePaddle's: PHI takes one number per negative element from its CPU
engine (an mt19937_64), phiops takes one per element from its own generator
(``phiops.runtime.random``, numpy's PCG64, seeded by ``paddle.seed``), so a seed reproduces
phiops's numbers, not PaddlePaddle's. The distribution is the same.
"""

from __future__ import annotations

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel
from phiops.runtime.random import draw_generator


# PaddlePaddle 3.3.1 registers rrelu on CPU for float16, float32 and float64.
@register_kernel("rrelu", dtypes=(DataType.FLOAT16, DataType.FLOAT32, DataType.FLOAT64))
def rrelu_kernel(
    ctx: KernelContext, x: Array, lower: float, upper: float, is_test: bool
) -> tuple[Array, Array]:
    xp = ctx.xp
    low, high = np.float32(lower), np.float32(upper)
    if is_test:
        slopes = xp.asarray((low + high) / np.float32(2.0), dtype=x.dtype)
    else:
        draws = draw_generator(ctx.place, 0).random(x.shape, dtype=np.float32)
        slopes = xp.asarray((draws * (high - low) + low).astype(x.dtype))
    noise = xp.where(x >= 0, xp.asarray(1, dtype=x.dtype), slopes).astype(x.dtype, copy=False)
    return x * noise, noise
