"""InferMeta functions of the vision ops (pixel_shuffle, pixel_unshuffle, channel_shuffle,
unfold, fold, ...) and of their grads.

Each follows PHI's function of the same CamelCase name (paddle/phi/infermeta/unary.cc,
backward.cc). Where PHI reads any ``data_format`` other than "NHWC" as channels first, these
refuse anything but "NCHW" and "NHWC" (a typo is likelier than a meaning). Extents that are
unknown (-1, while a static program is built) stay unknown.
"""

from __future__ import annotations

from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.dims import is_known
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

_RUNTIME = MetaConfig()

_FORMATS_2D = ("NCHW", "NHWC")


def _image_dims(x: MetaTensor, data_format: str, what: str) -> tuple[tuple[int, ...], bool]:
    """``x``'s dims, checked to be 4-D, and whether ``data_format`` puts the channels last."""
    dims = tuple(x.dims)
    if len(dims) != 4:
        raise InvalidArgumentError(
            f"argument '{what}' must be a 4-D tensor [N, C, H, W] or [N, H, W, C], "
            f"got dims {list(dims)}"
        )
    if data_format not in _FORMATS_2D:
        raise InvalidArgumentError(
            f"argument 'data_format' must be one of {list(_FORMATS_2D)}, got {data_format!r}"
        )
    return dims, data_format == "NHWC"


def _check_positive(value: int, name: str) -> None:
    if value <= 0:
        raise InvalidArgumentError(f"argument '{name}' must be positive, got {value}")


def _times(extent: int, factor: int) -> int:
    return extent * factor if is_known(extent) else extent


def _divided(extent: int, factor: int, name: str, what: str) -> int:
    """``extent / factor``; InvalidArgumentError naming ``what`` when it does not divide."""
    if not is_known(extent):
        return extent
    if extent % factor:
        raise InvalidArgumentError(f"{what} ({extent}) must be divisible by {name} ({factor})")
    return extent // factor


def _set_image(
    out: MetaTensor, like: MetaTensor, n: int, c: int, h: int, w: int, channel_last: bool
) -> None:
    out.set_dims((n, h, w, c) if channel_last else (n, c, h, w))
    out.set_dtype(like.dtype)
    out.set_layout(like.layout)


def _split(dims: tuple[int, ...], channel_last: bool) -> tuple[int, int, int, int]:
    n, a, b, c = dims
    return (n, c, a, b) if channel_last else (n, a, b, c)


