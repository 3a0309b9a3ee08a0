"""The detection ops against PaddlePaddle 3.3.1 run live (grid_sample, ...): forward results and
the gradients of ``sum(out * g)`` for random inputs of each registered dtype, through the
op-level functions (``phiops._C_ops`` and ``paddle._C_ops``) with the same arguments, and the
same refusals of bad arguments. Runs only where PaddlePaddle is installed."""

from __future__ import annotations

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops as phiops_paddle  # noqa: E402
import phiops._C_ops as C  # noqa: E402

RNG = np.random.default_rng(97)

TOLERANCE = {"float32": {"rtol": 1e-5, "atol": 1e-5}, "float64": {"rtol": 1e-12, "atol": 1e-12}}

GRID_SAMPLE = [
    ((2, 3, 5, 4), (2, 4, 3, 2), mode, padding, align)
    for mode in ("bilinear", "nearest")
    for padding in ("zeros", "border", "reflection")
    for align in (True, False)
] + [((1, 2, 3, 4, 2), (1, 2, 2, 3, 3), "bilinear", "reflection", False)]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize(
    "x_shape, grid_shape, mode, padding_mode, align_corners",
    GRID_SAMPLE,
    ids=lambda v: str(v).replace(" ", ""),
)
def test_grid_sample_result_and_gradients_match_paddle(
    x_shape, grid_shape, mode: str, padding_mode: str, align_corners: bool, dtype: str
) -> None:
    x_np = RNG.uniform(-3, 3, size=x_shape).astype(dtype)
    grid_np = RNG.uniform(-1.4, 1.4, size=grid_shape).astype(dtype)
    attrs = (mode, padding_mode, align_corners)
    theirs_in = [paddle.to_tensor(a, stop_gradient=False) for a in (x_np, grid_np)]
    theirs = paddle._C_ops.grid_sample(*theirs_in, *attrs)
    g_np = RNG.uniform(-1, 1, size=theirs.shape).astype(dtype)
    theirs_grads = paddle.grad(theirs, theirs_in, paddle.to_tensor(g_np))

    ours_in = [phiops_paddle.to_tensor(a, stop_gradient=False) for a in (x_np, grid_np)]
    ours = C.grid_sample(*ours_in, *attrs)
    ours_grads = phiops_paddle.grad(ours, ours_in, grad_outputs=phiops_paddle.to_tensor(g_np))
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), **TOLERANCE[dtype])
    for mine, their in zip(ours_grads, theirs_grads):
        np.testing.assert_allclose(mine.numpy(), their.numpy(), **TOLERANCE[dtype])


@pytest.mark.parametrize(
    "x_shape, grid_shape",
    [((2, 3, 4), (2, 3, 4, 2)), ((2, 3, 4, 5), (2, 3, 4, 3)), ((1, 3, 4, 5, 6), (1, 3, 4, 5, 2))],
)
def test_both_refuse_bad_grid_sample_shapes(x_shape, grid_shape) -> None:
    x_np, grid_np = np.zeros(x_shape, np.float32), np.zeros(grid_shape, np.float32)
    with pytest.raises(ValueError):
        paddle._C_ops.grid_sample(
            paddle.to_tensor(x_np), paddle.to_tensor(grid_np), "bilinear", "zeros", True
        )
    with pytest.raises(ValueError):
        C.grid_sample(
            phiops_paddle.to_tensor(x_np),
            phiops_paddle.to_tensor(grid_np),
            "bilinear",
            "zeros",
            True,
        )


