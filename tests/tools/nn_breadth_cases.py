"""The cases of tests/tools/make_nn_breadth_fixtures.py (run on PaddlePaddle 3.3.1) and
tests/nn/test_nn_breadth.py (run on phiops): one table, written against ``paddle``'s API, which
both pass in (``import phiops as paddle`` runs it unchanged)."""

from __future__ import annotations

from typing import Any

import numpy as np


def cases(paddle: Any) -> tuple[np.ndarray, dict, dict]:
    """(the input X, {function case: (call, input)}, {layer case: (make layer, input)})."""
    F = paddle.nn.functional
    X = np.linspace(-4.0, 4.0, 2 * 3 * 4 * 5).astype(np.float32).reshape(2, 3, 4, 5)
    X[0, 0, 0, :3] = [0.0, 0.5, -0.5]  # thresholds

    # name -> (call taking x, input)
    FUNCTIONS = {
        "elu": (lambda x: F.elu(x), X),
        "elu_alpha": (lambda x: F.elu(x, alpha=0.3), X),
        "celu": (lambda x: F.celu(x, alpha=1.5), X),
        "selu": (lambda x: F.selu(x), X),
        "selu_attrs": (lambda x: F.selu(x, scale=1.2, alpha=0.5), X),
        "silu": (lambda x: F.silu(x), X),
        "swish": (lambda x: F.swish(x), X),
        "mish": (lambda x: F.mish(x), X * 8),
        "softplus": (lambda x: F.softplus(x), X),
        "softplus_attrs": (lambda x: F.softplus(x, beta=2, threshold=3), X),
        "softsign": (lambda x: F.softsign(x), X),
        "softshrink": (lambda x: F.softshrink(x), X),
        "softshrink_t": (lambda x: F.softshrink(x, threshold=1.0), X),
        "hardshrink": (lambda x: F.hardshrink(x), X),
        "hardsigmoid": (lambda x: F.hardsigmoid(x), X),
        "hardsigmoid_attrs": (lambda x: F.hardsigmoid(x, slope=0.2, offset=0.3), X),
        "hardtanh": (lambda x: F.hardtanh(x), X),
        "hardtanh_attrs": (lambda x: F.hardtanh(x, min=-2.0, max=0.5), X),
        "relu6": (lambda x: F.relu6(x * 3), X),
        "leaky_relu": (lambda x: F.leaky_relu(x), X),
        "leaky_relu_slope": (lambda x: F.leaky_relu(x, negative_slope=0.3), X),
        "log_softmax": (lambda x: F.log_softmax(x), X),
        "log_softmax_axis": (lambda x: F.log_softmax(x, axis=1), X),
        "log_softmax_dtype": (lambda x: F.log_softmax(x, dtype="float64"), X),
        "log_sigmoid": (lambda x: F.log_sigmoid(x), X),
        "tanhshrink": (lambda x: F.tanhshrink(x), X),
        "thresholded_relu": (lambda x: F.thresholded_relu(x), X),
        "thresholded_relu_attrs": (lambda x: F.thresholded_relu(x, threshold=0.5, value=-1.0), X),
        "glu": (lambda x: F.glu(x, axis=2), X),
        "glu_last": (lambda x: F.glu(x[..., :4]), X),
        "prelu_all": (lambda x: F.prelu(x, paddle.to_tensor(np.array([0.2], np.float32))), X),
        "prelu_channel": (
            lambda x: F.prelu(x, paddle.to_tensor(np.array([0.1, 0.2, 0.3], np.float32))),
            X,
        ),
        "prelu_nhwc": (
            lambda x: F.prelu(
                x, paddle.to_tensor(np.linspace(0.1, 0.5, 5).astype(np.float32)), data_format="NHWC"
            ),
            X,
        ),
        "pad_constant_full": (lambda x: F.pad(x, [1, 0, 0, 1, 2, 0, 0, 1], value=2.0), X),
        "pad_constant_torch": (lambda x: F.pad(x, [1, 2], value=-1.0), X),
        "pad_constant_right": (
            lambda x: F.pad(x, [1, 0, 0, 1, 0, 0, 1, 1], pad_from_left_axis=False),
            X,
        ),
        "pad_constant_2d": (lambda x: F.pad(x, [1, 2, 0, 1], value=3.0), X),
        "pad_reflect": (lambda x: F.pad(x, [1, 2, 2, 1], mode="reflect"), X),
        "pad_replicate": (lambda x: F.pad(x, [2, 0, 1, 3], mode="replicate"), X),
        "pad_circular": (lambda x: F.pad(x, [1, 2, 1, 1], mode="circular"), X),
        "pad_nhwc": (lambda x: F.pad(x, [1, 1, 0, 2], mode="reflect", data_format="NHWC"), X),
        "pad_1d": (lambda x: F.pad(x[0], [2, 1], mode="replicate", data_format="NCL"), X),
        "pad_3d": (lambda x: F.pad(x[None], [1, 0, 0, 1, 1, 1], mode="constant", value=1.0), X),
        "zeropad2d": (lambda x: F.zeropad2d(x, [1, 0, 2, 1]), X),
        "maxout": (lambda x: F.maxout(x[:, :2], groups=2), X),
        "maxout_last": (lambda x: F.maxout(x[..., :4], groups=2, axis=-1), X),
        "grid_sample": (
            lambda x: F.grid_sample(x, paddle.tanh(x[:, :3, :, :2].transpose([0, 2, 1, 3]))),
            X,
        ),
        "grid_sample_nearest_border": (
            lambda x: F.grid_sample(
                x,
                paddle.tanh(x[:, :3, :, :2].transpose([0, 2, 1, 3])) * 1.3,
                mode="nearest",
                padding_mode="border",
                align_corners=False,
            ),
            X,
        ),
    }

    LAYERS = {
        "ELU": (lambda: paddle.nn.ELU(0.5), X),
        "CELU": (lambda: paddle.nn.CELU(2.0), X),
        "SELU": (lambda: paddle.nn.SELU(), X),
        "SiLU": (lambda: paddle.nn.SiLU(), X),
        "Swish": (lambda: paddle.nn.Swish(), X),
        "Mish": (lambda: paddle.nn.Mish(), X),
        "Softplus": (lambda: paddle.nn.Softplus(beta=0.5, threshold=10), X),
        "Softsign": (lambda: paddle.nn.Softsign(), X),
        "Softshrink": (lambda: paddle.nn.Softshrink(0.7), X),
        "Hardshrink": (lambda: paddle.nn.Hardshrink(0.7), X),
        "Hardsigmoid": (lambda: paddle.nn.Hardsigmoid(), X),
        "Hardtanh": (lambda: paddle.nn.Hardtanh(-0.5, 2.0), X),
        "ReLU6": (lambda: paddle.nn.ReLU6(), X * 3),
        "LeakyReLU": (lambda: paddle.nn.LeakyReLU(0.2), X),
        "LogSoftmax": (lambda: paddle.nn.LogSoftmax(axis=2), X),
        "LogSigmoid": (lambda: paddle.nn.LogSigmoid(), X),
        "Tanhshrink": (lambda: paddle.nn.Tanhshrink(), X),
        "ThresholdedReLU": (lambda: paddle.nn.ThresholdedReLU(0.2, 0.1), X),
        "GLU": (lambda: paddle.nn.GLU(axis=1), X[:, :2]),
        "Softmax2D": (lambda: paddle.nn.Softmax2D(), X),
        "PReLU": (lambda: paddle.nn.PReLU(3, init=0.1), X),
        "Identity": (lambda: paddle.nn.Identity(54, unused=True), X),
        "Maxout": (lambda: paddle.nn.Maxout(3, axis=1), X),
        "Pad1D": (lambda: paddle.nn.Pad1D([1, 2], mode="reflect"), X[0]),
        "Pad2D": (lambda: paddle.nn.Pad2D(1, mode="replicate"), X),
        "Pad3D": (lambda: paddle.nn.Pad3D([1, 0, 1, 0, 0, 1], value=2.0), X[None]),
        "ZeroPad1D": (lambda: paddle.nn.ZeroPad1D(2), X[0]),
        "ZeroPad2D": (lambda: paddle.nn.ZeroPad2D([1, 2, 0, 1]), X),
        "ZeroPad3D": (lambda: paddle.nn.ZeroPad3D(1), X[None]),
        "ConstantPad1D": (lambda: paddle.nn.ConstantPad1D([0, 3], 1.5), X[0]),
        "ConstantPad2D": (lambda: paddle.nn.ConstantPad2D(1, -2.0), X),
        "ConstantPad3D": (lambda: paddle.nn.ConstantPad3D([1, 1, 0, 0, 2, 0], 0.5), X[None]),
    }
    return X, FUNCTIONS, LAYERS
