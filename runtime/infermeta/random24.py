"""InferMeta functions of the random24 ops (issue 24): random ops and the AMP / numerics /
metric ops, following PaddlePaddle 3.3.1's functions of the same names in
paddle/phi/infermeta/."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.dims import dims_match, integer_scalar, merge_dims
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = [
    "binomial_infer_meta",
    "dirichlet_infer_meta",
    "uniform_random_inplace_infer_meta",
    "uniform_random_inplace_grad_infer_meta",
    "multinomial_infer_meta",
]

_RUNTIME = MetaConfig()


def _set(out: MetaTensor, dims: tuple[int, ...], dtype: DataType, like: MetaTensor) -> None:
    out.set_dims(tuple(dims))
    out.set_dtype(dtype)
    out.set_layout(like.layout)


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
