"""Double-grad cases of the dgrad24 family (issue 24): clip, pad, pad3d, pool2d, conv2d,
conv3d, batch_norm (and batch_norm_) and instance_norm, whose double grads
runtime/kernels/impl/dgrad24_kernel.py and ops/backward.yaml's invokes added.
test_gradcheck_ops.py appends them to ``DOUBLE_CASES``; each is checked against central
differences of the first gradients.

clip's input stays away from its bounds (its gradient jumps there). clip, pad, pad3d and pool2d
have first gradients linear in the upstream gradient and independent of x: their double grads
return only ``grad_out_grad`` (allow_unused=True takes x's missing second gradient as the zeros
the differences give); no first gradient of batch_norm or instance_norm depends on the bias.
"""

from __future__ import annotations

import numpy as np

import phiops.generated as phi
from tests.autograd.cases_base import Case, case, uniform


def _batch_norm(use_global_stats: bool, inplace: bool = False):
    op = phi.batch_norm_ if inplace else phi.batch_norm

    def run(x, scale, bias):
        mean = phi.to_tensor(np.linspace(-0.5, 0.5, x.shape[1]))
        variance = phi.to_tensor(np.linspace(0.5, 1.5, x.shape[1]))
        flags = (False, 0.9, 1e-5, "NCHW", use_global_stats, False)
        return op(x, mean, variance, scale, bias, *flags)[0]

    return run


DGRAD24_DOUBLE_CASES: list[Case] = [
    case(
        "clip",
        "[2,3]",
        lambda x: phi.clip(x, -0.6, 0.8),
        np.array([[-1.2, -0.3, 0.1], [0.5, 1.1, -0.9]]),
        allow_unused=True,
    ),
    case(
        "pad",
        "[2,3]",
        lambda x: phi.pad(x, [1, 0, 0, 2], 0.5),
        uniform((2, 3), 2400),
        allow_unused=True,
    ),
    case(
        "pad3d",
        "reflect-[1,1,2,3,2]",
        lambda x: phi.pad3d(x, [1, 0, 0, 1, 1, 0], "reflect", 0.0, "NCDHW"),
        uniform((1, 1, 2, 3, 2), 2401),
        allow_unused=True,
    ),
    case(
        "pool2d",
        "avg-padded",
        lambda x: phi.pool2d(
            x, [2, 2], [1, 1], [1, 1], False, False, "NCHW", "avg", False, False, "EXPLICIT"
        ),
        uniform((1, 2, 3, 3), 2402),
        allow_unused=True,
    ),
    case(
        "conv2d",
        "groups-stride",
        lambda x, w: phi.conv2d(x, w, [2, 1], [1, 0], "EXPLICIT", [1, 1], 2, "NCHW"),
        uniform((1, 4, 3, 3), 2403),
        uniform((2, 2, 2, 2), 2404),
    ),
    case(
        "conv3d",
        "padded",
        lambda x, w: phi.conv3d(x, w, [1, 1, 1], [1, 0, 0], "EXPLICIT", 1, [1, 1, 1], "NCDHW"),
        uniform((1, 1, 2, 3, 2), 2405),
        uniform((2, 1, 2, 2, 1), 2406),
    ),
    case(
        "batch_norm",
        "training",
        _batch_norm(False),
        uniform((3, 2, 2), 2407),
        uniform((2,), 2408, 0.5, 1.5),
        uniform((2,), 2409),
        allow_unused=True,
    ),
    case(
        "batch_norm_",
        "global-stats",
        _batch_norm(True, inplace=True),
        uniform((2, 2, 2), 2410),
        uniform((2,), 2411, 0.5, 1.5),
        uniform((2,), 2412),
        allow_unused=True,
    ),
    case(
        "instance_norm",
        "[2,2,3]",
        lambda x, s, b: phi.instance_norm(x, s, b, 1e-5),
        uniform((2, 2, 3), 2413),
        uniform((2,), 2414, 0.5, 1.5),
        uniform((2,), 2415),
        allow_unused=True,
    ),
]
