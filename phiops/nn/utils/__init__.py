"""``phiops.nn.utils`` (``paddle.nn.utils``): gradient clipping (``clip_grad_norm_``,
``clip_grad_value_``), ``parameters_to_vector``/``vector_to_parameters``, and the weight
reparametrisations ``weight_norm``/``remove_weight_norm`` and ``spectral_norm``
(runtime/nn/utils.py), with PaddlePaddle 3.3.1's signatures and parameter names."""

from __future__ import annotations

from phiops.runtime.nn.utils import (
    clip_grad_norm_,
    clip_grad_value_,
    parameters_to_vector,
    remove_weight_norm,
    spectral_norm,
    vector_to_parameters,
    weight_norm,
)

__all__ = [
    "weight_norm",
    "remove_weight_norm",
    "spectral_norm",
    "parameters_to_vector",
    "vector_to_parameters",
    "clip_grad_norm_",
    "clip_grad_value_",
]
