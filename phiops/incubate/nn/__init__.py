"""``phiops.incubate.nn`` (``paddle.incubate.nn``): its ``functional`` submodule; PaddlePaddle's
fused layers are not in phiops."""

from __future__ import annotations

import phiops.incubate.nn.functional as functional

__all__ = ["functional"]
