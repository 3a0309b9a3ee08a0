"""yolo_box, prior_box and box_coder: every registered dtype against numpy references written
from the definitions (loops over images, anchors, cells and priors), edge cases (no boxes, a
threshold nothing passes, non-contiguous inputs, both decode axes), the results in a static
program, the registrations against PaddlePaddle 3.3.1's, and bad input.
tests/ops/test_detect_paddle.py compares with PaddlePaddle's recorded results."""

from __future__ import annotations

import math

import numpy as np
import pytest

import phiops.generated as phi
import phiops.vision.ops as vision_ops
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.coverage import paddle_data
from tests.ops.op_testing import cpu_dtypes, op_test

D = DataType
TOL = {D.FLOAT32: {"rtol": 2e-5, "atol": 2e-5}, D.FLOAT64: {"rtol": 1e-12, "atol": 1e-12}}


def sigmoid(v: float) -> float:
    return 1.0 / (1.0 + math.exp(-v))


# --- yolo_box ------------------------------------------------------------------------------------


def yolo_reference(x, sizes, anchors, classes, thresh, ratio, clip, scale, iou_aware, factor):
    # the float attributes are float32 in PHI
    scale, factor, thresh = (float(np.float32(v)) for v in (scale, factor, thresh))
    n, _, h, w = x.shape
    an = len(anchors) // 2
    boxes = np.zeros((n, an * h * w, 4))
    scores = np.zeros((n, an * h * w, classes))
    for i in range(n):
        img_h, img_w = float(sizes[i, 0]), float(sizes[i, 1])
        for a in range(an):
            base = an + a * (5 + classes) if iou_aware else a * (5 + classes)
            for k in range(h):
                for l in range(w):
                    conf = sigmoid(x[i, base + 4, k, l])
                    if iou_aware:
                        iou = sigmoid(x[i, a, k, l])
                        conf = conf ** (1 - factor) * iou**factor
                    if conf < thresh:
                        continue
                    bias = -0.5 * (scale - 1)
                    cx = (l + sigmoid(x[i, base, k, l]) * scale + bias) * img_w / w
                    cy = (k + sigmoid(x[i, base + 1, k, l]) * scale + bias) * img_h / h
                    bw = math.exp(x[i, base + 2, k, l]) * anchors[2 * a] * img_w / (ratio * w)
                    bh = math.exp(x[i, base + 3, k, l]) * anchors[2 * a + 1] * img_h / (ratio * h)
                    box = [cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2]
                    if clip:
                        box = [max(box[0], 0), max(box[1], 0)] + [
                            min(box[2], img_w - 1),
                            min(box[3], img_h - 1),
                        ]
                    row = (a * h + k) * w + l
                    boxes[i, row] = box
                    scores[i, row] = [
                        conf * sigmoid(x[i, base + 5 + c, k, l]) for c in range(classes)
                    ]
    return boxes, scores


def yolo_inputs(dtype, n=2, an=3, classes=4, h=3, w=4, iou_aware=False, seed=0):
    rng = np.random.default_rng(seed)
    channels = an * ((6 if iou_aware else 5) + classes)
    x = rng.uniform(-3, 3, size=(n, channels, h, w)).astype(dtype.numpy_dtype)
    sizes = rng.integers(50, 400, size=(n, 2)).astype(np.int32)
    return x, sizes


ANCHORS = [10, 13, 16, 30, 33, 23]


