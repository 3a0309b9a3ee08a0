"""``phiops.nn.functional`` (``paddle.nn.functional``): the functions phiops has, with
PaddlePaddle's Python signatures (runtime/nn/functional.py).

Holds linear, conv2d, conv2d_transpose; relu, gelu, sigmoid, tanh, softmax, hardswish; dropout;
max_pool2d, avg_pool2d, adaptive_avg_pool2d; batch_norm, layer_norm, group_norm; embedding,
flatten; cross_entropy and mse_loss; scaled_dot_product_attention; the vision functions
pixel_shuffle, pixel_unshuffle, channel_shuffle, unfold, fold, affine_grid
(runtime/nn/vision_functional.py); sequence_mask.

Also the activations elu, celu, selu, silu, swish, mish, softplus, softsign, softshrink,
gumbel_softmax, hardshrink, hardsigmoid, hardtanh, relu6, leaky_relu, log_softmax, log_sigmoid,
tanhshrink, thresholded_relu, prelu, glu (and the in-place elu_, relu_, leaky_relu_, hardtanh_,
softmax_, tanh_, thresholded_relu_; runtime/nn/activation.py) and pad, zeropad2d, one_hot (runtime/nn/padding.py);
conv1d, conv3d, conv1d_transpose, conv3d_transpose, max_pool1d, max_pool3d, avg_pool1d, avg_pool3d,
adaptive_avg_pool1d, adaptive_avg_pool3d, adaptive_max_pool1d/2d/3d, max_unpool1d/2d/3d
(runtime/nn/conv_pool.py).

Also instance_norm, local_response_norm, normalize, rrelu (random slopes from phiops's
generator), and interpolate/upsample (modes linear, nearest, bilinear, bicubic, trilinear and
area; antialias raises UnimplementedError until the op interp_antialias exists;
runtime/nn/norm_upsample.py). pad builds into static programs, and batch_norm leaves the
running statistics it updates stop_gradient, as PaddlePaddle's.

The losses binary_cross_entropy, binary_cross_entropy_with_logits, hinge_embedding_loss, kl_div,
label_smooth, log_loss, nll_loss, smooth_l1_loss (runtime/nn/losscum.py) and l1_loss,
square_error_cost, margin_ranking_loss, soft_margin_loss, multi_label_soft_margin_loss,
cosine_embedding_loss, triplet_margin_loss, triplet_margin_with_distance_loss, multi_margin_loss,
poisson_nll_loss, gaussian_nll_loss, sigmoid_focal_loss, dice_loss, npair_loss, ctc_loss
(runtime/nn/losses2.py), and hsigmoid_loss and class_center_sample
(runtime/nn/loss24b.py), and rnnt_loss over the op warprnnt (runtime/nn/rnnt24.py).

The pooling functions lp_pool1d, lp_pool2d, fractional_max_pool2d and fractional_max_pool3d
over the pool24 ops of issue 24 (runtime/nn/pool24.py).

The channel and alpha dropouts, cosine_similarity, pairwise_distance and
multi_label_margin_loss (runtime/nn/nn25.py).

PaddlePaddle's ``paddle.nn.functional`` has some that phiops lacks: margin_cross_entropy (no CPU
kernel in PaddlePaddle 3.3.1), adaptive_log_softmax_with_loss, rms_norm and the fused attention
functions
(flash_attention, flashmask_attention, sparse_attention).
"""

from __future__ import annotations

from phiops.runtime.nn.functional import (
    adaptive_avg_pool2d,
    avg_pool2d,
    batch_norm,
    conv2d,
    conv2d_transpose,
    cross_entropy,
    softmax_with_cross_entropy,
    dropout,
    embedding,
    flatten,
    gelu,
    group_norm,
    hardswish,
    layer_norm,
    linear,
    max_pool2d,
    mse_loss,
    relu,
    scaled_dot_product_attention,
    sequence_mask,
    sigmoid,
    softmax,
    tanh,
)
from phiops.runtime.nn.vision_functional import (
    affine_grid,
    grid_sample,
    channel_shuffle,
    fold,
    pixel_shuffle,
    pixel_unshuffle,
    temporal_shift,
    unfold,
)

__all__ = [
    "temporal_shift",
    "pixel_shuffle",
    "pixel_unshuffle",
    "channel_shuffle",
    "unfold",
    "fold",
    "affine_grid",
    "grid_sample",
    "linear",
    "conv2d",
    "conv2d_transpose",
    "relu",
    "gelu",
    "sigmoid",
    "tanh",
    "softmax",
    "hardswish",
    "dropout",
    "max_pool2d",
    "avg_pool2d",
    "adaptive_avg_pool2d",
    "batch_norm",
    "layer_norm",
    "group_norm",
    "embedding",
    "flatten",
    "cross_entropy",
    "softmax_with_cross_entropy",
    "mse_loss",
    "scaled_dot_product_attention",
    "sequence_mask",
]

# the other activations, padding and one_hot (runtime/nn/activation.py, runtime/nn/padding.py)
from phiops.runtime.nn.activation import (
    celu,
    elu,
    elu_,
    glu,
    gumbel_softmax,
    hardshrink,
    hardsigmoid,
    hardtanh,
    hardtanh_,
    leaky_relu,
    leaky_relu_,
    log_sigmoid,
    log_softmax,
    logsigmoid,
    maxout,
    mish,
    prelu,
    relu6,
    relu_,
    selu,
    silu,
    softmax_,
    softplus,
    softshrink,
    softsign,
    swish,
    tanh_,
    tanhshrink,
    thresholded_relu,
    thresholded_relu_,
)
from phiops.runtime.nn.padding import (
    one_hot,
    pad,
    zeropad2d,
)

