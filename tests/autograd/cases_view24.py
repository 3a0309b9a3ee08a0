"""Gradient-check cases of the view24 strided views, for CASES in test_gradcheck_ops.py, in
float64: each view is linear in its input, overlapping windows included (their gradients sum)."""

from __future__ import annotations

import phiops._C_ops as C
from phiops.runtime.common import DataType
from tests.autograd.cases_base import Case, case, uniform


def view24_cases() -> list[Case]:
    return [
        case(
            "as_strided",
            "[2,5]-overlapping",
            lambda x: C.as_strided(x, [3, 3], [2, 1], 8),
            uniform((2, 5), 2460),
        ),
        case("view_shape", "[2,3]->[3,-1]", lambda x: C.view_shape(x, [3, -1]), uniform((2, 3), 2461)),
        case(
            "view_dtype",
            "[2,3]-float64",
            lambda x: C.view_dtype(x, DataType.FLOAT64),
            uniform((2, 3), 2462),
        ),
        case(
            "tensor_unfold",
            "[2,6]-size3-step2",
            lambda x: C.tensor_unfold(x, -1, 3, 2),
            uniform((2, 6), 2463),
        ),
        case(
            "index_select_strided",
            "[2,3]-axis1",
            lambda x: C.index_select_strided(x, 1, 1),
            uniform((2, 3), 2464),
        ),
    ]


VIEW24_CASES = view24_cases()

EINSUM_CASES = [
    case(
        "einsum",
        "ij,jk,k->i",
        lambda a, b, c: C.einsum([a, b, c], "ij,jk,k->i")[0],
        uniform((2, 3), 2465),
        uniform((3, 4), 2466),
        uniform((4,), 2467),
    ),
    case(
        "einsum",
        "iij,bj->bi-broadcast",
        lambda a, b: C.einsum([a, b], "iij,bj->bi")[0],
        uniform((2, 2, 1), 2468),
        uniform((3, 4), 2469),
    ),
]

VIEW24_CASES = VIEW24_CASES + EINSUM_CASES
