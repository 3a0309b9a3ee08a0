"""InferMeta function of the dgrad24 family's double grads (issue 24): instance_norm_double_grad
(the others reuse Pool2DInferMeta and GeneralTernaryGradInferMeta)."""

from __future__ import annotations

from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.dims import dims_match
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

_RUNTIME = MetaConfig()


def instance_norm_double_grad_infer_meta(
    x: MetaTensor,
    fwd_scale: MetaTensor | None,
    saved_mean: MetaTensor,
    saved_variance: MetaTensor,
    grad_y: MetaTensor,
    grad_x_grad: MetaTensor | None,
    grad_scale_grad: MetaTensor | None,
    grad_bias_grad: MetaTensor | None,
    epsilon: float,
    x_grad: MetaTensor | None,
    fwd_scale_grad: MetaTensor | None,
    grad_y_grad: MetaTensor | None,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's InstanceNormDoubleGradInferMeta: ``x_grad`` and ``grad_y_grad`` like ``x``,
    ``fwd_scale_grad`` [C] (x's channels, dims[1]). ``grad_y`` and ``grad_x_grad`` must have
    x's dims."""
    if len(x.dims) < 2:
        raise InvalidArgumentError(
            f"argument 'x' must have at least 2 dims (N, C, ...), got {list(x.dims)}"
        )
    for name, grad in (("grad_y", grad_y), ("grad_x_grad", grad_x_grad)):
        if grad is not None and not dims_match(tuple(grad.dims), tuple(x.dims), config):
            raise InvalidArgumentError(
                f"argument '{name}' must have dims {list(x.dims)} (x's), got {list(grad.dims)}"
            )
    for out in (x_grad, grad_y_grad):
        if out is not None:
            out.share_meta(x)
    if fwd_scale_grad is not None:
        fwd_scale_grad.set_dims((x.dims[1],))
        fwd_scale_grad.set_dtype(x.dtype)
        fwd_scale_grad.set_layout(x.layout)
