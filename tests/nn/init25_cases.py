"""The layers of tests/nn/test_init25_initializers.py, shared with the script that records
PaddlePaddle 3.3.1's parameters for them (tests/tools/make_init25_fixtures.py): each case takes a
``paddle`` module (PaddlePaddle or phiops) and makes a layer whose ``.weight`` is compared, under
``paddle.seed(SEED)``."""

from __future__ import annotations

import numpy as np

SEED = 11


def cases(paddle) -> dict:
    I, nn = paddle.nn.initializer, paddle.nn

    class _Weight(nn.Layer):
        def __init__(self, shape: list[int], dtype: str, init) -> None:
            super().__init__()
            self.weight = self.create_parameter(shape, dtype=dtype, default_initializer=init)

    return {
        "tn_linear": lambda: nn.Linear(5, 7, weight_attr=I.TruncatedNormal(0.1, 0.5, -0.5, 1.0)),
        "tn_conv_default": lambda: nn.Conv2D(3, 4, 3, weight_attr=I.TruncatedNormal()),
        "tn_float64": lambda: _Weight([6, 3], "float64", I.TruncatedNormal(std=2.0)),
        "orth_wide": lambda: nn.Linear(4, 6, weight_attr=I.Orthogonal()),
        "orth_tall": lambda: nn.Linear(6, 4, weight_attr=I.Orthogonal(gain=2.0)),
        "orth_conv": lambda: nn.Conv2D(2, 4, 3, weight_attr=I.Orthogonal()),
        "dirac_conv2d": lambda: nn.Conv2D(4, 6, 3, groups=2, weight_attr=I.Dirac(groups=2)),
        "dirac_conv1d": lambda: nn.Conv1D(3, 2, 5, weight_attr=I.Dirac()),
        "dirac_conv3d": lambda: nn.Conv3D(2, 3, 3, weight_attr=I.Dirac()),
        "bilinear_4": lambda: nn.Conv2DTranspose(3, 3, 4, weight_attr=I.Bilinear()),
        "bilinear_3": lambda: nn.Conv2DTranspose(2, 1, 3, weight_attr=I.Bilinear()),
        "assign_list": lambda: nn.Linear(2, 3, weight_attr=I.Assign([[1, 2, 3], [4, 5, 6]])),
        "assign_numpy": lambda: nn.Linear(
            3, 2, weight_attr=I.Assign(np.arange(6, dtype="float64").reshape(3, 2) / 7)
        ),
    }
