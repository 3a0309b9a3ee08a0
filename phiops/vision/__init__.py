"""``phiops.vision`` (``paddle.vision``): the detection functions and layers of
``paddle.vision.ops`` that phiops has (phiops/vision/ops.py) and the classic architectures of
``paddle.vision.models`` (phiops/vision/models.py). PaddlePaddle's datasets and transforms are
not here."""

from __future__ import annotations

from phiops.vision import models, ops

__all__ = ["models", "ops"]