ROI_BOXES = np.array(
    [[0.4, 0.7, 5.2, 4.1], [1.5, 0.0, 3.5, 6.8], [-1.0, 2.2, 9.5, 3.0], [2.0, 2.0, 2.3, 2.4]]
)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize(
    "op, attrs",
    [
        ("roi_align", (2, 3, 1.0, -1, False)),
        ("roi_align", (3, 3, 0.5, 2, True)),
        ("roi_align", (1, 2, 1.3, 0, False)),
        ("roi_pool", (2, 3, 1.0)),
        ("roi_pool", (3, 2, 0.6)),
    ],
    ids=lambda v: str(v).replace(" ", ""),
)
def test_roi_ops_result_and_gradient_match_paddle(op: str, attrs, dtype: str) -> None:
    x_np = RNG.uniform(-3, 3, size=(2, 3, 7, 8)).astype(dtype)
    boxes_np = ROI_BOXES.astype(dtype)
    counts = np.array([3, 1], np.int32)
    theirs_x = paddle.to_tensor(x_np, stop_gradient=False)
    theirs = getattr(paddle._C_ops, op)(
        theirs_x, paddle.to_tensor(boxes_np), paddle.to_tensor(counts), *attrs
    )
    g_np = RNG.uniform(-1, 1, size=theirs.shape).astype(dtype)
    (theirs_grad,) = paddle.grad(theirs, [theirs_x], paddle.to_tensor(g_np))

    ours_x = phiops_paddle.to_tensor(x_np, stop_gradient=False)
    ours = getattr(C, op)(
        ours_x, phiops_paddle.to_tensor(boxes_np), phiops_paddle.to_tensor(counts), *attrs
    )
    (ours_grad,) = phiops_paddle.grad(ours, [ours_x], grad_outputs=phiops_paddle.to_tensor(g_np))
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), **TOLERANCE[dtype])
    np.testing.assert_allclose(ours_grad.numpy(), theirs_grad.numpy(), **TOLERANCE[dtype])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize(
    "count, extent, threshold", [(50, 10.0, 0.5), (80, 30.0, 0.2), (8, 2.0, 0.0)]
)
def test_nms_matches_paddle(count: int, extent: float, threshold: float, dtype: str) -> None:
    corners = RNG.uniform(0, extent, size=(count, 2, 2))
    boxes = np.concatenate([corners.min(1), corners.max(1)], 1).astype(dtype)
    theirs = paddle._C_ops.nms(paddle.to_tensor(boxes), threshold)
    ours = C.nms(phiops_paddle.to_tensor(boxes), threshold)
    assert str(ours.numpy().dtype) == "int64"
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize(
    "settings",
    [(0.3, -1, -1, 0.45, True, 1.0, 0), (0.1, 8, 10, 0.3, False, 0.6, -1)],
    ids=str,
)
def test_multiclass_nms3_matches_paddle(settings, dtype: str) -> None:
    corners = RNG.uniform(0, 10, size=(3, 20, 2, 2))
    boxes = np.concatenate([corners.min(2), corners.max(2)], -1).astype(dtype)
    scores = RNG.uniform(0, 1, size=(3, 4, 20)).astype(dtype)
    theirs = paddle._C_ops.multiclass_nms3(
        paddle.to_tensor(boxes), paddle.to_tensor(scores), None, *settings
    )
    ours = C.multiclass_nms3(
        phiops_paddle.to_tensor(boxes), phiops_paddle.to_tensor(scores), None, *settings
    )
    for mine, their in zip(ours, theirs):
        assert mine.numpy().dtype == their.numpy().dtype
        np.testing.assert_array_equal(mine.numpy(), their.numpy())


VISION_OPS = [
    "nms",
    "roi_align",
    "roi_pool",
    "RoIAlign",
    "RoIPool",
    "yolo_box",
    "prior_box",
    "box_coder",
]


@pytest.mark.parametrize("name", VISION_OPS)
def test_vision_ops_signatures_are_paddles(name: str) -> None:
    import inspect

    import phiops.vision.ops as ours_module

    def parameters(obj) -> list[tuple[str, str, str]]:
        target = obj.__init__ if isinstance(obj, type) else obj
        return [
            (p.name, p.kind.name, repr(p.default))
            for p in inspect.signature(target).parameters.values()
        ]

    assert parameters(getattr(ours_module, name)) == parameters(getattr(paddle.vision.ops, name))


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"scores": True},
        {"scores": True, "categories": [0, 1, 2]},
        {"scores": True, "categories": [0, 2], "top_k": 5},
    ],
    ids=str,
)
def test_vision_nms_matches_paddle(kwargs) -> None:
    import phiops.vision.ops as ours_module

    corners = RNG.uniform(0, 10, size=(30, 2, 2))
    boxes = np.concatenate([corners.min(1), corners.max(1)], 1).astype("float32")
    scores = RNG.permutation(30).astype("float32") / 30  # distinct: no ties to order
    labels = RNG.integers(0, 3, size=30).astype("int64")

    def call(module, to_tensor):
        options = {}
        if "scores" in kwargs:
            options["scores"] = to_tensor(scores)
        if "categories" in kwargs:
            options["category_idxs"] = to_tensor(labels)
            options["categories"] = kwargs["categories"]
        if "top_k" in kwargs:
            options["top_k"] = kwargs["top_k"]
        return module.nms(to_tensor(boxes), 0.4, **options).numpy()

    np.testing.assert_array_equal(
        call(ours_module, phiops_paddle.to_tensor), call(paddle.vision.ops, paddle.to_tensor)
    )


def test_vision_roi_layers_match_paddle() -> None:
    import phiops.vision.ops as ours_module

    x_np = RNG.uniform(-3, 3, size=(2, 3, 7, 8)).astype("float32")
    counts = np.array([3, 1], np.int32)
    for layer, args in (("RoIAlign", (2,)), ("RoIPool", ((2, 3), 0.5))):
        theirs = getattr(paddle.vision.ops, layer)(*args)(
            paddle.to_tensor(x_np),
            paddle.to_tensor(ROI_BOXES.astype("float32")),
            paddle.to_tensor(counts),
        )
        ours = getattr(ours_module, layer)(*args)(
            phiops_paddle.to_tensor(x_np),
            phiops_paddle.to_tensor(ROI_BOXES.astype("float32")),
            phiops_paddle.to_tensor(counts),
        )
        np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-5, atol=1e-5)


