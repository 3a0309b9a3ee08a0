"""The legacy RNN, sequence and detection-loss ops of issue 24 (legacy24 family): gru_unit, ...:
every registered dtype against a numpy reference written here from the ops' definitions, the
registrations against PaddlePaddle 3.3.1's, edges (one row, no rows, no bias, non-contiguous
inputs) and bad input. tests/ops/test_legacy24_paddle.py compares PaddlePaddle 3.3.1's recorded
results."""

from __future__ import annotations

import numpy as np
import pytest

import phiops
import phiops._C_ops as C
import phiops.generated as phi
import phiops.vision.ops as V
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.kernels.coverage import paddle_data
from tests.ops.op_testing import cpu_dtypes, op_test

OPS = ("gru_unit", "im2sequence", "yolo_loss")
GRADS = ("gru_unit_grad", "im2sequence_grad", "yolo_loss_grad")


def t(values, dtype=None) -> phiops.Tensor:
    return phi.to_tensor(np.asarray(values, dtype))


def test_registrations_are_paddles() -> None:
    kernels = paddle_data()["kernels"]
    for op in OPS + GRADS:
        assert sorted(d.name.lower() for d in cpu_dtypes(op)) == sorted(kernels[op]), op


# -- gru_unit -----------------------------------------------------------------------------------

ACTIVATIONS = {
    0: lambda a: a,
    1: lambda a: 1 / (1 + np.exp(-a)),
    2: np.tanh,
    3: lambda a: np.maximum(a, 0),
}


def gru_unit_reference(x, h, w, b, act, gate_act, origin):
    """One GRU step in float64, weight's buffer split as PaddlePaddle reads it."""
    x, h, w = (np.asarray(a, np.float64) for a in (x, h, w))
    d = h.shape[1]
    flat = w.reshape(-1)
    w_ur, w_c = flat[: 2 * d * d].reshape(d, 2 * d), flat[2 * d * d :].reshape(d, d)
    g = x + (0 if b is None else np.asarray(b, np.float64))
    ur = ACTIVATIONS[gate_act](g[:, : 2 * d] + h @ w_ur)
    u, r = ur[:, :d], ur[:, d:]
    c = ACTIVATIONS[act](g[:, 2 * d :] + (r * h) @ w_c)
    return (1 - u) * c + u * h if origin else u * c + (1 - u) * h


