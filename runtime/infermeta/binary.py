"""InferMeta functions of ops with two tensor inputs."""

from __future__ import annotations

from phiops.runtime.common import DataType, promote_types
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.spatial import (
    check_data_format,
    check_positive,
    conv_out_size,
    conv_transpose_out_size,
    resolve_paddings,
)


from phiops.runtime.infermeta.dims import (
    UNKNOWN,
    dims_match,
    extents_match,
    integer_scalar,
    merge_dims,
    numel,
)

__all__ = [
    "broadcast_dims",
    "elementwise_infer_meta",
    "compare_infer_meta",
    "logical_binary_infer_meta",
    "matmul_infer_meta",
]

_RUNTIME = MetaConfig()


def _broadcast_or_mismatch(
    a_dims: tuple[int, ...], b_dims: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[int, int, int] | None]:
    """The broadcast of two dims (right-aligned), and the first (index, a, b) that does not
    broadcast, else None.

    PHI's GetBroadcastDimsArrays: extents broadcast when they are equal or one of them is 1
    (or -1, unknown while building a graph); 0 broadcasts only with 0 and 1. An output
    extent is the larger one when either is > 1, 1 when both are 1, 0 when either is 0, and
    -1 (unknown) otherwise.
    """
    rank = max(len(a_dims), len(b_dims))
    a_full = (1,) * (rank - len(a_dims)) + tuple(a_dims)
    b_full = (1,) * (rank - len(b_dims)) + tuple(b_dims)
    out: list[int] = []
    for index, (a, b) in enumerate(zip(a_full, b_full)):
        if not (a == b or (a <= 1 and a != 0) or (b <= 1 and b != 0)):
            return (), (index, a, b)
        if a > 1 or b > 1 or (a == 1 and b == 1):
            out.append(max(a, b))
        elif a == 0 or b == 0:
            out.append(0)
        else:
            out.append(-1)
    return tuple(out), None


def broadcast_dims(
    a_dims: tuple[int, ...], b_dims: tuple[int, ...], a_name: str, b_name: str
) -> tuple[int, ...]:
    """The broadcast of ``a_dims`` and ``b_dims``; InvalidArgumentError naming both arguments
    and the first dimension (counted in the right-aligned result) that differs."""
    if a_dims == b_dims:
        return tuple(a_dims)
    out, mismatch = _broadcast_or_mismatch(a_dims, b_dims)
    if mismatch is not None:
        index, a, b = mismatch
        raise InvalidArgumentError(
            f"argument '{b_name}' with dims {list(b_dims)} cannot be broadcast with argument "
            f"'{a_name}' with dims {list(a_dims)}: dimension {index} differs ({b} vs {a})"
        )
    return out