@op_test("yolo_box", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("yolo_box"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize(
    "thresh, clip, scale, iou_aware, factor",
    [(0.3, True, 1.0, False, 0.5), (0.0, False, 1.2, False, 0.5), (0.2, True, 1.05, True, 0.3)],
)
def test_yolo_box_matches_the_reference(dtype, thresh, clip, scale, iou_aware, factor) -> None:
    x, sizes = yolo_inputs(dtype, iou_aware=iou_aware, seed=int(scale * 100))
    boxes, scores = phi.yolo_box(
        phi.to_tensor(x),
        phi.to_tensor(sizes),
        ANCHORS,
        4,
        thresh,
        32,
        clip,
        scale,
        iou_aware,
        factor,
    )
    want_boxes, want_scores = yolo_reference(
        x.astype(np.float64), sizes, ANCHORS, 4, thresh, 32, clip, scale, iou_aware, factor
    )
    assert boxes.dtype is dtype and scores.dtype is dtype
    assert boxes.shape == [2, 36, 4] and scores.shape == [2, 36, 4]
    np.testing.assert_allclose(boxes.numpy(), want_boxes, **TOL[dtype])
    np.testing.assert_allclose(scores.numpy(), want_scores, **TOL[dtype])


def test_registrations_are_paddles() -> None:
    for op in ("yolo_box", "prior_box", "box_coder"):
        ours = sorted(dtype.name.lower() for dtype in cpu_dtypes(op))
        assert ours == sorted(paddle_data()["kernels"][op]), op


@op_test("yolo_box", kind="edge")
def test_yolo_box_edges() -> None:
    # a threshold nothing reaches: all zeros; an empty batch: empty outputs
    x, sizes = yolo_inputs(D.FLOAT32, n=1, an=1, classes=2, h=2, w=2)
    boxes, scores = phi.yolo_box(phi.to_tensor(x), phi.to_tensor(sizes), [4, 5], 2, 1.0, 8)
    assert not boxes.numpy().any() and not scores.numpy().any()
    empty = np.zeros((0, 7, 2, 2), np.float64)
    boxes, scores = phi.yolo_box(
        phi.to_tensor(empty), phi.to_tensor(np.zeros((0, 2), np.int32)), [4, 5], 2, 0.1, 8
    )
    assert boxes.shape == [0, 4, 4] and scores.shape == [0, 4, 2]
    # a non-contiguous head gives what its copy gives
    x, sizes = yolo_inputs(D.FLOAT64, n=1, an=2, classes=1, h=3, w=6)
    strided = phi.to_tensor(x)[:, :, :, ::2]
    got = phi.yolo_box(strided, phi.to_tensor(sizes), ANCHORS[:4], 1, 0.1, 16)
    want = yolo_reference(x[:, :, :, ::2], sizes, ANCHORS[:4], 1, 0.1, 16, True, 1.0, False, 0.5)
    np.testing.assert_allclose(got[0].numpy(), want[0], rtol=1e-12)
    np.testing.assert_allclose(got[1].numpy(), want[1], rtol=1e-12)


def test_yolo_box_in_a_static_program() -> None:
    x, sizes = yolo_inputs(D.FLOAT32)
    phi.enable_static()
    try:
        main = phi.static.Program()
        with phi.static.program_guard(main):
            xv = phi.static.data("x", [None, 27, 3, 4], "float32")
            sv = phi.static.data("s", [None, 2], "int32")
            boxes, scores = vision_ops.yolo_box(xv, sv, ANCHORS, 4, 0.3, 32)
            assert boxes.shape == [-1, 36, 4] and scores.shape == [-1, 36, 4]
        got = phi.static.Executor().run(main, feed={"x": x, "s": sizes}, fetch_list=[boxes, scores])
    finally:
        phi.disable_static()
    want = yolo_reference(x.astype(np.float64), sizes, ANCHORS, 4, 0.3, 32, True, 1.0, False, 0.5)
    np.testing.assert_allclose(got[0], want[0], rtol=2e-5, atol=2e-5)
    np.testing.assert_allclose(got[1], want[1], rtol=2e-5, atol=2e-5)


@pytest.mark.parametrize(
    "x_shape, sizes, kwargs, message",
    [
        ((1, 27, 3, 4), np.ones((1, 2), np.int32), {"anchors": []}, "argument 'anchors'"),
        ((1, 27, 3, 4), np.ones((1, 2), np.int32), {"anchors": [1, 2, 3]}, "argument 'anchors'"),
        ((1, 26, 3, 4), np.ones((1, 2), np.int32), {}, "argument 'x' must have"),
        ((1, 27, 3), np.ones((1, 2), np.int32), {}, "argument 'x' must be a 4-D"),
        ((1, 27, 3, 4), np.ones((2, 2), np.int32), {}, "argument 'img_size'"),
        ((1, 27, 3, 4), np.ones((1, 2), np.int64), {}, "argument 'img_size' must be int32"),
        ((1, 27, 3, 4), np.ones((1, 2), np.int32), {"class_num": 0}, "argument 'class_num'"),
        (
            (1, 30, 3, 4),
            np.ones((1, 2), np.int32),
            {"iou_aware": True, "iou_aware_factor": 2.0},
            "argument 'iou_aware_factor'",
        ),
    ],
)
def test_yolo_box_bad_input(x_shape, sizes, kwargs, message) -> None:
    args = {"anchors": ANCHORS, "class_num": 4, **kwargs}
    with pytest.raises(InvalidArgumentError, match="yolo_box\\(\\): " + message):
        phi.yolo_box(phi.to_tensor(np.zeros(x_shape, np.float32)), phi.to_tensor(sizes), **args)


# --- prior_box -----------------------------------------------------------------------------------


def prior_reference(
    h, w, img_h, img_w, mins, maxs, ratios, variances, flip, clip, steps, offset, order
):
    expanded = [1.0]
    for r in ratios:
        if any(abs(r - e) < 1e-6 for e in expanded):
            continue
        expanded.append(r)
        if flip:
            expanded.append(1 / r)
    step_x, step_y = steps if steps[0] and steps[1] else (img_w / w, img_h / h)
    out = []
    for k in range(h):
        for l in range(w):
            cx, cy = (l + offset) * step_x, (k + offset) * step_y
            cell = []
            for s, low in enumerate(mins):
                shapes = []
                square = [(math.sqrt(low * maxs[s]),) * 2] if maxs else []
                ratio_shapes = [(low * math.sqrt(r), low / math.sqrt(r)) for r in expanded]
                if order:
                    others = [
                        (low * math.sqrt(r), low / math.sqrt(r))
                        for r in expanded
                        if abs(r - 1) >= 1e-6
                    ]
                    shapes = [(low, low)] + square + others
                else:
                    shapes = ratio_shapes + square
                for bw, bh in shapes:
                    cell.append(
                        [
                            (cx - bw / 2) / img_w,
                            (cy - bh / 2) / img_h,
                            (cx + bw / 2) / img_w,
                            (cy + bh / 2) / img_h,
                        ]
                    )
            out.append(cell)
    boxes = np.array(out).reshape(h, w, -1, 4)
    if clip:
        boxes = np.clip(boxes, 0, 1)
    return boxes, np.broadcast_to(np.array(variances), boxes.shape)


PRIOR_CASES = [
    (3, 4, 300, 300, [30.0, 60.0], [60.0, 111.0], [2.0, 3.0], True, True, (0.0, 0.0), 0.5, False),
    (2, 3, 64, 96, [8.0], [20.0], [2.0, 0.5, 1.0], False, False, (16.0, 12.0), 0.25, True),
    (5, 2, 33, 20, [4.0, 10.0], [], [1.0, 1.5, 1.5], True, False, (0.0, 0.0), 0.5, False),
]


@op_test("prior_box", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("prior_box"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("case", range(len(PRIOR_CASES)))
def test_prior_box_matches_the_reference(dtype, case) -> None:
    h, w, img_h, img_w, mins, maxs, ratios, flip, clip, steps, offset, order = PRIOR_CASES[case]
    variances = [0.1, 0.1, 0.2, 0.2]
    feature = phi.to_tensor(np.zeros((1, 2, h, w), dtype.numpy_dtype))
    image = phi.to_tensor(np.zeros((1, 3, img_h, img_w), dtype.numpy_dtype))
    out, var = phi.prior_box(
        feature,
        image,
        mins,
        maxs,
        ratios,
        variances,
        flip,
        clip,
        steps[0],
        steps[1],
        offset,
        order,
    )
    want, want_var = prior_reference(
        h, w, img_h, img_w, mins, maxs, ratios, variances, flip, clip, steps, offset, order
    )
    assert out.dtype is dtype and var.dtype is dtype
    # PHI computes the prior sizes in float32 whatever the dtype
    np.testing.assert_allclose(out.numpy(), want, rtol=2e-6, atol=1e-7)
    np.testing.assert_allclose(var.numpy(), want_var, rtol=1e-7)


@op_test("prior_box", kind="edge")
def test_prior_box_edges_and_the_vision_function() -> None:
    # an empty feature map gives no priors; the vision function's defaults (no flip, no clip)
    feature = phi.to_tensor(np.zeros((1, 2, 0, 3), np.float32))
    image = phi.to_tensor(np.zeros((1, 3, 8, 8), np.float32))
    out, var = phi.prior_box(feature, image, [2.0], variances=[0.1, 0.1, 0.2, 0.2])
    assert out.shape == [0, 3, 1, 4] and var.shape == [0, 3, 1, 4]
    feature = phi.to_tensor(np.zeros((1, 2, 2, 2), np.float64))
    image = phi.to_tensor(np.zeros((1, 3, 10, 10), np.float64))
    out, var = vision_ops.prior_box(feature, image, 4.0, aspect_ratios=2.0)
    want, want_var = prior_reference(
        2, 2, 10, 10, [4.0], [], [2.0], [0.1, 0.1, 0.2, 0.2], False, False, (0.0, 0.0), 0.5, False
    )
    np.testing.assert_allclose(out.numpy(), want, rtol=2e-6, atol=1e-7)
    np.testing.assert_allclose(var.numpy(), want_var)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"min_sizes": []}, "argument 'min_sizes'"),
        ({"max_sizes": [1.0]}, "argument 'max_sizes' must be greater"),
        ({"max_sizes": [10.0, 20.0]}, "argument 'max_sizes' must have"),
        ({"variances": [0.1]}, "argument 'variances'"),
        ({"aspect_ratios": [0.0]}, "argument 'aspect_ratios'"),
    ],
)
def test_prior_box_bad_input(kwargs, message) -> None:
    args = {"min_sizes": [4.0], "variances": [0.1, 0.1, 0.2, 0.2], **kwargs}
    feature = phi.to_tensor(np.zeros((1, 2, 2, 2), np.float32))
    image = phi.to_tensor(np.zeros((1, 3, 8, 8), np.float32))
    with pytest.raises(InvalidArgumentError, match="prior_box\\(\\): " + message):
        phi.prior_box(feature, image, **args)
    with pytest.raises(InvalidArgumentError, match="argument 'input' must be a 4-D"):
        phi.prior_box(phi.to_tensor(np.zeros((2, 2), np.float32)), image, [4.0], [], [], [0.1] * 4)