YOLO = [
    # (batch, anchors, classes, h, w, anchors list, attrs after class_num)
    (2, 3, 4, 3, 4, [10, 13, 16, 30, 33, 23], (0.3, 32, True, 1.0, False, 0.5)),
    (1, 2, 3, 5, 2, [10, 13, 16, 30], (0.0, 16, False, 1.2, False, 0.5)),
    (2, 3, 2, 2, 3, [10, 13, 16, 30, 33, 23], (0.2, 8, True, 1.05, True, 0.4)),
]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("case", range(len(YOLO)))
def test_yolo_box_matches_paddle(case: int, dtype: str) -> None:
    batch, anchors, classes, h, w, anchor_list, attrs = YOLO[case]
    iou_aware = attrs[4]
    x_np = RNG.uniform(-3, 3, size=(batch, anchors * ((6 if iou_aware else 5) + classes), h, w))
    x_np = x_np.astype(dtype)
    sizes = RNG.integers(60, 500, size=(batch, 2)).astype("int32")
    theirs = paddle._C_ops.yolo_box(
        paddle.to_tensor(x_np), paddle.to_tensor(sizes), anchor_list, classes, *attrs
    )
    ours = C.yolo_box(
        phiops_paddle.to_tensor(x_np), phiops_paddle.to_tensor(sizes), anchor_list, classes, *attrs
    )
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a.numpy(), b.numpy(), **TOLERANCE[dtype])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize(
    "shapes, attrs",
    [
        (
            ((1, 3, 3, 4), (1, 3, 300, 300)),
            (
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
            ),
        ),
        (
            ((2, 1, 2, 3), (2, 3, 64, 96)),
            (
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
            ),
        ),
        (
            ((1, 1, 5, 2), (1, 1, 33, 20)),
            (
                [4.0, 10.0],
                [],
                [1.0, 1.5, 1.5],
                [0.2, 0.2, 0.1, 0.1],
                True,
                False,
                0.0,
                3.0,
                0.5,
                False,
            ),
        ),
    ],
)
def test_prior_box_matches_paddle(shapes, attrs, dtype: str) -> None:
    arrays = [np.zeros(shape, dtype) for shape in shapes]
    theirs = paddle._C_ops.prior_box(*[paddle.to_tensor(a) for a in arrays], *attrs)
    ours = C.prior_box(*[phiops_paddle.to_tensor(a) for a in arrays], *attrs)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a.numpy(), b.numpy(), **TOLERANCE[dtype])


def _corners(count: int, dtype: str) -> np.ndarray:
    c = RNG.uniform(0, 1, size=(count, 2, 2))
    return np.concatenate([c.min(1), c.max(1) + 0.05], 1).astype(dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("code_type", ["encode_center_size", "decode_center_size"])
@pytest.mark.parametrize("variance", ["tensor", "list", "none"])
@pytest.mark.parametrize("normalized, axis", [(True, 0), (False, 1)])
def test_box_coder_matches_paddle(dtype, code_type, variance, normalized, axis) -> None:
    if code_type == "decode_center_size" and variance == "list" and dtype == "float64":
        pytest.skip(
            "PaddlePaddle 3.3.1's CPU kernel reads the float variance list as doubles when "
            "decoding float64 (garbage); phiops uses the values"
        )
    prior = _corners(5, dtype)
    var = RNG.uniform(0.1, 0.3, size=(5, 4)).astype(dtype)
    if code_type == "encode_center_size":
        target = _corners(3, dtype)
    else:
        target = RNG.uniform(-1, 1, size=(3, 5, 4) if axis == 0 else (5, 3, 4)).astype(dtype)
    attrs_list = [0.1, 0.1, 0.2, 0.2] if variance == "list" else []

    def run(module, to_tensor):
        return module.box_coder(
            to_tensor(prior),
            to_tensor(var) if variance == "tensor" else None,
            to_tensor(target),
            code_type,
            normalized,
            axis,
            attrs_list,
        ).numpy()

    np.testing.assert_allclose(
        run(C, phiops_paddle.to_tensor), run(paddle._C_ops, paddle.to_tensor), **TOLERANCE[dtype]
    )


def test_vision_box_functions_match_paddle() -> None:
    import phiops.vision.ops as ours_module

    x_np = RNG.uniform(-3, 3, size=(2, 14, 3, 2)).astype("float32")
    sizes = np.array([[100, 80], [64, 64]], np.int32)
    feature, image = np.zeros((1, 2, 3, 3), "float32"), np.zeros((1, 3, 24, 30), "float32")
    prior, target = _corners(4, "float32"), _corners(2, "float32")

    def call(module, to_tensor):
        boxes, scores = module.yolo_box(to_tensor(x_np), to_tensor(sizes), [4, 5, 8, 9], 2, 0.1, 16)
        out, var = module.prior_box(
            to_tensor(feature), to_tensor(image), 4.0, [9.0], [2.0], flip=True
        )
        coded = module.box_coder(to_tensor(prior), [0.1, 0.1, 0.2, 0.2], to_tensor(target))
        return [t.numpy() for t in (boxes, scores, out, var, coded)]

    for a, b in zip(
        call(ours_module, phiops_paddle.to_tensor), call(paddle.vision.ops, paddle.to_tensor)
    ):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)