__all__ += [
    "celu",
    "elu",
    "elu_",
    "glu",
    "gumbel_softmax",
    "hardshrink",
    "hardsigmoid",
    "hardtanh",
    "hardtanh_",
    "tanh_",
    "thresholded_relu_",
    "leaky_relu",
    "leaky_relu_",
    "log_sigmoid",
    "log_softmax",
    "logsigmoid",
    "maxout",
    "mish",
    "prelu",
    "relu6",
    "relu_",
    "selu",
    "silu",
    "softmax_",
    "softplus",
    "softshrink",
    "softsign",
    "swish",
    "tanhshrink",
    "thresholded_relu",
    "one_hot",
    "pad",
    "zeropad2d",
]

# the losses over the losscum ops of issue 24 (runtime/nn/losscum.py)
from phiops.runtime.nn.losscum import (  # noqa: E402
    FUNCTIONAL_NAMES as _LOSSCUM_NAMES,
    binary_cross_entropy,
    binary_cross_entropy_with_logits,
    hinge_embedding_loss,
    kl_div,
    label_smooth,
    log_loss,
    nll_loss,
    smooth_l1_loss,
)

__all__ += list(_LOSSCUM_NAMES)

# normalization and upsampling of issue 25 (runtime/nn/norm_upsample.py)
from phiops.runtime.nn.norm_upsample import (  # noqa: E402
    FUNCTION_NAMES as _NORMUP_NAMES,
    instance_norm,
    interpolate,
    local_response_norm,
    normalize,
    rrelu,
    upsample,
)

__all__ += list(_NORMUP_NAMES)

# the remaining losses (issue 25: runtime/nn/losses2.py)
from phiops.runtime.nn.losses2 import (  # noqa: E402
    FUNCTIONAL_NAMES as _LOSSES2_NAMES,
    cosine_embedding_loss,
    ctc_loss,
    dice_loss,
    gaussian_nll_loss,
    l1_loss,
    margin_ranking_loss,
    multi_label_soft_margin_loss,
    multi_margin_loss,
    npair_loss,
    poisson_nll_loss,
    sigmoid_focal_loss,
    soft_margin_loss,
    square_error_cost,
    triplet_margin_loss,
    triplet_margin_with_distance_loss,
)

__all__ += list(_LOSSES2_NAMES)

# the 1-D and 3-D convolutions and pools and the adaptive pools (runtime/nn/conv_pool.py)
from phiops.runtime.nn.conv_pool import (  # noqa: E402
    FUNCTIONAL_NAMES as _CONVPOOL_NAMES,
    adaptive_avg_pool1d,
    adaptive_avg_pool3d,
    adaptive_max_pool1d,
    adaptive_max_pool2d,
    adaptive_max_pool3d,
    avg_pool1d,
    avg_pool3d,
    conv1d,
    conv1d_transpose,
    conv3d,
    conv3d_transpose,
    max_pool1d,
    max_pool3d,
    max_unpool1d,
    max_unpool2d,
    max_unpool3d,
)

__all__ += list(_CONVPOOL_NAMES)

# the seq24 ops of issue 24 (runtime/nn/seq24.py)
from phiops.runtime.nn.seq24 import FUNCTIONAL_NAMES as _SEQ24_NAMES  # noqa: E402
from phiops.runtime.nn.seq24 import bilinear, gather_tree, swiglu  # noqa: E402

__all__ += list(_SEQ24_NAMES)

# the channel dropouts and distances (issue 25, runtime/nn/nn25.py)
from phiops.runtime.nn.nn25 import FUNCTIONAL_NAMES as _NN25_NAMES  # noqa: E402
from phiops.runtime.nn.nn25 import (  # noqa: E402
    alpha_dropout,
    feature_alpha_dropout,
    cosine_similarity,
    multi_label_margin_loss,
    dropout1d,
    dropout2d,
    dropout3d,
    pairwise_distance,
)

__all__ += list(_NN25_NAMES)
# the pooling functions over the pool24 ops of issue 24 (runtime/nn/pool24.py)
from phiops.runtime.nn.pool24 import (  # noqa: E402
    FUNCTIONAL_NAMES as _POOL24_NAMES,
    fractional_max_pool2d,
    fractional_max_pool3d,
    lp_pool1d,
    lp_pool2d,
)

__all__ += list(_POOL24_NAMES)
# the loss24b ops of issue 24 (runtime/nn/loss24b.py)
from phiops.runtime.nn.loss24b import FUNCTIONAL_NAMES as _LOSS24B_NAMES  # noqa: E402
from phiops.runtime.nn.loss24b import class_center_sample, hsigmoid_loss  # noqa: E402

__all__ += list(_LOSS24B_NAMES)
# the RNN-T loss over the rnnt24 op warprnnt of issue 24 (runtime/nn/rnnt24.py)
from phiops.runtime.nn.rnnt24 import FUNCTIONAL_NAMES as _RNNT24_NAMES, rnnt_loss  # noqa: E402

__all__ += list(_RNNT24_NAMES)
