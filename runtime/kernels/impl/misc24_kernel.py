"""Kernels of the misc24 ops (issue 24): spectral_norm and distribute_fpn_proposals, written from PaddlePaddle 3.3.1's
kernels of the same names (paddle/phi/kernels/impl/spectral_norm_kernel_impl.h,
paddle/phi/kernels/funcs/spectral_norm.h,
paddle/phi/kernels/cpu/distribute_fpn_proposals_kernel.cc)."""

from __future__ import annotations

from types import ModuleType

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel

__all__ = [
    "spectral_norm_kernel",
    "distribute_fpn_proposals_kernel",
    "weight_matrix",
    "from_weight_matrix",
    "power_iteration",
]

D = DataType
# PaddlePaddle 3.3.1 registers spectral_norm (and its grad) on CPU for float32 and float64
SPECTRAL_NORM_DTYPES = (D.FLOAT32, D.FLOAT64)


def weight_matrix(xp: ModuleType, weight: Array, dim: int) -> Array:
    """``weight`` as PHI's [h, w] matrix: axis ``dim`` first, the others after it in order."""
    moved = xp.moveaxis(weight, dim, 0) if dim else weight
    return xp.ascontiguousarray(moved).reshape(weight.shape[dim], -1)


def from_weight_matrix(xp: ModuleType, matrix: Array, shape: tuple[int, ...], dim: int) -> Array:
    """The inverse of ``weight_matrix``: the [h, w] matrix back in ``shape``."""
    moved = (shape[dim],) + shape[:dim] + shape[dim + 1 :]
    return xp.ascontiguousarray(
        xp.moveaxis(matrix.reshape(moved), 0, dim) if dim else matrix.reshape(shape)
    )


def power_iteration(
    xp: ModuleType, matrix: Array, u: Array, v: Array, power_iters: int, eps: float
) -> tuple[Array, Array, Array]:
    """(u, v, sigma) after ``power_iters`` rounds of v = W^T u / (|W^T u| + eps),
    u = W v / (|W v| + eps), with sigma = u^T W v; all in the matrix's dtype, as PHI's
    CalcMatrixSigmaAndNormWeight computes them (u and v are copies: the inputs stay as they
    are)."""
    eps_t = matrix.dtype.type(eps)
    u = u.reshape(-1)
    v = v.reshape(-1)
    for _ in range(power_iters):
        v = xp.matmul(matrix.T, u)
        v = v / (xp.sqrt(xp.sum(v * v)) + eps_t)
        u = xp.matmul(matrix, v)
        u = u / (xp.sqrt(xp.sum(u * u)) + eps_t)
    sigma = xp.sum(u * xp.matmul(matrix, v))
    return u, v, sigma


@register_kernel("spectral_norm", dtypes=SPECTRAL_NORM_DTYPES)
def spectral_norm_kernel(
    ctx: KernelContext, weight: Array, u: Array, v: Array, dim: int, power_iters: int, eps: float
) -> Array:
    """PHI's: weight / sigma, sigma = u^T W v after the power iterations (``power_iteration``)
    on weight's [h, w] matrix (``weight_matrix``)."""
    xp = ctx.xp
    matrix = weight_matrix(xp, weight, dim)
    with np.errstate(divide="ignore", invalid="ignore"):  # sigma 0: inf and NaN, as PHI's
        _, _, sigma = power_iteration(xp, matrix, u, v, power_iters, eps)
        return from_weight_matrix(xp, matrix / sigma, weight.shape, dim)


def _fpn_dtypes(kernel: Kernel) -> None:
    """rois_num as it comes (int32, checked by InferMeta); int32 counts and restore_index."""
    kernel.input_at(1).set_dtype(D.ALL_DTYPE)
    kernel.output_at(1).set_dtype(D.INT32)
    kernel.output_at(2).set_dtype(D.INT32)


