"""The detection ops of issue 24 (box_clip, bipartite_match, matrix_nms, ...): every registered
dtype against numpy references written from PaddlePaddle 3.3.1's CPU kernels, the registrations
against PaddlePaddle's, edges (empty inputs, NaN, borders, ties broken as documented, 130 rows
and more), bad input, and the paddle.vision.ops functions. tests/ops/test_detect24_paddle.py
compares PaddlePaddle 3.3.1's recorded results."""

from __future__ import annotations

import math

import numpy as np
import pytest

import phiops
import phiops._C_ops as C
import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.coverage import paddle_data
from phiops.vision import ops as vision_ops
from tests.ops.op_testing import cpu_dtypes, op_test

D = DataType
OPS = ("box_clip", "bipartite_match", "matrix_nms", "generate_proposals", "collect_fpn_proposals")
OPS += ("psroi_pool", "affine_channel")
GRADS: tuple[str, ...] = ("psroi_pool_grad", "affine_channel_grad")


def t(values, dtype=None) -> phiops.Tensor:
    return phi.to_tensor(np.asarray(values, dtype))


def test_registrations_are_paddles() -> None:
    kernels = paddle_data()["kernels"]
    for op in OPS + GRADS:
        assert sorted(d.name.lower() for d in cpu_dtypes(op)) == sorted(kernels[op]), op


# -- box_clip -----------------------------------------------------------------------------------


def box_clip_reference(boxes: np.ndarray, im_info: np.ndarray) -> np.ndarray:
    """PHI's ClipTiledBoxes per image, the images owning equal runs of the first dimension."""
    images = im_info.shape[0]
    out = boxes.reshape(images, -1).copy()
    for i, (height, width, scale) in enumerate(im_info.tolist()):
        limits = []
        for extent in (width / scale, height / scale):
            limits.append(math.floor(extent + 0.5) - 1.0)
        for k in range(out.shape[1]):
            bound = limits[k % 2]
            value = out[i, k]
            out[i, k] = max(min(value, bound), 0.0) if not math.isnan(value) else value
    return out.reshape(boxes.shape)


@op_test("box_clip", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("box_clip"), ids=lambda d: d.name.lower())
def test_box_clip_matches_numpy(dtype: DataType) -> None:
    rng = np.random.default_rng(0)
    boxes = rng.uniform(-10.0, 60.0, (3, 4, 4)).astype(dtype.numpy_dtype)
    im_info = np.array([[20, 30, 1], [45, 25, 2], [9, 9, 0.5]], dtype.numpy_dtype)
    got = C.box_clip(t(boxes), t(im_info))
    assert got.numpy().dtype == dtype.numpy_dtype
    np.testing.assert_array_equal(got.numpy(), box_clip_reference(boxes, im_info))
    flat = boxes.reshape(12, 4)
    np.testing.assert_array_equal(
        C.box_clip(t(flat), t(im_info)).numpy(), box_clip_reference(flat, im_info)
    )


@op_test("box_clip", kind="edge")
def test_box_clip_edges() -> None:
    # half scales round away from zero (12.5 -> 13), NaN stays, empty inputs, non-contiguous
    boxes = np.array([[-1.0, 100.0, 12.2, 12.7], [np.nan, 3.0, 4.0, np.nan]], np.float32)
    im_info = np.array([[25.0, 25.0, 2.0]], np.float32)
    got = C.box_clip(t(boxes), t(im_info)).numpy()
    np.testing.assert_array_equal(got[0], [0.0, 12.0, 12.0, 12.0])
    assert np.isnan(got[1, 0]) and np.isnan(got[1, 3]) and got[1, 1] == 3.0
    empty = C.box_clip(t(np.zeros((0, 4), np.float64)), t(np.ones((2, 3), np.float64)))
    assert empty.shape == [0, 4]
    wide = np.random.default_rng(1).uniform(-5, 40, (4, 8)).astype(np.float64)
    strided = t(wide)[:, ::2]
    info = np.array([[10.0, 20.0, 1.0], [30.0, 30.0, 3.0]])
    np.testing.assert_array_equal(
        C.box_clip(strided, t(info)).numpy(), box_clip_reference(wide[:, ::2].copy(), info)
    )
    with pytest.raises(InvalidArgumentError, match="split evenly"):
        C.box_clip(t(np.zeros((3, 4), np.float32)), t(np.ones((2, 3), np.float32)))
    with pytest.raises(InvalidArgumentError, match="'input'"):
        C.box_clip(t(np.zeros((3, 5), np.float32)), t(np.ones((1, 3), np.float32)))
    with pytest.raises(InvalidArgumentError, match="'im_info'"):
        C.box_clip(t(np.zeros((3, 4), np.float32)), t(np.ones((1, 2), np.float32)))
    with pytest.raises(InvalidArgumentError, match="dtype"):
        C.box_clip(t(np.zeros((3, 4), np.float32)), t(np.ones((1, 3), np.float64)))


