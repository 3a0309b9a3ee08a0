"""Automatic mixed precision: ``auto_cast``, ``decorate``, ``GradScaler`` (PaddlePaddle's
``paddle.amp``; see mixed_precision.py and grad_scaler.py for what each does and where phiops
differs)."""

from phiops.runtime.amp.mixed_precision import (
    amp_decorate,
    amp_guard,
    auto_cast,
    autocast,
    decorate,
    get_autocast_cpu_dtype,
    get_autocast_dtype,
    get_autocast_gpu_dtype,
    is_autocast_enabled,
    is_bfloat16_supported,
    is_float16_supported,
)
from phiops.runtime.amp.grad_scaler import AmpScaler, GradScaler, OptimizerState
from phiops.runtime.amp.lists import black_list, white_list

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