@register_kernel("distribute_fpn_proposals", dtypes=(D.FLOAT32, D.FLOAT64), configure=_fpn_dtypes)
def distribute_fpn_proposals_kernel(
    ctx: KernelContext,
    fpn_rois: Array,
    rois_num: Array | None,
    min_level: int,
    max_level: int,
    refer_level: int,
    refer_scale: int,
    pixel_offset: bool,
) -> tuple[list[Array], list[Array], Array]:
    """PHI's: each roi's level is floor(log2(sqrt(area) / refer_scale + 1e-6) + refer_level),
    clipped to [min_level, max_level], computed in the rois' dtype (area 0 for a roi with
    x2 < x1 or y2 < y1; width and height + 1 with pixel_offset). Each level keeps its rois in
    input order; restore_index[i] is roi i's row in the levels concatenated. A NaN or infinite
    level goes to min_level, as 3.3.1's conversion to int sends it there on x86."""
    xp = ctx.xp
    count = fpn_rois.shape[0]
    per_image = (
        xp.asarray([count], dtype=xp.int64) if rois_num is None else rois_num.astype(xp.int64)
    )
    if int(per_image.sum()) != count or bool((per_image < 0).any()):
        raise InvalidArgumentError(
            f"argument 'rois_num' must be counts that sum to fpn_rois's {count} rois, "
            f"got {per_image.tolist()}"
        )
    dtype = fpn_rois.dtype.type
    width = fpn_rois[:, 2] - fpn_rois[:, 0]
    height = fpn_rois[:, 3] - fpn_rois[:, 1]
    if pixel_offset:
        width, height = width + dtype(1), height + dtype(1)
    valid = (fpn_rois[:, 2] >= fpn_rois[:, 0]) & (fpn_rois[:, 3] >= fpn_rois[:, 1])
    area = xp.where(valid, width * height, dtype(0))
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = xp.sqrt(area) / dtype(refer_scale) + dtype(1e-6)
        level = xp.floor(xp.log2(scale) + dtype(refer_level))
    # C++'s int conversion of a NaN or infinite level gives INT_MIN on x86: min_level
    level = xp.where(xp.isfinite(level), level, dtype(min_level))
    level = xp.clip(level, min_level, max_level).astype(xp.int64) - min_level
    levels = max_level - min_level + 1
    # a stable sort by level keeps each level's rois in input order
    order = xp.argsort(level, kind="stable")
    restore = xp.empty(count, dtype=xp.int32)
    restore[order] = xp.arange(count, dtype=xp.int32)
    image = xp.repeat(xp.arange(per_image.shape[0]), per_image.tolist())
    multi_rois, multi_counts = [], []
    for lvl in range(levels):
        chosen = level == lvl
        multi_rois.append(xp.ascontiguousarray(fpn_rois[chosen]))
        multi_counts.append(
            xp.bincount(image[chosen], minlength=per_image.shape[0]).astype(xp.int32)
        )
    return multi_rois, multi_counts, restore.reshape(count, 1)


@register_kernel("fused_softmax_mask_upper_triangle", dtypes=(D.FLOAT32, D.FLOAT64))
def fused_softmax_mask_upper_triangle_kernel(ctx: KernelContext, X: Array) -> Array:
    """The causal softmax PHI's GPU kernel computes: row q of each [seq_len, seq_len] matrix
    softmaxes its scores 0..q and is 0 after. PaddlePaddle 3.3.1 registers this kernel on CPU for
    float32 and float64 but raises "only supports GPU" there; phiops computes it on both. Its GPU
    kernel's launch limits (seq_len in [32, 16384], seq_len divisible by the rows of a block) do
    not apply: any seq_len runs."""
    xp = ctx.xp
    if X.ndim != 4:
        raise InvalidArgumentError(
            "argument 'X' must be a 4-D [batch, heads, query_len, key_len] tensor, got shape "
            f"{list(X.shape)}"
        )
    if X.shape[2] != X.shape[3]:
        raise InvalidArgumentError(
            f"argument 'X' must have key_len equal to query_len, got key_len {X.shape[3]} and "
            f"query_len {X.shape[2]}"
        )
    if X.size == 0:
        return X.copy()
    seq_len = X.shape[3]
    hidden = xp.triu(xp.ones((seq_len, seq_len), dtype=bool), k=1)
    masked = xp.where(hidden, X.dtype.type(-xp.inf), X)
    shifted = masked - xp.max(masked, axis=-1, keepdims=True)
    exp = xp.exp(shifted)
    return exp / xp.sum(exp, axis=-1, keepdims=True)
