"""Gradient-check cases of the manip24 ops (index_add, expand_as, multiplex, ...), for CASES in
test_gradcheck_ops.py, in float64."""

from __future__ import annotations

import numpy as np

import phiops
import phiops._C_ops as C
from tests.autograd.test_gradcheck_ops import Case, case, uniform


def _index(values: list[int], dtype: str = "int64") -> phiops.Tensor:
    return phiops.to_tensor(np.array(values, dtype=dtype))


def manip24_cases() -> list[Case]:
    return [
        case(
            "index_add",
            "[3,4]-axis1-repeated",
            lambda x, v: C.index_add(x, _index([1, -1, 1]), v, 1),
            uniform((3, 4), 1200),
            uniform((3, 3), 1201),
        ),
        case(
            "expand_as",
            "[3,1]-to-[2,3,4]",
            lambda x: C.expand_as(x, phiops.zeros([2, 3, 4], dtype="float64"), []),
            uniform((3, 1), 1202),
        ),
        case(
            "multiplex",
            "2x[3,2]",
            lambda a, b: C.multiplex([a, b], _index([[1], [0], [1]], "int32")),
            uniform((3, 2), 1203),
            uniform((3, 2), 1204),
        ),
        case(
            "broadcast_tensors",
            "[2,1]x[3]",
            lambda a, b: (lambda o: o[0] * 2 + o[1] * o[0])(C.broadcast_tensors([a, b])),
            uniform((2, 1), 1205),
            uniform((3,), 1206),
        ),
        case(
            "fill_diagonal",
            "[4,3]-offset1",
            lambda x: C.fill_diagonal(x, 2.0, 1, False),
            uniform((4, 3), 1207),
        ),
        case(
            "fill_diagonal_tensor",
            "[2,3,4]-offset-1-dims(2,1)",
            lambda x: C.fill_diagonal_tensor(x, phiops.ones([2, 3], dtype="float64"), -1, 2, 1),
            uniform((2, 3, 4), 1208),
        ),
    ]


MANIP24_CASES = manip24_cases()