# -- bipartite_match ----------------------------------------------------------------------------


def bipartite_reference(dist: np.ndarray, match_type: str, threshold: float):
    """PHI's BipartiteMatch (its scan below 130 rows, its sort from there) and ArgMaxMatch,
    written as its loops."""
    rows, cols = dist.shape
    eps = dist.dtype.type(1e-6)
    indices = [-1] * cols
    matched = [0.0] * cols
    if rows >= 130:
        pairs = sorted(
            ((dist[i, j], i, j) for i in range(rows) for j in range(cols)),
            key=lambda p: -p[0],
        )
        used, count = set(), 0
        for value, i, j in pairs:
            if count >= rows:
                break
            if indices[j] == -1 and i not in used and value > 0:
                indices[j], matched[j] = i, value
                used.add(i)
                count += 1
    else:
        pool = list(range(rows))
        while pool:
            best, best_row, best_value = -1, -1, -1.0
            for j in range(cols):
                if indices[j] != -1:
                    continue
                for m in pool:
                    if dist[m, j] < eps:
                        continue
                    if dist[m, j] > best_value:
                        best, best_row, best_value = j, m, dist[m, j]
            if best == -1:
                break
            indices[best], matched[best] = best_row, best_value
            pool.remove(best_row)
    if match_type == "per_prediction":
        for j in range(cols):
            if indices[j] != -1:
                continue
            best_row, best_value = -1, -1.0
            for i in range(rows):
                value = dist[i, j]
                if value >= eps and value >= threshold and value > best_value:
                    best_row, best_value = i, value
            if best_row != -1:
                indices[j], matched[j] = best_row, best_value
    return np.array([indices], np.int32), np.array([matched], dist.dtype)


@op_test("bipartite_match", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("bipartite_match"), ids=lambda d: d.name.lower())
def test_bipartite_match_matches_numpy(dtype: DataType) -> None:
    rng = np.random.default_rng(2)
    for shape in ((4, 6), (6, 3), (131, 4)):
        dist = rng.uniform(0.0, 1.0, shape).astype(dtype.numpy_dtype)
        for match_type in ("bipartite", "per_prediction"):
            indices, matched = C.bipartite_match(t(dist), match_type, 0.4)
            want_indices, want_matched = bipartite_reference(dist, match_type, 0.4)
            assert indices.dtype == phi.to_tensor(np.zeros(1, np.int32)).dtype
            np.testing.assert_array_equal(indices.numpy(), want_indices)
            np.testing.assert_array_equal(matched.numpy(), want_matched)


@op_test("bipartite_match", kind="edge")
def test_bipartite_match_edges() -> None:
    # ties go to the first column, then the first row; distances below 1e-6 never match
    dist = np.array([[0.5, 0.5], [0.5, 1e-7]], np.float32)
    indices, matched = C.bipartite_match(t(dist), "bipartite", 0.5)
    np.testing.assert_array_equal(indices.numpy(), [[0, -1]])
    np.testing.assert_array_equal(matched.numpy(), np.array([[0.5, 0.0]], np.float32))
    indices, _ = C.bipartite_match(t(dist), "per_prediction", 0.1)
    np.testing.assert_array_equal(indices.numpy(), [[0, 0]])
    ties, _ = C.bipartite_match(t(np.full((2, 2), 0.5, np.float32)), "bipartite", 0.5)
    np.testing.assert_array_equal(ties.numpy(), [[0, 1]])
    zeros, _ = C.bipartite_match(t(np.zeros((2, 3))), "per_prediction", 0.0)
    np.testing.assert_array_equal(zeros.numpy(), [[-1, -1, -1]])
    nan, _ = C.bipartite_match(t(np.array([[np.nan, 0.3]])), "per_prediction", 0.1)
    np.testing.assert_array_equal(nan.numpy(), [[-1, 0]])
    empty, empty_dist = C.bipartite_match(t(np.zeros((0, 3))), "bipartite", 0.5)
    assert empty.shape == [1, 3] and empty_dist.numpy().tolist() == [[0.0, 0.0, 0.0]]
    strided = np.random.default_rng(3).uniform(0, 1, (3, 8))
    np.testing.assert_array_equal(
        C.bipartite_match(t(strided)[:, ::2], "bipartite", 0.5)[0].numpy(),
        bipartite_reference(strided[:, ::2].copy(), "bipartite", 0.5)[0],
    )
    with pytest.raises(InvalidArgumentError, match="'match_type'"):
        C.bipartite_match(t(strided), "greedy", 0.5)
    with pytest.raises(InvalidArgumentError, match="'dist_mat'"):
        C.bipartite_match(t(np.zeros((2, 2, 2))), "bipartite", 0.5)


