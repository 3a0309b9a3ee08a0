"""``paddle.nn.quant.weight_quantize`` on the weight_quantize op
(runtime/kernels/impl/misc24c_kernel.py); the facade is phiops/nn/quant.py."""

from __future__ import annotations

from typing import Literal

from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.errors import InvalidArgumentError

__all__ = ["weight_quantize"]


def weight_quantize(
    x: Tensor,
    algo: Literal["weight_only_int8", "weight_only_int4", "llm.int8", "w4a8", "w4afp8"] = (
        "weight_only_int8"
    ),
    arch: int | None = None,
    group_size: Literal[-1, 64, 128] = -1,
) -> tuple[Tensor, Tensor]:
    """Quantizes the weight ``x`` [m, n] (float16 or bfloat16) to int8 for weight-only or
    llm.int8 matrix products, laid out for GPU architecture ``arch``; returns ``(out, scale)``
    as the weight_quantize op does (its docstring in ``phiops._C_ops`` says how).

    ``arch`` None is what PaddlePaddle 3.3.1 reads from a CPU-only build, 0, which the op
    refuses (arch must be one of 70, 75, 80, 86, 89, 90, 100); ``group_size`` must be -1, 64
    or 128 (InvalidArgumentError otherwise, where PaddlePaddle asserts)."""
    if arch is None:
        arch = 0
    if group_size not in (-1, 64, 128):
        raise InvalidArgumentError(
            f"weight_quantize: argument 'group_size' must be -1, 64 or 128, got {group_size!r}"
        )
    return op_api("weight_quantize")(x, algo, arch, group_size)
