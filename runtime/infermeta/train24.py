"""InferMeta functions of the train24 ops of issue 24 (AMP, metrics and training-side ops),
following PaddlePaddle 3.3.1's functions of the same names in paddle/phi/infermeta/ and
refusing, with a named argument, the inputs 3.3.1's kernels would misread: an empty tensor
list, tensors of a list in different dtypes, a scale, flag, loss scaling factor or step count
that is not one element (of the dtype the kernel reads)."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.dims import dims_match, extents_match, numel, set_output as _set
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = [
    "check_finite_and_unscale_infer_meta",
    "update_loss_scaling_infer_meta",
    "norm_infer_meta",
    "accuracy_infer_meta",
    "auc_infer_meta",
]

_RUNTIME = MetaConfig()


def _one_element(tensor: MetaTensor, name: str, config: MetaConfig) -> None:
    if not extents_match(numel(tensor.dims), 1, config):
        raise InvalidArgumentError(
            f"argument '{name}' must hold exactly one element, got dims {list(tensor.dims)}"
        )


def _of_dtype(tensor: MetaTensor, name: str, dtype: DataType, why: str) -> None:
    if tensor.dtype != dtype:
        raise InvalidArgumentError(
            f"argument '{name}' must be {dtype.name.lower()} ({why}), got "
            f"{tensor.dtype.name.lower()}"
        )


def _same_dtype_list(x: list[MetaTensor]) -> None:
    if not x:
        raise InvalidArgumentError("argument 'x' must hold at least one tensor, got an empty list")
    for position, item in enumerate(x):
        if item.dtype != x[0].dtype:
            raise InvalidArgumentError(
                f"argument 'x' must hold tensors of one dtype: x[0] is "
                f"{x[0].dtype.name.lower()}, x[{position}] is {item.dtype.name.lower()}"
            )


def check_finite_and_unscale_infer_meta(
    x: list[MetaTensor],
    scale: MetaTensor,
    out: list[MetaTensor],
    found_infinite: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """Each out like its x; found_infinite a bool of dims [1]; scale one element."""
    _same_dtype_list(x)
    _one_element(scale, "scale", config)
    for item, result in zip(x, out):
        _set(result, item.dims, item.dtype, item)
    _set(found_infinite, (1,), DataType.BOOL, scale)


def update_loss_scaling_infer_meta(
    x: list[MetaTensor],
    found_infinite: MetaTensor,
    prev_loss_scaling: MetaTensor,
    in_good_steps: MetaTensor,
    in_bad_steps: MetaTensor,
    out: list[MetaTensor],
    loss_scaling: MetaTensor,
    out_good_steps: MetaTensor,
    out_bad_steps: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """Each out like its x; loss_scaling like prev_loss_scaling (x's dtype, one element); the
    step counts int32 of dims [1]; found_infinite one bool."""
    _same_dtype_list(x)
    _one_element(found_infinite, "found_infinite", config)
    _of_dtype(
        found_infinite, "found_infinite", DataType.BOOL, "the flag check_finite_and_unscale_ gives"
    )
    _one_element(prev_loss_scaling, "prev_loss_scaling", config)
    _of_dtype(prev_loss_scaling, "prev_loss_scaling", x[0].dtype, "x's dtype")
    for tensor, name in ((in_good_steps, "in_good_steps"), (in_bad_steps, "in_bad_steps")):
        _one_element(tensor, name, config)
        _of_dtype(tensor, name, DataType.INT32, "a step count")
    for item, result in zip(x, out):
        _set(result, item.dims, item.dtype, item)
    _set(loss_scaling, (1,), prev_loss_scaling.dtype, prev_loss_scaling)
    _set(out_good_steps, (1,), DataType.INT32, in_good_steps)
    _set(out_bad_steps, (1,), DataType.INT32, in_bad_steps)


def norm_infer_meta(
    x: MetaTensor,
    axis: int,
    epsilon: float,
    is_test: bool,
    out: MetaTensor,
    norm: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """out like x; norm like x with 1 along axis, or dims [0] with is_test (3.3.1 leaves it
    unset). x must have a dimension for axis to name (3.3.1 reads out of bounds otherwise)."""
    rank = len(x.dims)
    if not -rank <= axis < rank:
        raise InvalidArgumentError(
            f"argument 'axis' must be in [{-rank}, {rank}) for x of rank {rank}, got {axis}"
            + (" (x must have at least one dimension)" if rank == 0 else "")
        )
    _set(out, x.dims, x.dtype, x)
    if is_test:
        _set(norm, (0,), x.dtype, x)
    else:
        dims = list(x.dims)
        dims[axis] = 1
        _set(norm, tuple(dims), x.dtype, x)


def accuracy_infer_meta(
    x: MetaTensor,
    indices: MetaTensor,
    label: MetaTensor,
    accuracy: MetaTensor,
    correct: MetaTensor,
    total: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """0-D outputs: accuracy float32, correct and total int32 (the dtypes 3.3.1's kernel gives).
    x is [N, k], indices int64 of x's dims, label int64 [N, 1]."""
    if len(x.dims) != 2:
        raise InvalidArgumentError(
            f"argument 'x' must be the top-k scores [N, k], got dims {list(x.dims)}"
        )
    if not dims_match(indices.dims, x.dims, config):
        raise InvalidArgumentError(
            f"argument 'indices' with dims {list(indices.dims)} must have x's dims {list(x.dims)}"
        )
    if len(label.dims) != 2 or not extents_match(label.dims[1], 1, config):
        raise InvalidArgumentError(
            f"argument 'label' must have dims [N, 1], got {list(label.dims)}"
        )
    if not extents_match(label.dims[0], x.dims[0], config):
        raise InvalidArgumentError(
            f"argument 'label' has {label.dims[0]} rows, x has {x.dims[0]} (N must agree)"
        )
    _of_dtype(indices, "indices", DataType.INT64, "class indices")
    _of_dtype(label, "label", DataType.INT64, "class indices")
    _set(accuracy, (), DataType.FLOAT32, x)
    _set(correct, (), DataType.INT32, x)
    _set(total, (), DataType.INT32, x)


def auc_infer_meta(
    x: MetaTensor,
    label: MetaTensor,
    stat_pos: MetaTensor,
    stat_neg: MetaTensor,
    ins_tag_weight: MetaTensor | None,
    curve: str,
    num_thresholds: int,
    slide_steps: int,
    auc: MetaTensor,
    stat_pos_out: MetaTensor,
    stat_neg_out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """auc a float64 0-D; the histograms int64, [1, num_thresholds + 1] without slide_steps,
    else [(1 + slide_steps) * (num_thresholds + 1) + 1] (3.3.1's shapes)."""
    if len(x.dims) != 2 or numel(x.dims) == 0:
        raise InvalidArgumentError(
            f"argument 'x' must be non-empty predictions [N, 1] or [N, 2], got dims {list(x.dims)}"
        )
    if x.dims[1] > 2:
        raise InvalidArgumentError(
            f"argument 'x' must have 1 or 2 columns (binary classification), got {x.dims[1]}"
        )
    if (
        numel(label.dims) == 0
        or not label.dims
        or not extents_match(label.dims[0], x.dims[0], config)
    ):
        raise InvalidArgumentError(
            f"argument 'label' with dims {list(label.dims)} must have x's {x.dims[0]} rows"
        )
    _of_dtype(label, "label", DataType.INT64, "class labels")
    if num_thresholds < 0:
        raise InvalidArgumentError(f"argument 'num_thresholds' must be >= 0, got {num_thresholds}")
    if slide_steps < 0:
        raise InvalidArgumentError(f"argument 'slide_steps' must be >= 0, got {slide_steps}")
    buckets = num_thresholds + 1
    length = (1 + slide_steps) * buckets + (1 if slide_steps else 0)
    for tensor, name in ((stat_pos, "stat_pos"), (stat_neg, "stat_neg")):
        _of_dtype(tensor, name, DataType.INT64, "a histogram")
        count = numel(tensor.dims)
        if count >= 0 and count < length:
            raise InvalidArgumentError(
                f"argument '{name}' must hold at least {length} elements ((1 + slide_steps) * "
                f"(num_thresholds + 1){' + 1' if slide_steps else ''}), got dims "
                f"{list(tensor.dims)}"
            )
    if ins_tag_weight is not None:
        _of_dtype(ins_tag_weight, "ins_tag_weight", DataType.FLOAT32, "the fake-data tag")
        if numel(ins_tag_weight.dims) == 0:
            raise InvalidArgumentError("argument 'ins_tag_weight' must not be empty")
    _set(auc, (), DataType.FLOAT64, x)
    dims = (length,) if slide_steps else (1, buckets)
    _set(stat_pos_out, dims, DataType.INT64, stat_pos)
    _set(stat_neg_out, dims, DataType.INT64, stat_neg)
