"""Gradient-check cases of the normup ops (issues 24/25), for CASES in test_gradcheck_ops.py, in
float64. rrelu's inputs stay away from 0, where its slope jumps; in training its slopes are
random, so that case reseeds the generator before every call and each evaluation draws the same
slopes."""

from __future__ import annotations

import numpy as np

import phiops
import phiops.nn.functional as F
from tests.autograd.test_gradcheck_ops import Case, case, uniform


def _away_from_zero(shape: tuple[int, ...], seed: int) -> np.ndarray:
    values = uniform(shape, seed, 0.2, 2.0)
    signs = np.where(uniform(shape, seed + 1, 0.0, 1.0) < 0.5, -1.0, 1.0)
    return values * signs


def _rrelu_training(x: phiops.Tensor) -> phiops.Tensor:
    phiops.seed(11)
    return F.rrelu(x, 0.1, 0.4, training=True)


NORMUP_CASES: list[Case] = [
    case(
        "rrelu", "[2,3] eval", lambda x: F.rrelu(x, training=False), _away_from_zero((2, 3), 2500)
    ),
    case("rrelu", "[4] train", _rrelu_training, _away_from_zero((4,), 2502)),
    case("rrelu", "[]", lambda x: F.rrelu(x, 0.2, 0.6, training=False), np.array(-1.5)),
]


def _interp(op: str, sizes: list[int], align_corners: bool = False, align_mode: int = 0):
    def call(x: phiops.Tensor) -> phiops.Tensor:
        outs = [0, 0, 0]
        outs[3 - len(sizes) :] = sizes
        method = op.replace("_interp", "")
        return getattr(phiops._C_ops, op)(
            x, None, None, None, "NCHW", *outs, [], method, align_corners, align_mode
        )

    return call


NORMUP_CASES += [
    case("linear_interp", "[2,2,4]->7", _interp("linear_interp", [7]), uniform((2, 2, 4), 2510)),
    case(
        "linear_interp",
        "[1,2,5]->3 aligned",
        _interp("linear_interp", [3], True),
        uniform((1, 2, 5), 2511),
    ),
    case(
        "bicubic_interp",
        "[1,2,3,4]->[5,3]",
        _interp("bicubic_interp", [5, 3]),
        uniform((1, 2, 3, 4), 2512),
    ),
    case(
        "bicubic_interp",
        "[1,1,3,3]->[4,5] aligned",
        _interp("bicubic_interp", [4, 5], True),
        uniform((1, 1, 3, 3), 2513),
    ),
    case(
        "trilinear_interp",
        "[1,2,2,3,2]->[3,4,3]",
        _interp("trilinear_interp", [3, 4, 3], False, 1),
        uniform((1, 2, 2, 3, 2), 2514),
    ),
]
