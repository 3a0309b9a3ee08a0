"""InferMeta functions of the pool24 ops (issue 24), following PaddlePaddle 3.3.1's functions of
the same names in paddle/phi/infermeta/unary.cc."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.dims import UNKNOWN, set_output
from phiops.runtime.infermeta.unary import pool2_d_infer_meta
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = ["lp_pool2_d_infer_meta", "fractional_max_pool_infer_meta"]

_RUNTIME = MetaConfig()


def lp_pool2_d_infer_meta(
    x: MetaTensor,
    kernel_size: tuple[int, ...],
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    ceil_mode: bool,
    exclusive: bool,
    data_format: str,
    pooling_type: str,
    global_pooling: bool,
    adaptive: bool,
    padding_algorithm: str,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """lp_pool2d's output: PHI's Pool2DInferMeta, which PaddlePaddle's spec names. phiops's
    pool2_d_infer_meta refuses a pooling_type other than max and avg (pool2d has no other),
    while lp_pool2d's kernel power-averages for any other (PaddlePaddle passes 'lp'); the dims
    do not depend on it, so any other is checked as avg."""
    reduction = pooling_type if pooling_type in ("max", "avg") else "avg"
    pool2_d_infer_meta(
        x,
        kernel_size,
        strides,
        paddings,
        ceil_mode,
        exclusive,
        data_format,
        reduction,
        global_pooling,
        adaptive,
        padding_algorithm,
        out,
        config,
    )


def fractional_max_pool_infer_meta(
    x: MetaTensor,
    output_size: tuple[int, ...],
    kernel_size: tuple[int, ...],
    random_u: float,
    return_mask: bool,
    out: MetaTensor,
    mask: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """out [N, C, *output_size] of x's dtype and mask (the flat index of each maximum in its
    input plane or volume) of that shape, int32. Each window of ``kernel_size`` (0: windows
    between the fractional steps) must fit: input extent >= output - 1 + kernel."""
    dims = tuple(x.dims)
    if len(dims) not in (4, 5):
        raise InvalidArgumentError(
            f"argument 'x' must be a 4-D or 5-D tensor, got shape {list(dims)}"
        )
    spatial = dims[2:]
    if len(output_size) != len(spatial):
        raise InvalidArgumentError(
            f"argument 'output_size' must hold {len(spatial)} sizes for a {len(dims)}-D x, "
            f"got {list(output_size)}"
        )
    if len(kernel_size) != len(spatial):
        raise InvalidArgumentError(
            f"argument 'kernel_size' must hold {len(spatial)} sizes for a {len(dims)}-D x, "
            f"got {list(kernel_size)}"
        )
    if any(size <= 0 for size in output_size):
        raise InvalidArgumentError(
            f"argument 'output_size' must hold positive sizes, got {list(output_size)}"
        )
    if any(size < 0 for size in kernel_size):
        raise InvalidArgumentError(
            f"argument 'kernel_size' must hold sizes >= 0 (0: fractional windows), "
            f"got {list(kernel_size)}"
        )
    if not 0 <= random_u < 1:
        raise InvalidArgumentError(
            f"argument 'random_u' must be in [0, 1) (0 draws one), got {random_u}"
        )
    for extent, size, kernel in zip(spatial, output_size, kernel_size):
        if extent != UNKNOWN and extent < size - 1 + kernel:
            raise InvalidArgumentError(
                f"argument 'x' has a spatial extent {extent}, less than output_size - 1 + "
                f"kernel_size = {size - 1 + kernel} (shape {list(dims)}, output_size "
                f"{list(output_size)}, kernel_size {list(kernel_size)})"
            )
        if extent != UNKNOWN and kernel == 0 and extent < size:
            raise InvalidArgumentError(
                f"argument 'output_size' {list(output_size)} must not exceed x's spatial "
                f"extents {list(spatial)}"
            )
    shape = dims[:2] + tuple(output_size)
    set_output(out, shape, x.dtype, x)
    set_output(mask, shape, DataType.INT32, x)
