"""``phiops.incubate.layers`` (``paddle.incubate.layers``): of PaddlePaddle 3.3.1's incubating
layers, phiops has ``correlation`` (op ``correlation``, FlowNet's cost volume), which 3.3.1 runs on
GPU only and phiops on CPU too. The rest of that module (``fused_*``, ``search_pyramid_hash``,
``shuffle_batch``, ...) phiops lacks."""

from __future__ import annotations

from phiops.generated import api as _C_ops
from phiops.runtime.eager.tensor import Tensor

__all__ = ["correlation"]


def correlation(
    x: Tensor,
    y: Tensor,
    pad_size: int,
    kernel_size: int,
    max_displacement: int,
    stride1: int,
    stride2: int,
    corr_type_multiply: int = 1,
) -> Tensor:
    """The correlation (cost volume) of two NCHW feature maps ``x`` and ``y`` of one shape, as in
    FlowNet and PWC-Net (op ``correlation``, see ``paddle._C_ops.correlation``).

    Both maps are zero-padded by ``pad_size``; for each displacement ``(dy, dx)``, multiples of
    ``stride2`` up to ``max_displacement``, and each output position (every ``stride1``-th
    position of ``x`` at least ``max_displacement`` from the padded border), the result holds the
    mean over the channels and a ``kernel_size`` window of ``x`` times ``y`` displaced.
    ``corr_type_multiply`` is ignored, as PaddlePaddle ignores it.

    Returns a tensor of ``x``'s dtype (float32 or float64) with shape ``[N, (2 *
    (max_displacement // stride2) + 1) ** 2, OH, OW]``, ``OH = ceil((H + 2 * pad_size - 2 *
    ((kernel_size - 1) // 2 + max_displacement)) / stride1)``, ``OW`` likewise. Bad shapes or
    attributes raise an ``InvalidArgumentError`` naming the argument."""
    return _C_ops.correlation(
        x, y, pad_size, kernel_size, max_displacement, stride1, stride2, corr_type_multiply
    )
