"""Writes tests/data/detect/paddle_3_3_1.json: PaddlePaddle 3.3.1's results and gradients of the
detection ops (grid_sample, roi_align, roi_pool, nms, multiclass_nms3, yolo_box, prior_box,
box_coder) for each dtype PaddlePaddle registers on CPU, with their modes
and edge positions; tests/ops/test_detect_paddle.py compares phiops with them (no PaddlePaddle
needed there).

Each case calls ``paddle._C_ops.<op>(*inputs, *attrs)`` (the op-level function phiops generates
with the same arguments; None for an absent optional input) and, where PaddlePaddle registers a
grad kernel for the dtype, records the gradient of ``sum(out * out_grad)`` for every floating
input.

Run with the side venv: ``/work/paddle-venv/bin/python tests/tools/make_detect_fixtures.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

import numpy as np
import paddle

OUT = Path(__file__).resolve().parents[1] / "data" / "detect" / "paddle_3_3_1.json"
RNG = np.random.default_rng(2031)


def uniform(shape: tuple[int, ...], dtype: str, low: float = -2, high: float = 2) -> np.ndarray:
    return RNG.uniform(low, high, size=shape).astype(dtype)


def half_positions(dtype: str) -> list[np.ndarray]:
    """A [1, 1, 1, 10] input sampled at the pixel positions k + 0.5 (align_corners), where
    rounding half to even and half away from zero differ."""
    x = np.arange(10, dtype=dtype).reshape(1, 1, 1, 10)
    positions = np.array([0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, -0.5, -0.4], dtype)
    gx = positions / dtype_type(dtype)(4.5) - 1
    grid = np.stack([gx, np.zeros_like(gx)], -1).reshape(1, 1, -1, 2)
    return [x, grid.astype(dtype)]


def dtype_type(dtype: str):
    return np.dtype(dtype).type


def grid_case(x_shape: tuple[int, ...], out_spatial: tuple[int, ...], spread: float):
    def make(dtype: str) -> list[np.ndarray]:
        grid_shape = (x_shape[0], *out_spatial, len(x_shape) - 2)
        return [uniform(x_shape, dtype), uniform(grid_shape, dtype, -spread, spread)]

    return make


# (case name, op, inputs for a dtype, attributes)
SPECS: list[tuple[str, str, Callable[[str], list], list]] = []
for mode in ("bilinear", "nearest"):
    for padding in ("zeros", "border", "reflection"):
        for align in (True, False):
            tag = f"{mode}-{padding}-{'aligned' if align else 'not_aligned'}"
            SPECS.append(
                (
                    f"2d-{tag}",
                    "grid_sample",
                    grid_case((2, 3, 4, 5), (3, 4), 1.4),
                    [mode, padding, align],
                )
            )
            SPECS.append(
                (
                    f"3d-{tag}",
                    "grid_sample",
                    grid_case((1, 2, 3, 4, 3), (2, 2, 3), 1.4),
                    [mode, padding, align],
                )
            )
SPECS += [
    ("2d-halves-nearest", "grid_sample", half_positions, ["nearest", "zeros", True]),
    ("2d-halves-bilinear", "grid_sample", half_positions, ["bilinear", "zeros", True]),
    (
        "2d-size1-reflection",
        "grid_sample",
        grid_case((1, 2, 1, 1), (2, 3), 2.0),
        ["bilinear", "reflection", True],
    ),
    (
        "2d-size1-reflection-not_aligned",
        "grid_sample",
        grid_case((1, 2, 1, 3), (2, 3), 2.0),
        ["bilinear", "reflection", False],
    ),
]


def roi_case(
    x_shape: tuple[int, ...],
    counts: list[int],
    extent: float,
    num_dtype: str = "int32",
    outside: bool = False,
):
    """x [N, C, H, W], boxes of (x1, y1, x2, y2) with corners in [0, extent) (some reaching
    outside when ``outside``) and boxes_num."""

    def make(dtype: str) -> list[np.ndarray]:
        total = sum(counts)
        low = -0.3 * extent if outside else 0.0
        high = 1.3 * extent if outside else extent
        corners = RNG.uniform(low, high, size=(total, 2, 2))
        boxes = np.concatenate([corners.min(axis=1), corners.max(axis=1)], axis=1)
        if dtype == "int32":
            x = RNG.integers(-20, 20, size=x_shape).astype(dtype)
            return [x, np.round(boxes).astype(dtype), np.array(counts, num_dtype)]
        return [uniform(x_shape, dtype), boxes.astype(dtype), np.array(counts, num_dtype)]

    return make


SPECS += [
    ("2x3-scale1", "roi_align", roi_case((2, 3, 8, 10), [2, 1], 8.0), [2, 3, 1.0, -1, False]),
    (
        "3x3-scale0.5-ratio2-aligned",
        "roi_align",
        roi_case((2, 2, 6, 7), [1, 3], 12.0),
        [3, 3, 0.5, 2, True],
    ),
    (
        "2x2-outside-int64_num",
        "roi_align",
        roi_case((1, 2, 5, 6), [4], 6.0, "int64", True),
        [2, 2, 1.0, -1, False],
    ),
    (
        "4x3-outside-aligned",
        "roi_align",
        roi_case((2, 1, 7, 5), [2, 2], 7.0, "int32", True),
        [4, 3, 1.0, 0, True],
    ),
    ("1x1-ratio3", "roi_align", roi_case((1, 2, 4, 4), [2], 4.0), [1, 1, 1.0, 3, False]),
    ("2x3-scale1", "roi_pool", roi_case((2, 3, 8, 10), [2, 1], 8.0), [2, 3, 1.0]),
    ("3x3-scale0.5", "roi_pool", roi_case((2, 2, 6, 7), [1, 3], 12.0), [3, 3, 0.5]),
    ("2x2-outside", "roi_pool", roi_case((1, 2, 5, 6), [4], 6.0, "int32", True), [2, 2, 1.0]),
    ("4x5-small", "roi_pool", roi_case((1, 1, 4, 4), [3], 4.0), [4, 5, 1.0]),
]


def nms_case(count: int, extent: float, special: bool = False):
    """``count`` boxes with corners in [0, extent) (many overlapping); with ``special`` also
    empty, inverted and repeated boxes."""

    def make(dtype: str) -> list[np.ndarray]:
        corners = RNG.uniform(0, extent, size=(count, 2, 2))
        boxes = np.concatenate([corners.min(axis=1), corners.max(axis=1)], axis=1)
        if special:
            boxes[1] = boxes[0]
            boxes[2] = [3, 3, 3, 3]
            boxes[3] = [3, 3, 3, 3]
            boxes[4] = boxes[5][[2, 3, 0, 1]]
        return [boxes.astype(dtype)]

    return make


SPECS += [
    ("20-iou0.5", "nms", nms_case(20, 10.0), [0.5]),
    ("30-iou0.3", "nms", nms_case(30, 20.0), [0.3]),
    ("12-iou0", "nms", nms_case(12, 30.0), [0.0]),
    ("12-iou1", "nms", nms_case(12, 5.0), [1.0]),
    ("10-special-iou0.4", "nms", nms_case(10, 8.0, True), [0.4]),
]


def multiclass_case(images: int, boxes: int, classes: int, counts: list[int] | None = None):
    """3-D scores [N, C, M] with bboxes [N, M, 4], or (with ``counts``) 2-D scores [M, C] with
    bboxes [M, C, 4] and rois_num; coordinates in [0, 10), some boxes repeated."""

    def make(dtype: str) -> list:
        if counts is None:
            corners = RNG.uniform(0, 10, size=(images, boxes, 2, 2))
            bboxes = np.concatenate([corners.min(2), corners.max(2)], -1)
            bboxes[:, 1] = bboxes[:, 0]
            scores = RNG.uniform(0, 1, size=(images, classes, boxes))
            return [bboxes.astype(dtype), scores.astype(dtype), None]
        total = sum(counts)
        corners = RNG.uniform(0, 10, size=(total, classes, 2, 2))
        bboxes = np.concatenate([corners.min(2), corners.max(2)], -1)
        scores = RNG.uniform(0, 1, size=(total, classes))
        return [bboxes.astype(dtype), scores.astype(dtype), np.array(counts, "int32")]

    return make


SPECS += [
    (
        "3d-defaults",
        "multiclass_nms3",
        multiclass_case(2, 12, 3),
        [0.3, -1, -1, 0.45, True, 1.0, 0],
    ),
    (
        "3d-top_k-not_normalized-eta",
        "multiclass_nms3",
        multiclass_case(2, 15, 4),
        [0.2, 6, 5, 0.3, False, 0.7, -1],
    ),
    (
        "3d-none_kept",
        "multiclass_nms3",
        multiclass_case(1, 5, 2),
        [0.999, -1, -1, 0.5, True, 1.0, 0],
    ),
    (
        "2d-rois_num",
        "multiclass_nms3",
        multiclass_case(0, 0, 3, [4, 0, 3]),
        [0.2, -1, 3, 0.4, True, 1.0, 0],
    ),
    (
        "2d-rois_num-background1",
        "multiclass_nms3",
        multiclass_case(0, 0, 3, [5, 6]),
        [0.1, 4, -1, 0.5, False, 1.0, 1],
    ),
]


def yolo_case(batch: int, anchors: int, classes: int, h: int, w: int, iou_aware: bool = False):
    """A YOLO head [batch, anchors * (5 + classes), h, w] (one more channel per anchor with
    iou_aware) of logits in [-3, 3] and int32 image sizes."""

    def make(dtype: str) -> list[np.ndarray]:
        channels = anchors * ((6 if iou_aware else 5) + classes)
        x = uniform((batch, channels, h, w), dtype, -3, 3)
        sizes = RNG.integers(60, 500, size=(batch, 2)).astype("int32")
        return [x, sizes]

    return make


def prior_case(h: int, w: int, image_h: int, image_w: int):
    def make(dtype: str) -> list[np.ndarray]:
        return [np.zeros((1, 3, h, w), dtype), np.zeros((1, 3, image_h, image_w), dtype)]

    return make


def coder_case(priors: int, boxes: int, decode: bool, with_var: bool, axis: int = 0):
    """Priors [priors, 4] and, to encode, boxes [boxes, 4]; to decode, offsets of
    [boxes, priors, 4] (axis 0) or [priors, boxes, 4] (axis 1); with_var adds PriorBoxVar."""

    def corners(count: int, dtype: str) -> np.ndarray:
        c = RNG.uniform(0, 1, size=(count, 2, 2))
        return np.concatenate([c.min(1), c.max(1) + 0.05], 1).astype(dtype)

    def make(dtype: str) -> list:
        prior = corners(priors, dtype)
        var = RNG.uniform(0.1, 0.3, size=(priors, 4)).astype(dtype) if with_var else None
        if decode:
            shape = (boxes, priors, 4) if axis == 0 else (priors, boxes, 4)
            target = uniform(shape, dtype, -1, 1)
        else:
            target = corners(boxes, dtype)
        return [prior, var, target]

    return make


ANCHORS = [10, 13, 16, 30, 33, 23]
SPECS += [
    ("2x3a-4c", "yolo_box", yolo_case(2, 3, 4, 3, 4), [ANCHORS, 4, 0.3, 32, True, 1.0, False, 0.5]),
    (
        "noclip-scale",
        "yolo_box",
        yolo_case(1, 2, 3, 5, 2),
        [ANCHORS[:4], 3, 0.0, 16, False, 1.2, False, 0.5],
    ),
    (
        "iou-aware",
        "yolo_box",
        yolo_case(2, 3, 2, 2, 3, True),
        [ANCHORS, 2, 0.2, 8, True, 1.05, True, 0.4],
    ),
    (
        "all-below",
        "yolo_box",
        yolo_case(1, 1, 1, 2, 2),
        [[5, 7], 1, 1.0, 32, True, 1.0, False, 0.5],
    ),
    (
        "ssd",
        "prior_box",
        prior_case(3, 4, 300, 300),
        [
            [30.0, 60.0],
            [60.0, 111.0],
            [2.0, 3.0],
            [0.1, 0.1, 0.2, 0.2],
            True,
            True,
            0.0,
            0.0,
            0.5,
            False,
        ],
    ),
    (
        "minmax-order",
        "prior_box",
        prior_case(2, 3, 64, 96),
        [
            [8.0],
            [20.0],
            [2.0, 0.5, 1.0],
            [0.1, 0.1, 0.2, 0.2],
            False,
            False,
            16.0,
            12.0,
            0.25,
            True,
        ],
    ),
    (
        "noflip-unclipped",
        "prior_box",
        prior_case(5, 2, 33, 20),
        [[4.0, 10.0], [], [1.0, 1.5], [0.2, 0.2, 0.1, 0.1], False, False, 0.0, 0.0, 0.5, False],
    ),
    ("encode-var", "box_coder", coder_case(5, 3, False, True), ["encode_center_size", True, 0, []]),
    (
        "encode-attr-unnorm",
        "box_coder",
        coder_case(4, 6, False, False),
        ["encode_center_size", False, 0, [0.1, 0.1, 0.2, 0.2]],
    ),
    (
        "encode-novar",
        "box_coder",
        coder_case(3, 2, False, False),
        ["encode_center_size", True, 0, []],
    ),
    (
        "decode-var-axis0",
        "box_coder",
        coder_case(4, 3, True, True),
        ["decode_center_size", True, 0, []],
    ),
    (
        "decode-var-axis1",
        "box_coder",
        coder_case(4, 3, True, True, axis=1),
        ["decode_center_size", False, 1, []],
    ),
    (
        "decode-novar-axis1",
        "box_coder",
        coder_case(2, 5, True, False, axis=1),
        ["decode_center_size", True, 1, []],
    ),
]


def encode(array: np.ndarray) -> dict:
    return {
        "shape": list(array.shape),
        "dtype": str(array.dtype),
        "data": array.reshape(-1).tolist(),
    }


def run(op: str, arrays: list, attrs: list, grad: bool) -> dict:
    inputs = [
        None if a is None else paddle.to_tensor(a, stop_gradient=not (grad and a.dtype.kind == "f"))
        for a in arrays
    ]
    outs = getattr(paddle._C_ops, op)(*inputs, *attrs)
    outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
    entry: dict = {
        "op": op,
        "attrs": attrs,
        "inputs": [None if a is None else encode(a) for a in arrays],
        "outs": [encode(o.numpy()) for o in outs],
    }
    if grad and any(t is not None and not t.stop_gradient for t in inputs):
        out = outs[0]
        out_grad = uniform(tuple(out.shape), str(out.numpy().dtype))
        wanted = [t for t in inputs if t is not None and not t.stop_gradient]
        grads = paddle.grad(out, wanted, paddle.to_tensor(out_grad), allow_unused=True)
        entry["out_grad"] = encode(out_grad)
        by_input = iter(grads)
        entry["grads"] = [
            (
                (lambda g: None if g is None else encode(g.numpy()))(next(by_input))
                if t is not None and not t.stop_gradient
                else None
            )
            for t in inputs
        ]
    return entry


def main() -> None:
    kernel_dtypes = json.loads(
        (OUT.parents[3] / "runtime" / "kernels" / "paddle_3_3_1_cpu.json").read_text()
    )["kernels"]
    cases: dict[str, dict] = {}
    for name, op, make, attrs in SPECS:
        for dtype in kernel_dtypes[op]:
            grad = dtype in kernel_dtypes.get(f"{op}_grad", [])
            cases[f"{op}-{name}-{dtype}"] = run(op, make(dtype), attrs, grad)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    lines = ",\n".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in sorted(cases.items()))
    OUT.write_text("{\n" + lines + "\n}\n")
    print(f"wrote {len(cases)} cases to {OUT}")


if __name__ == "__main__":
    main()
