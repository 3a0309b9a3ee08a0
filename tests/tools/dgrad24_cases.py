"""The cases of tests/tools/make_dgrad24_fixtures.py (run on PaddlePaddle 3.3.1),
tests/autograd/test_dgrad24_paddle.py (phiops against the recording) and
tests/parity/test_dgrad24_paddle.py (phiops against PaddlePaddle, live): second derivatives of
the ops whose double grads the dgrad24 family added (clip, pad, pad3d, pool2d, conv2d, conv3d,
batch_norm, instance_norm), written against ``paddle``'s API, which both pass in (``import phiops
as paddle`` runs it unchanged). ``derivatives`` (tests/tools/grad2_cases.py) differentiates them.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from tests.tools.grad2_cases import values


def _clip_input() -> np.ndarray:
    # away from the bounds -0.6 and 0.8, where clip's gradient jumps
    return np.array([[-1.2, -0.3, 0.1], [0.5, 1.1, -0.9]])


def _batch_norm(use_global_stats: bool) -> Callable[..., Any]:
    def run(P: Any, x: Any, weight: Any, bias: Any) -> Any:
        channels = x.shape[1]
        mean = P.to_tensor(np.linspace(-0.5, 0.5, channels))
        variance = P.to_tensor(np.linspace(0.5, 1.5, channels))
        return P.nn.functional.batch_norm(
            x, mean, variance, weight, bias, training=True, use_global_stats=use_global_stats
        )

    return run


# (case id, op taking the paddle module and the input tensors, inputs)
CASES: list[tuple[str, Callable[..., Any], tuple[np.ndarray, ...]]] = [
    ("clip", lambda P, x: P.clip(x, -0.6, 0.8), (_clip_input(),)),
    (
        "pad",
        lambda P, x: P.nn.functional.pad(x, [1, 0, 0, 2]),
        (values((2, 3), 30),),
    ),
    (
        "pad3d-reflect",
        lambda P, x: P.nn.functional.pad(x, [1, 0, 0, 2, 1, 1], mode="reflect"),
        (values((1, 2, 3, 3, 3), 31),),
    ),
    (
        "pool2d-avg",
        lambda P, x: P.nn.functional.avg_pool2d(x, 2, stride=1, padding=1, exclusive=False),
        (values((1, 2, 3, 3), 32),),
    ),
    (
        "conv2d",
        lambda P, x, w: P.nn.functional.conv2d(x, w, stride=2, padding=1, groups=2),
        (values((1, 4, 4, 4), 33), values((2, 2, 3, 3), 34)),
    ),
    (
        "conv3d",
        lambda P, x, w: P.nn.functional.conv3d(x, w, padding=1),
        (values((1, 2, 3, 3, 3), 35), values((2, 2, 2, 2, 2), 36)),
    ),
    (
        "batch_norm-training",
        _batch_norm(False),
        (values((3, 2, 2, 2), 37), values((2,), 38, 0.5, 1.5), values((2,), 39)),
    ),
    (
        "batch_norm-global-stats",
        _batch_norm(True),
        (values((3, 2, 2), 40), values((2,), 41, 0.5, 1.5), values((2,), 42)),
    ),
    (
        "instance_norm",
        lambda P, x, w, b: P.nn.functional.instance_norm(x, weight=w, bias=b),
        (values((2, 2, 2, 3), 43), values((2,), 44, 0.5, 1.5), values((2,), 45)),
    ),
]

# Constant pads with a nonzero pad_value, where phiops deliberately differs: PaddlePaddle 3.3.1's
# pad_double_grad and pad3d_double_grad pad grad_x_grad with pad_value, phiops's with zeros (the
# border of pad's output does not depend on x: its second derivative is 0 there). (case id, op,
# inputs, numpy pad widths of the border of the output, pad_value)
BORDER_CASES: list[tuple[str, Callable[..., Any], tuple[np.ndarray, ...], tuple, float]] = [
    (
        "pad-value",
        lambda P, x: P.nn.functional.pad(x, [1, 0, 0, 2], value=0.5),
        (values((2, 3), 46),),
        ((1, 0), (0, 2)),
        0.5,
    ),
    (
        "pad3d-constant-value",
        lambda P, x: P.nn.functional.pad(x, [1, 0, 0, 2, 1, 1], value=0.5),
        (values((1, 1, 2, 2, 2), 47),),
        ((0, 0), (0, 0), (1, 1), (0, 2), (1, 0)),
        0.5,
    ),
]
