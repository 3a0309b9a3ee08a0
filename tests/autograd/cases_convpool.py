"""Gradient-check cases of the convpool family (max_pool3d_with_index, unpool, unpool3d), for
CASES in test_gradcheck_ops.py. Inputs are distinct values, so no max is tied; the unpool indices
are fixed distinct positions of each output plane."""

from __future__ import annotations

import numpy as np

import phiops.generated as phi
from tests.autograd.test_gradcheck_ops import Case, case, distinct


def _positions(shape: tuple[int, ...], plane: int, seed: int) -> object:
    rng = np.random.default_rng(seed)
    rows, count = int(np.prod(shape[:2])), int(np.prod(shape[2:]))
    array = np.stack([rng.permutation(plane)[:count] for _ in range(rows)]).reshape(shape)
    return phi.to_tensor(array.astype(np.int32))


_UNPOOL_INDICES = _positions((1, 2, 2, 3), 4 * 6, 943)
_UNPOOL3D_INDICES = _positions((1, 2, 2, 2, 2), 3 * 4 * 4, 944)

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
    case(
        "unpool",
        "2x2",
        lambda x: phi.unpool(x, _UNPOOL_INDICES, [2, 2], [2, 2], [0, 0], [4, 6], "NCHW"),
        distinct((1, 2, 2, 3), 945),
    ),
    case(
        "unpool3d",
        "2x2x2-sized",
        lambda x: phi.unpool3d(x, _UNPOOL3D_INDICES, [2, 2, 2], [2, 2, 2], [0, 0, 0], [3, 4, 4]),
        distinct((1, 2, 2, 2, 2), 946),
    ),
]