# -- matrix_nms ---------------------------------------------------------------------------------


def _iou(a, b, normalized: bool):
    if b[0] > a[2] or b[2] < a[0] or b[1] > a[3] or b[3] < a[1]:
        return 0.0
    norm = 0.0 if normalized else 1.0

    def area(box):
        if box[2] < box[0] or box[3] < box[1]:
            return 0.0
        return (box[2] - box[0] + norm) * (box[3] - box[1] + norm)

    w = min(a[2], b[2]) - max(a[0], b[0]) + norm
    h = min(a[3], b[3]) - max(a[1], b[1]) + norm
    return w * h / (area(a) + area(b) - w * h)


def matrix_nms_reference(boxes, scores, score_threshold, top_k, keep_top_k, post_threshold,
                         gaussian, sigma, background, normalized):  # fmt: skip
    """PHI's MultiClassMatrixNMS per image, in float64 (ties: none in the inputs used)."""
    rows, index, counts = [], [], []
    images, classes, m = scores.shape
    for n in range(images):
        found = []
        for c in range(classes):
            if c == background:
                continue
            s = scores[n, c].astype(np.float64)
            order = sorted((i for i in range(m) if s[i] > score_threshold), key=lambda i: -s[i])
            if top_k > -1:
                order = order[:top_k]
            b = boxes[n].astype(np.float64)
            ious = [[_iou(b[order[i]], b[order[j]], normalized) for j in range(i)]
                    for i in range(len(order))]  # fmt: skip
            max_iou = [max([0.0] + row) for row in ious]
            for i, box in enumerate(order):
                decay = 1.0
                for j in range(i):
                    if gaussian:
                        d = math.exp((max_iou[j] ** 2 - ious[i][j] ** 2) * sigma)
                    else:
                        d = (1 - ious[i][j]) / (1 - max_iou[j])
                    decay = min(decay, d)
                if decay * s[box] > post_threshold:
                    found.append((decay * s[box], c, box))
        found.sort(key=lambda f: -f[0])
        if keep_top_k > -1:
            found = found[:keep_top_k]
        for score, c, box in found:
            rows.append([c, score, *boxes[n, box]])
            index.append(n * m + box)
        counts.append(len(found))
    return np.array(rows).reshape(-1, 6), np.array(index).reshape(-1, 1), np.array(counts)


def _nms_inputs(dtype: DataType, seed: int = 4):
    rng = np.random.default_rng(seed)
    corner = rng.uniform(0.0, 0.4, (2, 7, 2))
    boxes = np.concatenate([corner, corner + rng.uniform(0.2, 0.6, (2, 7, 2))], axis=2)
    scores = (rng.permutation(2 * 3 * 7) / 50 + 0.05).reshape(2, 3, 7)
    return boxes.astype(dtype.numpy_dtype), scores.astype(dtype.numpy_dtype)


@op_test("matrix_nms", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("matrix_nms"), ids=lambda d: d.name.lower())
def test_matrix_nms_matches_numpy(dtype: DataType) -> None:
    boxes, scores = _nms_inputs(dtype)
    tol = {"rtol": 1e-5} if dtype == D.FLOAT32 else {"rtol": 1e-12}
    for args in (
        (0.1, -1, -1, 0.05, False, 2.0, 0, True),
        (0.1, -1, -1, 0.05, True, 2.0, 0, True),
        (0.2, 3, 5, 0.1, False, 2.0, -1, False),
        (0.05, 4, -1, 0.3, True, 0.5, 2, True),
    ):
        out, index, counts = C.matrix_nms(t(boxes), t(scores), *args)
        want_out, want_index, want_counts = matrix_nms_reference(boxes, scores, *args)
        np.testing.assert_allclose(out.numpy(), want_out, **tol)
        assert out.numpy().dtype == dtype.numpy_dtype
        np.testing.assert_array_equal(index.numpy(), want_index)
        np.testing.assert_array_equal(counts.numpy(), want_counts)
        assert index.numpy().dtype == np.int32 and counts.numpy().dtype == np.int32


