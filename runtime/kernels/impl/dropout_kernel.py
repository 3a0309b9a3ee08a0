"""dropout (PHI's DropoutRawKernel): in training, each element is kept with probability 1 - p
(mask 1) and zeroed otherwise; ``upscale_in_train`` divides the kept ones by 1 - p, while
``downscale_in_infer`` leaves them and scales by 1 - p at inference (``is_test``) instead."""

from __future__ import annotations

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import FLOATING, register_kernel
from phiops.runtime.kernels import mt19937
from phiops.runtime.random import engine_for


def _uint8_mask(kernel: Kernel) -> None:
    kernel.output_at(1).set_dtype(DataType.UINT8)


@register_kernel("dropout", dtypes=FLOATING + (DataType.BFLOAT16,), configure=_uint8_mask)
def dropout_kernel(
    ctx: KernelContext,
    x: Array,
    seed_tensor: Array | None,
    p: float,
    is_test: bool,
    mode: str,
    seed: int,
    fix_seed: bool,
) -> tuple[Array, Array]:
    """(out, mask). The random stream: ``seed_tensor``'s value when given, else ``seed`` when
    ``fix_seed``, else the place's process generator. At inference the mask is all ones."""
    xp = ctx.xp
    upscale = mode == "upscale_in_train"
    if is_test:
        out = x.copy() if upscale else x * x.dtype.type(1 - p)
        return out, xp.ones(x.shape, dtype=xp.uint8)
    if seed_tensor is not None:
        op_seed = int(seed_tensor.reshape(-1)[0])
    else:
        op_seed = seed if fix_seed else 0
    # PHI's CPU kernel: a float32 uniform per element from the place's engine (or one of the
    # seed), kept where it is not below p: PaddlePaddle's masks after the same paddle.seed
    uniform = mt19937.uniform(engine_for(ctx.place, op_seed), int(x.size), 0.0, 1.0, np.float32)
    keep = xp.asarray(uniform.reshape(x.shape) >= np.float32(p))
    mask = keep.astype(xp.uint8)
    if p == 1.0:
        return xp.zeros_like(x), mask
    out = x * keep
    if upscale:
        out = out / x.dtype.type(1 - p)
    return out.astype(x.dtype, copy=False), mask
