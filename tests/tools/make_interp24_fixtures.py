"""Writes tests/data/interp24/paddle_3_3_1.json: PaddlePaddle 3.3.1's results and gradients of
``F.interpolate(..., antialias=True)`` (op ``interp_antialias`` and ``interp_antialias_grad``),
bilinear and bicubic, for every dtype PaddlePaddle registers on CPU, NCHW and NHWC, downsampling,
upsampling and both at once, sizes as ints, lists and Tensors, scale factors as numbers, lists and
Tensors, ``recompute_scale_factor``, ``align_corners`` and empty inputs. (PaddlePaddle 3.3.1's
``nn.Upsample`` and ``F.upsample`` take no ``antialias``.)

``cases()`` describes each case; ``run(lib, case)`` runs it on ``paddle`` or ``phiops`` alike
and returns the output (and the input's gradient for the output gradient w, fixed where the case
asks for one), as float64 lists: tests/ops/test_interp24_antialias.py compares phiops with the
recording (no PaddlePaddle needed) and tests/parity/test_interp24_parity_paddle.py runs both live.

Run with the side venv: ``PYTHONPATH=$PWD /work/paddle-venv/bin/python
tests/tools/make_interp24_fixtures.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

OUT = Path(__file__).resolve().parents[1] / "data" / "interp24" / "paddle_3_3_1.json"

FLOATS = ("float32", "float64", "float16", "bfloat16")


def _case(
    shape: list[int],
    dtype: str,
    seed: int,
    grad: bool = True,
    **kwargs: Any,
) -> dict[str, Any]:
    return {
        "shape": shape,
        "dtype": dtype,
        "seed": seed,
        "grad": grad and dtype != "uint8",
        "kwargs": kwargs,
    }


def cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for mode in ("bilinear", "bicubic"):
        for dtype in FLOATS + ("uint8",):
            out[f"{mode}-down-{dtype}"] = _case([2, 3, 9, 11], dtype, 1, size=[4, 5], mode=mode)
        out[f"{mode}-up"] = _case([1, 2, 4, 5], "float32", 2, size=[7, 9], mode=mode)
        out[f"{mode}-mixed-f64"] = _case([1, 2, 6, 6], "float64", 3, size=[3, 10], mode=mode)
        out[f"{mode}-nhwc"] = _case(
            [2, 8, 7, 3], "float32", 4, size=[3, 4], mode=mode, data_format="NHWC"
        )
        out[f"{mode}-nhwc-uint8"] = _case(
            [1, 9, 8, 3], "uint8", 5, size=[4, 3], mode=mode, data_format="NHWC"
        )
        out[f"{mode}-scale-number"] = _case([1, 1, 10, 8], "float32", 6, scale_factor=0.5, mode=mode)
        out[f"{mode}-scale-list"] = _case(
            [1, 2, 9, 12], "float64", 7, scale_factor=[0.4, 0.75], mode=mode
        )
        out[f"{mode}-align-corners"] = _case(
            [1, 2, 9, 7], "float32", 8, size=[4, 3], mode=mode, align_corners=True
        )
        out[f"{mode}-size-tensor"] = _case(
            [1, 2, 9, 7], "float32", 9, size={"tensor": [5, 3], "dtype": "int32"}, mode=mode
        )
        out[f"{mode}-size-tensor-list"] = _case(
            [1, 2, 9, 7], "float64", 10, size=[{"tensor": [4], "dtype": "int64"}, 2], mode=mode
        )
        out[f"{mode}-scale-tensor"] = _case(
            [1, 2, 8, 12], "float32", 11, scale_factor={"tensor": [0.5, 0.25], "dtype": "float32"},
            mode=mode,
        )  # fmt: skip
        out[f"{mode}-same-size"] = _case([1, 2, 5, 6], "float32", 12, size=[5, 6], mode=mode)
        out[f"{mode}-recompute-scale"] = _case(
            [1, 2, 10, 10], "float32", 13, scale_factor=0.45, recompute_scale_factor=True,
            mode=mode,
        )  # fmt: skip
        out[f"{mode}-empty"] = _case([0, 2, 6, 6], "float32", 16, grad=False, size=[3, 2], mode=mode)
        out[f"{mode}-to-one"] = _case([1, 1, 7, 5], "float64", 14, size=[1, 1], mode=mode)
    out["bilinear-big-ratio"] = _case([1, 1, 40, 3], "float64", 15, size=[3, 2], mode="bilinear")
    return out


def make_input(case: dict[str, Any]) -> np.ndarray:
    """The case's input as float64 values its dtype holds exactly."""
    rng = np.random.default_rng(case["seed"])
    shape = case["shape"]
    if case["dtype"] == "uint8":
        return rng.integers(0, 256, shape).astype(np.float64)
    values = rng.uniform(-2.0, 2.0, shape)
    # bfloat16 and float16 hold multiples of 1/64 in [-2, 2] exactly
    return np.round(values * 64) / 64


def out_weight(shape: list[int], seed: int) -> np.ndarray:
    """The fixed output gradient w."""
    rng = np.random.default_rng(seed + 1000)
    return np.round(rng.uniform(-1.0, 1.0, shape) * 64) / 64


def _value(lib: ModuleType, value: Any) -> Any:
    if isinstance(value, dict):
        return lib.to_tensor(value["tensor"], dtype=value["dtype"])
    if isinstance(value, list):
        return [_value(lib, v) for v in value]
    return value


def run(lib: ModuleType, case: dict[str, Any]) -> dict[str, Any]:
    """{"out", "shape", "dtype"} and, with case["grad"], {"grad"}: float64 lists."""
    dtype = case["dtype"]
    values = make_input(case)
    if dtype == "bfloat16":
        x = lib.to_tensor(values.astype(np.float32)).astype("bfloat16")
    else:
        x = lib.to_tensor(values.astype(dtype))
    x.stop_gradient = not case["grad"]
    kwargs = {k: _value(lib, v) for k, v in case["kwargs"].items()}
    out = lib.nn.functional.interpolate(x, antialias=True, **kwargs)
    result: dict[str, Any] = {
        "out": out.astype("float64").numpy().reshape(-1).tolist()
        if dtype != "uint8"
        else out.numpy().astype(np.float64).reshape(-1).tolist(),
        "shape": list(out.shape),
        "dtype": str(out.dtype).split(".")[-1],
    }
    if case["grad"]:
        weight = out_weight(list(out.shape), case["seed"])
        w = lib.to_tensor(weight.astype(np.float32)).astype(out.dtype)
        out.backward(w)
        result["grad"] = x.grad.astype("float64").numpy().reshape(-1).tolist()
    return result


def main() -> None:
    import paddle

    paddle.set_device("cpu")
    recorded = {key: run(paddle, case) for key, case in sorted(cases().items())}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(recorded, sort_keys=True) + "\n")
    print(f"wrote {len(recorded)} cases to {OUT}")


if __name__ == "__main__":
    main()
