"""``phiops.nn.quant`` (``paddle.nn.quant``): ``weight_quantize``, on the weight_quantize op
(runtime/nn/quant.py, runtime/kernels/impl/misc24c_kernel.py). PaddlePaddle's module also has
``Stub``, ``weight_only_linear``, ``llm_int8_linear`` and ``weight_dequantize``, which phiops
lacks (PaddlePaddle 3.3.1 registers no CPU kernel for the last three)."""

from __future__ import annotations

from phiops.runtime.nn.quant import weight_quantize

__all__ = ["weight_quantize"]
