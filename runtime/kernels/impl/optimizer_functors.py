"""In-place update steps shared by the optimizer kernels (PHI's funcs/adam_functors.h and
impl/momentum_kernel_impl.h), so that a fused multi-tensor kernel and its single-tensor op give
bit-identical results: the same operations in the same order, in the parameter's dtype.

Every function updates its array arguments through the ufuncs' ``out=`` and uses only
``scratch`` (arrays of the parameter's shape and dtype) for intermediate values: no temporary
array per call beyond those.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np

from phiops.runtime.kernels.kernel import Array
from phiops.runtime.kernels.native import native_kernels

__all__ = [
    "first_element",
    "AdamScalars",
    "adam_step_",
    "momentum_step_",
    "decay_factor",
    "decay_step_",
]


def first_element(array: Array, dtype: Any) -> Array:
    """Element 0 of ``array`` as a 0-D array of ``dtype`` (no device-to-host copy)."""
    return array.reshape(-1)[:1].reshape(()).astype(dtype)


class AdamScalars:
    """The per-step scalars of Adam in ``dtype``: the moment weights, the bias-corrected step
    ``lr * sqrt(1 - beta2_pow) / (1 - beta1_pow)`` and ``epsilon * sqrt(1 - beta2_pow)``."""

    __slots__ = ("beta1", "beta2", "grad_weight1", "grad_weight2", "step", "epsilon")

    def __init__(
        self,
        xp: ModuleType,
        dtype: Any,
        learning_rate: Array,
        beta1_pow: Array,
        beta2_pow: Array,
        beta1: float,
        beta2: float,
        epsilon: float,
    ) -> None:
        if xp is np:
            # numpy scalars of ``dtype``: the same IEEE operations as on 0-D arrays (so the
            # same bits), at a tenth of the cost per operation.
            scalar = np.dtype(dtype).type
            one = scalar(1)
            self.beta1, self.beta2 = scalar(beta1), scalar(beta2)
            b1_pow, b2_pow = scalar(beta1_pow.reshape(-1)[0]), scalar(beta2_pow.reshape(-1)[0])
            rate, eps = scalar(learning_rate.reshape(-1)[0]), scalar(epsilon)
        else:
            # 0-D device arrays: no device-to-host copy.
            one = xp.ones((), dtype=dtype)
            self.beta1 = xp.asarray(beta1, dtype=dtype)
            self.beta2 = xp.asarray(beta2, dtype=dtype)
            b1_pow, b2_pow = first_element(beta1_pow, dtype), first_element(beta2_pow, dtype)
            rate, eps = first_element(learning_rate, dtype), xp.asarray(epsilon, dtype=dtype)
        self.grad_weight1 = one - self.beta1
        self.grad_weight2 = one - self.beta2
        correction = xp.sqrt(one - b2_pow)
        self.step = rate * (correction / (one - b1_pow))
        self.epsilon = eps * correction


def adam_step_(
    xp: ModuleType,
    param: Array,
    grad: Array,
    moment1: Array,
    moment2: Array,
    scalars: AdamScalars,
    scratch: Array | None,
) -> None:
    """``moment1 = beta1 * moment1 + (1 - beta1) * grad``,
        ``moment2 = beta2 * moment2 + (1 - beta2) * grad * grad`` and
        ``param -= step * (moment1 / (sqrt(moment2) + epsilon))``, all in place. With the native
        kernels (runtime/kernels/native.py) and C-contiguous numpy arrays of one float dtype, one
        pass in C with the same operations in the same order and dtype: the same bits. ``scratch``
    (param's shape and dtype) holds the intermediate values of the numpy path; None makes one
    there."""
    native = native_kernels(param)
    if (
        native is not None
        and grad.dtype == param.dtype
        and moment1.dtype == param.dtype
        and moment2.dtype == param.dtype
        and param.flags.c_contiguous
        and grad.flags.c_contiguous
        and moment1.flags.c_contiguous
        and moment2.flags.c_contiguous
    ):
        native.adam_step(
            param,
            grad,
            moment1,
            moment2,
            float(scalars.beta1),
            float(scalars.grad_weight1),
            float(scalars.beta2),
            float(scalars.grad_weight2),
            float(scalars.step),
            float(scalars.epsilon),
        )
        return
    if scratch is None:
        scratch = xp.empty_like(param)
    xp.multiply(moment1, scalars.beta1, out=moment1)
    xp.multiply(grad, scalars.grad_weight1, out=scratch)
    xp.add(moment1, scratch, out=moment1)
    xp.multiply(moment2, scalars.beta2, out=moment2)
    xp.multiply(grad, scalars.grad_weight2, out=scratch)
    xp.multiply(scratch, grad, out=scratch)
    xp.add(moment2, scratch, out=moment2)
    xp.sqrt(moment2, out=scratch)
    xp.add(scratch, scalars.epsilon, out=scratch)
    xp.divide(moment1, scratch, out=scratch)
    xp.multiply(scratch, scalars.step, out=scratch)
    xp.subtract(param, scratch, out=param)


def decay_factor(
    xp: ModuleType, learning_rate: Array, lr_ratio: float, coeff: float, dtype: Any
) -> Array:
    """AdamW's decay ``learning_rate * lr_ratio * coeff`` as a 0-D array of ``dtype``.
    ``lr_ratio`` and ``coeff`` are the spec's ``float`` attributes: PHI's kernel holds them as
    C++ floats and converts those to T, so a float64 step uses their float32 roundings."""
    return (
        first_element(learning_rate, dtype)
        * xp.asarray(np.float32(lr_ratio), dtype=dtype)
        * xp.asarray(np.float32(coeff), dtype=dtype)
    )


def decay_step_(xp: ModuleType, param: Array, decay: Array, scratch: Array) -> None:
    """AdamW's decoupled weight decay ``param -= decay * param``, in place, where ``decay`` is
    ``learning_rate * lr_ratio * coeff`` in the parameter's dtype."""
    xp.multiply(param, decay, out=scratch)
    xp.subtract(param, scratch, out=param)


def momentum_step_(
    xp: ModuleType,
    param: Array,
    grad: Array,
    velocity: Array,
    learning_rate: Array,
    mu: Array,
    use_nesterov: bool,
    l2_coeff: Array | None,
    rescale_grad: Array | None,
    scratch: Array,
    scratch2: Array,
) -> None:
    """PHI's momentum step, in place: ``g = rescale_grad * grad (+ l2_coeff * param)``,
    ``velocity = velocity * mu + g``, then ``param -= (g + velocity * mu) * learning_rate``
    with Nesterov's correction or ``param -= learning_rate * velocity`` without. The scalars
    are 0-D arrays in the parameter's dtype; ``None`` skips the rescale or the decay."""
    g = grad
    if rescale_grad is not None:
        xp.multiply(g, rescale_grad, out=scratch)
        g = scratch
    if l2_coeff is not None:
        xp.multiply(param, l2_coeff, out=scratch2)
        xp.add(scratch2, g, out=scratch)
        g = scratch
    xp.multiply(velocity, mu, out=velocity)
    xp.add(velocity, g, out=velocity)
    if use_nesterov:
        xp.multiply(velocity, mu, out=scratch2)
        xp.add(g, scratch2, out=scratch2)
        xp.multiply(scratch2, learning_rate, out=scratch2)
    else:
        xp.multiply(velocity, learning_rate, out=scratch2)
    xp.subtract(param, scratch2, out=param)