def elementwise_infer_meta(
    x: MetaTensor, y: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """PHI's ElementwiseInferMeta: ``out`` has the broadcast of ``x`` and ``y``'s dims and the
    promoted dtype (the higher of the two, which is also the dtype the kernel runs in)."""
    out.set_dims(broadcast_dims(x.dims, y.dims, "x", "y"))
    out.set_dtype(promote_types([x.dtype, y.dtype]))
    out.set_layout(x.layout)


def compare_infer_meta(
    x: MetaTensor, y: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """PHI's CompareInferMeta: the broadcast dims of ``x`` and ``y``, dtype bool."""
    out.set_dims(broadcast_dims(x.dims, y.dims, "x", "y"))
    out.set_dtype(DataType.BOOL)
    out.set_layout(x.layout)


def logical_binary_infer_meta(
    x: MetaTensor, y: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """PHI's LogicalBinaryInferMeta: the broadcast dims of ``x`` and ``y``, dtype bool (inputs
    of any dtype count as true where nonzero)."""
    out.set_dims(broadcast_dims(x.dims, y.dims, "x", "y"))
    out.set_dtype(DataType.BOOL)
    out.set_layout(x.layout)


def matmul_infer_meta(
    x: MetaTensor,
    y: MetaTensor,
    transpose_x: bool,
    transpose_y: bool,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's MatmulInferMeta.

    A 1-D ``x`` is read as [1, K] and a 1-D ``y`` as [K, 1]; the inserted 1 is dropped from
    the result, so 1-D times 1-D gives a 0-D tensor. The transpose flags swap the last two
    dims of an input of rank >= 2 and are ignored for a 1-D one. Batch dims (all but the last
    two) broadcast. PHI's InferMeta leaves the contracted-dimension and batch checks to its
    kernel; here they are made up front, with the same conditions. The dtype is the promoted
    one of ``x`` and ``y`` (x's when they agree, as in PHI).
    """
    x_dims, y_dims = tuple(x.dims), tuple(y.dims)
    for name, dims in (("x", x_dims), ("y", y_dims)):
        if not dims:
            raise InvalidArgumentError(
                f"argument '{name}' of matmul must have at least 1 dimension, got a 0-D tensor"
            )
    x_matrix = (1,) + x_dims if len(x_dims) == 1 else x_dims
    y_matrix = y_dims + (1,) if len(y_dims) == 1 else y_dims
    x_swap = transpose_x and len(x_dims) > 1
    y_swap = transpose_y and len(y_dims) > 1
    m, k_x = (x_matrix[-1], x_matrix[-2]) if x_swap else (x_matrix[-2], x_matrix[-1])
    k_y, n = (y_matrix[-1], y_matrix[-2]) if y_swap else (y_matrix[-2], y_matrix[-1])
    if k_x != k_y and k_x != -1 and k_y != -1:
        raise InvalidArgumentError(
            f"argument 'y' with dims {list(y_dims)} (transpose_y={transpose_y}) cannot be "
            f"multiplied with argument 'x' with dims {list(x_dims)} (transpose_x={transpose_x}): "
            f"the contracted dimension is {k_x} in x but {k_y} in y"
        )
    x_batch, y_batch = x_matrix[:-2], y_matrix[:-2]
    batch, mismatch = _broadcast_or_mismatch(x_batch, y_batch)
    if mismatch is not None:
        index, a, b = mismatch
        raise InvalidArgumentError(
            f"the batch dims {list(y_batch)} of argument 'y' with dims {list(y_dims)} cannot be "
            f"broadcast with the batch dims {list(x_batch)} of argument 'x' with dims "
            f"{list(x_dims)}: batch dimension {index} differs ({b} vs {a})"
        )
    dims = list(batch)
    if len(x_dims) > 1:
        dims.append(m)
    if len(y_dims) > 1:
        dims.append(n)
    out.set_dims(tuple(dims))
    out.set_dtype(promote_types([x.dtype, y.dtype]))
    out.set_layout(x.layout)


def cross_entropy_with_softmax_infer_meta(
    input: MetaTensor,  # noqa: A002 - the YAML argument's name
    label: MetaTensor,
    soft_label: bool,
    use_softmax: bool,
    numeric_stable_mode: bool,
    ignore_index: int,
    axis: int,
    softmax: MetaTensor,
    loss: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``softmax`` like ``input``; ``loss`` like ``input`` with the class dimension ``axis`` of
    size 1 (PaddlePaddle's CrossEntropyWithSoftmaxInferMeta). ``label`` has ``input``'s rank and
    dims outside ``axis``; along ``axis`` it has ``input``'s size for soft labels (then also
    ``input``'s dtype) and size 1 for hard labels (then an integer dtype)."""
    dims = input.dims
    rank = len(dims)
    if rank == 0:
        raise InvalidArgumentError(
            "argument 'input' must have at least one dimension (the class axis), got a 0-D tensor"
        )
    if not -rank <= axis < rank:
        raise InvalidArgumentError(
            f"argument 'axis' must be in [{-rank}, {rank}) for argument 'input' of rank {rank}, "
            f"got {axis}"
        )
    index = axis + rank if axis < 0 else axis
    label_dims = label.dims
    if len(label_dims) != rank:
        raise InvalidArgumentError(
            f"argument 'label' with dims {list(label_dims)} must have the rank of argument 'input' "
            f"with dims {list(dims)}"
        )
    for i, (extent, label_extent) in enumerate(zip(dims, label_dims)):
        if i != index and not extents_match(extent, label_extent, config):
            raise InvalidArgumentError(
                f"argument 'label' with dims {list(label_dims)} must match argument 'input' with "
                f"dims {list(dims)} outside axis {index}: dimension {i} differs "
                f"({label_extent} vs {extent})"
            )
    if index != rank - 1 and not numeric_stable_mode:
        raise InvalidArgumentError(
            f"argument 'axis' must be the last dimension ({rank - 1} or -1) when "
            f"numeric_stable_mode is false, got {axis}"
        )
    if soft_label:
        if not extents_match(label_dims[index], dims[index], config):
            raise InvalidArgumentError(
                f"argument 'label' with dims {list(label_dims)} must have {dims[index]} entries "
                f"along axis {index} with soft_label=True (one probability per class of 'input' "
                f"with dims {list(dims)}), got {label_dims[index]}"
            )
        if label.dtype is not input.dtype:
            raise InvalidArgumentError(
                f"argument 'label' must have the dtype of argument 'input' "
                f"({input.dtype.name.lower()}) with soft_label=True, got {label.dtype.name.lower()}"
            )
    else:
        if not extents_match(label_dims[index], 1, config):
            raise InvalidArgumentError(
                f"argument 'label' with dims {list(label_dims)} must have size 1 along axis "
                f"{index} with soft_label=False (one class index per row), got {label_dims[index]}"
            )
        if not label.dtype.is_integer:
            raise InvalidArgumentError(
                f"argument 'label' must have an integer dtype with soft_label=False (class "
                f"indices), got {label.dtype.name.lower()}"
            )
    # Outside the class axis, an extent unknown in 'input' but known in 'label' is known.
    dims = merge_dims(dims, label_dims[:index] + (dims[index],) + label_dims[index + 1 :])
    softmax.set_dims(dims)
    softmax.set_dtype(input.dtype)
    softmax.set_layout(input.layout)
    loss.set_dims(dims[:index] + (1,) + dims[index + 1 :])
    loss.set_dtype(input.dtype)
    loss.set_layout(input.layout)


# Convolution ----------------------------------------------------------------------------------
# PHI's ConvInferMeta (paddle/phi/infermeta/binary.cc); depthwise_conv2d and conv3d only order
# their attributes differently.


def conv_infer_meta(
    input: MetaTensor,
    filter: MetaTensor,
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    padding_algorithm: str,
    dilations: tuple[int, ...],
    groups: int,
    data_format: str,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``out`` is [N, C_out, *spatial_out] (channels last for NHWC/NDHWC).

    Checks PHI's conditions: a 4-D or 5-D input, a filter of the same rank, one stride and
    dilation per spatial dim, input channels = filter channels * groups, output channels
    divisible by groups, and a padded input at least as large as the dilated kernel.
    """
    in_dims, f_dims = tuple(input.dims), tuple(filter.dims)
    if len(in_dims) not in (4, 5):
        raise InvalidArgumentError(
            f"argument 'input' must be a 4-D or 5-D tensor, got dims {list(in_dims)}"
        )
    if len(f_dims) != len(in_dims):
        raise InvalidArgumentError(
            f"argument 'filter' must have the rank of argument 'input' ({len(in_dims)}), "
            f"got dims {list(f_dims)}"
        )
    spatial_rank = len(in_dims) - 2
    for name, values in (("strides", strides), ("dilations", dilations)):
        if len(values) != spatial_rank:
            raise InvalidArgumentError(
                f"argument '{name}' must hold {spatial_rank} values for a {len(in_dims)}-D "
                f"input, got {list(values)}"
            )
        check_positive(values, name)
    if groups <= 0:
        raise InvalidArgumentError(f"argument 'groups' must be positive, got {groups}")
    channel_last = check_data_format(data_format, len(in_dims))
    channels = in_dims[-1] if channel_last else in_dims[1]
    spatial = in_dims[1:-1] if channel_last else in_dims[2:]
    if channels != -1 and f_dims[1] != -1 and channels != f_dims[1] * groups:
        raise InvalidArgumentError(
            f"the input channels ({channels}, argument 'input' with dims {list(in_dims)}, "
            f"data_format {data_format}) must equal the filter channels ({f_dims[1]}, argument "
            f"'filter' with dims {list(f_dims)}) times groups ({groups})"
        )
    if f_dims[0] != -1 and f_dims[0] % groups != 0:
        raise InvalidArgumentError(
            f"the output channels ({f_dims[0]}, dim 0 of argument 'filter' with dims "
            f"{list(f_dims)}) must be divisible by groups ({groups})"
        )
    kernel = f_dims[2:]
    pads, dilated = resolve_paddings(
        paddings, padding_algorithm, spatial, kernel, strides, dilations
    )
    spatial_out = tuple(
        conv_out_size(size, k, d, p, s, axis)
        for axis, (size, k, d, p, s) in enumerate(zip(spatial, kernel, dilated, pads, strides))
    )
    if channel_last:
        out.set_dims((in_dims[0],) + spatial_out + (f_dims[0],))
    else:
        out.set_dims((in_dims[0], f_dims[0]) + spatial_out)
    out.set_dtype(input.dtype)
    out.set_layout(input.layout)


def depthwise_conv_infer_meta(
    input: MetaTensor,
    filter: MetaTensor,
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    padding_algorithm: str,
    groups: int,
    dilations: tuple[int, ...],
    data_format: str,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``conv_infer_meta`` with depthwise_conv2d's attribute order."""
    conv_infer_meta(
        input,
        filter,
        strides,
        paddings,
        padding_algorithm,
        dilations,
        groups,
        data_format,
        out,
        config,
    )


def conv3_d_infer_meta(
    input: MetaTensor,
    filter: MetaTensor,
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    padding_algorithm: str,
    groups: int,
    dilations: tuple[int, ...],
    data_format: str,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's Conv3DInferMeta: ``conv_infer_meta`` with conv3d's attribute order."""
    conv_infer_meta(
        input,
        filter,
        strides,
        paddings,
        padding_algorithm,
        dilations,
        groups,
        data_format,
        out,
        config,
    )


_TRANSPOSE_FORMATS = ("NCHW", "NHWC", "NCDHW", "NDHWC", "AnyLayout")


def conv_transpose_infer_meta(
    x: MetaTensor,
    filter: MetaTensor,
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    output_padding: tuple[int, ...],
    output_size: tuple[int, ...],
    padding_algorithm: str,
    groups: int,
    dilations: tuple[int, ...],
    data_format: str,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's ConvTransposeInferMeta: ``out`` is [N, filter[1] * groups, *spatial_out]
    (channels last for NHWC/NDHWC), each spatial extent (in - 1) * stride - paddings +
    dilated kernel, or ``output_size``, or that + ``output_padding``.

    Checks PHI's conditions (a 4-D or 5-D input, a filter of the same rank, one stride per
    spatial dim, ``output_size``/``output_padding`` empty or one per spatial dim, input
    channels = filter[0]) and what PHI's kernel assumes without checking (positive groups
    dividing the input channels, one dilation per spatial dim).
    """
    in_dims, f_dims = tuple(x.dims), tuple(filter.dims)
    if len(in_dims) not in (4, 5):
        raise InvalidArgumentError(
            f"argument 'x' must be a 4-D or 5-D tensor, got dims {list(in_dims)}"
        )
    if len(f_dims) != len(in_dims):
        raise InvalidArgumentError(
            f"argument 'filter' must have the rank of argument 'x' ({len(in_dims)}), "
            f"got dims {list(f_dims)}"
        )
    spatial_rank = len(in_dims) - 2
    for name, values in (
        ("strides", strides),
        ("dilations", dilations),
        ("output_size", output_size),
        ("output_padding", output_padding),
    ):
        if len(values) != spatial_rank and (values or name in ("strides", "dilations")):
            raise InvalidArgumentError(
                f"argument '{name}' must hold {spatial_rank} values for a {len(in_dims)}-D "
                f"input{'' if name in ('strides', 'dilations') else ' (or none)'}, got "
                f"{list(values)}"
            )
    check_positive(strides, "strides")
    check_positive(dilations, "dilations")
    if groups <= 0:
        raise InvalidArgumentError(f"argument 'groups' must be positive, got {groups}")
    # PHI reads the layout with StringToDataLayout and puts channels last only for NHWC, also
    # for a 5-D input (PaddlePaddle's conv3d_transpose passes "NHWC"); NDHWC is channels last
    # here too, where PHI would take it as channels first.
    if data_format not in _TRANSPOSE_FORMATS:
        raise InvalidArgumentError(
            f"argument 'data_format' must be one of {list(_TRANSPOSE_FORMATS)}, got "
            f"{data_format!r}"
        )
    channel_last = data_format in ("NHWC", "NDHWC")
    channels = in_dims[-1] if channel_last else in_dims[1]
    spatial = in_dims[1:-1] if channel_last else in_dims[2:]
    if not extents_match(channels, f_dims[0], config):
        raise InvalidArgumentError(
            f"the input channels ({channels}, argument 'x' with dims {list(in_dims)}, "
            f"data_format {data_format}) must equal the filter's dim 0 ({f_dims[0]}, argument "
            f"'filter' with dims {list(f_dims)})"
        )
    if channels >= 0 and channels % groups != 0:
        raise InvalidArgumentError(
            f"the input channels ({channels}, argument 'x' with dims {list(in_dims)}) must be "
            f"divisible by groups ({groups})"
        )
    kernel = f_dims[2:]
    pads, dilated = resolve_paddings(
        paddings, padding_algorithm, spatial, kernel, strides, dilations
    )
    spatial_out = tuple(
        conv_transpose_out_size(
            size,
            k,
            d,
            p,
            s,
            output_padding[axis] if output_padding else None,
            output_size[axis] if output_size else None,
            axis,
            config.is_runtime,
        )
        for axis, (size, k, d, p, s) in enumerate(zip(spatial, kernel, dilated, pads, strides))
    )
    out_channels = f_dims[1] * groups if f_dims[1] >= 0 else -1
    if channel_last:
        out.set_dims((in_dims[0],) + spatial_out + (out_channels,))
    else:
        out.set_dims((in_dims[0], out_channels) + spatial_out)
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)


def conv2d_transpose_infer_meta(
    x: MetaTensor,
    filter: MetaTensor,
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    output_padding: tuple[int, ...],
    output_size: tuple[int, ...],
    padding_algorithm: str,
    groups: int,
    dilations: tuple[int, ...],
    data_format: str,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's Conv2dTransposeInferMeta: ``conv_transpose_infer_meta`` with ``output_size`` an
    IntArray."""
    conv_transpose_infer_meta(
        x,
        filter,
        strides,
        paddings,
        output_padding,
        output_size,
        padding_algorithm,
        groups,
        dilations,
        data_format,
        out,
        config,
    )


# Activations, logic and bits ------------------------------------------------------------------


def p_relu_infer_meta(
    x: MetaTensor,
    alpha: MetaTensor,
    data_format: str,
    mode: str,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``out`` like ``x``; ``alpha`` holds one slope (mode 'all'), one per channel ('channel',
    the channel axis given by ``data_format``) or one per element of a sample ('element'),
    PaddlePaddle's PReluInferMeta."""
    dims = x.dims
    alpha_size = numel(alpha.dims)
    if mode == "all":
        if not extents_match(alpha_size, 1, config):
            raise InvalidArgumentError(
                f"argument 'alpha' must hold one value for mode 'all', got {alpha_size}"
            )
    elif mode == "channel":
        if len(dims) < 2:
            raise InvalidArgumentError(
                f"argument 'x' must have at least 2 dimensions for mode 'channel', got dims "
                f"{list(dims)}"
            )
        if data_format not in ("NCHW", "NHWC"):
            raise InvalidArgumentError(
                f"argument 'data_format' must be 'NCHW' or 'NHWC' for mode 'channel', got "
                f"{data_format!r}"
            )
        channels = dims[1] if data_format == "NCHW" else dims[-1]
        if not extents_match(alpha_size, channels, config):
            raise InvalidArgumentError(
                f"argument 'alpha' must hold one value per channel of argument 'x' (dims "
                f"{list(dims)}, {data_format}: {channels} channels) for mode 'channel', got "
                f"{alpha_size}"
            )
    elif mode == "element":
        if len(dims) < 1:
            raise InvalidArgumentError(
                "argument 'x' must have at least 1 dimension for mode 'element', got a 0-D tensor"
            )
        per_sample = numel(dims[1:])
        if not extents_match(alpha_size, per_sample, config):
            raise InvalidArgumentError(
                f"argument 'alpha' must hold one value per element of a sample of argument 'x' "
                f"(dims {list(dims)}: {per_sample}) for mode 'element', got {alpha_size}"
            )
    else:
        raise InvalidArgumentError(
            f"argument 'mode' must be one of 'all', 'channel' or 'element', got {mode!r}"
        )
    out.share_meta(x)


# Lookup and indexing --------------------------------------------------------------------------
# Shape rules and checks of paddle/phi/infermeta/binary.cc: EmbeddingInferMeta, GatherInferMeta,
# GatherNdInferMeta, IndexSelectInferMeta, MaskedSelectInferMeta, TakeAlongAxisInferMeta.

_INDEX_DTYPES = (DataType.INT32, DataType.INT64)


def require_index_dtype(index: MetaTensor, name: str) -> None:
    """InvalidArgumentError unless ``index`` is int32 or int64."""
    if index.dtype not in _INDEX_DTYPES:
        raise InvalidArgumentError(
            f"argument '{name}' must be int32 or int64, got {index.dtype.name.lower()}"
        )


def _normalised_axis(axis: int, rank: int, name: str) -> int:
    bound = max(rank, 1)
    if not -bound <= axis < bound:
        raise InvalidArgumentError(
            f"argument '{name}' must be in [{-bound}, {bound}) for a tensor of rank {rank}, got {axis}"
        )
    return axis + bound if axis < 0 else axis


def embedding_infer_meta(
    x: MetaTensor,
    weight: MetaTensor,
    padding_idx: int,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """Rows of the 2-D ``weight`` picked by the integer ids ``x``: x.dims + [weight.dims[1]]."""
    require_index_dtype(x, "x")
    table = weight.dims
    if len(table) != 2:
        raise InvalidArgumentError(
            f"argument 'weight' must be a 2-D table [num_embeddings, embedding_dim], got dims "
            f"{list(table)}"
        )
    if table[0] >= 0 and not -table[0] <= padding_idx < table[0]:
        raise InvalidArgumentError(
            f"argument 'padding_idx' must be in [{-table[0]}, {table[0]}) for a weight with "
            f"{table[0]} rows, got {padding_idx}"
        )
    out.set_dims(tuple(x.dims) + (table[1],))
    out.set_dtype(weight.dtype)
    out.set_layout(weight.layout)


def gather_infer_meta(
    x: MetaTensor, index: MetaTensor, axis: int, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``x`` with axis ``axis`` replaced by the entries of the 1-D (or 0-D: axis removed)
    ``index``."""
    require_index_dtype(index, "index")
    index_dims = index.dims
    if len(index_dims) == 2 and index_dims[1] == 1:
        index_dims = index_dims[:1]
    if len(index_dims) > 1:
        raise InvalidArgumentError(
            f"argument 'index' must be 0-D or 1-D (or [N, 1]), got dims {list(index.dims)}"
        )
    dims = x.dims
    a = _normalised_axis(integer_scalar(axis, "axis"), len(dims), "axis")
    if not dims:
        raise InvalidArgumentError("argument 'x' must have rank at least 1, got a 0-D tensor")
    out.set_dims(dims[:a] + tuple(index_dims) + dims[a + 1 :])
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)


def index_depth(index_dims: tuple[int, ...], rank: int) -> int:
    """How many leading axes of an ``x`` of rank ``rank`` each row of a gather_nd/scatter_nd_add
    ``index`` addresses: its last extent, which must be known even while a graph is built (the
    output's rank depends on it)."""
    depth = index_dims[-1]
    if depth == UNKNOWN:
        raise InvalidArgumentError(
            f"argument 'index' (dims {list(index_dims)}) must have a known last dim: it says how "
            "many axes of 'x' each row addresses, which decides the output's rank"
        )
    if depth > rank:
        raise InvalidArgumentError(
            f"argument 'index' addresses {depth} leading axes (its last dim), but 'x' has rank "
            f"{rank}"
        )
    return depth


def gather_nd_infer_meta(
    x: MetaTensor, index: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """index.dims[:-1] + x.dims[index.dims[-1]:]: each row of ``index`` addresses a slice."""
    require_index_dtype(index, "index")
    dims, index_dims = x.dims, index.dims
    if not index_dims:
        raise InvalidArgumentError("argument 'index' must have rank at least 1, got a 0-D tensor")
    depth = index_depth(index_dims, len(dims))
    out.set_dims(tuple(index_dims[:-1]) + tuple(dims[depth:]))
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)


def index_select_infer_meta(
    x: MetaTensor, index: MetaTensor, axis: int, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``x`` with axis ``axis`` replaced by the 1-D ``index``'s length."""
    require_index_dtype(index, "index")
    index_dims = index.dims
    if not (len(index_dims) == 1 or (len(index_dims) == 2 and index_dims[1] == 1)):
        raise InvalidArgumentError(
            f"argument 'index' must be 1-D (or [N, 1]), got dims {list(index_dims)}"
        )
    dims = x.dims
    a = _normalised_axis(integer_scalar(axis, "axis"), len(dims), "axis")
    if not dims:
        raise InvalidArgumentError("argument 'x' must have rank at least 1, got a 0-D tensor")
    out.set_dims(dims[:a] + (index_dims[0],) + dims[a + 1 :])
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)


def masked_select_infer_meta(
    x: MetaTensor, mask: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """The 1-D list of ``x``'s elements where the bool ``mask`` (broadcast with ``x``) holds;
    its length comes from the data (-1)."""
    if mask.dtype is not DataType.BOOL:
        raise InvalidArgumentError(f"argument 'mask' must be bool, got {mask.dtype.name.lower()}")
    broadcast_dims(x.dims, mask.dims, "x", "mask")
    out.set_dims((-1,))
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)


def take_along_axis_infer_meta(
    arr: MetaTensor,
    indices: MetaTensor,
    axis: int,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``indices``' dims: the elements of ``arr`` at ``indices`` along ``axis``."""
    require_index_dtype(indices, "indices")
    if len(indices.dims) != len(arr.dims):
        raise InvalidArgumentError(
            f"argument 'indices' must have the rank of 'arr' ({len(arr.dims)}), got "
            f"{len(indices.dims)}"
        )
    _normalised_axis(axis, len(arr.dims), "axis")
    out.set_dims(indices.dims)
    out.set_dtype(arr.dtype)
    out.set_layout(arr.layout)


def _same_dims(x: MetaTensor, y: MetaTensor, config: MetaConfig) -> None:
    """PaddlePaddle's BinarySameInputDimsCheck: ``x`` and ``y`` have equal dims (no
    broadcasting; an unknown extent is checked at run time)."""
    if not dims_match(x.dims, y.dims, config):
        raise InvalidArgumentError(
            f"arguments 'x' and 'y' must have the same dims, got {list(x.dims)} and {list(y.dims)}"
        )


def _same_dtype(x: MetaTensor, y: MetaTensor) -> None:
    """``x`` and ``y`` of one dtype: PaddlePaddle 3.3.1's isclose/allclose kernels read ``y`` as
    ``x``'s type and refuse any other (float32 with int32 or float64 alike); nothing casts."""
    if x.dtype != y.dtype:
        raise InvalidArgumentError(
            f"arguments 'x' and 'y' must have the same dtype, got {x.dtype.name.lower()} and "
            f"{y.dtype.name.lower()}"
        )


def all_value_compare_infer_meta(
    x: MetaTensor, y: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """One bool for the whole comparison (allclose): a 0-D ``out``; ``x`` and ``y`` equal dims
    and one dtype."""
    _same_dims(x, y, config)
    _same_dtype(x, y)
    out.set_dims(())
    out.set_dtype(DataType.BOOL)


def value_compare_infer_meta(
    x: MetaTensor, y: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """An elementwise bool comparison (isclose): ``out`` has ``x``'s dims; equal dims and one
    dtype."""
    _same_dims(x, y, config)
    _same_dtype(x, y)
    out.set_dims(merge_dims(x.dims, y.dims))
    out.set_dtype(DataType.BOOL)
    out.set_layout(x.layout)


def dropout_infer_meta(
    x: MetaTensor,
    seed_tensor: MetaTensor | None,
    p: float,
    is_test: bool,
    mode: str,
    seed: int,
    fix_seed: bool,
    out: MetaTensor,
    mask: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``out`` like ``x``, ``mask`` x's dims as uint8. ``p`` must be a probability and
    ``mode`` one of PaddlePaddle's: ``upscale_in_train``, or ``downgrade_in_infer`` (what
    ``F.dropout`` passes to the op for its ``downscale_in_infer``, and what legacy programs hold)
    or ``downscale_in_infer``, both read as downgrade, as PHI's kernel reads every mode but
    ``upscale_in_train``. Another string is refused (PaddlePaddle's op would read it as
    downgrade too; a typo is likelier)."""
    if not 0.0 <= p <= 1.0:
        raise InvalidArgumentError(f"argument 'p' must be in [0, 1], got {p}")
    if mode not in ("upscale_in_train", "downgrade_in_infer", "downscale_in_infer"):
        raise InvalidArgumentError(
            "argument 'mode' must be 'upscale_in_train', 'downgrade_in_infer' or "
            f"'downscale_in_infer', got {mode!r}"
        )
    if seed_tensor is not None and seed_tensor.numel() != 1:
        raise InvalidArgumentError(
            f"argument 'seed_tensor' must hold one value, got dims {list(seed_tensor.dims)}"
        )
    out.share_meta(x)
    if mask is not None:
        mask.set_dims(x.dims)
        mask.set_dtype(DataType.UINT8)
        mask.set_layout(x.layout)
