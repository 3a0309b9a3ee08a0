"""Gradient-check cases of the linear-algebra ops (bmm, mv, dot, kron, cross, trace, diagonal, inverse, cholesky), for CASES
in test_gradcheck_ops.py, in float64: batched and 0-D-result shapes, ranks that differ (kron),
the default and negative axes (cross), offsets and negative axes (trace)."""

from __future__ import annotations

import numpy as np

import phiops.generated as phi
from tests.autograd.test_gradcheck_ops import Case, case, uniform


def linalg_cases() -> list[Case]:
    return [
        case("bmm", "[2,3,4]x[2,4,2]", phi.bmm, uniform((2, 3, 4), 400), uniform((2, 4, 2), 401)),
        case("mv", "[3,4]x[4]", phi.mv, uniform((3, 4), 402), uniform((4,), 403)),
        case("dot", "[5]x[5]", phi.dot, uniform((5,), 404), uniform((5,), 405)),
        case("dot", "[2,3]x[2,3]", phi.dot, uniform((2, 3), 406), uniform((2, 3), 407)),
        case("kron", "[2,3]x[2,2]", phi.kron, uniform((2, 3), 408), uniform((2, 2), 409)),
        case("kron", "[3]x[2,2]", phi.kron, uniform((3,), 410), uniform((2, 2), 411)),
        case("cross", "[3,2]x[3,2]", phi.cross, uniform((3, 2), 412), uniform((3, 2), 413)),
        case(
            "cross",
            "[2,3]x[2,3]-axis_-1",
            lambda x, y: phi.cross(x, y, -1),
            uniform((2, 3), 414),
            uniform((2, 3), 415),
        ),
        case("trace", "[3,4]", phi.trace, uniform((3, 4), 416)),
        case(
            "trace",
            "[2,3,4]-offset_-1-axes_-1_0",
            lambda x: phi.trace(x, -1, -1, 0),
            uniform((2, 3, 4), 417),
        ),
        case("diagonal", "[3,4]", phi.diagonal, uniform((3, 4), 418)),
        case(
            "diagonal",
            "[2,3,4]-offset_1-axes_-1_0",
            lambda x: phi.diagonal(x, 1, -1, 0),
            uniform((2, 3, 4), 419),
        ),
        case("inverse", "[2,3,3]", phi.inverse, uniform((2, 3, 3), 420) + 4 * np.eye(3)),
        # cholesky reads the lower triangle while its grad is symmetric (PaddlePaddle's): checked
        # through a symmetric input a a^T + 3 I, where both agree
        case(
            ["cholesky", "matmul"],
            "spd[3,3]",
            lambda a: phi.cholesky(phi.matmul(a, a, False, True) + phi.to_tensor(3 * np.eye(3))),
            uniform((3, 3), 421),
        ),
        case(
            ["cholesky", "matmul"],
            "spd[2,3,3]-upper",
            lambda a: phi.cholesky(
                phi.matmul(a, a, False, True) + phi.to_tensor(3 * np.eye(3)), True
            ),
            uniform((2, 3, 3), 422),
        ),
    ]


LINALG_CASES: list[Case] = linalg_cases()
