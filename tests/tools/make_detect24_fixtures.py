"""Writes tests/data/detect24/paddle_3_3_1.json: PaddlePaddle 3.3.1's results (and gradients,
where the op has them) of the detect24 ops of issue 24 (box_clip, bipartite_match, matrix_nms,
...) through the op (``paddle._C_ops``) and ``paddle.vision.ops``, for every dtype PaddlePaddle
registers on CPU, on inputs with their edges (boxes past every border, NaN coordinates, half
scales, distances below 1e-6, 130 rows and more, classes left empty, keep_top_k cuts).

Cases use the format of tests/tools/make_losscum_fixtures.py (``via``, tensor inputs, arguments
with ``"$x"`` for input ``x``), with ``via`` "op", "vision" (``paddle.vision.ops``) or "lod":
PaddlePaddle 3.3.1's box_clip reads the images from its input's LoD and crashes without one
(eager tensors have none), so a "lod" case runs there as a legacy static program fed a LoD
tensor whose first dimension is split evenly among the images, and as the op in phiops, whose
box_clip splits it so. tests/ops/test_detect24_paddle.py compares phiops with the recording (no
PaddlePaddle needed) and tests/parity/test_detect24_parity_paddle.py runs both live.

Run with the side venv: ``PYTHONPATH=$PWD /work/paddle-venv/bin/python
tests/tools/make_detect24_fixtures.py``.
"""

from __future__ import annotations

import importlib
import json
import math
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from tests.tools.make_losscum_fixtures import (
    FLOAT_KINDS,
    as_numpy,
    case,
    dtype_name,
    make_inputs,
    out_grad_for,
    tensor,
    to_json,
)

OUT = Path(__file__).resolve().parents[1] / "data" / "detect24" / "paddle_3_3_1.json"

NAN = math.nan
REAL = ("float32", "float64")

# legacy op type, input slots and output slots of the "lod" cases
LEGACY = {"box_clip": ("box_clip", ("Input", "ImInfo"), ("Output",))}


def _uniform(n: int, seed: int, low: float, high: float) -> list[float]:
    return np.round(np.random.default_rng(seed).uniform(low, high, n), 3).tolist()


def _boxes(n: int, seed: int, size: float) -> list[float]:
    """n boxes (x1, y1, x2, y2) inside [0, size], flattened, most of them overlapping."""
    rng = np.random.default_rng(seed)
    corner = rng.uniform(0.0, size * 0.4, (n, 2))
    extent = rng.uniform(size * 0.2, size * 0.6, (n, 2))
    return np.round(np.concatenate([corner, corner + extent], axis=1), 3).reshape(-1).tolist()


def box_clip_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    boxes = [-3.0, 2.0, 30.0, 40.0, 5.0, -6.0, 7.0, 80.0, 1.0, 1.0, 100.0, 100.0]
    boxes += [2.5, 2.5, 9.5, 9.5, NAN, 3.0, 4.0, NAN, 19.0, 0.0, 19.5, 29.5]
    for dtype in REAL:
        info = [20.0, 30.0, 1.0, 10.0, 9.0, 2.0, 25.0, 41.0, 0.5]
        out[f"box_clip-{dtype}-3images"] = case(
            "lod",
            "box_clip",
            [
                tensor("input", boxes, [6, 4], dtype, False),
                tensor("im_info", info, [3, 3], dtype, False),
            ],
            ["$input", "$im_info"],
        )
        out[f"box_clip-{dtype}-1image"] = case(
            "lod",
            "box_clip",
            [
                tensor("input", boxes, [6, 4], dtype, False),
                tensor("im_info", [15.0, 17.0, 1.5], [1, 3], dtype, False),
            ],
            ["$input", "$im_info"],
        )
        out[f"box_clip-{dtype}-3d"] = case(
            "lod",
            "box_clip",
            [
                tensor("input", boxes, [2, 3, 4], dtype, False),
                tensor("im_info", [7.0, 11.0, 1.0, 60.0, 50.0, 4.0], [2, 3], dtype, False),
            ],
            ["$input", "$im_info"],
        )
    return out


