"""``phiops.nn.initializer`` (``paddle.nn.initializer``): the parameter initializers phiops has,
with PaddlePaddle's names and defaults, for eager and static parameters alike
(runtime/static/initializer.py): Constant, Normal, Uniform, XavierUniform, XavierNormal,
KaimingNormal, KaimingUniform, TruncatedNormal, Assign, Bilinear, Dirac, Orthogonal, their base
class Initializer, ``calculate_gain`` and ``set_global_initializer``.

PaddlePaddle's module also has ``LazyGuard`` (lazy parameter creation), which phiops lacks.
"""

from __future__ import annotations

from phiops.runtime.nn.initializer import (
    Assign,
    Bilinear,
    Constant,
    Dirac,
    Orthogonal,
    TruncatedNormal,
    calculate_gain,
    set_global_initializer,
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
    "TruncatedNormal",
    "Assign",
    "Bilinear",
    "Dirac",
    "Orthogonal",
    "calculate_gain",
    "set_global_initializer",
]
