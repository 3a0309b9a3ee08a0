"""Gradient-check cases of the dist30 ops (issue 30), for CASES in test_gradcheck_ops.py, in
float64: c_embedding's gradient for its shard, with ids inside, outside and repeated (the ids are
constants)."""

from __future__ import annotations

import numpy as np

import phiops.generated as phi
from tests.autograd.test_gradcheck_ops import Case, case, uniform

_IDS = np.array([[3, 4, 9], [5, 3, 0]], dtype=np.int64)


def _c_embedding(start_index: int):
    def fn(weight: phi.Tensor) -> phi.Tensor:
        return phi.c_embedding(weight, phi.to_tensor(_IDS), start_index)

    return fn


DIST30_CASES: list[Case] = [
    case("c_embedding", "shard@3", _c_embedding(3), uniform((4, 3), 3000)),
    case("c_embedding", "shard@0", _c_embedding(0), uniform((2, 2), 3001)),
]
