"""Writes tests/data/misc24/paddle_3_3_1.json: PaddlePaddle 3.3.1's results (and gradients, for
the differentiable ones) of the misc24 ops of issue 24 (spectral_norm, distribute_fpn_proposals,
fused_softmax_mask_upper_triangle) through the op (``paddle._C_ops``) and the Python API
(``paddle.nn.SpectralNorm``, ``paddle.vision.ops``, ``paddle.incubate``), for every dtype
PaddlePaddle registers on CPU, on inputs with their edges (dim 1, ranks 2 to 5, no power
iteration, a large eps; rois of zero or inverted extent, NaN and infinite coordinates, an
image without rois, pixel offsets; sequence length 1).

Cases use the format of tests/tools/make_losscum_fixtures.py (``via``, tensor inputs, arguments
with ``"$x"`` for input ``x``), with ``via`` also:

- ``layer``: ``paddle.nn.SpectralNorm(*args)`` with its ``weight_u``/``weight_v`` set to the
  inputs ``u``/``v`` (PaddlePaddle draws them from its own generator), called on ``weight``;
- ``causal``: fused_softmax_mask_upper_triangle, whose CPU kernel PaddlePaddle 3.3.1 registers
  but which raises "only supports GPU" there: PaddlePaddle's values are its own softmax of x
  with the keys after each query set to -inf (what its GPU kernel computes), phiops's the op
  and ``paddle.incubate.softmax_mask_fuse_upper_triangle``.

Outputs that are lists (distribute_fpn_proposals's levels) are recorded flattened.
tests/ops/test_misc24_paddle.py compares phiops with the recording (no PaddlePaddle needed) and
tests/parity/test_misc24_parity_paddle.py runs both live.

Run with the side venv: ``PYTHONPATH=$PWD /work/paddle-venv/bin/python
tests/tools/make_misc24_fixtures.py``.
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
    case,
    dtype_name,
    make_inputs,
    out_grad_for,
    tensor,
    to_json,
)

OUT = Path(__file__).resolve().parents[1] / "data" / "misc24" / "paddle_3_3_1.json"

__all__ = ["cases", "run", "OUT"]

FLOATS = ("float32", "float64")


def _normal(n: int, seed: int) -> list[float]:
    return np.round(np.random.default_rng(seed).normal(0.0, 1.0, n), 4).tolist()


def spectral_norm_cases() -> dict[str, dict[str, Any]]:
    """The op per dtype on ranks 2 to 5, dim 0 and 1, 0 to 3 power iterations and a large eps;
    the layer on a conv weight."""
    out: dict[str, dict[str, Any]] = {}
    shapes = {
        "r2-dim0-it1": ([3, 4], 0, 1, 1e-12),
        "r3-dim1-it2": ([2, 3, 4], 1, 2, 1e-12),
        "r4-dim0-it0": ([4, 2, 1, 2], 0, 0, 1e-12),
        "r5-dim1-it3": ([2, 3, 1, 2, 2], 1, 3, 1e-12),
        "r2-dim1-eps": ([3, 2], 1, 1, 0.5),
    }
    for dtype in FLOATS:
        for label, (shape, dim, iters, eps) in shapes.items():
            h = shape[dim]
            w = math.prod(shape) // h
            seed = len(out)
            inputs = [
                tensor("weight", _normal(math.prod(shape), 2400 + seed), shape, dtype),
                tensor("u", _normal(h, 2450 + seed), [h], dtype, grad=False),
                tensor("v", _normal(w, 2470 + seed), [w], dtype, grad=False),
            ]
            out[f"spectral_norm-{dtype}-{label}"] = case(
                "op", "spectral_norm", inputs, ["$weight", "$u", "$v", dim, iters, eps]
            )
        inputs = [
            tensor("weight", _normal(24, 2490), [2, 3, 2, 2], dtype),
            tensor("u", _normal(3, 2491), [3], dtype, grad=False),
            tensor("v", _normal(8, 2492), [8], dtype, grad=False),
        ]
        out[f"SpectralNorm-{dtype}-conv"] = case(
            "layer", "SpectralNorm", inputs, [[2, 3, 2, 2], 1, 2, 1e-12, dtype]
        )
    return out


# rois of three images (3, 0 and 4 rois): small, reference-sized and large ones, a roi of zero
# width, an inverted one (x2 < x1) and, in the NaN case, a NaN coordinate
ROIS = [
    [0, 0, 10, 10], [0, 0, 223, 223], [5, 5, 600, 700],
    [1, 1, 1, 50], [30, 30, 20, 40], [0, 0, 100, 120], [10, 10, 460, 430],
]  # fmt: skip


def fpn_cases() -> dict[str, dict[str, Any]]:
    """distribute_fpn_proposals through the op and paddle.vision.ops, per dtype."""
    out: dict[str, dict[str, Any]] = {}
    flat = [v for roi in ROIS for v in roi]
    for dtype in FLOATS:
        rois = tensor("fpn_rois", flat, [7, 4], dtype, grad=False)
        counts = tensor("rois_num", [3, 0, 4], [3], "int32", grad=False)
        for offset in (False, True):
            out[f"distribute_fpn_proposals-{dtype}-offset{int(offset)}"] = case(
                "op", "distribute_fpn_proposals", [rois, counts],
                ["$fpn_rois", "$rois_num", 2, 5, 4, 224, offset],
            )  # fmt: skip
        out[f"distribute_fpn_proposals-{dtype}-vision"] = case(
            "vision", "distribute_fpn_proposals", [rois, counts],
            ["$fpn_rois", 1, 3, 2, 56], {"pixel_offset": True, "rois_num": "$rois_num"},
        )  # fmt: skip
        odd = [0.0, math.nan, 50, 60, 0.0, 0.0, math.inf, math.inf]
        nan = tensor("fpn_rois", flat[:4] + odd + flat[12:], [7, 4], dtype, grad=False)
        out[f"distribute_fpn_proposals-{dtype}-nan"] = case(
            "op", "distribute_fpn_proposals", [nan, counts],
            ["$fpn_rois", "$rois_num", 2, 5, 4, 224, False],
        )  # fmt: skip
        single = tensor("fpn_rois", flat[:8], [2, 4], dtype, grad=False)
        one = tensor("rois_num", [2], [1], "int32", grad=False)
        out[f"distribute_fpn_proposals-{dtype}-one-level-empty"] = case(
            "op", "distribute_fpn_proposals", [single, one],
            ["$fpn_rois", "$rois_num", 3, 4, 3, 2, False],
        )  # fmt: skip
    return out


def causal_cases() -> dict[str, dict[str, Any]]:
    """fused_softmax_mask_upper_triangle per dtype, through the op and paddle.incubate."""
    out: dict[str, dict[str, Any]] = {}
    for dtype in FLOATS:
        for label, shape in (("2x3x4x4", [2, 3, 4, 4]), ("1x1x1x1", [1, 1, 1, 1])):
            x = tensor("X", _normal(math.prod(shape), 2495), shape, dtype)
            out[f"fused_softmax_mask_upper_triangle-{dtype}-{label}"] = case(
                "causal", "fused_softmax_mask_upper_triangle", [x], ["$X"]
            )
        x = tensor("X", [1.0, 1e4, -1e4, 3.0, 2.0, 1e4, -2.0, 0.5, 0.0], [1, 1, 3, 3], dtype)
        out[f"softmax_mask_fuse_upper_triangle-{dtype}-large"] = case(
            "causal", "softmax_mask_fuse_upper_triangle", [x], ["$X"]
        )
    return out


def cases() -> dict[str, dict[str, Any]]:
    return {**spectral_norm_cases(), **fpn_cases(), **causal_cases()}


def _causal_reference(lib: ModuleType, x: Any) -> Any:
    """PaddlePaddle's own softmax of x with the keys after each query at -inf."""
    n = x.shape[-1]
    hidden = np.triu(np.full((n, n), -np.inf), 1)
    return lib.nn.functional.softmax(x + lib.to_tensor(hidden, dtype=x.dtype), axis=-1)


