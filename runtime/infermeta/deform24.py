"""InferMeta of the deform24 op (issue 24): deformable_conv and deformable_conv_grad.

PaddlePaddle 3.3.1's DeformableConvInferMeta (paddle/phi/infermeta/multiary.cc): x [N, C, H, W],
filter [M, C / groups, kh, kw], offset [N, 2 * deformable_groups * kh * kw, Ho, Wo] and the
optional mask [N, deformable_groups * kh * kw, Ho, Wo], Ho = (H + 2 * pad_h - (dil_h * (kh - 1)
+ 1)) / stride_h + 1 (Wo alike), give out [N, M, Ho, Wo] of x's dtype."""

from __future__ import annotations

from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.dims import UNKNOWN, extents_match, is_known
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = ["deformable_conv_infer_meta", "deformable_conv_grad_infer_meta"]

_RUNTIME = MetaConfig()


def _pair(name: str, values: tuple[int, ...], positive: bool) -> tuple[int, int]:
    if len(values) != 2:
        raise InvalidArgumentError(
            f"argument '{name}' must have 2 values (height, width), got {list(values)}"
        )
    if positive and min(values) <= 0:
        raise InvalidArgumentError(f"argument '{name}' must be positive, got {list(values)}")
    if not positive and min(values) < 0:
        raise InvalidArgumentError(f"argument '{name}' must be >= 0, got {list(values)}")
    return values[0], values[1]


def _output_extent(size: int, kernel: int, pad: int, dilation: int, stride: int) -> int:
    if not is_known(size) or not is_known(kernel):
        return UNKNOWN
    extent = (size + 2 * pad - (dilation * (kernel - 1) + 1)) // stride + 1
    if extent <= 0:
        raise InvalidArgumentError(
            f"the output extent (input {size} + 2 * padding {pad} - dilated kernel "
            f"{dilation * (kernel - 1) + 1}) / stride {stride} + 1 = {extent} must be positive"
        )
    return extent


def deformable_conv_infer_meta(
    x: MetaTensor,
    offset: MetaTensor,
    filter: MetaTensor,
    mask: MetaTensor | None,
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    dilations: tuple[int, ...],
    deformable_groups: int,
    groups: int,
    im2col_step: int,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """out [N, filter's M, Ho, Wo] of x's dtype (see the module docstring)."""
    x_dims, f_dims, o_dims = tuple(x.dims), tuple(filter.dims), tuple(offset.dims)
    for name, dims in (("x", x_dims), ("filter", f_dims), ("offset", o_dims)):
        if len(dims) != 4:
            raise InvalidArgumentError(f"argument '{name}' must be 4-D, got dims {list(dims)}")
    stride = _pair("strides", strides, True)
    padding = _pair("paddings", paddings, False)
    dilation = _pair("dilations", dilations, True)
    if groups <= 0:
        raise InvalidArgumentError(f"argument 'groups' must be positive, got {groups}")
    if deformable_groups <= 0:
        raise InvalidArgumentError(
            f"argument 'deformable_groups' must be positive, got {deformable_groups}"
        )
    if im2col_step <= 0:
        raise InvalidArgumentError(f"argument 'im2col_step' must be positive, got {im2col_step}")
    for name, other in (("offset", offset), ("filter", filter), ("mask", mask)):
        if other is not None and other.dtype != x.dtype:
            raise InvalidArgumentError(
                f"argument '{name}' must have x's dtype {x.dtype.name.lower()}, "
                f"got {other.dtype.name.lower()}"
            )
    if is_known(f_dims[1]) and not extents_match(x_dims[1], f_dims[1] * groups, config):
        raise InvalidArgumentError(
            f"argument 'x' must have filter's input channels {f_dims[1]} * groups {groups} "
            f"channels, got dims {list(x_dims)} (filter {list(f_dims)})"
        )
    if is_known(f_dims[0]) and f_dims[0] % groups:
        raise InvalidArgumentError(
            f"argument 'filter' must have output channels divisible by groups {groups}, "
            f"got dims {list(f_dims)}"
        )
    if is_known(f_dims[0]) and f_dims[0] % deformable_groups:
        raise InvalidArgumentError(
            f"argument 'filter' must have output channels divisible by deformable_groups "
            f"{deformable_groups}, got dims {list(f_dims)}"
        )
    if is_known(x_dims[1]) and x_dims[1] % deformable_groups:
        raise InvalidArgumentError(
            f"argument 'x' must have channels divisible by deformable_groups "
            f"{deformable_groups}, got dims {list(x_dims)}"
        )
    if is_known(x_dims[0]) and x_dims[0] > im2col_step and x_dims[0] % im2col_step:
        raise InvalidArgumentError(
            f"argument 'im2col_step' must divide the batch {x_dims[0]}, got {im2col_step}"
        )
    out_h = _output_extent(x_dims[2], f_dims[2], padding[0], dilation[0], stride[0])
    out_w = _output_extent(x_dims[3], f_dims[3], padding[1], dilation[1], stride[1])
    taps = f_dims[2] * f_dims[3] if is_known(f_dims[2]) and is_known(f_dims[3]) else UNKNOWN
    for name, meta, per_tap in (("offset", offset, 2), ("mask", mask, 1)):
        if meta is None:
            continue
        dims = tuple(meta.dims)
        expected = (
            x_dims[0],
            per_tap * deformable_groups * taps if is_known(taps) else UNKNOWN,
            out_h,
            out_w,
        )
        if len(dims) != 4 or not all(extents_match(a, b, config) for a, b in zip(dims, expected)):
            shape = [e if is_known(e) else "?" for e in expected]
            raise InvalidArgumentError(
                f"argument '{name}' must be [N, {per_tap} * deformable_groups * kh * kw, Ho, Wo]"
                f" = {shape}, got dims {list(dims)}"
            )
    out.set_dims((x_dims[0], f_dims[0], out_h, out_w))
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)


def deformable_conv_grad_infer_meta(
    x: MetaTensor,
    offset: MetaTensor,
    filter: MetaTensor,
    mask: MetaTensor | None,
    out_grad: MetaTensor,
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    dilations: tuple[int, ...],
    deformable_groups: int,
    groups: int,
    im2col_step: int,
    x_grad: MetaTensor | None,
    offset_grad: MetaTensor | None,
    filter_grad: MetaTensor | None,
    mask_grad: MetaTensor | None,
    config: MetaConfig = _RUNTIME,
) -> None:
    """Each gradient like its input (mask_grad only with a mask); out_grad must be the
    forward's out."""
    forward = MetaTensor()
    deformable_conv_infer_meta(
        x, offset, filter, mask, strides, paddings, dilations, deformable_groups, groups,
        im2col_step, forward, config,
    )  # fmt: skip
    if len(out_grad.dims) != 4 or not all(
        extents_match(a, b, config) for a, b in zip(out_grad.dims, forward.dims)
    ):
        raise InvalidArgumentError(
            f"argument 'out_grad' must have the forward output's dims {list(forward.dims)}, "
            f"got {list(out_grad.dims)}"
        )
    for grad, source in ((x_grad, x), (offset_grad, offset), (filter_grad, filter)):
        if grad is not None:
            grad.share_meta(source)
    if mask_grad is not None and mask is not None:
        mask_grad.share_meta(mask)