def gru_inputs(rows: int, frame: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    return (
        rng.uniform(-1, 1, (rows, 3 * frame)),
        rng.uniform(-1, 1, (rows, frame)),
        rng.uniform(-1, 1, (frame, 3 * frame)),
        rng.uniform(-1, 1, (1, 3 * frame)),
    )


@op_test("gru_unit", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("gru_unit"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("act,gate_act,origin", [(2, 1, False), (3, 0, True), (1, 2, False)])
def test_gru_unit_is_one_gru_step(dtype: DataType, act: int, gate_act: int, origin: bool) -> None:
    x, h, w, b = (a.astype(dtype.numpy_dtype) for a in gru_inputs(4, 3))
    out = C.gru_unit(t(x), t(h), t(w), t(b), act, gate_act, origin)
    assert out.dtype == dtype and out.shape == [4, 3]
    tol = 1e-5 if dtype == DataType.FLOAT32 else 1e-12
    np.testing.assert_allclose(
        out.numpy(), gru_unit_reference(x, h, w, b, act, gate_act, origin), rtol=tol, atol=tol
    )


@op_test("gru_unit", kind="edge")
def test_gru_unit_edges_and_bad_input() -> None:
    x, h, w, b = gru_inputs(2, 2, seed=1)
    # no bias: nothing added; defaults are tanh candidate, sigmoid gates, origin_mode off
    np.testing.assert_allclose(
        C.gru_unit(t(x), t(h), t(w), None).numpy(),
        gru_unit_reference(x, h, w, None, 2, 1, False), rtol=1e-12,
    )  # fmt: skip
    # no rows
    empty = C.gru_unit(t(x[:0]), t(h[:0]), t(w), t(b))
    assert empty.shape == [0, 2]
    # non-contiguous inputs: every other column of wider arrays
    wide = np.repeat(x, 2, axis=1)
    wide_h = np.repeat(h, 2, axis=1)
    got = C.gru_unit(t(wide)[:, ::2], t(wide_h)[:, ::2], t(w), t(b))
    np.testing.assert_allclose(
        got.numpy(), gru_unit_reference(x, h, w, b, 2, 1, False), rtol=1e-12
    )
    # hidden_prev = 0 and zero weights, identity activations: hidden = u * (input_c + b_c)
    z = np.zeros((1, 2))
    got = C.gru_unit(t([[0.0, 0.0, 0.0, 0.0, 1.0, -2.0]]), t(z), t(np.zeros((2, 6))), None, 0, 0)
    np.testing.assert_array_equal(got.numpy(), [[0.0, 0.0]])
    with pytest.raises(InvalidArgumentError, match="gru_unit.*'input' must have 3 \\* D = 6"):
        C.gru_unit(t(x[:, :5]), t(h), t(w), t(b))
    with pytest.raises(InvalidArgumentError, match="gru_unit.*'hidden_prev' must have input's"):
        C.gru_unit(t(x), t(h[:1]), t(w), t(b))
    with pytest.raises(InvalidArgumentError, match="gru_unit.*'weight' must be \\[D, 3 \\* D\\]"):
        C.gru_unit(t(x), t(h), t(w[:, :5]), t(b))
    with pytest.raises(InvalidArgumentError, match="gru_unit.*'bias' must be \\[1, 3 \\* D\\]"):
        C.gru_unit(t(x), t(h), t(w), t(b[:, :5]))
    with pytest.raises(InvalidArgumentError, match="gru_unit.*'activation' must be 0 .identity."):
        C.gru_unit(t(x), t(h), t(w), t(b), 4)
    with pytest.raises(InvalidArgumentError, match="gru_unit.*'gate_activation'"):
        C.gru_unit(t(x), t(h), t(w), t(b), 2, -1)
    with pytest.raises(InvalidArgumentError, match="gru_unit.*'weight' must have the dtype of"):
        C.gru_unit(t(x), t(h), t(w.astype("float32")), t(b))
    with pytest.raises(InvalidArgumentError, match="gru_unit.*'input' must be a 2-D tensor"):
        C.gru_unit(t(x[0]), t(h), t(w), t(b))



# -- im2sequence --------------------------------------------------------------------------------


def im2sequence_reference(x, kernels, strides, paddings, sizes=None):
    """Patches by explicit loops: rows (image, i, j), columns (channel, r, c); pixels outside
    the image read 0. ``sizes``: per image (out_h, out_w), else all from the padded image."""
    n, channels, height, width = x.shape
    kh, kw = kernels
    out_h = (height + paddings[0] + paddings[2] - kh) // strides[0] + 1
    out_w = (width + paddings[1] + paddings[3] - kw) // strides[1] + 1
    rows = []
    for b in range(n):
        oh, ow = sizes[b] if sizes else (out_h, out_w)
        for i in range(oh):
            for j in range(ow):
                row = []
                for ch in range(channels):
                    for r in range(kh):
                        for c in range(kw):
                            y, z = i * strides[0] + r - paddings[0], j * strides[1] + c - paddings[1]
                            inside = 0 <= y < height and 0 <= z < width
                            row.append(x[b, ch, y, z] if inside else 0.0)
                rows.append(row)
    return np.array(rows, x.dtype).reshape(-1, channels * kh * kw)


@op_test("im2sequence", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("im2sequence"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize(
    "kernels,strides,paddings",
    [([2, 2], [1, 1], [0, 0, 0, 0]), ([2, 3], [2, 1], [1, 0, 0, 1]), ([3, 3], [2, 2], [1, 2, 2, 1])],
)
def test_im2sequence_extracts_the_patches(dtype: DataType, kernels, strides, paddings) -> None:
    x = np.random.default_rng(0).uniform(-1, 1, (2, 2, 5, 4)).astype(dtype.numpy_dtype)
    out = C.im2sequence(t(x), None, kernels, strides, paddings)
    assert out.dtype == dtype
    np.testing.assert_array_equal(out.numpy(), im2sequence_reference(x, kernels, strides, paddings))


@op_test("im2sequence", kind="edge")
def test_im2sequence_edges_and_bad_input() -> None:
    x = np.random.default_rng(1).uniform(-1, 1, (2, 2, 5, 4)).astype("float32")
    # y: each image's real size, divided by out_stride and rounded up, counts its positions
    sizes = t([[3, 4], [5, 2]], "float32")
    got = C.im2sequence(t(x), sizes, [2, 2], [1, 2], [1, 0, 0, 1], [1, 1])
    want = im2sequence_reference(x, [2, 2], [1, 2], [1, 0, 0, 1], sizes=[(3, 2), (5, 1)])
    np.testing.assert_array_equal(got.numpy(), want)
    got = C.im2sequence(t(x), sizes, [2, 2], [1, 2], [1, 0, 0, 1], [2, 2])
    want = im2sequence_reference(x, [2, 2], [1, 2], [1, 0, 0, 1], sizes=[(2, 1), (3, 1)])
    np.testing.assert_array_equal(got.numpy(), want)
    # one image: y is ignored, as PaddlePaddle's kernel does
    one = C.im2sequence(t(x[:1]), t([[2, 2]], "float32"), [2, 2])
    np.testing.assert_array_equal(one.numpy(), im2sequence_reference(x[:1], [2, 2], [1, 1], [0] * 4))
    # the kernel as large as the image: one row per image, the image flattened
    whole = C.im2sequence(t(x), None, [5, 4])
    np.testing.assert_array_equal(whole.numpy(), x.reshape(2, -1))
    # no images
    assert C.im2sequence(t(x[:0]), None, [2, 2]).shape == [0, 8]
    # non-contiguous input
    wide = np.repeat(x, 2, axis=3)
    got = C.im2sequence(t(wide)[:, :, :, ::2], None, [2, 2], [1, 1], [1, 1, 1, 1])
    np.testing.assert_array_equal(got.numpy(), im2sequence_reference(x, [2, 2], [1, 1], [1, 1, 1, 1]))
    # the gradient with y for several images fails in PaddlePaddle 3.3.1 too
    leaf = t(x)
    leaf.stop_gradient = False
    out = C.im2sequence(leaf, sizes, [2, 2])
    with pytest.raises(UnimplementedError, match="im2sequence_grad.*with y"):
        phiops.grad([out.sum()], [leaf])
    with pytest.raises(InvalidArgumentError, match="im2sequence.*'x' must be a 4-D tensor"):
        C.im2sequence(t(x[0]), None, [2, 2])
    with pytest.raises(InvalidArgumentError, match="im2sequence.*'kernels' must hold 2 positive"):
        C.im2sequence(t(x), None, [2, 0])
    with pytest.raises(InvalidArgumentError, match="im2sequence.*'strides' must hold 2 positive"):
        C.im2sequence(t(x), None, [2, 2], [1])
    with pytest.raises(InvalidArgumentError, match="im2sequence.*'paddings' must hold 4 non-neg"):
        C.im2sequence(t(x), None, [2, 2], [1, 1], [0, -1, 0, 0])
    with pytest.raises(InvalidArgumentError, match="im2sequence.*'kernels' \\[7, 2\\] must fit"):
        C.im2sequence(t(x), None, [7, 2])
    with pytest.raises(InvalidArgumentError, match="im2sequence.*'y' must be \\[2, 2\\]"):
        C.im2sequence(t(x), t([[3, 4]], "float32"), [2, 2])


# -- yolo_loss ----------------------------------------------------------------------------------


def _sce(x, label):
    return max(x, 0.0) - x * label + np.log(1 + np.exp(-abs(x)))


def _iou(a, b):
    def overlap(c1, w1, c2, w2):
        return min(c1 + w1 / 2, c2 + w2 / 2) - max(c1 - w1 / 2, c2 - w2 / 2)

    w, h = overlap(a[0], a[2], b[0], b[2]), overlap(a[1], a[3], b[1], b[3])
    inter = 0.0 if w < 0 or h < 0 else w * h
    return inter / (a[2] * a[3] + b[2] * b[3] - inter)


def yolo_loss_reference(x, gt_box, gt_label, gt_score, anchors, mask, class_num, thresh, ratio, smooth):
    """YOLOv3's loss by loops over cells and boxes, in float64, from the definition (scale_x_y 1)."""
    x, gt_box = np.asarray(x, np.float64), np.asarray(gt_box, np.float64)
    n, _, h, w = x.shape
    head = x.reshape(n, len(mask), 5 + class_num, h, w)
    size = ratio * h
    sig = lambda v: 1 / (1 + np.exp(-v))  # noqa: E731
    s = min(1.0 / class_num, 1.0 / 40) if smooth else 0.0
    loss = np.zeros(n)
    for i in range(n):
        valid = [t for t in range(gt_box.shape[1]) if gt_box[i, t, 2] >= 1e-6 and gt_box[i, t, 3] >= 1e-6]
        obj = np.zeros((len(mask), h, w))
        for m, row, col in np.ndindex(obj.shape):
            a = head[i, m, :, row, col]
            pred = ((col + sig(a[0])) / h, (row + sig(a[1])) / h,
                    np.exp(a[2]) * anchors[2 * mask[m]] / size, np.exp(a[3]) * anchors[2 * mask[m] + 1] / size)
            if max([_iou(pred, gt_box[i, t]) for t in valid], default=0.0) > thresh:
                obj[m, row, col] = -1
        for t in valid:
            gx, gy, gw, gh = gt_box[i, t]
            score = 1.0 if gt_score is None else float(gt_score[i, t])
            ious = [_iou((0, 0, anchors[2 * k] / size, anchors[2 * k + 1] / size), (0, 0, gw, gh))
                    for k in range(len(anchors) // 2)]
            best = int(np.argmax(ious))
            if best not in mask:
                continue
            m, col, row = mask.index(best), int(gx * w), int(gy * h)
            a = head[i, m, :, row, col]
            weight = (2 - gw * gh) * score
            loss[i] += weight * (_sce(a[0], gx * h - col) + _sce(a[1], gy * h - row))
            loss[i] += weight * (abs(a[2] - np.log(gw * size / anchors[2 * best]))
                                 + abs(a[3] - np.log(gh * size / anchors[2 * best + 1])))
            for c in range(class_num):
                loss[i] += score * _sce(a[5 + c], 1 - s if c == gt_label[i, t] else s)
            obj[m, row, col] = score
        for m, row, col in np.ndindex(obj.shape):
            conf = head[i, m, 4, row, col]
            if obj[m, row, col] > 1e-5:
                loss[i] += _sce(conf, 1.0) * obj[m, row, col]
            elif obj[m, row, col] > -0.5:
                loss[i] += _sce(conf, 0.0)
    return loss  # fmt: skip


YOLO_ANCHORS = [10, 13, 16, 30, 33, 23, 30, 61]
YOLO_BOXES = np.array(
    [[[0.3, 0.4, 0.2, 0.3], [0.7, 0.2, 0.05, 0.05], [0.5, 0.5, 0.0, 0.2]],
     [[0.1, 0.9, 0.3, 0.5], [0.12, 0.88, 0.25, 0.45], [0.6, 0.6, 0.1, 0.15]]]
)  # fmt: skip
YOLO_LABELS = np.array([[0, 2, 1], [1, 1, 0]], "int32")


@op_test("yolo_loss", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("yolo_loss"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("scored,smooth,thresh", [(False, True, 0.7), (True, False, 0.2)])
def test_yolo_loss_is_yolov3s_loss(dtype: DataType, scored: bool, smooth: bool, thresh: float) -> None:
    rng = np.random.default_rng(0)
    mask = [3, 0, 1]
    x = rng.uniform(-2, 2, (2, 3 * 8, 4, 4)).astype(dtype.numpy_dtype)
    boxes = YOLO_BOXES.astype(dtype.numpy_dtype)
    score = rng.uniform(0.2, 1, (2, 3)).astype(dtype.numpy_dtype) if scored else None
    out = V.yolo_loss(
        t(x), t(boxes), t(YOLO_LABELS), YOLO_ANCHORS, mask, 3, thresh, 32,
        gt_score=None if score is None else t(score), use_label_smooth=smooth,
    )  # fmt: skip
    assert out.dtype == dtype and out.shape == [2]
    want = yolo_loss_reference(x, boxes, YOLO_LABELS, score, YOLO_ANCHORS, mask, 3, thresh, 32, smooth)
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-5 if dtype == DataType.FLOAT32 else 1e-12)


@op_test("yolo_loss", kind="edge")
def test_yolo_loss_edges_and_bad_input() -> None:
    rng = np.random.default_rng(1)
    x = rng.uniform(-2, 2, (2, 2 * 7, 2, 2))
    # no valid box (zero sizes): the objectness loss alone, every prediction negative
    empty = np.zeros((2, 1, 4))
    got = C.yolo_loss(t(x), t(empty), t(np.zeros((2, 1), "int32")), None, [10, 13, 16, 30], [0, 1], 2)
    conf = x.reshape(2, 2, 7, 2, 2)[:, :, 4]
    want = (np.maximum(conf, 0) + np.log1p(np.exp(-np.abs(conf)))).reshape(2, -1).sum(axis=1)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)
    # no boxes at all: the same
    got = C.yolo_loss(t(x), t(np.zeros((2, 0, 4))), t(np.zeros((2, 0), "int32")), None,
                      [10, 13, 16, 30], [0, 1], 2)  # fmt: skip
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)
    # a box whose best anchor this head does not predict adds no box or class loss
    far = np.array([[[0.5, 0.5, 0.9, 0.9]], [[0.5, 0.5, 0.9, 0.9]]])
    got = C.yolo_loss(t(x), t(far), t(np.zeros((2, 1), "int32")), None,
                      [10, 13, 16, 30, 60, 60], [0, 1], 2, 1.0)  # fmt: skip
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)
    # non-contiguous head
    wide = np.repeat(x, 2, axis=3)
    boxes = YOLO_BOXES[:, :2].copy()
    labels = YOLO_LABELS[:, :2] % 2
    got = C.yolo_loss(t(wide)[:, :, :, ::2], t(boxes), t(labels), None, [10, 13, 16, 30], [0, 1], 2)
    np.testing.assert_allclose(
        got.numpy(),
        yolo_loss_reference(x, boxes, labels, None, [10, 13, 16, 30], [0, 1], 2, 0.7, 32, True),
        rtol=1e-12,
    )
    ok = (t(x), t(boxes), t(labels), None)
    with pytest.raises(InvalidArgumentError, match="yolo_loss.*'x' must have len.anchor_mask. \\* .5 \\+ class_num. = 16"):
        C.yolo_loss(*ok, [10, 13, 16, 30], [0, 1], 3)
    with pytest.raises(InvalidArgumentError, match="yolo_loss.*'anchors' must hold .width, height. pairs"):
        C.yolo_loss(*ok, [10, 13, 16], [0, 1], 2)
    with pytest.raises(InvalidArgumentError, match="yolo_loss.*'anchor_mask' must hold indices in \\[0, 2\\)"):
        C.yolo_loss(*ok, [10, 13, 16, 30], [0, 2], 2)
    with pytest.raises(InvalidArgumentError, match="yolo_loss.*'gt_label' must be int32"):
        C.yolo_loss(t(x), t(boxes), t(labels.astype("int64")), None, [10, 13, 16, 30], [0, 1], 2)
    with pytest.raises(InvalidArgumentError, match="yolo_loss.*'gt_box' must be \\[2, B, 4\\]"):
        C.yolo_loss(t(x), t(boxes[:1]), t(labels), None, [10, 13, 16, 30], [0, 1], 2)
    with pytest.raises(InvalidArgumentError, match="yolo_loss.*'gt_score' must be \\[2, 2\\]"):
        C.yolo_loss(t(x), t(boxes), t(labels), t(np.ones((2, 3))), [10, 13, 16, 30], [0, 1], 2)
    with pytest.raises(InvalidArgumentError, match="yolo_loss.*'x' must have square feature maps"):
        C.yolo_loss(t(x[:, :, :1]), t(boxes), t(labels), None, [10, 13, 16, 30], [0, 1], 2)
    with pytest.raises(InvalidArgumentError, match="yolo_loss.*'anchors' must be a list or tuple"):
        V.yolo_loss(t(x), t(boxes), t(labels), 10, [0, 1], 2, 0.7, 32)
