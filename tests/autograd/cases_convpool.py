"""Gradient-check cases of the convpool family (max_pool3d_with_index), for CASES in
test_gradcheck_ops.py. Inputs are distinct values, so no max is tied."""

from __future__ import annotations

import phiops.generated as phi
from tests.autograd.test_gradcheck_ops import Case, case, distinct

CONVPOOL_CASES: list[Case] = [
    case(
        "max_pool3d_with_index",
        "padded-overlapping",
        lambda x: phi.max_pool3d_with_index(x, [2, 3, 2], [1, 2, 2], [1, 1, 0])[0],
        distinct((1, 2, 3, 5, 4), 941),
    ),
    case(
        "max_pool3d_with_index",
        "adaptive",
        lambda x: phi.max_pool3d_with_index(x, [2, 3, 2], adaptive=True)[0],
        distinct((1, 2, 3, 4, 5), 942),
    ),
]
