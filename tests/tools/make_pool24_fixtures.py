"""Writes tests/data/pool24/paddle_3_3_1.json: PaddlePaddle 3.3.1's results and gradients of the
pool24 ops of issue 24 (lp_pool2d through F.lp_pool1d/F.lp_pool2d and through its op directly,
fractional_max_pool2d/3d with a given u and with u drawn after paddle.seed), for every dtype
PaddlePaddle registers on CPU, on small inputs.

``cases()`` and ``run(module, case)`` serve tests/ops/test_pool24_paddle.py (phiops against the
recording, no PaddlePaddle needed) and tests/parity/test_pool24_parity_paddle.py (both live).

Run with the side venv: ``PYTHONPATH=$PWD /work/paddle-venv/bin/python
tests/tools/make_pool24_fixtures.py``.
"""

from __future__ import annotations

import importlib
import json
import math
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

import numpy as np

OUT = Path(__file__).resolve().parents[1] / "data" / "pool24" / "paddle_3_3_1.json"
INF = math.inf


def _lp_op(
    m: ModuleType, x: Any, kernel, strides, paddings, ceil, fmt, pooling, adaptive, p, whole=False
):
    return importlib.import_module(f"{m.__name__}._C_ops").lp_pool2d(
        x, kernel, strides, paddings, ceil, True, fmt, pooling, whole, adaptive, "EXPLICIT", p
    )


def _seeded(name: str, size: list[int]) -> Callable[[ModuleType, Any], Any]:
    """Two calls after seed(2024), u drawn by each: the engine's first two draws."""

    def call(m: ModuleType, x: Any) -> Any:
        function = getattr(m.nn.functional, name)
        m.seed(2024)
        first = function(x, size, return_mask=True)
        second = function(x, size, return_mask=True)
        return m.concat([first[0], second[0]]), m.concat([first[1], second[1]])

    return call


def _f(name: str, *args: Any, **kwargs: Any) -> Callable[[ModuleType, Any], Any]:
    return lambda m, x: getattr(m.nn.functional, name)(x, *args, **kwargs)


# name -> (call(module, x), shape, low, high)
CALLS: dict[str, tuple[Callable[[ModuleType, Any], Any], list[int], float, float]] = {
    "lp2d-p2-pad": (_f("lp_pool2d", 2, 2, stride=1, padding=1), [1, 2, 5, 6], 0.1, 1.0),
    "lp2d-p3-ceil": (_f("lp_pool2d", 3, 3, stride=2, ceil_mode=True), [2, 1, 6, 7], 0.1, 1.0),
    "lp2d-inf-nhwc": (
        _f("lp_pool2d", INF, [2, 3], stride=[1, 2], data_format="NHWC"),
        [1, 4, 5, 3],
        -1.0,
        1.0,
    ),
    "lp2d-p1.5-negative": (_f("lp_pool2d", 1.5, 2), [1, 1, 4, 4], -1.0, 1.0),
    "lp2d-p-1": (_f("lp_pool2d", -1, 2, stride=1), [1, 2, 4, 5], 0.5, 2.0),
    "lp2d-same": (_f("lp_pool2d", 2.5, 3, stride=2, padding="SAME"), [1, 1, 5, 5], 0.1, 1.0),
    "lp1d-p2": (_f("lp_pool1d", 2, 3, stride=2, padding=1), [2, 3, 9], 0.1, 1.0),
    "lp1d-nlc": (_f("lp_pool1d", 4, 2, data_format="NLC"), [1, 8, 2], 0.1, 1.0),
    "lpop-adaptive": (
        lambda m, x: _lp_op(m, x, [2, 3], [1, 1], [0, 0], False, "NCHW", "lp", True, 2.0),
        [1, 2, 5, 7],
        0.1,
        1.0,
    ),
    "lpop-avg": (
        lambda m, x: _lp_op(m, x, [2, 2], [2, 2], [1, 1], False, "NCHW", "avg", False, 2.0),
        [1, 1, 4, 6],
        -1.0,
        1.0,
    ),
    "lpop-max": (
        lambda m, x: _lp_op(m, x, [3, 2], [1, 2], [0, 0], True, "NCHW", "max", False, 3.0),
        [1, 1, 4, 6],
        -1.0,
        1.0,
    ),
    "lpop-global": (
        lambda m, x: _lp_op(m, x, [1, 1], [1, 1], [0, 0], False, "NCHW", "lp", False, 2.0, True),
        [1, 2, 3, 4],
        0.1,
        1.0,
    ),
    "frac2d-u0.3": (
        _f("fractional_max_pool2d", [3, 4], random_u=0.3, return_mask=True),
        [1, 2, 7, 9],
        -1.0,
        1.0,
    ),
    "frac2d-kernel": (
        _f("fractional_max_pool2d", [4, 3], kernel_size=2, random_u=0.6, return_mask=True),
        [2, 1, 8, 7],
        -1.0,
        1.0,
    ),
    "frac2d-size-none": (
        _f("fractional_max_pool2d", [None, 4], random_u=0.9, return_mask=True),
        [1, 1, 5, 9],
        -1.0,
        1.0,
    ),
    "frac3d-u0.45": (
        _f("fractional_max_pool3d", [2, 3, 4], random_u=0.45, return_mask=True),
        [1, 2, 5, 6, 7],
        -1.0,
        1.0,
    ),
    "frac3d-kernel": (
        _f("fractional_max_pool3d", 3, kernel_size=[2, 2, 3], random_u=0.2, return_mask=True),
        [1, 1, 5, 5, 6],
        -1.0,
        1.0,
    ),
    "frac2d-seeded": (_seeded("fractional_max_pool2d", [4, 3]), [1, 1, 11, 10], -1.0, 1.0),
    "frac3d-seeded": (_seeded("fractional_max_pool3d", [3, 2, 4]), [1, 1, 7, 6, 9], -1.0, 1.0),
}

