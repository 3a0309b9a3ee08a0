"""``phiops.vision`` (``paddle.vision``): the detection functions and layers of
``paddle.vision.ops`` that phiops has (phiops/vision/ops.py). PaddlePaddle's models, datasets
and transforms are not here."""

from __future__ import annotations

from phiops.vision import ops

__all__ = ["ops"]