def bipartite_match_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for dtype in REAL:
        small = [0.9, 0.1, 0.5, 0.0, 0.7, 0.8, 0.6, 0.3, 0.2, 0.4, 5e-7, 0.95]
        for match_type, threshold in (("bipartite", 0.5), ("per_prediction", 0.5)):
            out[f"bipartite_match-{dtype}-{match_type}"] = case(
                "op",
                "bipartite_match",
                [tensor("dist_mat", small, [3, 4], dtype, False)],
                ["$dist_mat", match_type, threshold],
            )
        # more columns than rows: per_prediction gives the leftover columns their best rows
        wide = _uniform(2 * 7, 3, 0.0, 1.0)
        for threshold in (0.3, 0.9):
            out[f"bipartite_match-{dtype}-wide-{threshold}"] = case(
                "op",
                "bipartite_match",
                [tensor("dist_mat", wide, [2, 7], dtype, False)],
                ["$dist_mat", "per_prediction", threshold],
            )
        # 130 rows and more: PaddlePaddle sorts every pair (distinct values, no ties)
        rng = np.random.default_rng(4)
        big = (rng.permutation(131 * 5) / (131 * 5)).round(6).tolist()
        out[f"bipartite_match-{dtype}-131rows"] = case(
            "op",
            "bipartite_match",
            [tensor("dist_mat", big, [131, 5], dtype, False)],
            ["$dist_mat", "per_prediction", 0.5],
        )
        for name, values, shape in (
            ("ties", [0.5, 0.5, 0.5, 1e-7], [2, 2]),
            ("even", [0.5, 0.5, 0.5, 0.5], [2, 2]),
            ("nan", [NAN, 0.3, 0.2, NAN], [2, 2]),
        ):
            for match_type in ("bipartite", "per_prediction"):
                out[f"bipartite_match-{dtype}-{name}-{match_type}"] = case(
                    "op",
                    "bipartite_match",
                    [tensor("dist_mat", values, shape, dtype, False)],
                    ["$dist_mat", match_type, 0.1],
                )
        out[f"bipartite_match-{dtype}-empty"] = case(
            "op",
            "bipartite_match",
            [tensor("dist_mat", [], [3, 0], dtype, False)],
            ["$dist_mat", "bipartite", 0.5],
        )
    return out


def matrix_nms_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    rng = np.random.default_rng(5)
    scores = (rng.permutation(2 * 3 * 6) / 40 + 0.05).round(4).tolist()
    for dtype in REAL:
        for normalized, size in ((True, 1.0), (False, 20.0)):
            boxes = tensor("bboxes", _boxes(12, 6, size), [2, 6, 4], dtype, False)
            score = tensor("scores", scores, [2, 3, 6], dtype, False)
            for gaussian in (False, True):
                out[f"matrix_nms-{dtype}-{normalized}-{gaussian}"] = case(
                    "op",
                    "matrix_nms",
                    [boxes, score],
                    ["$bboxes", "$scores", 0.1, -1, -1, 0.05, gaussian, 2.0, 0, normalized],
                )
            out[f"matrix_nms-{dtype}-{normalized}-topk"] = case(
                "op",
                "matrix_nms",
                [boxes, score],
                ["$bboxes", "$scores", 0.3, 3, 5, 0.2, False, 2.0, -1, normalized],
            )
        boxes = tensor("bboxes", _boxes(12, 7, 1.0), [2, 6, 4], dtype, False)
        score = tensor("scores", scores, [2, 3, 6], dtype, False)
        out[f"matrix_nms-vision-{dtype}"] = case(
            "vision",
            "matrix_nms",
            [boxes, score],
            ["$bboxes", "$scores", 0.2, 0.1, 4, 6],
            {"use_gaussian": True, "gaussian_sigma": 0.5, "return_index": True},
        )
        out[f"matrix_nms-negative-top-k-{dtype}"] = case(
            "op",
            "matrix_nms",
            [boxes, score],
            ["$bboxes", "$scores", 0.1, -3, -2, 0.0, False, 2.0, 1, True],
        )
        out[f"matrix_nms-keep-none-{dtype}"] = case(
            "op",
            "matrix_nms",
            [boxes, score],
            ["$bboxes", "$scores", 0.1, 2, 0, 0.0, False, 2.0, 1, True],
        )
        out[f"matrix_nms-nothing-{dtype}"] = case(
            "op",
            "matrix_nms",
            [boxes, score],
            ["$bboxes", "$scores", 0.99, -1, -1, 0.0, False, 2.0, 0, True],
        )
    return out


