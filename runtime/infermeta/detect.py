"""InferMeta functions of the detection ops (grid_sample, roi_align, roi_pool, nms, ...) and of
their grads.

Each follows PHI's function of the same CamelCase name (paddle/phi/infermeta/binary.cc,
ternary.cc, unary.cc). Extents that are unknown (-1, while a static program is built) stay
unknown, and checks that compare extents run only where both are known.
"""

from __future__ import annotations

from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.dims import extents_match, is_known
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

_RUNTIME = MetaConfig()


def grid_sample_base_infer_meta(
    x: MetaTensor, grid: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """grid_sample: ``x`` [N, C, H, W] sampled at ``grid`` [N, H_out, W_out, 2] gives
    [N, C, H_out, W_out]; a 5-D ``x`` [N, C, D, H, W] with ``grid`` [N, D_out, H_out, W_out, 3]
    gives [N, C, D_out, H_out, W_out]."""
    x_dims, grid_dims = tuple(x.dims), tuple(grid.dims)
    if len(x_dims) not in (4, 5):
        raise InvalidArgumentError(
            f"argument 'x' must be a 4-D [N, C, H, W] or 5-D [N, C, D, H, W] tensor, "
            f"got dims {list(x_dims)}"
        )
    if len(grid_dims) != len(x_dims):
        raise InvalidArgumentError(
            f"argument 'grid' must have x's rank {len(x_dims)} ([N, H_out, W_out, 2] for a 4-D x, "
            f"[N, D_out, H_out, W_out, 3] for a 5-D one), got dims {list(grid_dims)}"
        )
    coordinates = len(x_dims) - 2
    if not extents_match(grid_dims[-1], coordinates, config):
        raise InvalidArgumentError(
            f"argument 'grid' must hold {coordinates} coordinates in its last dimension, "
            f"got dims {list(grid_dims)}"
        )
    if not extents_match(grid_dims[0], x_dims[0], config):
        raise InvalidArgumentError(
            f"arguments 'x' and 'grid' must have the same batch size, got x dims {list(x_dims)} "
            f"and grid dims {list(grid_dims)}"
        )
    batch = x_dims[0] if is_known(x_dims[0]) else grid_dims[0]
    out.set_dims((batch, x_dims[1]) + grid_dims[1:-1])
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)
