"""``paddle.nn.functional``'s vision functions: pixel_shuffle, pixel_unshuffle, channel_shuffle,
unfold, fold and affine_grid, with PaddlePaddle 3.3.1's Python signatures (python/paddle/nn/functional/vision.py), each calling
its op. The ops check their arguments (InvalidArgumentError, a ValueError as PaddlePaddle's
Python checks raise)."""

from __future__ import annotations

from typing import Any

from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.errors import InvalidArgumentError

__all__ = [
    "grid_sample",
    "pixel_shuffle",
    "pixel_unshuffle",
    "channel_shuffle",
    "unfold",
    "fold",
    "affine_grid",
    "temporal_shift",
]


def temporal_shift(
    x: Tensor,
    seg_num: int,
    shift_ratio: float = 0.25,
    name: str | None = None,
    data_format: str = "NCHW",
) -> Tensor:
    """TSM's temporal shift of ``x`` [N*T, C, H, W] (or NHWC), T = ``seg_num``: the first
    ``shift_ratio`` of the channels take the previous segment's values, the next as many the
    following segment's (zeros at the ends), the rest stay (the temporal_shift op)."""
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError(
            "Attr(data_format) should be 'NCHW' or 'NHWC'. "
            f"Received Attr(data_format): {data_format}."
        )
    return op_api("temporal_shift")(x, seg_num, float(shift_ratio), data_format)


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


def _ints(value: Any, count: int, function: str, name: str) -> list[int]:
    """An int repeated ``count`` times, or a list of ``count`` ints, as a list."""
    if isinstance(value, int) and not isinstance(value, bool):
        return [value] * count
    if isinstance(value, (list, tuple)) and len(value) == count:
        return list(value)
    raise InvalidArgumentError(
        f"{function}: argument '{name}' must be an int or a list of {count} ints, got {value!r}"
    )


def _paddings(value: Any, function: str) -> list[int]:
    """PaddlePaddle's padding forms: p, [ph, pw] or [top, left, bottom, right]."""
    if isinstance(value, (list, tuple)) and len(value) == 2:
        return [value[0], value[1], value[0], value[1]]
    if isinstance(value, (list, tuple)) and len(value) == 4:
        return list(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return [value] * 4
    raise InvalidArgumentError(
        f"{function}: argument 'paddings' must be an int or a list of 2 or 4 ints, got {value!r}"
    )


def unfold(
    x: Tensor,
    kernel_sizes: int | list[int],
    strides: int | list[int] = 1,
    paddings: int | list[int] = 0,
    dilations: int | list[int] = 1,
    name: str | None = None,
) -> Tensor:
    """im2col: the sliding blocks of [N, C, H, W] as columns [N, C * kh * kw, L] (op
    ``unfold``). Each size is an int or a pair; ``paddings`` an int, [ph, pw] or
    [top, left, bottom, right]."""
    return op_api("unfold")(
        x,
        _ints(kernel_sizes, 2, "unfold", "kernel_sizes"),
        _ints(strides, 2, "unfold", "strides"),
        _paddings(paddings, "unfold"),
        _ints(dilations, 2, "unfold", "dilations"),
    )


def fold(
    x: Tensor,
    output_sizes: int | list[int],
    kernel_sizes: int | list[int],
    strides: int | list[int] = 1,
    paddings: int | list[int] = 0,
    dilations: int | list[int] = 1,
    name: str | None = None,
) -> Tensor:
    """col2im: columns [N, C * kh * kw, L] summed back into [N, C, H, W] (op ``fold``), the
    adjoint of unfold; the sizes as for unfold."""
    return op_api("fold")(
        x,
        _ints(output_sizes, 2, "fold", "output_sizes"),
        _ints(kernel_sizes, 2, "fold", "kernel_sizes"),
        _ints(strides, 2, "fold", "strides"),
        _paddings(paddings, "fold"),
        _ints(dilations, 2, "fold", "dilations"),
    )


def affine_grid(
    theta: Tensor,
    out_shape: list[int] | Tensor,
    align_corners: bool = True,
    name: str | None = None,
) -> Tensor:
    """The sampling grid [N, H, W, 2] ([N, D, H, W, 3]) of the affine transforms ``theta``
    [N, 2, 3] ([N, 3, 4]) for an output of ``out_shape`` (op ``affine_grid``)."""
    if isinstance(out_shape, Tensor):
        out_shape = [int(v) for v in out_shape.numpy().reshape(-1)]
    return op_api("affine_grid")(theta, list(out_shape), align_corners)


def grid_sample(
    x: Tensor,
    grid: Tensor,
    mode: str = "bilinear",
    padding_mode: str = "zeros",
    align_corners: bool = True,
    name: str | None = None,
) -> Tensor:
    """Samples x (N, C, H, W or N, C, D, H, W) at the normalised coordinates of grid (N, H', W',
    2 or N, D', H', W', 3), bilinearly or by nearest neighbour; outside points are zero,
    the border's value or reflected (``padding_mode``)."""
    if mode not in ("bilinear", "nearest"):
        raise InvalidArgumentError(
            f"grid_sample: mode must be 'bilinear' or 'nearest', got {mode!r}"
        )
    if padding_mode not in ("zeros", "border", "reflection"):
        raise InvalidArgumentError(
            f"grid_sample: padding_mode must be 'zeros', 'border' or 'reflection', got "
            f"{padding_mode!r}"
        )
    if not isinstance(align_corners, bool):
        raise InvalidArgumentError(
            f"grid_sample: align_corners must be a bool, got {align_corners!r}"
        )
    return op_api("grid_sample")(x, grid, mode, padding_mode, align_corners)
