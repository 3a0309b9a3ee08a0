"""Autograd: grad mode, grad nodes recorded by the generated ops, and the backward engine."""

from phiops.runtime.autograd.engine import backward, grad, run_backward
from phiops.runtime.autograd.functional import hessian, jacobian
from phiops.runtime.autograd.grad_mode import (
    GRAD_MODE,
    enable_grad,
    is_grad_enabled,
    no_grad,
    set_grad_enabled,
)
from phiops.runtime.autograd.grad_node import AccumulationNode, GradNode, GradSpec
from phiops.runtime.autograd.py_layer import PyLayer, PyLayerContext
from phiops.runtime.autograd.record import record
from phiops.runtime.autograd.saved_hooks import saved_tensors_hooks

Function = PyLayer

__all__ = [
    "grad",
    "backward",
    "run_backward",
    "PyLayer",
    "PyLayerContext",
    "Function",
    "jacobian",
    "hessian",
    "GRAD_MODE",
    "enable_grad",
    "is_grad_enabled",
    "no_grad",
    "set_grad_enabled",
    "AccumulationNode",
    "GradNode",
    "GradSpec",
    "record",
    "saved_tensors_hooks",
]
