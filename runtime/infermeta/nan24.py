"""InferMeta functions of the nan24 ops of issue 24 (numerics checks, reduce_as and buffer ops),
following PaddlePaddle 3.3.1's functions of the same names in paddle/phi/infermeta/. Where 3.3.1
finds a bad input only in its kernel (reduce_as's dims), phiops refuses it here, naming the
argument."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.dims import UNKNOWN, extents_match, numel, set_output
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = [
    "check_numerics_infer_meta",
    "reduce_as_infer_meta",
    "coalesce_tensor_infer_meta",
    "coalesced_length",
]

_RUNTIME = MetaConfig()


def check_numerics_infer_meta(
    tensor: MetaTensor,
    op_type: str,
    var_name: str,
    check_nan_inf_level: int,
    stack_height_limit: int,
    output_dir: str,
    stats: MetaTensor,
    values: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """stats an int64 [3] (NaN, Inf and zero counts), values a float32 [3] (max, min, mean)."""
    set_output(stats, (3,), DataType.INT64, tensor)
    set_output(values, (3,), DataType.FLOAT32, tensor)


def reduce_as_infer_meta(
    x: MetaTensor, target: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """out has target's dims and x's dtype (int64 for bool and int32, as PHI's sum); target's
    dims, aligned to x's last ones, each equal x's extent or are 1."""
    x_dims, target_dims = tuple(x.dims), tuple(target.dims)
    if len(target_dims) > len(x_dims):
        raise InvalidArgumentError(
            f"argument 'target' must have at most as many dims as x ({len(x_dims)}), got dims "
            f"{list(target_dims)} for x's {list(x_dims)}"
        )
    lead = len(x_dims) - len(target_dims)
    for axis, extent in enumerate(target_dims):
        if extent == 1 or extents_match(x_dims[lead + axis], extent, config):
            continue
        raise InvalidArgumentError(
            f"argument 'target' has extent {extent} at axis {axis} where x has "
            f"{x_dims[lead + axis]} (axis {lead + axis}): each of target's dims must equal x's "
            f"trailing one or be 1, got target {list(target_dims)}, x {list(x_dims)}"
        )
    dtype = DataType.INT64 if x.dtype in (DataType.BOOL, DataType.INT32) else x.dtype
    set_output(out, target_dims, dtype, x)


# PaddlePaddle's CPU chunk size (CpuMinChunkSize), the alignment coalesce_tensor takes when
# align_size is not positive
DEFAULT_ALIGNMENT = 4096


def coalesced_length(count: int, use_align: bool, align_size: int, size_of_dtype: int) -> int:
    """The elements coalesce_tensor gives a tensor of ``count`` elements: its bytes rounded up
    to the alignment, divided by the element size, as PHI's ``Alignment``."""
    if not use_align:
        return count
    alignment = align_size if align_size > 0 else DEFAULT_ALIGNMENT
    size = count * size_of_dtype
    return (size + (-size) % alignment) // size_of_dtype


def coalesce_tensor_infer_meta(
    input: list[MetaTensor],
    dtype: DataType,
    copy_data: bool,
    set_constant: bool,
    persist_output: bool,
    constant: float,
    use_align: bool,
    align_size: int,
    size_of_dtype: int,
    concated_shapes: tuple[int, ...],
    concated_ranks: tuple[int, ...],
    output: list[MetaTensor],
    fused_output: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """Each output like its input; fused_output 1-D of dtype, the inputs' aligned lengths
    added; every input of dtype and not empty, size_of_dtype -1 or positive."""
    if not input:
        raise InvalidArgumentError(
            "argument 'input' must hold at least one tensor, got an empty list"
        )
    if size_of_dtype != -1 and size_of_dtype <= 0:
        raise InvalidArgumentError(
            f"argument 'size_of_dtype' must be -1 (dtype's size) or a positive byte count, got "
            f"{size_of_dtype}"
        )
    element_size = size_of_dtype if size_of_dtype > 0 else dtype.numpy_dtype.itemsize
    total = 0
    for position, tensor in enumerate(input):
        if tensor.dtype != dtype:
            raise InvalidArgumentError(
                f"argument 'input' must hold tensors of dtype {dtype.name.lower()} (the buffer's), "
                f"got {tensor.dtype.name.lower()} for input[{position}]"
            )
        count = numel(tensor.dims)
        if count == 0:
            raise InvalidArgumentError(
                f"argument 'input' must hold tensors with elements, got dims "
                f"{list(tensor.dims)} for input[{position}]"
            )
        if total != UNKNOWN:
            total = (
                UNKNOWN
                if count < 0
                else total + coalesced_length(count, use_align, align_size, element_size)
            )
    for tensor, out in zip(input, output):
        set_output(out, tensor.dims, dtype, tensor)
    set_output(fused_output, (total,), dtype, input[0])
