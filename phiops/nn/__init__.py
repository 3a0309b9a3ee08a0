"""``phiops.nn`` (``paddle.nn``): the layers phiops has, with PaddlePaddle's parameter names,
shapes and initializers (runtime/nn/); ``functional`` and ``initializer`` are its submodules.

Holds ``Layer``, ``Sequential`` and ``LayerList``; Linear, Conv2D, Conv2DTranspose, Embedding,
BatchNorm1D/2D, LayerNorm, GroupNorm, Dropout, Flatten, MaxPool2D, AvgPool2D, AdaptiveAvgPool2D;
the activations ReLU, GELU, Sigmoid, Tanh, Softmax, Hardswish; the losses CrossEntropyLoss and
MSELoss; MultiHeadAttention, TransformerEncoderLayer, TransformerEncoder, TransformerDecoderLayer,
TransformerDecoder and Transformer; the recurrent cells SimpleRNNCell, LSTMCell, GRUCell (and
their base RNNCellBase), RNN, BiRNN and the networks SimpleRNN, LSTM, GRU; gradient clipping (ClipGradByValue, ClipGradByNorm,
ClipGradByGlobalNorm); ParamAttr.

Also the activation layers ELU, CELU, SELU, SiLU, Swish, Mish, Softplus, Softsign, Softshrink,
Hardshrink, Hardsigmoid, Hardtanh, ReLU6, LeakyReLU, LogSoftmax, LogSigmoid, Tanhshrink,
ThresholdedReLU, PReLU, GLU, Softmax2D, and Identity (runtime/nn/activation.py); the padding
layers Pad1D/2D/3D, ZeroPad1D/2D/3D, ConstantPad1D/2D/3D (runtime/nn/padding.py).

Also the normalization layers InstanceNorm1D/2D/3D, BatchNorm3D, the old-style BatchNorm,
SyncBatchNorm (one process: the local batch's statistics; ``convert_sync_batchnorm``),
LocalResponseNorm; the upsampling layers Upsample, UpsamplingNearest2D, UpsamplingBilinear2D
(modes linear, nearest, bilinear, bicubic, trilinear and area; antialias raises
UnimplementedError until the op interp_antialias exists); PixelShuffle, PixelUnshuffle, ChannelShuffle, Unfold, Fold; RReLU (its random
slopes come from phiops's generator, not PaddlePaddle's) (runtime/nn/norm_upsample.py).

PaddlePaddle's ``paddle.nn`` has much that phiops lacks: the 1-D and 3-D convolutions and pools,
the other losses (L1Loss, BCELoss, NLLLoss, ...), RMSNorm's function rms_norm (PaddlePaddle
3.3.1 has no CPU kernel for it), LayerDict, ParameterList, and ``paddle.nn.utils`` and
``paddle.nn.quant``.
"""

from __future__ import annotations

import phiops as _phiops

from phiops.runtime.nn import *  # noqa: F401,F403
from phiops.runtime.nn import __all__ as _runtime_names

# the facade submodules replace the runtime's modules of the same names (importing a submodule
# sets the package's attribute; `from phiops.nn import functional` would find the runtime's)
import phiops.nn.functional as _functional  # noqa: E402,F401
import phiops.nn.initializer as _initializer  # noqa: E402,F401

__all__ = list(_runtime_names)

_phiops._load_api()  # the ops and paddle's Tensor methods, as `import phiops` gives them

# the loss layers over the losscum ops of issue 24 (runtime/nn/losscum.py)
from phiops.runtime.nn.losscum import (  # noqa: E402
    LAYER_NAMES as _LOSSCUM_LAYERS,
    BCELoss,
    BCEWithLogitsLoss,
    HingeEmbeddingLoss,
    KLDivLoss,
    NLLLoss,
    SmoothL1Loss,
)

__all__ += list(_LOSSCUM_LAYERS)

# normalization, upsampling and rearranging layers of issue 25 (runtime/nn/norm_upsample.py)
from phiops.runtime.nn.norm_upsample import (  # noqa: E402
    LAYER_NAMES as _NORMUP_LAYERS,
    BatchNorm,
    BatchNorm3D,
    ChannelShuffle,
    Fold,
    InstanceNorm1D,
    InstanceNorm2D,
    InstanceNorm3D,
    LocalResponseNorm,
    PixelShuffle,
    PixelUnshuffle,
    RReLU,
    SyncBatchNorm,
    Unfold,
    Upsample,
    UpsamplingBilinear2D,
    UpsamplingNearest2D,
)

__all__ += list(_NORMUP_LAYERS)