# the dtypes each call is recorded in (PaddlePaddle 3.3.1's CPU registrations)
DTYPES: dict[str, tuple[str, ...]] = {
    "lp2d-p2-pad": ("float32", "float64"),
    "lp2d-p3-ceil": ("float32", "float64"),
    "frac2d-u0.3": ("float16", "float32", "float64"),
    "frac3d-u0.45": ("float16", "float32", "float64"),
    "frac2d-seeded": ("float32", "float64"),
}
DEFAULT_DTYPES = ("float64",)


def cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for index, name in enumerate(sorted(CALLS)):
        for dtype in DTYPES.get(name, DEFAULT_DTYPES):
            out[f"{name}-{dtype}"] = {"call": name, "dtype": dtype, "seed": index}
    return out


def _encode(array: np.ndarray) -> list:
    return np.asarray(array, np.float64).tolist() if array.dtype.kind == "f" else array.tolist()


def run(m: ModuleType, case: dict[str, Any]) -> dict[str, Any]:
    """The case on ``m`` (phiops or paddle): out, mask (fractional) and the gradient for an
    output gradient drawn with the case's seed, as JSON-ready lists with the dtypes."""
    call, shape, low, high = CALLS[case["call"]]
    rng = np.random.default_rng(case["seed"])
    x_np = rng.uniform(low, high, shape).astype(case["dtype"])
    x = m.to_tensor(x_np, stop_gradient=False)
    result = call(m, x)
    out, mask = result if isinstance(result, (tuple, list)) else (result, None)
    weights = rng.uniform(0.5, 1.5, list(out.shape)).astype(case["dtype"])
    (grad,) = m.grad([out], [x], grad_outputs=[m.to_tensor(weights)])
    recorded = {
        "out": _encode(out.numpy()),
        "out_dtype": str(out.numpy().dtype),
        "grad": _encode(grad.numpy()),
        "grad_dtype": str(grad.numpy().dtype),
    }
    if mask is not None:
        recorded["mask"] = _encode(mask.numpy())
        recorded["mask_dtype"] = str(mask.numpy().dtype)
    return recorded


def main() -> None:
    import paddle

    recorded = {key: run(paddle, case) for key, case in cases().items()}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(recorded, sort_keys=True) + "\n")
    print(f"wrote {len(recorded)} cases to {OUT}")


if __name__ == "__main__":
    main()
