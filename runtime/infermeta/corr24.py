"""InferMeta of the corr24 op (issue 24): ``correlation``, FlowNet's cost volume.

It follows PaddlePaddle 3.3.1's ``CorrelationInferMeta`` (paddle/phi/infermeta/binary.cc) and
``CorrelationOutputSize``: out is ``[N, D * D, OH, OW]`` with ``D = 2 * (max_displacement //
stride2) + 1`` and ``OH = ceil((H + 2 * pad_size - 2 * ((kernel_size - 1) // 2 +
max_displacement)) / stride1)`` (``OW`` likewise). PaddlePaddle checks only that both inputs are
4-D; phiops also rejects what its kernel would read out of bounds or divide by zero with: inputs
of different shapes or dtypes, ``kernel_size``, ``stride1`` or ``stride2`` below 1, a negative
``pad_size`` or ``max_displacement``, and a window larger than the padded input.
"""

from __future__ import annotations

from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.dims import UNKNOWN, dims_match, is_known, merge_dims
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = ["correlation_infer_meta"]

_RUNTIME = MetaConfig()


def _output_extent(extent: int, pad_size: int, border: int, stride: int, name: str) -> int:
    if not is_known(extent):
        return UNKNOWN
    span = extent + 2 * pad_size - 2 * border
    size = -(-span // stride)  # ceil, as PaddlePaddle's std::ceil of the float quotient
    if size < 0:
        raise InvalidArgumentError(
            f"argument 'input1' has {name} {extent}, smaller than the 2 * ((kernel_size - 1) // 2 "
            f"+ max_displacement) = {2 * border} the window needs beyond 2 * pad_size = "
            f"{2 * pad_size} (the output {name} would be {size})"
        )
    return size


def correlation_infer_meta(
    input1: MetaTensor,
    input2: MetaTensor,
    pad_size: int,
    kernel_size: int,
    max_displacement: int,
    stride1: int,
    stride2: int,
    corr_type_multiply: int,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``out`` is the cost volume ``[N, (2 * (max_displacement // stride2) + 1) ** 2, OH, OW]``
    of two 4-D NCHW inputs of one shape, in ``input1``'s dtype."""
    for name, tensor in (("input1", input1), ("input2", input2)):
        if len(tensor.dims) != 4:
            raise InvalidArgumentError(
                f"argument '{name}' must be 4-D [N, C, H, W], got dims {list(tensor.dims)}"
            )
    if not dims_match(input1.dims, input2.dims, config):
        raise InvalidArgumentError(
            f"argument 'input2' must have the shape of argument 'input1' {list(input1.dims)}, "
            f"got {list(input2.dims)}"
        )
    if input1.dtype != input2.dtype:
        raise InvalidArgumentError(
            f"argument 'input2' must have the dtype of argument 'input1' "
            f"({input1.dtype.name.lower()}), got {input2.dtype.name.lower()}"
        )
    for name, value, least in (
        ("pad_size", pad_size, 0),
        ("kernel_size", kernel_size, 1),
        ("max_displacement", max_displacement, 0),
        ("stride1", stride1, 1),
        ("stride2", stride2, 1),
    ):
        if value < least:
            raise InvalidArgumentError(f"argument '{name}' must be at least {least}, got {value}")
    dims = merge_dims(input1.dims, input2.dims)
    border = (kernel_size - 1) // 2 + max_displacement
    radius = max_displacement // stride2
    out.set_dims(
        (
            dims[0],
            (2 * radius + 1) ** 2,
            _output_extent(dims[2], pad_size, border, stride1, "height"),
            _output_extent(dims[3], pad_size, border, stride1, "width"),
        )
    )
    out.set_dtype(input1.dtype)
    out.set_layout(input1.layout)
