"""``phiops.nn.clip`` (``paddle.nn.clip``): the gradient-clipping classes ``ClipGradByValue``,
``ClipGradByNorm``, ``ClipGradByGlobalNorm`` and their base ``ClipGradBase`` (also in
``phiops.nn``), and the ``clip_by_norm`` function (runtime/nn/clip.py). PaddlePaddle's module also
holds the legacy static-graph helpers (``set_gradient_clip``, ``ErrorClipByValue``,
``GradientClip*`` aliases, ``append_gradient_clip_ops``), which phiops lacks."""

from __future__ import annotations

from phiops.runtime.nn.clip import (
    ClipGradBase,
    ClipGradByGlobalNorm,
    ClipGradByNorm,
    ClipGradByValue,
    clip_by_norm,
)

__all__ = [
    "ClipGradBase",
    "ClipGradByValue",
    "ClipGradByNorm",
    "ClipGradByGlobalNorm",
    "clip_by_norm",
]
