"""InferMeta functions of the normup ops (issues 24/25): ``rrelu`` and its grad, following
PaddlePaddle 3.3.1's RReluInferMeta and RReluGradInferMeta (paddle/phi/infermeta/unary.cc,
backward.cc)."""

from __future__ import annotations

from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = ["r_relu_infer_meta", "r_relu_grad_infer_meta"]

_RUNTIME = MetaConfig()


def r_relu_infer_meta(
    x: MetaTensor,
    lower: float,
    upper: float,
    is_test: bool,
    out: MetaTensor,
    noise: MetaTensor | None,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``out`` and ``noise`` have x's dims and dtype; 0 <= lower <= upper <= 1."""
    if not 0 <= lower <= 1:
        raise InvalidArgumentError(f"argument 'lower' must be in [0, 1], got {lower}")
    if not 0 <= upper <= 1:
        raise InvalidArgumentError(f"argument 'upper' must be in [0, 1], got {upper}")
    if upper < lower:
        raise InvalidArgumentError(
            f"argument 'upper' must be >= argument 'lower', got lower={lower}, upper={upper}"
        )
    out.share_meta(x)
    if noise is not None:
        noise.share_meta(x)


def r_relu_grad_infer_meta(
    out_grad: MetaTensor, noise: MetaTensor, x_grad: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``x_grad`` has out_grad's dims and dtype."""
    x_grad.share_meta(out_grad)
