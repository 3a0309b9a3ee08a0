"""multiclass_nms3's greedy walk both ways: the compiled one (runtime.kernels._native.nms_greedy,
FLAGS_use_native_kernels on) keeps exactly the boxes the numpy walks keep (flag off: the overlap
matrix up to 1024 candidates, one row per kept box beyond), whose results are checked against
PaddlePaddle 3.3.1's recordings in tests/ops/test_detect_multiclass_nms.py: float32 and float64,
normalized or not, eta shrinking the threshold, NaN and degenerate boxes, over 1024 candidates."""

from __future__ import annotations

import numpy as np
import pytest

from phiops.runtime import flags
from phiops.runtime.kernels import native
from phiops.runtime.kernels.impl.detect_kernel import nms_fast

NOT_BUILT = "phiops.runtime.kernels._native is not built (no C compiler when phiops was installed)"


def _boxes(rng: np.random.Generator, count: int, dtype: str, spread: float) -> np.ndarray:
    corner = rng.uniform(0, spread, (count, 2))
    size = rng.uniform(0.5, 8, (count, 2))
    boxes = np.concatenate([corner, corner + size], axis=1).astype(dtype)
    boxes[::17] = boxes[::17, [2, 3, 0, 1]]  # inverted boxes: area 0
    boxes[5::23] = boxes[5::23, [0, 1, 0, 1]]  # points
    return boxes


CASES = [
    (dtype, normalized, eta, 40)
    for dtype in ("float32", "float64")
    for normalized in (False, True)
    for eta in (1.0, 0.7)
] + [("float32", False, 0.7, 1100)]  # over 1024: the numpy walk by rows


@pytest.mark.parametrize("dtype, normalized, eta, count", CASES)
def test_the_compiled_walk_keeps_the_numpy_walks_boxes(
    dtype: str, normalized: bool, eta: float, count: int
) -> None:
    if not native.NATIVE_BUILT:
        pytest.skip(NOT_BUILT)
    rng = np.random.default_rng(count + int(eta * 10) + normalized)
    boxes = _boxes(rng, count, dtype, spread=20.0 if count < 100 else 120.0)
    scores = rng.uniform(0, 1, count).astype(dtype)
    scores[3::29] = scores[4::29][: scores[3::29].size]  # ties: kept in index order
    if count < 100:
        boxes[7] = np.nan  # a NaN overlap suppresses
    t = np.dtype(dtype).type
    top_k = 400 if count < 1024 else -1  # -1: every candidate, the numpy walk by rows
    arguments = (t(np.float32(0.05)), t(np.float32(0.45)), t(np.float32(eta)), top_k, normalized)
    results = {}
    for use_native in (True, False):
        with flags.flags_guard({"use_native_kernels": use_native}):
            results[use_native] = nms_fast(boxes, scores, *arguments)
    assert results[True] == results[False]
    assert 0 < len(results[True]) < min(count, 400 if top_k > 0 else count)
