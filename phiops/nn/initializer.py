"""``phiops.nn.initializer`` (``paddle.nn.initializer``): the parameter initializers phiops has,
with PaddlePaddle's names and defaults, for eager and static parameters alike
(runtime/static/initializer.py): Constant, Normal, Uniform, XavierUniform, XavierNormal,
KaimingNormal, KaimingUniform, and their base class Initializer.

PaddlePaddle has more that phiops lacks: TruncatedNormal, Assign, Bilinear, Dirac, Orthogonal,
``calculate_gain`` and ``set_global_initializer``.
"""

from __future__ import annotations

from phiops.runtime.nn.initializer import (
    Constant,
    Initializer,
    KaimingNormal,
    KaimingUniform,
    Normal,
    Uniform,
    XavierNormal,
    XavierUniform,
)

__all__ = [
    "Initializer",
    "Constant",
    "Normal",
    "Uniform",
    "XavierUniform",
    "XavierNormal",
    "KaimingNormal",
    "KaimingUniform",
]