# --- box_coder -----------------------------------------------------------------------------------


def encode_reference(prior, var, target, normalized):
    k = 0.0 if normalized else 1.0
    out = np.zeros((len(target), len(prior), 4))
    for i, t in enumerate(target):
        for j, p in enumerate(prior):
            pw, ph = p[2] - p[0] + k, p[3] - p[1] + k
            px, py = p[0] + pw / 2, p[1] + ph / 2
            tw, th = t[2] - t[0] + k, t[3] - t[1] + k
            tx, ty = (t[0] + t[2]) / 2, (t[1] + t[3]) / 2
            row = np.array(
                [(tx - px) / pw, (ty - py) / ph, math.log(abs(tw / pw)), math.log(abs(th / ph))]
            )
            out[i, j] = row / (
                var[j] if var is not None and np.ndim(var) == 2 else (var if var is not None else 1)
            )
    return out


def decode_reference(prior, var, target, normalized, axis):
    k = 0.0 if normalized else 1.0
    out = np.zeros(target.shape)
    for i in range(target.shape[0]):
        for j in range(target.shape[1]):
            m = j if axis == 0 else i
            p, t = prior[m], target[i, j]
            v = (
                var[m]
                if var is not None and np.ndim(var) == 2
                else (var if var is not None else [1] * 4)
            )
            pw, ph = p[2] - p[0] + k, p[3] - p[1] + k
            px, py = p[0] + pw / 2, p[1] + ph / 2
            cx, cy = v[0] * t[0] * pw + px, v[1] * t[1] * ph + py
            w, h = math.exp(v[2] * t[2]) * pw, math.exp(v[3] * t[3]) * ph
            out[i, j] = [cx - w / 2, cy - h / 2, cx + w / 2 - k, cy + h / 2 - k]
    return out


