"""InferMeta functions of the grad2 family's double and triple grads (issue 24)."""

from __future__ import annotations

from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

_RUNTIME = MetaConfig()


def general_quinary_grad_infer_meta(
    x: MetaTensor,
    y: MetaTensor,
    z: MetaTensor,
    k: MetaTensor | None,
    l: MetaTensor | None,  # noqa: E741 (PHI's name)
    dx: MetaTensor | None,
    dy: MetaTensor | None,
    dz: MetaTensor | None,
    dk: MetaTensor | None,
    dl: MetaTensor | None,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's GeneralQuinaryGradInferMeta: each gradient like the input it is the gradient of
    (``dx`` like ``x``, ... ``dl`` like ``l``). Its one user, multiply_triple_grad, passes the
    optional gradients of its first two inputs as ``k`` and ``l``; where one is absent its
    gradient (still computed, from the other terms) is shaped like ``x``, resp. ``y``."""
    k = x if k is None else k
    l = y if l is None else l  # noqa: E741
    for grad, source in ((dx, x), (dy, y), (dz, z), (dk, k), (dl, l)):
        if grad is not None and source is not None:
            grad.share_meta(source)