def _proposal_inputs(dtype: str, seed: int) -> list[list]:
    """Two images' RPN head outputs: 3 anchors at 4 x 5 positions, distinct scores."""
    rng = np.random.default_rng(seed)
    images, count, height, width = 2, 3, 4, 5
    ys, xs = np.meshgrid(np.arange(height) * 8.0, np.arange(width) * 8.0, indexing="ij")
    sizes = np.array([6.0, 12.0, 20.0])
    anchors = np.stack(
        [
            np.stack([xs - s / 2, ys - s / 2, xs + s / 2, ys + s / 2], axis=-1)
            for s in sizes
        ],
        axis=2,
    )
    scores = rng.permutation(images * count * height * width) / 120.0
    deltas = rng.uniform(-0.5, 0.5, (images, 4 * count, height, width))
    variances = np.tile([0.1, 0.1, 0.2, 0.2], (height, width, count, 1))
    return [
        tensor("scores", scores.round(5).tolist(), [images, count, height, width], dtype, False),
        tensor("bbox_deltas", deltas.round(4).reshape(-1).tolist(),
               [images, 4 * count, height, width], dtype, False),  # fmt: skip
        tensor("im_shape", [30.0, 38.0, 24.0, 40.0], [images, 2], dtype, False),
        tensor("anchors", anchors.reshape(-1).tolist(), [height, width, count, 4], dtype, False),
        tensor("variances", variances.reshape(-1).tolist(), [height, width, count, 4], dtype,
               False),  # fmt: skip
    ]


def generate_proposals_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    names = ["$scores", "$bbox_deltas", "$im_shape", "$anchors", "$variances"]
    for dtype in REAL:
        inputs = _proposal_inputs(dtype, 8)
        for label, attrs in (
            ("all", [-1, -1, 0.5, 0.1, 1.0, True]),
            ("top20", [20, 10, 0.5, 0.1, 1.0, True]),
            ("top20-no-nms", [20, 10, 0.0, 0.1, 1.0, False]),
            ("eta", [-1, 8, 0.9, 2.0, 0.8, False]),
            ("min-size", [30, -1, 0.7, 3.0, 1.0, True]),
            ("nothing", [-1, -1, 0.5, 500.0, 1.0, True]),
        ):
            out[f"generate_proposals-{dtype}-{label}"] = case(
                "op", "generate_proposals", inputs, names + attrs
            )
        out[f"generate_proposals-vision-{dtype}"] = case(
            "vision",
            "generate_proposals",
            inputs,
            names + [25, 12],
            {"return_rois_num": True},
        )
    return out


def collect_fpn_proposals_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    rng = np.random.default_rng(9)
    sizes = [5, 4, 3]  # rois per level, of two images: [3, 2], [1, 3], [2, 1]
    counts = [[3, 2], [1, 3], [2, 1]]
    scores = (rng.permutation(sum(sizes)) / 20 + 0.05).round(4).tolist()
    for dtype in REAL:
        inputs, rois, level_scores, nums = [], [], [], []
        start = 0
        for level, size in enumerate(sizes):
            inputs.append(tensor(f"rois{level}", _boxes(size, 10 + level, 50.0), [size, 4], dtype,
                                 False))  # fmt: skip
            inputs.append(tensor(f"scores{level}", scores[start:start + size], [size, 1], dtype,
                                 False))  # fmt: skip
            inputs.append(tensor(f"num{level}", counts[level], [2], "int32", False))
            rois.append(f"$rois{level}")
            level_scores.append(f"$scores{level}")
            nums.append(f"$num{level}")
            start += size
        for topn in (5, 100, 8):
            out[f"collect_fpn_proposals-{dtype}-{topn}"] = case(
                "op", "collect_fpn_proposals", inputs, [rois, level_scores, nums, topn]
            )
    return out


