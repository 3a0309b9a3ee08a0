"""``phiops.autograd`` (``paddle.autograd``): ``grad`` (gradients of outputs with respect to
inputs, as ``paddle.grad``), ``backward`` (of several tensors at once), ``PyLayer`` /
``Function`` and ``PyLayerContext`` (an op with its forward and backward in Python,
runtime/autograd/py_layer.py), and the grad mode: ``no_grad``, ``enable_grad``,
``is_grad_enabled`` and ``set_grad_enabled`` (runtime/autograd/), ``jacobian`` and ``hessian``
(lazily evaluated matrices, runtime/autograd/functional.py), and ``saved_tensors_hooks``
(pack and unpack the tensors saved for backward, runtime/autograd/saved_hooks.py).
``Tensor.backward`` runs the same engine. It has every name of PaddlePaddle 3.3.1's
``paddle.autograd``.
"""

from __future__ import annotations

from phiops.runtime.autograd import (
    Function,
    PyLayer,
    PyLayerContext,
    backward,
    enable_grad,
    grad,
    hessian,
    is_grad_enabled,
    jacobian,
    no_grad,
    saved_tensors_hooks,
    set_grad_enabled,
)

__all__ = [
    "grad",
    "backward",
    "PyLayer",
    "Function",
    "PyLayerContext",
    "jacobian",
    "hessian",
    "no_grad",
    "enable_grad",
    "is_grad_enabled",
    "set_grad_enabled",
    "saved_tensors_hooks",
]
