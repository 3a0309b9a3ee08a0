"""Grad kernels of the quant24 fake quantize-dequantize ops (issue 24): the straight-through
estimator of PaddlePaddle 3.3.1 (paddle/phi/kernels/impl/fake_quantize_grad_kernel_impl.h),
which passes out_grad to x unchanged, quantization treated as the identity."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

F32 = (DataType.FLOAT32,)


@register_kernel("fake_quantize_dequantize_abs_max_grad", dtypes=F32)
def fake_quantize_dequantize_abs_max_grad_kernel(
    ctx: KernelContext, out_grad: Array, bit_length: int, round_type: int
) -> Array:
    return out_grad.copy()


@register_kernel("fake_channel_wise_quantize_dequantize_abs_max_grad", dtypes=F32)
def fake_channel_wise_quantize_dequantize_abs_max_grad_kernel(
    ctx: KernelContext, out_grad: Array, bit_length: int, round_type: int, quant_axis: int
) -> Array:
    return out_grad.copy()


@register_kernel("fake_quantize_dequantize_moving_average_abs_max_grad", dtypes=F32)
def fake_quantize_dequantize_moving_average_abs_max_grad_kernel(
    ctx: KernelContext,
    out_grad: Array,
    moving_rate: float,
    bit_length: int,
    is_test: bool,
    round_type: int,
) -> Array:
    return out_grad.copy()
