"""``phiops.regularizer`` (``paddle.regularizer``): empty so far. PaddlePaddle's L1Decay and
L2Decay are missing; the optimizers of ``phiops.optimizer`` take a float ``weight_decay``, which
is what ``L2Decay(coeff)`` does (AdamW's is its decoupled coefficient), and raise
``UnimplementedError`` for a regularizer object.
"""

from __future__ import annotations

__all__: list[str] = []