@op_test("matrix_nms", kind="edge")
def test_matrix_nms_edges() -> None:
    boxes, scores = _nms_inputs(D.FLOAT32)
    out, index, counts = C.matrix_nms(t(boxes), t(scores), 0.99, -1, -1, 0.0)
    assert out.shape == [0, 6] and index.shape == [0, 1] and counts.numpy().tolist() == [0, 0]
    # a box identical to a kept higher one decays to 0 (linear), never below post_threshold 0
    same = np.array([[[0.1, 0.1, 0.5, 0.5], [0.1, 0.1, 0.5, 0.5]]], np.float32)
    score = np.array([[[0.0, 0.0], [0.9, 0.8]]], np.float32)
    out, _, counts = C.matrix_nms(t(same), t(score), 0.1, -1, -1, 0.0)
    np.testing.assert_allclose(out.numpy(), [[1.0, 0.9, 0.1, 0.1, 0.5, 0.5]])
    empty = C.matrix_nms(t(np.zeros((0, 3, 4), np.float32)), t(np.zeros((0, 2, 3), np.float32)),
                         0.1, -1, -1)  # fmt: skip
    assert empty[0].shape == [0, 6] and empty[2].shape == [0]
    with pytest.raises(InvalidArgumentError, match="'nms_top_k'"):
        C.matrix_nms(t(boxes), t(scores), 0.1, 0, -1)
    with pytest.raises(InvalidArgumentError, match="'scores'"):
        C.matrix_nms(t(boxes), t(scores[0]), 0.1, -1, -1)
    with pytest.raises(InvalidArgumentError, match="'bboxes'"):
        C.matrix_nms(t(boxes[..., :3]), t(scores), 0.1, -1, -1)
    with pytest.raises(InvalidArgumentError, match="agree"):
        C.matrix_nms(t(boxes[:, :5]), t(scores), 0.1, -1, -1)


def test_vision_matrix_nms_returns_paddles_triple() -> None:
    boxes, scores = _nms_inputs(D.FLOAT64)
    out, rois_num, index = vision_ops.matrix_nms(t(boxes), t(scores), 0.1, 0.05, -1, -1)
    assert index is None and rois_num.numpy().sum() == out.shape[0]
    out2, rois_num2, index2 = vision_ops.matrix_nms(
        t(boxes), t(scores), 0.1, 0.05, -1, -1, return_index=True, return_rois_num=False
    )
    assert rois_num2 is None and index2.shape == [out2.shape[0], 1]
    np.testing.assert_array_equal(out.numpy(), out2.numpy())


# -- generate_proposals -------------------------------------------------------------------------


def proposals_reference(scores, deltas, im_shape, anchors, variances, post_top_n, nms_thresh,
                        min_size, pixel_offset):  # fmt: skip
    """PHI's ProposalForOneImage per image, as loops in float64, every anchor decoded (no
    pre_nms_top_n cut)."""
    off = 1.0 if pixel_offset else 0.0
    images = scores.shape[0]
    flat_scores = scores.transpose(0, 2, 3, 1).reshape(images, -1).astype(np.float64)
    flat_deltas = deltas.transpose(0, 2, 3, 1).reshape(images, -1, 4).astype(np.float64)
    flat_anchors = anchors.reshape(-1, 4).astype(np.float64)
    flat_vars = variances.reshape(-1, 4).astype(np.float64)
    rois, probs, counts = [], [], []
    for n in range(images):
        height, width = im_shape[n]
        order = sorted(range(flat_scores.shape[1]), key=lambda i: -flat_scores[n, i])
        boxes, kept_scores = [], []
        for i in order:
            a, d, v = flat_anchors[i], flat_deltas[n, i], flat_vars[i]
            aw, ah = a[2] - a[0] + off, a[3] - a[1] + off
            cx, cy = a[0] + 0.5 * aw + v[0] * d[0] * aw, a[1] + 0.5 * ah + v[1] * d[1] * ah
            bw = math.exp(min(v[2] * d[2], math.log(1000 / 16))) * aw
            bh = math.exp(min(v[3] * d[3], math.log(1000 / 16))) * ah
            box = [cx - bw / 2, cy - bh / 2, cx + bw / 2 - off, cy + bh / 2 - off]
            box = [max(min(c, (width if k % 2 == 0 else height) - off), 0.0)
                   for k, c in enumerate(box)]  # fmt: skip
            w, h = box[2] - box[0] + off, box[3] - box[1] + off
            ok = w >= max(min_size, 1.0) and h >= max(min_size, 1.0)
            if pixel_offset:
                ok = ok and box[0] + w / 2 <= width and box[1] + h / 2 <= height
            if ok:
                boxes.append(box)
                kept_scores.append(flat_scores[n, i])
        if not boxes:
            boxes, kept_scores = [[0.0] * 4], [0.0]
        elif nms_thresh > 0:
            chosen: list[int] = []
            for i in range(len(boxes)):
                if all(_iou(boxes[i], boxes[j], not pixel_offset) <= nms_thresh for j in chosen):
                    chosen.append(i)
            if 0 < post_top_n < len(chosen):
                chosen = chosen[:post_top_n]
            boxes, kept_scores = [boxes[i] for i in chosen], [kept_scores[i] for i in chosen]
        rois += boxes
        probs += kept_scores
        counts.append(len(boxes))
    return np.array(rois).reshape(-1, 4), np.array(probs).reshape(-1, 1), np.array(counts)


