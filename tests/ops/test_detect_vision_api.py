"""phiops.vision.ops (paddle.vision.ops): nms with and without scores and categories, roi_align
and roi_pool with an int or pair output_size, and their layers, against numpy references and
the ops they call. tests/parity/test_detect_paddle_parity.py compares them with PaddlePaddle."""

from __future__ import annotations

import numpy as np
import pytest

import phiops as paddle
import phiops.generated as phi
import phiops.vision.ops as ops
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.nn.layer import Layer
from tests.ops.test_detect_nms import nms_reference

RNG = np.random.default_rng(61)
CORNERS = RNG.uniform(0, 10, size=(25, 2, 2))
BOXES = np.concatenate([CORNERS.min(1), CORNERS.max(1)], 1).astype(np.float32)
SCORES = (RNG.permutation(25) / 25).astype(np.float32)
LABELS = RNG.integers(0, 3, size=25)


def test_paddle_vision_ops_is_reachable_as_in_paddle() -> None:
    import phiops.vision

    assert phiops.vision.ops is ops
    # PaddlePaddle 3.3.1's sorted(paddle.vision.ops.__all__), all of it
    assert sorted(ops.__all__) == [
        *("DeformConv2D", "PSRoIPool", "RoIAlign", "RoIPool", "box_coder", "decode_jpeg"),
        *("deform_conv2d", "distribute_fpn_proposals", "generate_proposals", "matrix_nms"),
        *("nms", "prior_box", "psroi_pool", "read_file", "roi_align", "roi_pool", "yolo_box"),
        "yolo_loss",
    ]


def test_nms_without_scores_is_the_op() -> None:
    out = ops.nms(paddle.to_tensor(BOXES), 0.4)
    np.testing.assert_array_equal(out.numpy(), nms_reference(BOXES, 0.4))


def test_nms_with_scores_suppresses_by_descending_score() -> None:
    order = np.argsort(-SCORES, kind="stable")
    expected = order[nms_reference(BOXES[order], 0.4)]
    out = ops.nms(paddle.to_tensor(BOXES), 0.4, paddle.to_tensor(SCORES))
    np.testing.assert_array_equal(out.numpy(), expected)


@pytest.mark.parametrize("top_k", [None, 4])
def test_nms_with_categories_suppresses_within_each(top_k) -> None:
    kept = []
    for category in (0, 1, 2):
        members = np.flatnonzero(LABELS == category)
        order = members[np.argsort(-SCORES[members], kind="stable")]
        kept.extend(order[nms_reference(BOXES[order], 0.4)])
    expected = sorted(kept, key=lambda i: -SCORES[i])[:top_k]
    out = ops.nms(
        paddle.to_tensor(BOXES),
        0.4,
        paddle.to_tensor(SCORES),
        paddle.to_tensor(LABELS),
        [0, 1, 2],
        top_k,
    )
    np.testing.assert_array_equal(out.numpy(), expected)


def test_nms_with_categories_needs_their_list_and_a_top_k_within_the_boxes() -> None:
    boxes, scores, labels = (paddle.to_tensor(a) for a in (BOXES, SCORES, LABELS))
    with pytest.raises(InvalidArgumentError, match="'categories' is required"):
        ops.nms(boxes, 0.4, scores, labels)
    with pytest.raises(InvalidArgumentError, match="'top_k' \\(26\\) must not exceed"):
        ops.nms(boxes, 0.4, scores, labels, [0, 1], 26)


def _roi_inputs():
    x = paddle.to_tensor(RNG.uniform(-1, 1, size=(2, 3, 7, 8)))
    boxes = paddle.to_tensor(np.array([[0.4, 0.7, 5.2, 4.1], [1.5, 0.0, 3.5, 6.8], [1, 2, 5, 6.0]]))
    return x, boxes, paddle.to_tensor(np.array([2, 1], np.int32))


