"""``phi.nn.initializer``: PaddlePaddle's parameter initializers (``paddle.nn.initializer``), the
classes of runtime/static/initializer.py, where they live because ``phi.static.create_parameter``
needs them and runtime/static imports nothing from runtime/nn."""

from __future__ import annotations

from phiops.runtime.static.initializer import (
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