def psroi_pool_cases() -> dict[str, dict[str, Any]]:
    """Feature values in sixteenths and small bins, so that every sum is exact in any order."""
    out: dict[str, dict[str, Any]] = {}
    rng = np.random.default_rng(12)
    features = (rng.integers(-32, 32, 2 * 8 * 6 * 7) / 16).tolist()
    boxes = [0.4, 0.6, 4.5, 3.5, 2.0, 1.0, 6.0, 5.0, -3.0, 2.5, 3.0, 9.0, 5.2, 0.0, 5.2, 0.3]
    boxes += [1.0, 1.0, 12.0, 10.0]
    for dtype in REAL:
        inputs = [
            tensor("x", features, [2, 8, 6, 7], dtype),
            tensor("boxes", boxes, [5, 4], dtype, False),
            tensor("boxes_num", [2, 3], [2], "int32", False),
        ]
        for pooled, channels, scale in (((2, 2), 2, 1.0), ((2, 1), 4, 0.5), ((1, 4), 2, 1.0)):
            out[f"psroi_pool-{dtype}-{pooled[0]}x{pooled[1]}-{scale}"] = case(
                "op",
                "psroi_pool",
                inputs,
                ["$x", "$boxes", "$boxes_num", pooled[0], pooled[1], channels, scale],
            )
        out[f"psroi_pool-vision-{dtype}"] = case(
            "vision", "psroi_pool", inputs, ["$x", "$boxes", "$boxes_num", 2, 0.5]
        )
        out[f"psroi_pool-layer-{dtype}"] = case(
            "vision", "PSRoIPool", inputs, [(2, 1)], {"$call": ["$x", "$boxes", "$boxes_num"]}
        )
    return out


def affine_channel_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for dtype in REAL:
        for layout, shape in (("NCHW", [2, 3, 2, 2]), ("AnyLayout", [2, 2, 3]),
                              ("NHWC", [2, 2, 2, 3]), ("NCHW", [4, 3])):  # fmt: skip
            count = int(np.prod(shape))
            out[f"affine_channel-{dtype}-{layout}-{len(shape)}d"] = case(
                "op",
                "affine_channel",
                [
                    tensor("x", _uniform(count, 15, -2.0, 2.0), shape, dtype),
                    tensor("scale", [0.5, -1.5, 2.0], [3], dtype),
                    tensor("bias", [1.0, 0.0, -3.0], [3], dtype),
                ],
                ["$x", "$scale", "$bias", layout],
            )
    return out


def cases() -> dict[str, dict[str, Any]]:
    return {
        **affine_channel_cases(),
        **psroi_pool_cases(),
        **collect_fpn_proposals_cases(),
        **box_clip_cases(),
        **bipartite_match_cases(),
        **matrix_nms_cases(),
        **generate_proposals_cases(),
    }