def call(lib: ModuleType, case: dict[str, Any], tensors: dict[str, Any]) -> Any:
    def resolve(value: Any) -> Any:
        if isinstance(value, str) and value.startswith("$"):
            return tensors[value[1:]]
        if isinstance(value, list):
            return [resolve(item) for item in value]
        return value

    args = [resolve(a) for a in case["args"]]
    kwargs = {k: resolve(v) for k, v in case["kwargs"].items()}
    via, fn = case["via"], case["fn"]
    if via == "layer":
        layer = getattr(lib.nn, fn)(*args)
        layer.weight_u.set_value(tensors["u"])
        layer.weight_v.set_value(tensors["v"])
        return layer(tensors["weight"])
    if via == "causal":
        if lib.__name__ == "paddle":
            return _causal_reference(lib, *args)
        if fn == "softmax_mask_fuse_upper_triangle":
            return lib.incubate.softmax_mask_fuse_upper_triangle(*args)
    owner = {
        "op": importlib.import_module(f"{lib.__name__}._C_ops"),
        "causal": importlib.import_module(f"{lib.__name__}._C_ops"),
        "vision": importlib.import_module(f"{lib.__name__}.vision.ops"),
    }[via]
    return getattr(owner, fn)(*args, **kwargs)


def _flat(result: Any) -> list[Any]:
    if isinstance(result, (tuple, list)):
        return [item for part in result for item in _flat(part)]
    return [result]


def run(lib: ModuleType, case: dict[str, Any]) -> dict[str, Any]:
    """The case's outputs (dtype, shape, values), flattened, and gradients on ``lib``."""
    tensors = make_inputs(lib, case)
    outs = _flat(call(lib, case, tensors))
    recorded: dict[str, Any] = {
        "outs": [
            {"dtype": dtype_name(o.dtype), "shape": list(o.shape), "values": to_json(o.numpy())}
            for o in outs
        ],
        "grads": {},
    }
    wanted = [name for name, t in tensors.items() if not t.stop_gradient]
    targets = [o for o in outs if dtype_name(o.dtype) in FLOAT_KINDS and not o.stop_gradient]
    if wanted and targets:
        grad_outputs = [
            lib.to_tensor(out_grad_for(list(t.shape), dtype_name(t.dtype)), dtype=t.dtype)
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