def _proposal_inputs(dtype: DataType, seed: int = 6):
    rng = np.random.default_rng(seed)
    ys, xs = np.meshgrid(np.arange(3) * 8.0, np.arange(4) * 8.0, indexing="ij")
    anchors = np.stack(
        [np.stack([xs - s, ys - s, xs + s, ys + s], axis=-1) for s in (3.0, 7.0)], axis=2
    )
    scores = (rng.permutation(2 * 2 * 3 * 4) / 50.0).reshape(2, 2, 3, 4)
    deltas = rng.uniform(-0.5, 0.5, (2, 8, 3, 4))
    variances = np.tile([0.1, 0.1, 0.2, 0.2], (3, 4, 2, 1))
    im_shape = np.array([[22.0, 30.0], [18.0, 26.0]])
    return [a.astype(dtype.numpy_dtype) for a in (scores, deltas, im_shape, anchors, variances)]


@op_test("generate_proposals", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("generate_proposals"), ids=lambda d: d.name.lower())
def test_generate_proposals_matches_numpy(dtype: DataType) -> None:
    inputs = _proposal_inputs(dtype)
    tol = {"rtol": 1e-5, "atol": 1e-4} if dtype == D.FLOAT32 else {"rtol": 1e-12, "atol": 1e-12}
    for post, thresh, min_size, offset in ((-1, 0.5, 0.1, True), (5, 0.7, 2.0, False),
                                           (-1, 0.0, 0.1, True)):  # fmt: skip
        rois, probs, counts = C.generate_proposals(
            *[t(a) for a in inputs], -1, post, thresh, min_size, 1.0, offset
        )
        want = proposals_reference(*inputs, post, thresh, min_size, offset)
        np.testing.assert_array_equal(counts.numpy(), want[2])
        np.testing.assert_allclose(rois.numpy(), want[0], **tol)
        np.testing.assert_allclose(probs.numpy(), want[1], **tol)
        assert rois.numpy().dtype == dtype.numpy_dtype and counts.numpy().dtype == np.int32


@op_test("generate_proposals", kind="edge")
def test_generate_proposals_edges() -> None:
    inputs = [t(a) for a in _proposal_inputs(D.FLOAT64)]
    # an image left with no proposal gives one zero box of score 0
    rois, probs, counts = C.generate_proposals(*inputs, -1, -1, 0.5, 1000.0, 1.0, True)
    assert counts.numpy().tolist() == [1, 1] and not rois.numpy().any() and not probs.numpy().any()
    # pre_nms_top_n keeps the best anchors; post_nms_top_n cuts after NMS
    _, probs, counts = C.generate_proposals(*inputs, 6, 3, 0.9, 0.1, 1.0, False)
    assert counts.numpy().tolist() == [3, 3]
    best = np.sort(inputs[0].numpy().reshape(2, -1), axis=1)[:, ::-1][:, :3]
    np.testing.assert_array_equal(probs.numpy().reshape(2, 3), best)
    with pytest.raises(InvalidArgumentError, match="'bbox_deltas'"):
        C.generate_proposals(inputs[0], inputs[0], *inputs[2:], -1, -1, 0.5, 0.1, 1.0, True)
    with pytest.raises(InvalidArgumentError, match="'anchors'"):
        C.generate_proposals(*inputs[:3], inputs[4][:2], inputs[4], -1, -1, 0.5, 0.1, 1.0, True)
    with pytest.raises(InvalidArgumentError, match="'im_shape'"):
        C.generate_proposals(*inputs[:2], inputs[2][:1], *inputs[3:], -1, -1, 0.5, 0.1, 1.0, True)
    with pytest.raises(InvalidArgumentError, match="return_rois_num"):
        vision_ops.generate_proposals(*inputs)
    rois, _, counts = vision_ops.generate_proposals(*inputs, return_rois_num=True)
    assert rois.shape[0] == counts.numpy().sum()


# -- collect_fpn_proposals ----------------------------------------------------------------------