def test_roi_functions_take_an_int_or_a_pair_and_call_the_ops() -> None:
    x, boxes, counts = _roi_inputs()
    np.testing.assert_array_equal(
        ops.roi_align(x, boxes, counts, 3, 0.5).numpy(),
        phi.roi_align(x, boxes, counts, 3, 3, 0.5, -1, True).numpy(),
    )
    np.testing.assert_array_equal(
        ops.roi_pool(x, boxes, counts, (2, 4)).numpy(),
        phi.roi_pool(x, boxes, counts, 2, 4, 1.0).numpy(),
    )
    with pytest.raises(InvalidArgumentError, match="roi_pool\\(\\): argument 'output_size'"):
        ops.roi_pool(x, boxes, counts, (1, 2, 3))


def test_roi_layers_are_layers_calling_the_functions() -> None:
    x, boxes, counts = _roi_inputs()
    align = ops.RoIAlign((2, 3), 0.5)
    pool = ops.RoIPool(2)
    assert isinstance(align, Layer) and isinstance(pool, Layer)
    np.testing.assert_array_equal(
        align(x, boxes, counts, aligned=False).numpy(),
        ops.roi_align(x, boxes, counts, (2, 3), 0.5, aligned=False).numpy(),
    )
    np.testing.assert_array_equal(
        pool(x, boxes, counts).numpy(), ops.roi_pool(x, boxes, counts, 2).numpy()
    )


def test_yolo_box_is_the_op_with_paddles_argument_order() -> None:
    x = paddle.to_tensor(RNG.uniform(-3, 3, size=(1, 14, 2, 3)).astype(np.float32))
    sizes = paddle.to_tensor(np.array([[64, 96]], np.int32))
    boxes, scores = ops.yolo_box(x, sizes, [4, 5, 8, 9], 2, 0.2, 32, False, None, 1.1)
    want = phi.yolo_box(x, sizes, [4, 5, 8, 9], 2, 0.2, 32, False, 1.1)
    np.testing.assert_array_equal(boxes.numpy(), want[0].numpy())
    np.testing.assert_array_equal(scores.numpy(), want[1].numpy())
    with pytest.raises(InvalidArgumentError, match="yolo_box\\(\\): argument 'anchors'"):
        ops.yolo_box(x, sizes, 4, 2, 0.2, 32)


def test_prior_box_takes_numbers_for_lists_and_steps_as_a_pair() -> None:
    feature = paddle.to_tensor(np.zeros((1, 2, 3, 3), np.float32))
    image = paddle.to_tensor(np.zeros((1, 3, 24, 24), np.float32))
    out, var = ops.prior_box(feature, image, 4.0, 9.0, 2.0, flip=True, steps=[8.0, 8.0])
    want = phi.prior_box(
        feature, image, [4.0], [9.0], [2.0], [0.1, 0.1, 0.2, 0.2], True, False, 8.0, 8.0, 0.5, False
    )
    np.testing.assert_array_equal(out.numpy(), want[0].numpy())
    np.testing.assert_array_equal(var.numpy(), want[1].numpy())
    with pytest.raises(InvalidArgumentError, match="prior_box\\(\\): argument 'steps'"):
        ops.prior_box(feature, image, 4.0, steps=[1.0, 2.0, 3.0])


def test_box_coder_takes_a_tensor_or_a_list_of_variances() -> None:
    prior = paddle.to_tensor(np.array([[0, 0, 2, 2], [1, 1, 4, 5]], np.float32))
    target = paddle.to_tensor(np.array([[0.5, 0.5, 3, 3]], np.float32))
    var = paddle.to_tensor(np.full((2, 4), 0.5, np.float32))
    np.testing.assert_array_equal(
        ops.box_coder(prior, var, target).numpy(),
        phi.box_coder(prior, var, target).numpy(),
    )
    np.testing.assert_array_equal(
        ops.box_coder(prior, [0.5] * 4, target, "encode_center_size", False).numpy(),
        phi.box_coder(prior, None, target, "encode_center_size", False, 0, [0.5] * 4).numpy(),
    )
    with pytest.raises(InvalidArgumentError, match="argument 'prior_box_var' must be a tensor"):
        ops.box_coder(prior, [0.5] * 3, target)
