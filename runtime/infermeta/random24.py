"""InferMeta functions of the random24 ops (issue 24): random ops and the AMP / numerics /
metric ops, following PaddlePaddle 3.3.1's functions of the same names in
paddle/phi/infermeta/."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.dims import dims_match, integer_scalar, merge_dims, set_output as _set
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = [
    "binomial_infer_meta",
    "dirichlet_infer_meta",
    "uniform_random_inplace_infer_meta",
    "uniform_random_inplace_grad_infer_meta",
    "multinomial_infer_meta",
    "truncated_gaussian_random_infer_meta",
    "uniform_random_batch_size_like_infer_meta",
    "gumbel_softmax_infer_meta",
    "gumbel_softmax_grad_infer_meta",
    "shuffle_batch_infer_meta",
    "shuffle_batch_grad_infer_meta",
    "random_routing_infer_meta",
]

_RUNTIME = MetaConfig()


def binomial_infer_meta(
    count: MetaTensor, prob: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """count and prob of one shape (no broadcasting, as PaddlePaddle's) and dtype; out int64."""
    if not dims_match(count.dims, prob.dims, config):
        raise InvalidArgumentError(
            f"arguments 'count' and 'prob' must have the same shape, got {list(count.dims)} "
            f"and {list(prob.dims)}"
        )
    if count.dtype is not prob.dtype:
        raise InvalidArgumentError(
            f"arguments 'count' and 'prob' must have the same dtype, got "
            f"{count.dtype.name.lower()} and {prob.dtype.name.lower()}"
        )
    _set(out, merge_dims(count.dims, prob.dims), DataType.INT64, count)


def dirichlet_infer_meta(alpha: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME) -> None:
    """alpha at least 1-D (its last axis the categories); out alpha's shape and dtype."""
    if len(alpha.dims) < 1:
        raise InvalidArgumentError("argument 'alpha' must be at least 1-D, got a 0-D tensor")
    _set(out, alpha.dims, alpha.dtype, alpha)


def uniform_random_inplace_infer_meta(
    x: MetaTensor,
    min: float,
    max: float,
    seed: int,
    diag_num: int,
    diag_step: int,
    diag_val: float,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """out is x's meta; min must be below max."""
    if not min < max:
        raise InvalidArgumentError(
            f"argument 'min' must be less than argument 'max', got min={min} and max={max}"
        )
    if diag_num < 0 or diag_step < 0:
        raise InvalidArgumentError(
            f"arguments 'diag_num' and 'diag_step' must be >= 0, got {diag_num} and {diag_step}"
        )
    _set(out, x.dims, x.dtype, x)


def uniform_random_inplace_grad_infer_meta(
    out_grad: MetaTensor,
    min: float,
    max: float,
    seed: int,
    diag_num: int,
    diag_step: int,
    diag_val: float,
    x_grad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """x_grad is out_grad's meta."""
    _set(x_grad, out_grad.dims, out_grad.dtype, out_grad)


def multinomial_infer_meta(
    x: MetaTensor,
    num_samples: object,
    replacement: bool,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """x 1-D (one distribution) or 2-D (one per row); out int64 [..., num_samples]."""
    if not 1 <= len(x.dims) <= 2:
        raise InvalidArgumentError(
            f"argument 'x' must be a 1-D or 2-D tensor of probabilities, got "
            f"{len(x.dims)}-D shape {list(x.dims)}"
        )
    samples = integer_scalar(num_samples, "num_samples")
    if samples <= 0:
        raise InvalidArgumentError(f"argument 'num_samples' must be > 0, got {samples}")
    _set(out, (*x.dims[:-1], samples), DataType.INT64, x)


def truncated_gaussian_random_infer_meta(
    shape: tuple[int, ...],
    mean: float,
    std: float,
    seed: int,
    a: float,
    b: float,
    dtype: DataType,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """out has shape (every extent >= 0) and dtype."""
    if any(extent < 0 for extent in shape):
        raise InvalidArgumentError(f"argument 'shape' must hold extents >= 0, got {list(shape)}")
    out.set_dims(tuple(shape))
    out.set_dtype(dtype)


def uniform_random_batch_size_like_infer_meta(
    input: MetaTensor,
    shape: tuple[int, ...],
    input_dim_idx: int,
    output_dim_idx: int,
    min: float,
    max: float,
    seed: int,
    diag_num: int,
    diag_step: int,
    diag_val: float,
    dtype: DataType,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """out is shape with the extent at output_dim_idx taken from input's at input_dim_idx."""
    if not shape:
        raise InvalidArgumentError("argument 'shape' must not be empty")
    if not 0 <= input_dim_idx < len(input.dims):
        raise InvalidArgumentError(
            f"argument 'input_dim_idx' must be in [0, {len(input.dims)}) (input's rank), got "
            f"{input_dim_idx}"
        )
    if not 0 <= output_dim_idx < len(shape):
        raise InvalidArgumentError(
            f"argument 'output_dim_idx' must be in [0, {len(shape)}) (the length of 'shape'), "
            f"got {output_dim_idx}"
        )
    dims = list(shape)
    dims[output_dim_idx] = input.dims[input_dim_idx]
    others = [extent for i, extent in enumerate(shape) if i != output_dim_idx]
    if any(extent < 0 for extent in others):
        raise InvalidArgumentError(
            f"argument 'shape' must hold extents >= 0 but at output_dim_idx {output_dim_idx}, "
            f"got {list(shape)}"
        )
    if diag_num < 0 or diag_step < 0:
        raise InvalidArgumentError(
            f"arguments 'diag_num' and 'diag_step' must be >= 0, got {diag_num} and {diag_step}"
        )
    out.set_dims(tuple(dims))
    out.set_dtype(dtype)
    out.set_layout(input.layout)


def gumbel_softmax_infer_meta(
    x: MetaTensor,
    temperature: float,
    hard: bool,
    axis: int,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """out is x's meta; temperature > 0 and axis in [-rank, rank) (0-D: -1 or 0)."""
    rank = len(x.dims)
    if not -max(rank, 1) <= axis < max(rank, 1):
        raise InvalidArgumentError(
            f"argument 'axis' must be in [{-max(rank, 1)}, {max(rank, 1)}) for a {rank}-D x, "
            f"got {axis}"
        )
    if not temperature > 0:
        raise InvalidArgumentError(f"argument 'temperature' must be > 0, got {temperature}")
    _set(out, x.dims, x.dtype, x)


def gumbel_softmax_grad_infer_meta(
    out: MetaTensor,
    out_grad: MetaTensor,
    axis: int,
    x_grad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """x_grad is out_grad's meta, of out's shape."""
    if not dims_match(out.dims, out_grad.dims, config):
        raise InvalidArgumentError(
            f"arguments 'out' and 'out_grad' must have the same shape, got {list(out.dims)} and "
            f"{list(out_grad.dims)}"
        )
    _set(x_grad, merge_dims(out.dims, out_grad.dims), out_grad.dtype, out_grad)


def shuffle_batch_infer_meta(
    x: MetaTensor,
    seed: MetaTensor,
    startup_seed: int,
    out: MetaTensor,
    shuffle_idx: MetaTensor,
    seed_out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """out is x's meta; shuffle_idx int64 [rows]; seed_out int64 [1]."""
    if len(x.dims) < 1:
        raise InvalidArgumentError("argument 'x' must be at least 1-D, got a 0-D tensor")
    if seed.dtype is not DataType.INT64:
        raise InvalidArgumentError(
            f"argument 'seed' must be an int64 tensor, got {seed.dtype.name.lower()}"
        )
    rows = 1
    for extent in x.dims[:-1]:
        rows = -1 if extent < 0 or rows < 0 else rows * extent
    _set(out, x.dims, x.dtype, x)
    _set(shuffle_idx, (rows,), DataType.INT64, x)
    _set(seed_out, (1,), DataType.INT64, seed)


def shuffle_batch_grad_infer_meta(
    shuffle_idx: MetaTensor,
    out_grad: MetaTensor,
    startup_seed: int,
    x_grad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """x_grad is out_grad's meta."""
    _set(x_grad, out_grad.dims, out_grad.dtype, out_grad)


def random_routing_infer_meta(
    prob: MetaTensor,
    topk_value: MetaTensor,
    topk_idx: MetaTensor,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """prob [N], topk_value and topk_idx (int64) [N, k]; out is topk_idx's meta."""
    if len(prob.dims) != 1 or len(topk_value.dims) != 2 or len(topk_idx.dims) != 2:
        raise InvalidArgumentError(
            f"arguments 'prob', 'topk_value' and 'topk_idx' must be 1-D, 2-D and 2-D, got shapes "
            f"{list(prob.dims)}, {list(topk_value.dims)} and {list(topk_idx.dims)}"
        )
    if not dims_match(topk_value.dims, topk_idx.dims, config) or not dims_match(
        prob.dims, topk_value.dims[:1], config
    ):
        raise InvalidArgumentError(
            f"arguments 'topk_value' and 'topk_idx' must have one shape [N, k] and 'prob' [N], "
            f"got {list(topk_value.dims)}, {list(topk_idx.dims)} and {list(prob.dims)}"
        )
    if topk_idx.dtype is not DataType.INT64:
        raise InvalidArgumentError(
            f"argument 'topk_idx' must be int64, got {topk_idx.dtype.name.lower()}"
        )
    _set(out, merge_dims(topk_value.dims, topk_idx.dims), DataType.INT64, topk_idx)