def _fpn_levels(dtype: DataType):
    rng = np.random.default_rng(11)
    sizes, counts = (4, 3, 5), ((1, 3), (2, 1), (4, 1))
    scores = rng.permutation(sum(sizes)).astype(dtype.numpy_dtype) / 10
    rois, level_scores, start = [], [], 0
    for size in sizes:
        rois.append(rng.uniform(0, 40, (size, 4)).astype(dtype.numpy_dtype))
        level_scores.append(scores[start:start + size].reshape(-1, 1))
        start += size
    nums = [np.array(c, np.int32) for c in counts]
    return rois, level_scores, nums


@op_test("collect_fpn_proposals", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("collect_fpn_proposals"), ids=lambda d: d.name.lower())
def test_collect_fpn_proposals_matches_numpy(dtype: DataType) -> None:
    rois, scores, nums = _fpn_levels(dtype)
    entries = []  # (image, -score, roi) of every roi
    for level_rois, level_scores, level_nums in zip(rois, scores, nums):
        image_of = np.repeat(np.arange(2), level_nums)
        for roi, score, image in zip(level_rois, level_scores[:, 0], image_of):
            entries.append((int(image), float(score), roi))
    for topn in (6, 100):
        best = sorted(entries, key=lambda e: -e[1])[:topn]
        best.sort(key=lambda e: e[0])
        out, counts = C.collect_fpn_proposals(
            [t(r) for r in rois], [t(s) for s in scores], [t(n) for n in nums], topn
        )
        np.testing.assert_array_equal(out.numpy(), np.array([e[2] for e in best]))
        np.testing.assert_array_equal(counts.numpy(), np.bincount([e[0] for e in best], minlength=2))


@op_test("collect_fpn_proposals", kind="edge")
def test_collect_fpn_proposals_edges() -> None:
    rois, scores, nums = _fpn_levels(D.FLOAT32)
    out, counts = C.collect_fpn_proposals([t(r) for r in rois], [t(s) for s in scores], None, 3)
    assert out.shape == [3, 4] and counts.numpy().tolist() == [3]
    # an image keeping nothing counts 0 (PaddlePaddle 3.3.1 leaves its count uninitialised)
    out, counts = C.collect_fpn_proposals(
        [t(r) for r in rois], [t(s) for s in scores], [t(n) for n in nums], 0
    )
    assert out.shape == [0, 4] and counts.numpy().tolist() == [0, 0]
    with pytest.raises(InvalidArgumentError, match="'post_nms_topn'"):
        C.collect_fpn_proposals([t(rois[0])], [t(scores[0])], None, -1)
    with pytest.raises(InvalidArgumentError, match="one tensor per level"):
        C.collect_fpn_proposals([t(r) for r in rois], [t(scores[0])], None, 3)
    with pytest.raises(InvalidArgumentError, match="'multi_level_scores'"):
        C.collect_fpn_proposals([t(rois[0])], [t(scores[1])], None, 3)
    with pytest.raises(InvalidArgumentError, match="summing"):
        C.collect_fpn_proposals([t(rois[0])], [t(scores[0])], [t(np.array([1, 1], np.int32))], 3)


# -- psroi_pool ---------------------------------------------------------------------------------


def psroi_bins_reference(boxes, ph, pw, scale, height, width):
    """PHI's PsroiPoolKernel bins as its loops (C's round: half away from zero): for each box,
    the (h0, h1, w0, w1) pixel range of each bin (i, j)."""
    bins = []
    for box in boxes.astype(np.float64):
        rnd = [math.floor(abs(v) + 0.5) * (1 if v >= 0 else -1) for v in box]
        sw, sh = rnd[0] * scale, rnd[1] * scale
        ew, eh = (rnd[2] + 1) * scale, (rnd[3] + 1) * scale
        bh, bw = max(eh - sh, 0.1) / ph, max(ew - sw, 0.1) / pw
        bins.append(
            {
                (i, j): (
                    min(max(math.floor(i * bh + sh), 0), height),
                    min(max(math.ceil((i + 1) * bh + sh), 0), height),
                    min(max(math.floor(j * bw + sw), 0), width),
                    min(max(math.ceil((j + 1) * bw + sw), 0), width),
                )
                for i in range(ph)
                for j in range(pw)
            }
        )
    return bins


