"""``phiops.autograd`` (``paddle.autograd``): ``grad`` (gradients of outputs with respect to
inputs, as ``paddle.grad``) and the grad mode: ``no_grad``, ``enable_grad``, ``is_grad_enabled``
and ``set_grad_enabled`` (runtime/autograd/). ``Tensor.backward`` runs the same engine.

PaddlePaddle's ``paddle.autograd`` also has what phiops lacks: ``backward`` (of several tensors at
once), ``PyLayer`` and ``PyLayerContext`` (custom forward and backward in Python), ``jacobian``,
``hessian`` and ``saved_tensors_hooks``.
"""

from __future__ import annotations

from phiops.runtime.autograd import enable_grad, grad, is_grad_enabled, no_grad, set_grad_enabled

__all__ = ["grad", "no_grad", "enable_grad", "is_grad_enabled", "set_grad_enabled"]
