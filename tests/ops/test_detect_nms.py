"""nms: every registered dtype against a numpy reference of greedy suppression written from the
definition, no boxes, one box, empty and inverted boxes, NaN, thresholds 0 and 1, a
non-contiguous input, the result in a static program, the registrations against PaddlePaddle
3.3.1's, and bad input. tests/ops/test_detect_paddle.py compares with PaddlePaddle's recorded
results."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.coverage import paddle_data
from tests.ops.op_testing import cpu_dtypes, op_test

D = DataType


def iou(a: np.ndarray, b: np.ndarray) -> float:
    width = max(min(a[2], b[2]) - max(a[0], b[0]), 0)
    height = max(min(a[3], b[3]) - max(a[1], b[1]), 0)
    inter = width * height
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    with np.errstate(divide="ignore", invalid="ignore"):
        return inter / union


def nms_reference(boxes: np.ndarray, threshold: float) -> list[int]:
    kept: list[int] = []
    for i, box in enumerate(boxes):
        if all(not iou(boxes[k], box) > np.float32(threshold) for k in kept):
            kept.append(i)
    return kept


def random_boxes(count: int, dtype: DataType, seed: int, extent: float = 10.0) -> np.ndarray:
    corners = np.random.default_rng(seed).uniform(0, extent, size=(count, 2, 2))
    return np.concatenate([corners.min(1), corners.max(1)], 1).astype(dtype.numpy_dtype)


@op_test("nms", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("nms"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("threshold", [0.0, 0.3, 0.5, 0.8, 1.0])
def test_nms_matches_the_reference_for_each_dtype(dtype: DataType, threshold: float) -> None:
    boxes = random_boxes(40, dtype, seed=41)
    out = phi.nms(phi.to_tensor(boxes), threshold)
    assert out.dtype is D.INT64
    np.testing.assert_array_equal(out.numpy(), nms_reference(boxes, threshold))


def test_registrations_are_paddles() -> None:
    ours = sorted(dtype.name.lower() for dtype in cpu_dtypes("nms"))
    assert ours == sorted(paddle_data()["kernels"]["nms"])


@op_test("nms", kind="edge")
def test_no_boxes_keep_nothing_and_one_box_keeps_it() -> None:
    empty = phi.nms(phi.to_tensor(np.zeros((0, 4), np.float32)), 0.5)
    assert empty.shape == [0] and empty.dtype is D.INT64
    np.testing.assert_array_equal(
        phi.nms(phi.to_tensor(np.array([[0, 0, 1, 1]], np.float32)), 0.5).numpy(), [0]
    )


def test_empty_repeated_and_nan_boxes() -> None:
    boxes = np.array(
        [[0, 0, 2, 2], [0, 0, 2, 2], [3, 3, 3, 3], [3, 3, 3, 3], [np.nan, 0, 1, 1], [5, 5, 1, 1]],
        np.float64,
    )
    # the repeat of box 0 goes (IoU 1 > 0.5); empty boxes (0/0) and NaN never overlap anything
    np.testing.assert_array_equal(phi.nms(phi.to_tensor(boxes), 0.5).numpy(), [0, 2, 3, 4, 5])
    # an IoU of 1 is not above a threshold of 1
    np.testing.assert_array_equal(phi.nms(phi.to_tensor(boxes), 1.0).numpy(), [0, 1, 2, 3, 4, 5])


def test_nms_of_a_non_contiguous_input() -> None:
    boxes = random_boxes(30, D.FLOAT64, seed=42)
    wide = np.concatenate([boxes, boxes], axis=1)
    out = phi.nms(phi.to_tensor(wide)[:, ::2], 0.4)
    np.testing.assert_array_equal(out.numpy(), nms_reference(wide[:, ::2], 0.4))


def test_nms_in_a_static_program_has_a_length_from_the_data() -> None:
    boxes = random_boxes(25, D.FLOAT32, seed=43)
    phi.enable_static()
    try:
        main = phi.static.Program()
        with phi.static.program_guard(main):
            x = phi.static.data("x", [None, 4], "float32")
            out = phi.nms(x, 0.5)
            assert out.shape == [-1]
        (result,) = phi.static.Executor().run(main, feed={"x": boxes}, fetch_list=[out])
    finally:
        phi.disable_static()
    np.testing.assert_array_equal(result, nms_reference(boxes, 0.5))


@pytest.mark.parametrize(
    "shape, message", [((4,), "must be a 2-D tensor \\[num_boxes, 4\\]"), ((3, 5), "got dims")]
)
def test_bad_boxes_are_refused_naming_the_argument(shape, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match="nms\\(\\): argument 'x' .*" + message):
        phi.nms(phi.to_tensor(np.zeros(shape, np.float32)), 0.5)
