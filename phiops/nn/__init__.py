"""``phiops.nn`` (``paddle.nn``): the layers phiops has, with PaddlePaddle's parameter names,
shapes and initializers (runtime/nn/); ``functional`` and ``initializer`` are its submodules.

Holds ``Layer``, ``Sequential`` and ``LayerList``; Linear, Conv2D, Conv2DTranspose, Embedding,
BatchNorm1D/2D, LayerNorm, GroupNorm, Dropout, Flatten, MaxPool2D, AvgPool2D, AdaptiveAvgPool2D;
the activations ReLU, GELU, Sigmoid, Tanh, Softmax, Hardswish; the losses CrossEntropyLoss and
MSELoss; MultiHeadAttention, TransformerEncoderLayer, TransformerEncoder, TransformerDecoderLayer,
TransformerDecoder and Transformer; the recurrent cells SimpleRNNCell, LSTMCell, GRUCell (and
their base RNNCellBase), RNN, BiRNN and the networks SimpleRNN, LSTM, GRU; gradient clipping (ClipGradByValue, ClipGradByNorm,
ClipGradByGlobalNorm, also in the submodule ``clip`` with ``clip_by_norm``); ParamAttr.

Also the activation layers ELU, CELU, SELU, SiLU, Swish, Mish, Softplus, Softsign, Softshrink,
Hardshrink, Hardsigmoid, Hardtanh, ReLU6, LeakyReLU, LogSoftmax, LogSigmoid, Tanhshrink,
ThresholdedReLU, PReLU, GLU, Softmax2D, and Identity (runtime/nn/activation.py); the padding
layers Pad1D/2D/3D, ZeroPad1D/2D/3D, ConstantPad1D/2D/3D (runtime/nn/padding.py); the
convolutions Conv1D, Conv3D, Conv1DTranspose, Conv3DTranspose (``padding_mode`` zeros, reflect,
replicate, circular) and the pools MaxPool1D/3D, AvgPool1D/3D, AdaptiveAvgPool1D/3D,
AdaptiveMaxPool1D/2D/3D, MaxUnPool1D/2D/3D (runtime/nn/conv_pool.py).

Also the normalization layers InstanceNorm1D/2D/3D, BatchNorm3D, the old-style BatchNorm,
SyncBatchNorm (one process: the local batch's statistics; ``convert_sync_batchnorm``),
LocalResponseNorm; the upsampling layers Upsample, UpsamplingNearest2D, UpsamplingBilinear2D
(modes linear, nearest, bilinear, bicubic, trilinear and area; antialias on the op
interp_antialias); PixelShuffle, PixelUnshuffle, ChannelShuffle, Unfold, Fold; RReLU (its random
slopes are PaddlePaddle's after the same seed) (runtime/nn/norm_upsample.py).

Also the losses L1Loss, MarginRankingLoss, SoftMarginLoss, MultiLabelSoftMarginLoss,
CosineEmbeddingLoss, TripletMarginLoss, TripletMarginWithDistanceLoss, MultiMarginLoss,
PoissonNLLLoss, GaussianNLLLoss, CTCLoss (runtime/nn/losses2.py) and BCELoss, BCEWithLogitsLoss,
HingeEmbeddingLoss, KLDivLoss, NLLLoss, SmoothL1Loss (runtime/nn/losscum.py); the containers
ParameterList and LayerDict (runtime/nn/containers.py); and the submodule ``utils``
(``paddle.nn.utils``: clip_grad_norm_, clip_grad_value_, parameters_to_vector,
vector_to_parameters, weight_norm, remove_weight_norm, spectral_norm; runtime/nn/utils.py); and
SpectralNorm, the layer over the spectral_norm op (runtime/nn/misc24.py); RNNTLoss, the layer
over the warprnnt op (runtime/nn/rnnt24.py).

The pooling layers LPPool1D, LPPool2D (and their aliases LPPool1d, LPPool2d), FractionalMaxPool2D
and FractionalMaxPool3D over the pool24 ops of issue 24 (runtime/nn/pool24.py).

The channel and alpha dropouts (Dropout2D/3D, AlphaDropout, FeatureAlphaDropout),
CosineSimilarity, PairwiseDistance, Silu, Unflatten, MultiLabelMarginLoss, ParameterDict, the
reflection/replication/circular padding layers and PaddlePaddle's torch-style aliases (Module,
ModuleList, ModuleDict, Conv1d/2d/3d, ...) (runtime/nn/nn25.py).

PaddlePaddle's ``paddle.nn`` has some that phiops lacks: AdaptiveLogSoftmaxWithLoss,
BeamSearchDecoder and dynamic_decode, Parameter, RMSNorm's function rms_norm (PaddlePaddle 3.3.1
has no CPU kernel for it), and of ``paddle.nn.quant`` all but weight_quantize (phiops/nn/quant.py).
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

# the remaining losses, ParameterList/LayerDict and nn.utils (issue 25: runtime/nn/losses2.py,
# runtime/nn/containers.py, runtime/nn/utils.py)
from phiops.runtime.nn.losses2 import (  # noqa: E402
    LAYER_NAMES as _LOSSES2_LAYERS,
    CTCLoss,
    CosineEmbeddingLoss,
    GaussianNLLLoss,
    L1Loss,
    MarginRankingLoss,
    MultiLabelSoftMarginLoss,
    MultiMarginLoss,
    PoissonNLLLoss,
    SoftMarginLoss,
    TripletMarginLoss,
    TripletMarginWithDistanceLoss,
)
from phiops.runtime.nn.containers import LayerDict, ParameterList  # noqa: E402
import phiops.nn.utils as utils  # noqa: E402
import phiops.nn.clip as clip  # noqa: E402
import phiops.nn.quant as quant  # noqa: E402  (paddle.nn.quant: weight_quantize)

__all__ += list(_LOSSES2_LAYERS) + ["LayerDict", "ParameterList", "utils", "clip", "quant"]

# the 1-D and 3-D convolutions and pools and the adaptive pools (runtime/nn/conv_pool.py)
from phiops.runtime.nn.conv_pool import (  # noqa: E402
    LAYER_NAMES as _CONVPOOL_LAYERS,
    AdaptiveAvgPool1D,
    AdaptiveAvgPool3D,
    AdaptiveMaxPool1D,
    AdaptiveMaxPool2D,
    AdaptiveMaxPool3D,
    AvgPool1D,
    AvgPool3D,
    Conv1D,
    Conv1DTranspose,
    Conv3D,
    Conv3DTranspose,
    MaxPool1D,
    MaxPool3D,
    MaxUnPool1D,
    MaxUnPool2D,
    MaxUnPool3D,
)

__all__ += list(_CONVPOOL_LAYERS)

# the layers over the seq24 ops of issue 24 (runtime/nn/seq24.py)
from phiops.runtime.nn.seq24 import LAYER_NAMES as _SEQ24_LAYERS, Bilinear  # noqa: E402

__all__ += list(_SEQ24_LAYERS)

# PaddlePaddle's channel dropouts, distances, padding modes and torch-style aliases (issue 25,
# runtime/nn/nn25.py)
import phiops.runtime.nn.nn25 as _nn25  # noqa: E402

globals().update({_name: getattr(_nn25, _name) for _name in _nn25.LAYER_NAMES})
__all__ += list(_nn25.LAYER_NAMES)
# the pooling layers over the pool24 ops of issue 24 (runtime/nn/pool24.py)
from phiops.runtime.nn.pool24 import (  # noqa: E402
    LAYER_NAMES as _POOL24_LAYERS,
    FractionalMaxPool2D,
    FractionalMaxPool3D,
    LPPool1d,
    LPPool1D,
    LPPool2d,
    LPPool2D,
)

__all__ += list(_POOL24_LAYERS)

# the layer over the spectral_norm op of issue 24 (runtime/nn/misc24.py)
from phiops.runtime.nn.misc24 import LAYER_NAMES as _MISC24_LAYERS, SpectralNorm  # noqa: E402

__all__ += list(_MISC24_LAYERS)
# the layers over the loss24b ops of issue 24 (runtime/nn/loss24b.py)
from phiops.runtime.nn.loss24b import LAYER_NAMES as _LOSS24B_LAYERS, HSigmoidLoss  # noqa: E402

__all__ += list(_LOSS24B_LAYERS)
# the layer over the rnnt24 op warprnnt of issue 24 (runtime/nn/rnnt24.py)
from phiops.runtime.nn.rnnt24 import LAYER_NAMES as _RNNT24_LAYERS, RNNTLoss  # noqa: E402

__all__ += list(_RNNT24_LAYERS)
