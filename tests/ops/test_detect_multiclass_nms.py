"""multiclass_nms3: each registered dtype against a numpy reference written from the op's
definition (per class: threshold, top-k, greedy suppression with the adaptive threshold; per
image: the keep_top_k best), both score layouts, nothing kept, the result in a static program,
the registrations against PaddlePaddle 3.3.1's, and bad input. tests/ops/test_detect_paddle.py
compares with PaddlePaddle's recorded results."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.kernels.coverage import paddle_data
from tests.ops.op_testing import cpu_dtypes, op_test

D = DataType


def overlap(a: np.ndarray, b: np.ndarray, normalized: bool) -> float:
    if b[0] > a[2] or b[2] < a[0] or b[1] > a[3] or b[3] < a[1]:
        return 0.0
    extra = 0.0 if normalized else 1.0

    def area(box: np.ndarray) -> float:
        if box[2] < box[0] or box[3] < box[1]:
            return 0.0
        return (box[2] - box[0] + extra) * (box[3] - box[1] + extra)

    inter = (min(a[2], b[2]) - max(a[0], b[0]) + extra) * (
        min(a[3], b[3]) - max(a[1], b[1]) + extra
    )
    return inter / (area(a) + area(b) - inter)


def reference(boxes, scores, threshold, nms_top_k, keep_top_k, nms_threshold, normalized, eta, bg):
    """Rows (label, score, box) and flat indices for 3-D scores [N, C, M]."""
    rows, index, counts = [], [], []
    for n in range(scores.shape[0]):
        kept = {}
        for c in range(scores.shape[1]):
            if c == bg:
                continue
            candidates = [i for i in range(scores.shape[2]) if scores[n, c, i] > threshold]
            candidates.sort(key=lambda i: -scores[n, c, i])
            if nms_top_k > -1:
                candidates = candidates[:nms_top_k]
            selected, limit = [], nms_threshold
            for i in candidates:
                if all(overlap(boxes[n, i], boxes[n, k], normalized) <= limit for k in selected):
                    selected.append(i)
                    if eta < 1 and limit > 0.5:
                        limit *= eta
            kept[c] = selected
        pairs = [(scores[n, c, i], c, i) for c in sorted(kept) for i in kept[c]]
        if -1 < keep_top_k < len(pairs):
            pairs = sorted(pairs, key=lambda p: -p[0])[:keep_top_k]
            kept = {}
            for _, c, i in pairs:
                kept.setdefault(c, []).append(i)
        before = len(rows)
        for c in sorted(kept):
            for i in kept[c]:
                rows.append([c, scores[n, c, i], *boxes[n, i]])
                index.append(n * scores.shape[2] + i)
        counts.append(len(rows) - before)
    return np.array(rows).reshape(-1, 6), np.array(index).reshape(-1, 1), counts


def sample_inputs(n: int, m: int, c: int, dtype: DataType, seed: int):
    rng = np.random.default_rng(seed)
    corners = rng.uniform(0, 10, size=(n, m, 2, 2))
    boxes = np.concatenate([corners.min(2), corners.max(2)], -1).astype(dtype.numpy_dtype)
    return boxes, rng.uniform(0, 1, size=(n, c, m)).astype(dtype.numpy_dtype)


SETTINGS = [
    (0.3, -1, -1, 0.45, True, 1.0, 0),
    (0.1, 5, 6, 0.3, False, 0.8, -1),
    (0.5, 3, -1, 0.6, True, 1.0, 2),
]


@op_test("multiclass_nms3", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("multiclass_nms3"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("settings", SETTINGS, ids=str)
def test_multiclass_nms3_matches_the_reference_for_each_dtype(dtype, settings) -> None:
    boxes, scores = sample_inputs(2, 14, 3, dtype, seed=51)
    out, index, counts = phi.multiclass_nms3(
        phi.to_tensor(boxes), phi.to_tensor(scores), None, *settings
    )
    rows, flat, expected_counts = reference(boxes, scores, *settings)
    assert out.dtype is dtype and index.dtype is D.INT32 and counts.dtype is D.INT32
    np.testing.assert_allclose(out.numpy(), rows, rtol=1e-6)
    np.testing.assert_array_equal(index.numpy(), flat)
    np.testing.assert_array_equal(counts.numpy(), expected_counts)


def test_2d_scores_take_one_box_per_class_and_rois_num() -> None:
    boxes, scores = sample_inputs(1, 7, 3, D.FLOAT64, seed=52)
    per_class = np.repeat(boxes[0][:, None, :], 3, axis=1)  # [M, C, 4]
    flat_scores = np.ascontiguousarray(scores[0].T)  # [M, C]
    counts = phi.to_tensor(np.array([3, 4], np.int64))
    out, index, nums = phi.multiclass_nms3(
        phi.to_tensor(per_class), phi.to_tensor(flat_scores), counts, 0.2, -1, -1, 0.4
    )
    expected = []
    for start, end in ((0, 3), (3, 7)):
        rows, _, _ = reference(
            boxes[:, start:end], scores[:, :, start:end], 0.2, -1, -1, 0.4, True, 1.0, 0
        )
        expected.append(rows)
    np.testing.assert_array_equal(nums.numpy(), [len(e) for e in expected])
    # 2-D scores list a class's boxes by index rather than by score: compare per class
    for got, want in zip(np.split(out.numpy(), [len(expected[0])]), expected):
        for label in np.unique(want[:, 0]):
            mine = got[got[:, 0] == label]
            theirs = want[want[:, 0] == label]
            assert sorted(map(tuple, mine)) == sorted(map(tuple, theirs))
    positions = index.numpy().ravel()
    np.testing.assert_array_equal(flat_scores.reshape(-1)[positions], out.numpy()[:, 1])


def test_registrations_are_paddles() -> None:
    ours = sorted(dtype.name.lower() for dtype in cpu_dtypes("multiclass_nms3"))
    assert ours == sorted(paddle_data()["kernels"]["multiclass_nms3"])


@op_test("multiclass_nms3", kind="edge")
def test_nothing_above_the_score_threshold_keeps_nothing() -> None:
    boxes, scores = sample_inputs(2, 5, 2, D.FLOAT32, seed=53)
    out, index, counts = phi.multiclass_nms3(
        phi.to_tensor(boxes), phi.to_tensor(scores), None, 1.0, -1, -1
    )
    assert out.shape == [0, 6] and index.shape == [0, 1]
    np.testing.assert_array_equal(counts.numpy(), [0, 0])


def test_multiclass_nms3_in_a_static_program() -> None:
    boxes, scores = sample_inputs(2, 9, 3, D.FLOAT32, seed=54)
    phi.enable_static()
    try:
        main = phi.static.Program()
        with phi.static.program_guard(main):
            b = phi.static.data("b", [None, 9, 4], "float32")
            s = phi.static.data("s", [None, 3, 9], "float32")
            out, index, counts = phi.multiclass_nms3(b, s, None, 0.3, -1, -1, 0.45)
            assert out.shape == [-1, 6] and index.shape == [-1, 1]
        result = phi.static.Executor().run(
            main, feed={"b": boxes, "s": scores}, fetch_list=[out, index, counts]
        )
    finally:
        phi.disable_static()
    rows, flat, nums = reference(boxes, scores, 0.3, -1, -1, 0.45, True, 1.0, 0)
    np.testing.assert_allclose(result[0], rows, rtol=1e-6)
    np.testing.assert_array_equal(result[1], flat)
    np.testing.assert_array_equal(result[2], nums)


@pytest.mark.parametrize(
    "box_shape, score_shape, rois_num, error, message",
    [
        ((2, 5, 4), (2, 3), None, InvalidArgumentError, "'bboxes' and 'scores' must be"),
        ((2, 5, 4), (2, 3, 6), None, InvalidArgumentError, "'bboxes' and 'scores' must be"),
        ((2, 5), (2, 3, 5), None, InvalidArgumentError, "'bboxes' must be 3-D"),
        ((2, 5, 5), (2, 3, 5), None, InvalidArgumentError, "4, 8, 16, 24 or 32 coordinates"),
        ((5, 3, 4), (5, 3), None, InvalidArgumentError, "'rois_num' is required"),
        ((5, 3, 4), (5, 3), [2, 2], InvalidArgumentError, "summing to the number of boxes \\(5\\)"),
        ((2, 5, 8), (2, 3, 5), None, UnimplementedError, "polygons"),
    ],
)
def test_bad_input_is_refused_naming_the_argument(
    box_shape, score_shape, rois_num, error, message
) -> None:
    boxes = phi.to_tensor(np.ones(box_shape, np.float32))
    scores = phi.to_tensor(np.ones(score_shape, np.float32) / 2)
    counts = None if rois_num is None else phi.to_tensor(np.array(rois_num, np.int32))
    with pytest.raises(error, match="multiclass_nms3\\(\\).*" + message):
        phi.multiclass_nms3(boxes, scores, counts, 0.1, -1, -1)


@pytest.mark.parametrize("limit", [0, None], ids=["row-per-kept-box", "overlap-matrix"])
@pytest.mark.parametrize("settings", SETTINGS[:2], ids=["eta-1", "eta-0.8"])
def test_both_greedy_walks_match_the_reference(monkeypatch, limit, settings) -> None:
    """The kernel walks up to _NMS_MATRIX_LIMIT candidates of a class with their overlaps as a
    matrix, more with one overlap row per kept box: both give the reference's boxes (many
    overlapping candidates, some inverted boxes, whose area is 0)."""
    from phiops.runtime.kernels.impl import detect_kernel

    if limit is not None:
        monkeypatch.setattr(detect_kernel, "_NMS_MATRIX_LIMIT", limit)
    boxes, scores = sample_inputs(1, 60, 3, D.FLOAT32, seed=11)
    boxes[0, ::7, 2] = boxes[0, ::7, 0] - 1  # inverted: x2 < x1
    threshold, top_k, keep_top_k, nms_threshold, normalized, eta, bg = settings
    out, index, counts = phi.multiclass_nms3(
        phi.to_tensor(boxes), phi.to_tensor(scores), None,
        threshold, top_k, keep_top_k, nms_threshold, normalized, eta, bg,
    )  # fmt: skip
    rows, expected_index, expected_counts = reference(boxes, scores, *settings)
    np.testing.assert_allclose(out.numpy(), rows.astype("float32"), rtol=1e-6)
    np.testing.assert_array_equal(index.numpy(), expected_index)
    assert counts.numpy().tolist() == expected_counts
