"""``phiops.nn`` (``paddle.nn``): the layers phiops has, with PaddlePaddle's parameter names,
shapes and initializers (runtime/nn/); ``functional`` and ``initializer`` are its submodules.

Holds ``Layer``, ``Sequential`` and ``LayerList``; Linear, Conv2D, Conv2DTranspose, Embedding,
BatchNorm1D/2D, LayerNorm, GroupNorm, Dropout, Flatten, MaxPool2D, AvgPool2D, AdaptiveAvgPool2D;
the activations ReLU, GELU, Sigmoid, Tanh, Softmax, Hardswish; the losses CrossEntropyLoss and
MSELoss; gradient clipping (ClipGradByValue, ClipGradByNorm, ClipGradByGlobalNorm); ParamAttr.

PaddlePaddle's ``paddle.nn`` has much that phiops lacks: the 1-D and 3-D convolutions and pools,
the recurrent layers (RNN, LSTM, GRU), Transformer and MultiHeadAttention, the other activations
(LeakyReLU, SiLU, ...) and losses (L1Loss, BCELoss, NLLLoss, ...), Upsample, Pad, Identity,
LayerDict, ParameterList, and ``paddle.nn.utils`` and ``paddle.nn.quant``.
"""

from __future__ import annotations

import phiops as _phiops

from phiops.nn import functional, initializer
from phiops.runtime.nn.clip import ClipGradByGlobalNorm, ClipGradByNorm, ClipGradByValue
from phiops.runtime.nn.layer import Layer, LayerList, Sequential
from phiops.runtime.nn.layers import (
    AdaptiveAvgPool2D,
    AvgPool2D,
    BatchNorm1D,
    BatchNorm2D,
    Conv2D,
    Conv2DTranspose,
    CrossEntropyLoss,
    Dropout,
    Embedding,
    Flatten,
    GELU,
    GroupNorm,
    Hardswish,
    LayerNorm,
    Linear,
    MaxPool2D,
    MSELoss,
    ReLU,
    Sigmoid,
    Softmax,
    Tanh,
)
from phiops.runtime.nn.param_attr import ParamAttr

__all__ = [
    "functional",
    "initializer",
    "Layer",
    "LayerList",
    "Sequential",
    "ParamAttr",
    "ClipGradByGlobalNorm",
    "ClipGradByNorm",
    "ClipGradByValue",
    "AdaptiveAvgPool2D",
    "AvgPool2D",
    "BatchNorm1D",
    "BatchNorm2D",
    "Conv2D",
    "Conv2DTranspose",
    "CrossEntropyLoss",
    "Dropout",
    "Embedding",
    "Flatten",
    "GELU",
    "GroupNorm",
    "Hardswish",
    "LayerNorm",
    "Linear",
    "MaxPool2D",
    "MSELoss",
    "ReLU",
    "Sigmoid",
    "Softmax",
    "Tanh",
]

_phiops._load_api()  # the ops and paddle's Tensor methods, as `import phiops` gives them