def corners(count, dtype, rng):
    c = rng.uniform(0, 1, size=(count, 2, 2))
    return np.concatenate([c.min(1), c.max(1) + 0.05], 1).astype(dtype)


@op_test("box_coder", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("box_coder"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("variance", ["tensor", "list", "none"])
@pytest.mark.parametrize("normalized", [True, False])
def test_box_coder_encode_matches_the_reference(dtype, variance, normalized) -> None:
    rng = np.random.default_rng(7)
    prior, target = corners(5, dtype.numpy_dtype, rng), corners(3, dtype.numpy_dtype, rng)
    var_t = rng.uniform(0.1, 0.3, size=(5, 4)).astype(dtype.numpy_dtype)
    var = {"tensor": var_t, "list": np.float32([0.1, 0.1, 0.2, 0.2]), "none": None}[variance]
    out = phi.box_coder(
        phi.to_tensor(prior),
        phi.to_tensor(var_t) if variance == "tensor" else None,
        phi.to_tensor(target),
        "encode_center_size",
        normalized,
        0,
        [0.1, 0.1, 0.2, 0.2] if variance == "list" else [],
    )
    want = encode_reference(prior.astype(np.float64), var, target.astype(np.float64), normalized)
    assert out.dtype is dtype and out.shape == [3, 5, 4]
    np.testing.assert_allclose(out.numpy(), want, **TOL[dtype])


@op_test("box_coder", kind="edge")
@pytest.mark.parametrize("dtype", cpu_dtypes("box_coder"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("variance", ["tensor", "list", "none"])
def test_box_coder_decode_matches_the_reference(dtype, axis, variance) -> None:
    rng = np.random.default_rng(8 + axis)
    prior = corners(4, dtype.numpy_dtype, rng)
    shape = (3, 4, 4) if axis == 0 else (4, 3, 4)
    target = rng.uniform(-1, 1, size=shape).astype(dtype.numpy_dtype)
    var_t = rng.uniform(0.1, 0.3, size=(4, 4)).astype(dtype.numpy_dtype)
    var = {"tensor": var_t, "list": np.float32([0.1, 0.1, 0.2, 0.2]), "none": None}[variance]
    prior_box_var = phi.to_tensor(var_t) if variance == "tensor" else [0.1, 0.1, 0.2, 0.2]
    if variance == "none":
        out = phi.box_coder(
            phi.to_tensor(prior), None, phi.to_tensor(target), "decode_center_size", False, axis, []
        )
    else:
        # through paddle.vision.ops.box_coder (a tensor or a list of variances)
        out = vision_ops.box_coder(
            phi.to_tensor(prior),
            prior_box_var,
            phi.to_tensor(target),
            "decode_center_size",
            False,
            axis,
        )
    want = decode_reference(prior.astype(np.float64), var, target.astype(np.float64), False, axis)
    assert out.shape == list(shape)
    np.testing.assert_allclose(out.numpy(), want, **TOL[dtype])


def test_box_coder_empty_and_non_contiguous() -> None:
    rng = np.random.default_rng(9)
    prior = corners(4, np.float64, rng)
    out = phi.box_coder(phi.to_tensor(prior), None, phi.to_tensor(np.zeros((0, 4))))
    assert out.shape == [0, 4, 4]
    wide = np.concatenate([prior, prior], axis=0)
    target = corners(2, np.float64, rng)
    out = phi.box_coder(phi.to_tensor(wide)[::2], None, phi.to_tensor(target))
    np.testing.assert_allclose(out.numpy(), encode_reference(wide[::2], None, target, True))


@pytest.mark.parametrize(
    "prior_shape, target_shape, kwargs, message",
    [
        ((4, 3), (2, 4), {}, "argument 'prior_box'"),
        ((4, 4), (2, 5), {}, "argument 'target_box' must be a 2-D"),
        (
            (4, 4),
            (2, 3, 4),
            {"code_type": "decode_center_size"},
            "argument 'target_box' must be a 3-D",
        ),
        ((4, 4), (2, 4, 4), {"code_type": "decode_center_size", "axis": 2}, "argument 'axis'"),
        ((4, 4), (2, 4), {"code_type": "encode"}, "argument 'code_type'"),
        ((4, 4), (2, 4), {"variance": [0.1, 0.2]}, "argument 'variance'"),
    ],
)
def test_box_coder_bad_input(prior_shape, target_shape, kwargs, message) -> None:
    prior = phi.to_tensor(np.ones(prior_shape, np.float32))
    target = phi.to_tensor(np.ones(target_shape, np.float32))
    with pytest.raises(InvalidArgumentError, match="box_coder\\(\\): " + message):
        phi.box_coder(prior, None, target, **kwargs)
    with pytest.raises(InvalidArgumentError, match="argument 'prior_box_var'"):
        vision_ops.box_coder(prior, 0.1, target)