def psroi_reference(x, boxes, counts, ph, pw, channels, scale):
    images = np.repeat(np.arange(len(counts)), counts)
    bins = psroi_bins_reference(boxes, ph, pw, scale, *x.shape[2:])
    out = np.zeros((boxes.shape[0], channels, ph, pw))
    for r, box_bins in enumerate(bins):
        for (i, j), (h0, h1, w0, w1) in box_bins.items():
            if h1 > h0 and w1 > w0:
                for c in range(channels):
                    patch = x[images[r], (c * ph + i) * pw + j, h0:h1, w0:w1]
                    out[r, c, i, j] = patch.sum() / patch.size
    return out


def psroi_grad_reference(x, boxes, counts, g, ph, pw, channels, scale):
    """PHI's PsroiPoolGradKernel as its loops: each bin's gradient over its pixel count, added
    to its pixels."""
    images = np.repeat(np.arange(len(counts)), counts)
    bins = psroi_bins_reference(boxes, ph, pw, scale, *x.shape[2:])
    grad = np.zeros(x.shape)
    for r, box_bins in enumerate(bins):
        for (i, j), (h0, h1, w0, w1) in box_bins.items():
            if h1 > h0 and w1 > w0:
                for c in range(channels):
                    area = (h1 - h0) * (w1 - w0)
                    grad[images[r], (c * ph + i) * pw + j, h0:h1, w0:w1] += g[r, c, i, j] / area
    return grad


def _psroi_inputs(dtype: DataType):
    rng = np.random.default_rng(13)
    x = (rng.integers(-40, 40, (2, 12, 6, 5)) / 16).astype(dtype.numpy_dtype)
    boxes = np.array([[0.4, 0.5, 3.5, 4.5], [1.0, 1.0, 8.0, 9.0], [-2.0, 2.6, 2.0, 2.4],
                      [3.0, 0.0, 3.0, 0.0]], dtype.numpy_dtype)  # fmt: skip
    return x, boxes, np.array([1, 3], np.int32)


@op_test("psroi_pool", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("psroi_pool"), ids=lambda d: d.name.lower())
def test_psroi_pool_matches_numpy(dtype: DataType) -> None:
    x, boxes, counts = _psroi_inputs(dtype)
    for ph, pw, channels, scale in ((2, 2, 3, 1.0), (3, 1, 4, 0.5), (1, 2, 6, 1.0)):
        got = C.psroi_pool(t(x), t(boxes), t(counts), ph, pw, channels, scale)
        assert got.numpy().dtype == dtype.numpy_dtype
        np.testing.assert_allclose(
            got.numpy(), psroi_reference(x, boxes, counts, ph, pw, channels, scale), rtol=1e-6
        )


@op_test("psroi_pool", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("psroi_pool_grad"), ids=lambda d: d.name.lower())
def test_psroi_pool_grad_matches_numpy(dtype: DataType) -> None:
    x, boxes, counts = _psroi_inputs(dtype)
    g = np.random.default_rng(14).uniform(-1, 1, (4, 3, 2, 2)).astype(dtype.numpy_dtype)
    xt = t(x)
    xt.stop_gradient = False
    out = C.psroi_pool(xt, t(boxes), t(counts), 2, 2, 3, 1.0)
    (grad,) = phi.grad([out], [xt], [t(g)])
    assert grad.numpy().dtype == dtype.numpy_dtype
    np.testing.assert_allclose(
        grad.numpy(), psroi_grad_reference(x, boxes, counts, g, 2, 2, 3, 1.0), rtol=1e-5, atol=1e-7
    )


@op_test("psroi_pool", kind="edge")
def test_psroi_pool_edges() -> None:
    x, boxes, counts = _psroi_inputs(D.FLOAT64)
    # a box wholly outside the map gives 0, and no gradient
    far = np.array([[50.0, 50.0, 60.0, 60.0]])
    xt = t(x)
    xt.stop_gradient = False
    out = C.psroi_pool(xt, t(far), t(np.array([1, 0], np.int32)), 2, 2, 3, 1.0)
    assert not out.numpy().any()
    (grad,) = phi.grad([out.sum()], [xt])
    assert not grad.numpy().any()
    none = C.psroi_pool(t(x), t(np.zeros((0, 4))), t(np.array([0, 0], np.int32)), 2, 2, 3, 1.0)
    assert none.shape == [0, 3, 2, 2]
    strided = t(np.ascontiguousarray(np.repeat(x, 2, axis=3)))[:, :, :, ::2]
    np.testing.assert_array_equal(
        C.psroi_pool(strided, t(boxes), t(counts), 2, 2, 3, 1.0).numpy(),
        C.psroi_pool(t(x), t(boxes), t(counts), 2, 2, 3, 1.0).numpy(),
    )
    with pytest.raises(InvalidArgumentError, match="channels"):
        C.psroi_pool(t(x), t(boxes), t(counts), 2, 2, 2, 1.0)
    with pytest.raises(InvalidArgumentError, match="'boxes_num'"):
        C.psroi_pool(t(x), t(boxes), None, 2, 2, 3, 1.0)
    with pytest.raises(InvalidArgumentError, match="'boxes_num'"):
        C.psroi_pool(t(x), t(boxes), t(np.array([4], np.int32)), 2, 2, 3, 1.0)
    with pytest.raises(InvalidArgumentError, match="'spatial_scale'"):
        C.psroi_pool(t(x), t(boxes), t(counts), 2, 2, 3, 0.0)
    layer = vision_ops.PSRoIPool(2, 1.0)
    np.testing.assert_array_equal(
        layer(t(x), t(boxes), t(counts)).numpy(),
        vision_ops.psroi_pool(t(x), t(boxes), t(counts), (2, 2)).numpy(),
    )


