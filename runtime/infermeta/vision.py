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
