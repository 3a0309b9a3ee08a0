"""InferMeta functions of the misc24 ops (issue 24): spectral_norm and its grad, and
distribute_fpn_proposals, following PaddlePaddle 3.3.1's functions of the same names in
paddle/phi/infermeta/."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.dims import UNKNOWN, extents_match, numel, set_output as _set
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = [
    "spectral_norm_infer_meta",
    "spectral_norm_grad_infer_meta",
    "distribute_fpn_proposals_infer_meta",
]

_RUNTIME = MetaConfig()


def _spectral_norm_check(
    weight: MetaTensor, u: MetaTensor, v: MetaTensor, dim: int, power_iters: int, config: MetaConfig
) -> None:
    """PHI's checks of SpectralNormInferMeta: weight of rank 2 to 5, dim 0 or 1, power_iters at
    least 0, u of [h] and v of [w] (h weight's extent at dim, w the product of the others), all of
    weight's dtype."""
    dims = tuple(weight.dims)
    if not 2 <= len(dims) <= 5:
        raise InvalidArgumentError(
            f"argument 'weight' must have rank 2 to 5, got rank {len(dims)} (shape {list(dims)})"
        )
    if dim not in (0, 1):
        raise InvalidArgumentError(f"argument 'dim' must be 0 or 1, got {dim}")
    if power_iters < 0:
        raise InvalidArgumentError(f"argument 'power_iters' must be at least 0, got {power_iters}")
    h = dims[dim]
    w = numel(dims[:dim] + dims[dim + 1 :])
    for name, vector, extent, what in (
        ("u", u, h, f"weight's extent at dim {dim}"),
        ("v", v, w, "the product of weight's other extents"),
    ):
        vdims = tuple(vector.dims)
        if len(vdims) != 1:
            raise InvalidArgumentError(
                f"argument '{name}' must be a 1-D tensor, got shape {list(vdims)}"
            )
        if extent != UNKNOWN and not extents_match(vdims[0], extent, config):
            raise InvalidArgumentError(
                f"argument '{name}' must have {extent} elements ({what}), got {vdims[0]}"
            )
        if vector.dtype != weight.dtype:
            raise InvalidArgumentError(
                f"argument '{name}' must have weight's dtype {weight.dtype.name.lower()}, "
                f"got {vector.dtype.name.lower()}"
            )


def spectral_norm_infer_meta(
    weight: MetaTensor,
    u: MetaTensor,
    v: MetaTensor,
    dim: int,
    power_iters: int,
    eps: float,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """out: weight's dims and dtype, after PHI's checks (``_spectral_norm_check``)."""
    _spectral_norm_check(weight, u, v, dim, power_iters, config)
    _set(out, weight.dims, weight.dtype, weight)


def spectral_norm_grad_infer_meta(
    weight: MetaTensor,
    u: MetaTensor,
    v: MetaTensor,
    out_grad: MetaTensor,
    dim: int,
    power_iters: int,
    eps: float,
    weight_grad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """weight_grad: weight's dims and dtype; out_grad must have weight's shape."""
    _spectral_norm_check(weight, u, v, dim, power_iters, config)
    wdims, gdims = tuple(weight.dims), tuple(out_grad.dims)
    if len(gdims) != len(wdims) or not all(
        extents_match(a, b, config) for a, b in zip(gdims, wdims)
    ):
        raise InvalidArgumentError(
            f"argument 'out_grad' must have weight's shape {list(wdims)}, got {list(gdims)}"
        )
    _set(weight_grad, wdims, weight.dtype, weight)


def distribute_fpn_proposals_infer_meta(
    fpn_rois: MetaTensor,
    rois_num: MetaTensor | None,
    min_level: int,
    max_level: int,
    refer_level: int,
    refer_scale: int,
    pixel_offset: bool,
    multi_fpn_rois: list[MetaTensor],
    multi_level_rois_num: list[MetaTensor],
    restore_index: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's DistributeFpnProposalsInferMeta: one [-1, 4] rois output of fpn_rois's dtype and
    one int32 [-1] count output per level (the kernel decides the extents), and an int32
    [R, 1] restore_index; phiops also checks the inputs the kernel reads (fpn_rois [R, 4] of
    float32/float64, rois_num int32 [N], the levels and refer_scale)."""
    dims = tuple(fpn_rois.dims)
    if len(dims) != 2 or not extents_match(dims[1], 4, config):
        raise InvalidArgumentError(
            f"argument 'fpn_rois' must be a [R, 4] tensor of boxes, got shape {list(dims)}"
        )
    if max_level < min_level:
        raise InvalidArgumentError(
            f"argument 'max_level' must be at least min_level ({min_level}), got {max_level}"
        )
    if refer_scale <= 0:
        raise InvalidArgumentError(f"argument 'refer_scale' must be positive, got {refer_scale}")
    if rois_num is not None:
        if len(tuple(rois_num.dims)) != 1:
            raise InvalidArgumentError(
                f"argument 'rois_num' must be a 1-D tensor, got shape {list(rois_num.dims)}"
            )
        if rois_num.dtype != DataType.INT32:
            raise InvalidArgumentError(
                f"argument 'rois_num' must be int32, got {rois_num.dtype.name.lower()}"
            )
    for rois in multi_fpn_rois:
        _set(rois, (UNKNOWN, 4), fpn_rois.dtype, fpn_rois)
    for count in multi_level_rois_num:
        _set(count, (UNKNOWN,), DataType.INT32, fpn_rois)
    _set(restore_index, (dims[0], 1), DataType.INT32, fpn_rois)
