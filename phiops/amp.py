"""``phiops.amp`` (``paddle.amp``): automatic mixed precision (runtime/amp).

``auto_cast`` runs white-listed ops (matmul, conv2d, ...) in float16/bfloat16 and black-listed
ones in float32, with PaddlePaddle 3.3.1's op lists and levels (O1, O2, OD); ``decorate`` casts a
model's parameters for O2; ``GradScaler`` scales the loss and skips steps whose gradients
overflow. Like PaddlePaddle, they act on GPU tensors and warn and do nothing on the CPU, unless
the phiops flag ``FLAGS_amp_on_cpu`` is set (docs/training.md, "Mixed precision").
"""

from __future__ import annotations

from phiops.runtime.amp import (
    AmpScaler,
    GradScaler,
    OptimizerState,
    amp_decorate,
    amp_guard,
    auto_cast,
    autocast,
    black_list,
    decorate,
    get_autocast_cpu_dtype,
    get_autocast_dtype,
    get_autocast_gpu_dtype,
    is_autocast_enabled,
    is_bfloat16_supported,
    is_float16_supported,
    white_list,
)

__all__ = [
    "AmpScaler",
    "GradScaler",
    "OptimizerState",
    "amp_decorate",
    "amp_guard",
    "auto_cast",
    "autocast",
    "black_list",
    "decorate",
    "get_autocast_cpu_dtype",
    "get_autocast_dtype",
    "get_autocast_gpu_dtype",
    "is_autocast_enabled",
    "is_bfloat16_supported",
    "is_float16_supported",
    "white_list",
]