def _run_lod(paddle: ModuleType, case: dict[str, Any]) -> dict[str, Any]:
    """A "lod" case on PaddlePaddle: a legacy static program of the op, its first input fed as
    a LoD tensor whose first dimension is split evenly among the rows of its second."""
    from paddle.pir_utils import OldIrGuard

    op_type, in_slots, out_slots = LEGACY[case["fn"]]
    arrays = [as_numpy(v, d).reshape(s) for _, v, s, d, _ in case["inputs"]]
    images = arrays[1].shape[0]
    lod = [[arrays[0].shape[0] // images] * images]
    paddle.enable_static()
    try:
        with OldIrGuard():
            main = paddle.static.Program()
            with paddle.static.program_guard(main):
                names = [name for name, *_ in case["inputs"]]
                variables = [
                    paddle.static.data(
                        name, list(a.shape), dtype_name(a.dtype), lod_level=1 if i == 0 else 0
                    )
                    for i, (name, a) in enumerate(zip(names, arrays))
                ]
                helper = paddle.base.layer_helper.LayerHelper(op_type)
                outs = [
                    helper.create_variable_for_type_inference(dtype_name(arrays[0].dtype))
                    for _ in out_slots
                ]
                helper.append_op(
                    type=op_type,
                    inputs=dict(zip(in_slots, variables)),
                    outputs=dict(zip(out_slots, outs)),
                )
            place = paddle.CPUPlace()
            feed = {names[0]: paddle.base.create_lod_tensor(arrays[0], lod, place)}
            feed.update({n: a for n, a in zip(names[1:], arrays[1:])})
            results = paddle.static.Executor(place).run(
                main, feed=feed, fetch_list=outs, return_numpy=False
            )
    finally:
        paddle.disable_static()
    return {
        "outs": [
            {"dtype": dtype_name(arrays[0].dtype), "shape": list(np.array(r).shape),
             "values": to_json(np.array(r))}
            for r in results
        ],
        "grads": {},
    }  # fmt: skip


def call(lib: ModuleType, case: dict[str, Any], tensors: dict[str, Any]) -> Any:
    owner = {
        "op": importlib.import_module(f"{lib.__name__}._C_ops"),
        "lod": importlib.import_module(f"{lib.__name__}._C_ops"),
        "vision": importlib.import_module(f"{lib.__name__}.vision.ops"),
    }[case["via"]]

    def resolve(value: Any) -> Any:
        if isinstance(value, str) and value.startswith("$"):
            return tensors[value[1:]]
        if isinstance(value, list):
            return [resolve(item) for item in value]
        return value

    args = [resolve(a) for a in case["args"]]
    kwargs = {k: resolve(v) for k, v in case["kwargs"].items()}
    if "$call" in kwargs:  # a layer: built from args, called with "$call"
        return getattr(owner, case["fn"])(*args)(*kwargs.pop("$call"))
    return getattr(owner, case["fn"])(*args, **kwargs)


def run(lib: ModuleType, case: dict[str, Any]) -> dict[str, Any]:
    """The case's outputs (dtype, shape, values; a None output as None) and gradients on
    ``lib``."""
    if case["via"] == "lod" and lib.__name__ == "paddle":
        return _run_lod(lib, case)
    tensors = make_inputs(lib, case)
    result = call(lib, case, tensors)
    outs = list(result) if isinstance(result, (tuple, list)) else [result]
    recorded: dict[str, Any] = {
        "outs": [
            None
            if o is None
            else {"dtype": dtype_name(o.dtype), "shape": list(o.shape), "values": to_json(o.numpy())}
            for o in outs
        ],
        "grads": {},
    }
    wanted = [name for name, t in tensors.items() if not t.stop_gradient]
    picks = case["grad_outputs"]
    if picks is None:
        picks = [
            i for i, o in enumerate(outs) if o is not None and dtype_name(o.dtype) in FLOAT_KINDS
        ]
    if wanted and picks:
        targets = [outs[i] for i in picks]
        grad_outputs = [
            lib.to_tensor(out_grad_for(list(t.shape), dtype_name(t.dtype)), dtype=dtype_name(t.dtype))
            for t in targets
        ]
        grads = lib.grad(
            targets, [tensors[n] for n in wanted], grad_outputs=grad_outputs, allow_unused=True
        )
        for name, grad in zip(wanted, grads):
            recorded["grads"][name] = None if grad is None else to_json(grad.numpy())
    return recorded


def main() -> None:
    import paddle

    recorded = {key: {**c, **run(paddle, c)} for key, c in sorted(cases().items())}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(recorded)} cases to {OUT}")


if __name__ == "__main__":
    main()
