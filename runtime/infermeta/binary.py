"""InferMeta functions of ops with two tensor inputs."""

from __future__ import annotations

from runtime.common import DataType, promote_types
from runtime.core.meta_tensor import MetaConfig, MetaTensor
from runtime.errors import InvalidArgumentError
from runtime.infermeta.dims import extents_match, merge_dims

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
