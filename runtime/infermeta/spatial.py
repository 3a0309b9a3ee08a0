"""Shape rules shared by convolution and pooling: paddings, dilations and output sizes.

Pure functions of ints, used by the InferMeta functions and by the kernels that must recompute
the same geometry (PHI's UpdatePaddingAndDilation, ConvOutSize, PoolOutputSize).
"""

from __future__ import annotations

from phiops.runtime.errors import InvalidArgumentError

__all__ = [
    "CHANNEL_LAST",
    "resolve_paddings",
    "conv_out_size",
    "conv_transpose_out_size",
    "pool_out_size",
    "check_data_format",
]

CHANNEL_LAST = ("NHWC", "NDHWC", "NLC")
# PHI's conv and pool kernels read channels last for "NHWC" or "NDHWC", whatever the input's
# rank, and channels first for anything else: legacy programs pass "AnyLayout", and wrappers
# pass "NCDHW" with a 4-D input. phiops takes every layout name of either rank (an unknown
# string is refused: a typo is likelier than a meaning).
_FORMATS = ("NCHW", "NHWC", "NCDHW", "NDHWC", "AnyLayout")
_ALGORITHMS = ("EXPLICIT", "SAME", "VALID")


def check_data_format(data_format: str, rank: int) -> bool:
    """Whether ``data_format`` puts the channels last; InvalidArgumentError for an unknown one."""
    allowed = _FORMATS
    if data_format not in allowed:
        raise InvalidArgumentError(
            f"argument 'data_format' must be one of {list(allowed)} for a {rank}-D input, "
            f"got {data_format!r}"
        )
    return data_format in CHANNEL_LAST


def resolve_paddings(
    paddings: tuple[int, ...] | list[int],
    padding_algorithm: str,
    spatial: tuple[int, ...],
    kernel: tuple[int, ...],
    strides: tuple[int, ...],
    dilations: tuple[int, ...] | None = None,
) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...]]:
    """((before, after) per spatial dim, dilations), as PHI's UpdatePaddingAndDilation.

    ``paddings`` holds one value per spatial dim (both sides) or two ([top, bottom, left,
    right]); "SAME" pads so that out = ceil(in / stride) and resets dilations to 1; "VALID"
    pads nothing.
    """
    n = len(spatial)
    dilations = tuple(dilations) if dilations is not None else (1,) * n
    if padding_algorithm not in _ALGORITHMS:
        raise InvalidArgumentError(
            f"argument 'padding_algorithm' must be one of {list(_ALGORITHMS)}, "
            f"got {padding_algorithm!r}"
        )
    if len(paddings) == n:
        pairs = tuple((p, p) for p in paddings)
    elif len(paddings) == 2 * n:
        pairs = tuple((paddings[2 * i], paddings[2 * i + 1]) for i in range(n))
    else:
        raise InvalidArgumentError(
            f"argument 'paddings' must hold {n} or {2 * n} values for {n} spatial dims, "
            f"got {list(paddings)}"
        )
    if padding_algorithm == "SAME":
        same = []
        for size, k, s in zip(spatial, kernel, strides):
            if size < 0:
                same.append((-1, -1))
                continue
            out = (size + s - 1) // s
            total = max((out - 1) * s + k - size, 0)
            same.append((total // 2, total - total // 2))
        return tuple(same), (1,) * n
    if padding_algorithm == "VALID":
        return ((0, 0),) * n, dilations
    return pairs, dilations


def check_positive(values: tuple[int, ...] | list[int], name: str) -> None:
    """InvalidArgumentError unless every value of ``name`` is > 0."""
    if any(v <= 0 for v in values):
        raise InvalidArgumentError(f"argument '{name}' must be positive, got {list(values)}")


def conv_out_size(
    size: int, kernel: int, dilation: int, pads: tuple[int, int], stride: int, axis: int
) -> int:
    """Output extent of a convolution along one spatial dim (-1 when the input extent or the
    kernel extent is unknown)."""
    if size < 0 or kernel < 0:
        return -1
    dilated = dilation * (kernel - 1) + 1
    padded = size + pads[0] + pads[1]
    if padded < dilated:
        raise InvalidArgumentError(
            f"the padded input size {padded} (input {size} + paddings {pads[0]} and {pads[1]}) "
            f"of spatial dim {axis} is smaller than the dilated kernel size {dilated} "
            f"(filter {kernel}, dilation {dilation})"
        )
    return (padded - dilated) // stride + 1


def conv_transpose_out_size(
    size: int,
    kernel: int,
    dilation: int,
    pads: tuple[int, int],
    stride: int,
    output_padding: int | None,
    output_size: int | None,
    axis: int,
    is_runtime: bool = True,
) -> int:
    """Output extent of a transposed convolution along one spatial dim, PHI's
    ConvTransposeInferMeta: (size - 1) * stride - pads + dilated kernel, or ``output_size``
    (at least that and less than that + stride), or that + ``output_padding`` (in [0,
    max(stride, dilation))). An unknown (-1) input extent gives -1 unless ``output_size``
    fixes it."""
    inferred = -1
    if size >= 0 and kernel >= 0 and pads[0] >= 0:
        inferred = (size - 1) * stride - pads[0] - pads[1] + dilation * (kernel - 1) + 1
        if inferred < 0:
            raise InvalidArgumentError(
                f"the output size along spatial dim {axis} would be {inferred} (input {size}, "
                f"stride {stride}, paddings {pads[0]} and {pads[1]}, filter {kernel}, dilation "
                f"{dilation}); it must not be negative"
            )
    if output_size is not None:
        if inferred >= 0 and is_runtime:
            if output_size < inferred:
                raise InvalidArgumentError(
                    f"argument 'output_size' must not be less than the inferred output size: "
                    f"dim {axis} is {output_size}, the inferred size is {inferred}"
                )
            if output_size >= inferred + stride:
                raise InvalidArgumentError(
                    f"argument 'output_size' must be less than the inferred output size plus "
                    f"the stride: dim {axis} is {output_size}, not less than {inferred} + "
                    f"{stride}"
                )
        return output_size
    if output_padding is not None:
        if not 0 <= output_padding < max(stride, dilation):
            raise InvalidArgumentError(
                f"argument 'output_padding' must be in [0, max(stride, dilation)) = [0, "
                f"{max(stride, dilation)}) along dim {axis}, got {output_padding}"
            )
        return inferred + output_padding if inferred >= 0 else -1
    return inferred


def pool_out_size(
    size: int, kernel: int, pads: tuple[int, int], stride: int, ceil_mode: bool, axis: int
) -> int:
    """Output extent of a pooling along one spatial dim (-1 stays -1)."""
    if size < 0:
        return -1
    extra = stride - 1 if ceil_mode else 0
    out = (size - kernel + pads[0] + pads[1] + extra) // stride + 1
    if out <= 0:
        raise InvalidArgumentError(
            f"the output size along spatial dim {axis} must be positive, got {out} (input "
            f"{size}, kernel {kernel}, paddings {pads[0]} and {pads[1]}, stride {stride})"
        )
    return out
