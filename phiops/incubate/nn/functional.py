"""``phiops.incubate.nn.functional`` (``paddle.incubate.nn.functional``): ``swiglu`` (op
``swiglu``; PaddlePaddle 3.3.1 deprecates it for ``paddle.nn.functional.swiglu``, the same
function here). PaddlePaddle's fused functions (fused_multi_head_attention, fused_rms_norm,
fused_rotary_position_embedding, ...) are not in phiops."""

from __future__ import annotations

from phiops.runtime.nn.seq24 import swiglu

__all__ = ["swiglu"]
