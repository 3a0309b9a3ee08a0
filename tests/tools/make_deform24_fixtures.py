"""Writes tests/data/deform24/paddle_3_3_1.json: PaddlePaddle 3.3.1's results and gradients (x,
offset, filter, mask, bias) of deformable_conv through the op (``paddle._C_ops``) and
``paddle.vision.ops.deform_conv2d``, for float32 and float64, with and without a mask, groups
and deformable_groups, strides, paddings and dilations, and offsets that move sampling points
past every border of the map (points outside -1 < h < H read 0, neighbours outside read 0) or
onto whole pixels.

Cases use the format of tests/tools/make_losscum_fixtures.py, run by
tests/tools/make_detect24_fixtures.py's ``run`` (``via`` "op" or "vision").
tests/ops/test_deform24_paddle.py compares phiops with the recording (no PaddlePaddle needed) and
tests/parity/test_deform24_parity_paddle.py runs both live.

Run with the side venv: ``PYTHONPATH=$PWD /work/paddle-venv/bin/python
tests/tools/make_deform24_fixtures.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from tests.tools.make_detect24_fixtures import run
from tests.tools.make_losscum_fixtures import case, tensor

OUT = Path(__file__).resolve().parents[1] / "data" / "deform24" / "paddle_3_3_1.json"

REAL = ("float32", "float64")


def _values(n: int, seed: int, low: float, high: float, decimals: int = 3) -> list[float]:
    return np.round(np.random.default_rng(seed).uniform(low, high, n), decimals).tolist()


def _offsets(shape: list[int], seed: int, spread: float, whole: bool = False) -> list[float]:
    count = int(np.prod(shape))
    rng = np.random.default_rng(seed)
    if whole:  # whole pixels: every point on a pixel (its right and lower neighbours weigh 0)
        return rng.integers(-2, 3, count).astype(float).tolist()
    values = np.round(rng.uniform(-spread, spread, count), 3)
    values[::7] *= 4  # some points far past the borders
    return values.tolist()


# (label, x shape, out channels, kernel, strides, paddings, dilations, deformable_groups, groups,
#  offset spread, whole-pixel offsets)
GEOMETRIES = [
    ("basic", [2, 2, 5, 6], 3, (3, 3), [1, 1], [1, 1], [1, 1], 1, 1, 1.5, False),
    ("groups", [1, 4, 5, 5], 4, (3, 2), [2, 1], [1, 0], [1, 2], 2, 2, 1.2, False),
    ("dgroups", [2, 4, 4, 5], 4, (2, 2), [1, 2], [0, 1], [2, 1], 4, 1, 2.0, False),
    ("whole", [1, 3, 4, 4], 2, (2, 3), [1, 1], [1, 1], [1, 1], 1, 1, 0.0, True),
]


def _output(size: int, kernel: int, stride: int, pad: int, dilation: int) -> int:
    return (size + 2 * pad - (dilation * (kernel - 1) + 1)) // stride + 1


def deformable_conv_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for seed, geometry in enumerate(GEOMETRIES):
        label, x_shape, out_ch, (kh, kw), strides, paddings, dilations, dg, groups = geometry[:9]
        spread, whole = geometry[9:]
        n, c, h, w = x_shape
        oh = _output(h, kh, strides[0], paddings[0], dilations[0])
        ow = _output(w, kw, strides[1], paddings[1], dilations[1])
        offset_shape = [n, 2 * dg * kh * kw, oh, ow]
        mask_shape = [n, dg * kh * kw, oh, ow]
        filter_shape = [out_ch, c // groups, kh, kw]
        x_values = _values(int(np.prod(x_shape)), 10 + seed, -1.0, 1.0)
        offset_values = _offsets(offset_shape, 20 + seed, spread, whole)
        mask_values = _values(int(np.prod(mask_shape)), 30 + seed, 0.0, 1.0)
        filter_values = _values(int(np.prod(filter_shape)), 40 + seed, -0.5, 0.5)
        bias_values = _values(out_ch, 50 + seed, -0.5, 0.5)
        attrs = [strides, paddings, dilations, dg, groups]
        for dtype in REAL:
            x = tensor("x", x_values, x_shape, dtype)
            offset = tensor("offset", offset_values, offset_shape, dtype)
            mask = tensor("mask", mask_values, mask_shape, dtype)
            weight = tensor("filter", filter_values, filter_shape, dtype)
            bias = tensor("bias", bias_values, [out_ch], dtype)
            out[f"deformable_conv-{label}-mask-{dtype}"] = case(
                "op",
                "deformable_conv",
                [x, offset, weight, mask],
                ["$x", "$offset", "$filter", "$mask", *attrs, 1],
            )
            out[f"deformable_conv-{label}-nomask-{dtype}"] = case(
                "op",
                "deformable_conv",
                [x, offset, weight],
                ["$x", "$offset", "$filter", None, *attrs, 1],
            )
            out[f"deform_conv2d-{label}-{dtype}"] = case(
                "vision",
                "deform_conv2d",
                [x, offset, weight, bias, mask],
                ["$x", "$offset", "$filter", "$bias"],
                {
                    "stride": strides,
                    "padding": paddings,
                    "dilation": dilations,
                    "deformable_groups": dg,
                    "groups": groups,
                    "mask": "$mask",
                },
            )
    # v1 through paddle.vision.ops, scalar stride/padding/dilation
    x = tensor("x", _values(2 * 2 * 4 * 4, 60, -1.0, 1.0), [2, 2, 4, 4], "float64")
    offset = tensor("offset", _offsets([2, 8, 3, 3], 61, 1.0), [2, 8, 3, 3], "float64")
    weight = tensor("filter", _values(2 * 2 * 2 * 2, 62, -0.5, 0.5), [2, 2, 2, 2], "float64")
    out["deform_conv2d-v1-scalars-float64"] = case(
        "vision", "deform_conv2d", [x, offset, weight], ["$x", "$offset", "$filter", None, 1, 0, 1]
    )
    return out


def cases() -> dict[str, dict[str, Any]]:
    return deformable_conv_cases()


def main() -> None:
    import paddle

    recorded = {key: {**c, **run(paddle, c)} for key, c in sorted(cases().items())}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(recorded)} cases to {OUT}")


if __name__ == "__main__":
    main()
