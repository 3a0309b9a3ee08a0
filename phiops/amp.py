"""``phiops.amp`` (``paddle.amp``): empty so far. phiops has no automatic mixed precision:
PaddlePaddle's ``auto_cast``, ``decorate``, GradScaler, ``is_float16_supported``,
``is_bfloat16_supported`` and ``paddle.amp.debugging`` are missing. Tensors cast to float16 or
bfloat16 explicitly run through the ops whose kernels are registered for that dtype (``phiops
kernels`` lists them).
"""

from __future__ import annotations

__all__: list[str] = []
