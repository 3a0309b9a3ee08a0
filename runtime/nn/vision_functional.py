"""``paddle.nn.functional``'s vision functions: pixel_shuffle, pixel_unshuffle, channel_shuffle,
with PaddlePaddle 3.3.1's Python signatures (python/paddle/nn/functional/vision.py), each calling
its op. The ops check their arguments (InvalidArgumentError, a ValueError as PaddlePaddle's
Python checks raise)."""

from __future__ import annotations

from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.eager.tensor import Tensor

__all__ = ["pixel_shuffle", "pixel_unshuffle", "channel_shuffle"]


def pixel_shuffle(
    x: Tensor, upscale_factor: int, data_format: str = "NCHW", name: str | None = None
) -> Tensor:
    """Rearranges [N, C, H, W] into [N, C / r^2, H * r, W * r] for r = ``upscale_factor``
    (op ``pixel_shuffle``); ``data_format`` "NHWC" puts the channels last."""
    return op_api("pixel_shuffle")(x, upscale_factor, data_format)


def pixel_unshuffle(
    x: Tensor, downscale_factor: int, data_format: str = "NCHW", name: str | None = None
) -> Tensor:
    """Rearranges [N, C, H, W] into [N, C * r^2, H / r, W / r] for r = ``downscale_factor``,
    the inverse of pixel_shuffle (op ``pixel_unshuffle``)."""
    return op_api("pixel_unshuffle")(x, downscale_factor, data_format)


def channel_shuffle(
    x: Tensor, groups: int, data_format: str = "NCHW", name: str | None = None
) -> Tensor:
    """Shuffles the channels of [N, C, H, W] across ``groups`` groups (op ``channel_shuffle``)."""
    return op_api("channel_shuffle")(x, groups, data_format)
