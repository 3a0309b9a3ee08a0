"""InferMeta functions of the misc24c ops (issue 24): embedding_grad_dense, weight_quantize and
dgc_momentum, following PaddlePaddle 3.3.1's checks (paddle/phi/infermeta/unary.cc
WeightQuantizeInferMeta, multiary.cc DGCMomentumInferMeta) and adding those whose absence lets
its kernels read or write out of bounds (an out_grad of the wrong shape, a weight_quantize layout
whose tiles do not fit)."""

from __future__ import annotations

import math

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.infermeta.binary import require_index_dtype
from phiops.runtime.infermeta.dims import dims_match, extents_match, is_known, numel
from phiops.runtime.infermeta.dims import set_output as _set
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = [
    "embedding_grad_dense_infer_meta",
    "weight_quantize_infer_meta",
    "dgc_momentum_infer_meta",
]

_RUNTIME = MetaConfig()


def embedding_grad_dense_infer_meta(
    x: MetaTensor,
    weight: MetaTensor,
    out_grad: MetaTensor,
    padding_idx: int,
    weight_grad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """weight_grad has weight's dims and dtype (the kernel's, out_grad is brought to it); x holds int32/int64 ids, weight is
    a 2-D table [rows, width], out_grad has dims x.dims + [width] and padding_idx is in
    [-rows, rows) (PaddlePaddle's kernel reads out_grad by x's element count without checking
    its shape)."""
    require_index_dtype(x, "x")
    table = tuple(weight.dims)
    if len(table) != 2:
        raise InvalidArgumentError(
            f"argument 'weight' must be a 2-D table [rows, width], got dims {list(table)}"
        )
    want = tuple(x.dims) + (table[1],)
    if not dims_match(tuple(out_grad.dims), want, config):
        raise InvalidArgumentError(
            f"argument 'out_grad' must have dims x.dims + [width] = {list(want)}, got "
            f"{list(out_grad.dims)}"
        )
    if is_known(table[0]) and not -table[0] <= padding_idx < table[0]:
        raise InvalidArgumentError(
            f"argument 'padding_idx' must be in [{-table[0]}, {table[0]}) for a weight with "
            f"{table[0]} rows, got {padding_idx}"
        )
    _set(weight_grad, table, weight.dtype, weight)


WEIGHT_QUANTIZE_ALGOS = ("weight_only_int8", "weight_only_int4", "llm.int8")
WEIGHT_QUANTIZE_ARCHS = (70, 75, 80, 86, 89, 90, 100)


def weight_quantize_infer_meta(
    x: MetaTensor,
    algo: str,
    arch: int,
    group_size: int,
    out: MetaTensor,
    scale: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """x [m, n] (n a multiple of 16) gives out int8 [n, m] ([n / 2, m] for
    weight_only_int4) and scale [n] (group_size -1) or [ceil(m / group_size), n], float32 for
    llm.int8 and x's dtype otherwise. Refused as 3.3.1 refuses them: an algo, arch or group_size
    outside its lists, x not 2-D, n not a multiple of 16. Refused where 3.3.1 corrupts its heap:
    a weight-only algo for arch 75 and above with m not a multiple of 64 (its tiles), llm.int8 for
    arch 70 with m != n. w4a8 and w4afp8, which 3.3.1 accepts here but whose CPU kernel writes
    nothing, are UnimplementedError."""
    if algo in ("w4a8", "w4afp8"):
        raise UnimplementedError(
            f"argument 'algo' {algo!r} has no CPU kernel: PaddlePaddle 3.3.1's CPU kernel leaves "
            f"out and scale unwritten for it (use one of {list(WEIGHT_QUANTIZE_ALGOS)})"
        )
    if algo not in WEIGHT_QUANTIZE_ALGOS:
        raise InvalidArgumentError(
            f"argument 'algo' must be one of {list(WEIGHT_QUANTIZE_ALGOS)}, got {algo!r}"
        )
    if arch not in WEIGHT_QUANTIZE_ARCHS:
        raise InvalidArgumentError(
            f"argument 'arch' must be one of {list(WEIGHT_QUANTIZE_ARCHS)}, got {arch}"
        )
    if group_size not in (-1, 64, 128):
        raise InvalidArgumentError(
            f"argument 'group_size' must be -1 (per channel), 64 or 128, got {group_size}"
        )
    dims = tuple(x.dims)
    if len(dims) != 2:
        raise InvalidArgumentError(f"argument 'x' must be 2-D [m, n], got dims {list(dims)}")
    m, n = dims
    if is_known(n) and n % 16:
        raise InvalidArgumentError(
            f"argument 'x' must have a second dimension divisible by 16, got dims {list(dims)}"
        )
    if is_known(m) and m and algo != "llm.int8" and arch != 70 and m % 64:
        raise InvalidArgumentError(
            f"argument 'x' must have a first dimension divisible by 64 for algo {algo!r} and arch "
            f"{arch} (the tiles of its layout), got dims {list(dims)}"
        )
    if algo == "llm.int8" and arch == 70 and is_known(m) and is_known(n) and m != n:
        raise InvalidArgumentError(
            f"argument 'x' must be square for algo 'llm.int8' with arch 70 (PaddlePaddle 3.3.1 "
            f"transposes it as [n, m] there), got dims {list(dims)}"
        )
    rows = n // 2 if algo == "weight_only_int4" and is_known(n) else n
    _set(out, (rows, m), DataType.INT8, x)
    if group_size == -1:
        scale_dims: tuple[int, ...] = (n,)
    else:
        scale_dims = (-(-m // group_size) if is_known(m) else -1, n)
    _set(scale, scale_dims, DataType.FLOAT32 if algo == "llm.int8" else x.dtype, x)


def dgc_momentum_infer_meta(
    param: MetaTensor,
    grad: MetaTensor,
    velocity: MetaTensor,
    learning_rate: MetaTensor,
    master_param: MetaTensor | None,
    current_step_tensor: MetaTensor,
    nranks_tensor: MetaTensor,
    mu: float,
    use_nesterov: bool,
    regularization_method: str,
    regularization_coeff: float,
    multi_precision: bool,
    rescale_grad: float,
    rampup_begin_step: float,
    param_out: MetaTensor,
    velocity_out: MetaTensor,
    master_param_out: MetaTensor | None,
    grad_out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """param_out, velocity_out and grad_out take the dims and dtype of param, velocity and grad
    (PaddlePaddle 3.3.1 leaves grad_out without dims, so that its eager kernel cannot write it),
    master_param_out master_param's; grad and velocity must have param's dims, learning_rate,
    current_step_tensor and nranks_tensor one element."""
    if not math.isfinite(rampup_begin_step):
        raise InvalidArgumentError(
            f"argument 'rampup_begin_step' must be a finite number, got {rampup_begin_step}"
        )
    if regularization_method not in ("", "l2_decay"):
        raise InvalidArgumentError(
            f"argument 'regularization_method' must be '' or 'l2_decay', got "
            f"{regularization_method!r}"
        )
    for name, tensor in (("grad", grad), ("velocity", velocity)):
        if not dims_match(tuple(tensor.dims), tuple(param.dims), config):
            raise InvalidArgumentError(
                f"argument '{name}' must have param's dims {list(param.dims)}, got "
                f"{list(tensor.dims)}"
            )
    for name, tensor in (
        ("learning_rate", learning_rate),
        ("current_step_tensor", current_step_tensor),
        ("nranks_tensor", nranks_tensor),
    ):
        count = numel(tensor.dims)
        if not extents_match(count, 1, config):
            raise InvalidArgumentError(
                f"argument '{name}' must hold one element, got dims {list(tensor.dims)}"
            )
    if master_param is not None and not dims_match(
        tuple(master_param.dims), tuple(param.dims), config
    ):
        raise InvalidArgumentError(
            f"argument 'master_param' must have param's dims {list(param.dims)}, got "
            f"{list(master_param.dims)}"
        )
    _set(param_out, param.dims, param.dtype, param)
    _set(velocity_out, velocity.dims, velocity.dtype, velocity)
    _set(grad_out, grad.dims, grad.dtype, grad)
    if master_param_out is not None and master_param is not None:
        _set(master_param_out, master_param.dims, master_param.dtype, master_param)
