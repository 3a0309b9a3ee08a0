"""``phi.static.initializer``: PaddlePaddle's parameter initializers, the same classes as
``phi.nn.initializer`` (runtime/nn/initializer.py), as ``paddle.nn.initializer`` serves both modes.

``create_parameter`` calls ``initializer.build(shape, dtype)`` while the startup program is the
one being built; the initializer appends its ops through the generated API (so the ops are typed
by InferMeta like any other) and returns the value, which ``create_parameter`` then marks
persistable and stores with ``builtin.set_parameter``.
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
    "Uniform",
    "Normal",
    "XavierUniform",
    "XavierNormal",
    "KaimingNormal",
    "KaimingUniform",
]