def pixel_shuffle_infer_meta(
    x: MetaTensor,
    upscale_factor: int,
    data_format: str,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """[N, C, H, W] -> [N, C / r^2, H * r, W * r] for r = ``upscale_factor`` (channels last
    for "NHWC"); r^2 must divide C."""
    dims, channel_last = _image_dims(x, data_format, "x")
    _check_positive(upscale_factor, "upscale_factor")
    n, c, h, w = _split(dims, channel_last)
    square = upscale_factor * upscale_factor
    channels = _divided(c, square, "upscale_factor squared", "the number of channels")
    h, w = _times(h, upscale_factor), _times(w, upscale_factor)
    _set_image(out, x, n, channels, h, w, channel_last)


def pixel_shuffle_grad_infer_meta(
    out_grad: MetaTensor,
    upscale_factor: int,
    data_format: str,
    x_grad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``x_grad`` is [N, C * r^2, H / r, W / r] for ``out_grad`` [N, C, H, W]."""
    dims, channel_last = _image_dims(out_grad, data_format, "out_grad")
    _check_positive(upscale_factor, "upscale_factor")
    n, c, h, w = _split(dims, channel_last)
    h = _divided(h, upscale_factor, "upscale_factor", "out_grad's height")
    w = _divided(w, upscale_factor, "upscale_factor", "out_grad's width")
    _set_image(x_grad, out_grad, n, _times(c, upscale_factor**2), h, w, channel_last)


def pixel_unshuffle_infer_meta(
    x: MetaTensor,
    downscale_factor: int,
    data_format: str,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """[N, C, H, W] -> [N, C * r^2, H / r, W / r] for r = ``downscale_factor`` (channels
    last for "NHWC"); r must divide H and W."""
    dims, channel_last = _image_dims(x, data_format, "x")
    _check_positive(downscale_factor, "downscale_factor")
    n, c, h, w = _split(dims, channel_last)
    h = _divided(h, downscale_factor, "downscale_factor", "the height")
    w = _divided(w, downscale_factor, "downscale_factor", "the width")
    _set_image(out, x, n, _times(c, downscale_factor**2), h, w, channel_last)


def pixel_unshuffle_grad_infer_meta(
    out_grad: MetaTensor,
    downscale_factor: int,
    data_format: str,
    x_grad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``x_grad`` is [N, C / r^2, H * r, W * r] for ``out_grad`` [N, C, H, W]."""
    dims, channel_last = _image_dims(out_grad, data_format, "out_grad")
    _check_positive(downscale_factor, "downscale_factor")
    n, c, h, w = _split(dims, channel_last)
    square = downscale_factor * downscale_factor
    channels = _divided(c, square, "downscale_factor squared", "out_grad's channels")
    h, w = _times(h, downscale_factor), _times(w, downscale_factor)
    _set_image(x_grad, out_grad, n, channels, h, w, channel_last)


def channel_shuffle_infer_meta(
    x: MetaTensor, groups: int, data_format: str, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``out`` has ``x``'s dims; ``groups`` must divide the channels."""
    dims, channel_last = _image_dims(x, data_format, "x")
    _check_positive(groups, "groups")
    _divided(_split(dims, channel_last)[1], groups, "groups", "the number of channels")
    out.share_meta(x)


def channel_shuffle_grad_infer_meta(
    out_grad: MetaTensor,
    groups: int,
    data_format: str,
    x_grad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``x_grad`` has ``out_grad``'s dims; ``groups`` must divide the channels."""
    dims, channel_last = _image_dims(out_grad, data_format, "out_grad")
    _check_positive(groups, "groups")
    _divided(_split(dims, channel_last)[1], groups, "groups", "the number of channels")
    x_grad.share_meta(out_grad)


def _pairs_positive(values: tuple[int, ...], name: str, count: int) -> None:
    if len(values) != count:
        raise InvalidArgumentError(
            f"argument '{name}' must hold {count} values, got {list(values)}"
        )
    if any(value <= 0 for value in values):
        raise InvalidArgumentError(
            f"argument '{name}' must hold positive values, got {list(values)}"
        )


def _check_window(
    kernel_sizes: tuple[int, ...],
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    dilations: tuple[int, ...],
) -> None:
    _pairs_positive(tuple(kernel_sizes), "kernel_sizes", 2)
    _pairs_positive(tuple(strides), "strides", 2)
    _pairs_positive(tuple(dilations), "dilations", 2)
    if len(paddings) != 4 or any(value < 0 for value in paddings):
        raise InvalidArgumentError(
            "argument 'paddings' must hold 4 values >= 0 (top, left, bottom, right), "
            f"got {list(paddings)}"
        )


def sliding_blocks(
    size: int, kernel: int, stride: int, dilation: int, before: int, after: int
) -> int:
    """How many windows of ``kernel`` (dilated) fit in ``size`` padded by ``before`` and
    ``after`` at ``stride`` (PHI's CalcOutputSize); -1 for an unknown ``size``."""
    if not is_known(size):
        return size
    return (size + before + after - (dilation * (kernel - 1) + 1)) // stride + 1


def unfold_infer_meta(
    x: MetaTensor,
    kernel_sizes: tuple[int, ...],
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    dilations: tuple[int, ...],
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """[N, C, H, W] -> [N, C * kh * kw, L], L the number of sliding blocks; ``paddings`` are
    (top, left, bottom, right)."""
    dims = tuple(x.dims)
    if len(dims) != 4:
        raise InvalidArgumentError(
            f"argument 'x' must be a 4-D tensor [N, C, H, W], got dims {list(dims)}"
        )
    _check_window(kernel_sizes, strides, paddings, dilations)
    blocks = [
        sliding_blocks(
            dims[2 + axis],
            kernel_sizes[axis],
            strides[axis],
            dilations[axis],
            paddings[axis],
            paddings[axis + 2],
        )
        for axis in range(2)
    ]
    if any(is_known(dims[2 + axis]) and blocks[axis] <= 0 for axis in range(2)):
        raise InvalidArgumentError(
            f"the sliding blocks of input size {list(dims[2:])} with kernel_sizes "
            f"{list(kernel_sizes)}, strides {list(strides)}, paddings {list(paddings)} and "
            f"dilations {list(dilations)} are {blocks}, which must be positive"
        )
    length = blocks[0] * blocks[1] if all(is_known(b) for b in blocks) else -1
    out.set_dims((dims[0], _times(dims[1], kernel_sizes[0] * kernel_sizes[1]), length))
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)


def fold_infer_meta(
    x: MetaTensor,
    output_sizes: tuple[int, ...],
    kernel_sizes: tuple[int, ...],
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    dilations: tuple[int, ...],
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """[N, C * kh * kw, L] -> [N, C, *output_sizes]; L must be the number of sliding blocks of
    ``output_sizes``. PHI's kernel pads top and bottom by ``paddings[0]`` and left and right by
    ``paddings[1]``, so ``paddings`` must be (ph, pw, ph, pw)."""
    dims = tuple(x.dims)
    if len(dims) != 3:
        raise InvalidArgumentError(
            f"argument 'x' must be a 3-D tensor [N, C * kh * kw, L], got dims {list(dims)}"
        )
    _pairs_positive(tuple(output_sizes), "output_sizes", 2)
    _check_window(kernel_sizes, strides, paddings, dilations)
    if paddings[0] != paddings[2] or paddings[1] != paddings[3]:
        raise InvalidArgumentError(
            "argument 'paddings' must pad top and bottom alike and left and right alike "
            f"([ph, pw, ph, pw]), got {list(paddings)}"
        )
    window = kernel_sizes[0] * kernel_sizes[1]
    channels = _divided(dims[1], window, "the product of kernel_sizes", "x's dimension 1")
    blocks = [
        sliding_blocks(
            output_sizes[axis],
            kernel_sizes[axis],
            strides[axis],
            dilations[axis],
            paddings[axis],
            paddings[axis],
        )
        for axis in range(2)
    ]
    if any(b <= 0 for b in blocks) or (is_known(dims[2]) and dims[2] != blocks[0] * blocks[1]):
        raise InvalidArgumentError(
            f"argument 'x' must hold {blocks[0]} * {blocks[1]} sliding blocks in dimension 2 "
            f"for output_sizes {list(output_sizes)}, kernel_sizes {list(kernel_sizes)}, strides "
            f"{list(strides)}, paddings {list(paddings)} and dilations {list(dilations)}, "
            f"got {dims[2]}"
        )
    out.set_dims((dims[0], channels, output_sizes[0], output_sizes[1]))
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)


def _grid_rank(output_shape: tuple[int, ...]) -> int:
    if len(output_shape) not in (4, 5):
        raise InvalidArgumentError(
            "argument 'output_shape' must hold 4 values [N, C, H, W] or 5 values "
            f"[N, C, D, H, W], got {list(output_shape)}"
        )
    if any(value <= 0 for value in output_shape[2:]):
        raise InvalidArgumentError(
            f"argument 'output_shape' must hold positive spatial sizes, got {list(output_shape)}"
        )
    return len(output_shape) - 2


def affine_grid_infer_meta(
    input: MetaTensor,
    output_shape: tuple[int, ...],
    align_corners: bool,
    output: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``input`` (theta) [N, 2, 3] and ``output_shape`` [N, C, H, W] give the grid
    [N, H, W, 2]; [N, 3, 4] and [N, C, D, H, W] give [N, D, H, W, 3]. N is theta's."""
    spatial = _grid_rank(tuple(output_shape))
    dims = tuple(input.dims)
    expected = (spatial, spatial + 1)
    if len(dims) != 3 or any(
        is_known(got) and got != want for got, want in zip(dims[1:], expected)
    ):
        raise InvalidArgumentError(
            f"argument 'input' (theta) must be a 3-D tensor [N, {expected[0]}, {expected[1]}] "
            f"for a {len(output_shape)}-value output_shape, got dims {list(dims)}"
        )
    output.set_dims((dims[0], *output_shape[2:], spatial))
    output.set_dtype(input.dtype)
    output.set_layout(input.layout)


def affine_grid_grad_infer_meta(
    output_grad: MetaTensor,
    output_shape: tuple[int, ...],
    align_corners: bool,
    input_grad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``input_grad`` is theta's gradient, [N, 2, 3] or [N, 3, 4] by ``output_shape``."""
    spatial = _grid_rank(tuple(output_shape))
    dims = tuple(output_grad.dims)
    if len(dims) != spatial + 2:
        raise InvalidArgumentError(
            f"argument 'output_grad' must be a {spatial + 2}-D tensor, got dims {list(dims)}"
        )
    input_grad.set_dims((dims[0], spatial, spatial + 1))
    input_grad.set_dtype(output_grad.dtype)
    input_grad.set_layout(output_grad.layout)