# -- affine_channel -----------------------------------------------------------------------------


@op_test("affine_channel", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("affine_channel"), ids=lambda d: d.name.lower())
def test_affine_channel_matches_numpy(dtype: DataType) -> None:
    rng = np.random.default_rng(16)
    x = rng.uniform(-2, 2, (2, 3, 4, 5)).astype(dtype.numpy_dtype)
    scale3, bias3 = (rng.uniform(-1, 1, 3).astype(dtype.numpy_dtype) for _ in range(2))
    scale5, bias5 = (rng.uniform(-1, 1, 5).astype(dtype.numpy_dtype) for _ in range(2))
    got = C.affine_channel(t(x), t(scale3), t(bias3), "NCHW")
    np.testing.assert_array_equal(got.numpy(), x * scale3[:, None, None] + bias3[:, None, None])
    for layout in ("NHWC", "AnyLayout"):
        got = C.affine_channel(t(x), t(scale5), t(bias5), layout)
        np.testing.assert_array_equal(got.numpy(), x * scale5 + bias5)


@op_test("affine_channel", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("affine_channel_grad"), ids=lambda d: d.name.lower())
def test_affine_channel_grad_matches_numpy(dtype: DataType) -> None:
    rng = np.random.default_rng(17)
    x = rng.uniform(-2, 2, (2, 3, 4)).astype(dtype.numpy_dtype)
    scale, bias = (rng.uniform(-1, 1, 3).astype(dtype.numpy_dtype) for _ in range(2))
    g = rng.uniform(-1, 1, x.shape).astype(dtype.numpy_dtype)
    inputs = [t(x), t(scale), t(bias)]
    for tensor in inputs:
        tensor.stop_gradient = False
    out = C.affine_channel(*inputs, "NCHW")
    grads = phi.grad([out], inputs, [t(g)])
    rtol = 1e-5 if dtype == D.FLOAT32 else 1e-12
    np.testing.assert_allclose(grads[0].numpy(), g * scale[:, None], rtol=rtol)
    np.testing.assert_allclose(grads[1].numpy(), (g * x).sum(axis=(0, 2)), rtol=rtol)
    np.testing.assert_allclose(grads[2].numpy(), g.sum(axis=(0, 2)), rtol=rtol)


@op_test("affine_channel", kind="edge")
def test_affine_channel_edges() -> None:
    scale, bias = t(np.array([2.0, 3.0])), t(np.array([1.0, -1.0]))
    empty = C.affine_channel(t(np.zeros((0, 2, 3))), scale, bias, "NCHW")
    assert empty.shape == [0, 2, 3]
    two_d = C.affine_channel(t(np.array([[1.0, 1.0], [np.nan, np.inf]])), scale, bias, "NCHW")
    np.testing.assert_array_equal(two_d.numpy(), [[3.0, 2.0], [np.nan, np.inf]])
    wide = np.arange(12.0).reshape(2, 6)
    np.testing.assert_array_equal(
        C.affine_channel(t(wide)[:, ::3], scale, bias, "NHWC").numpy(),
        wide[:, ::3] * [2.0, 3.0] + [1.0, -1.0],
    )
    with pytest.raises(InvalidArgumentError, match="'data_layout'"):
        C.affine_channel(t(wide), scale, bias, "NCWH")
    with pytest.raises(InvalidArgumentError, match="'scale'"):
        C.affine_channel(t(wide), scale, bias, "NHWC")
    with pytest.raises(InvalidArgumentError, match="'x'"):
        C.affine_channel(t(np.zeros(2)), scale, bias, "NCHW")
    with pytest.raises(InvalidArgumentError, match="'bias'"):
        C.affine_channel(t(np.zeros((1, 2))), scale, t(np.zeros(2, np.float32)), "NCHW")
