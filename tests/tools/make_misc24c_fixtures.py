"""Writes tests/data/misc24c/paddle_3_3_1.json: PaddlePaddle 3.3.1's results for the misc24c ops
of issue 24 (embedding_grad_dense, weight_quantize, dgc_momentum), and its refusals.

Each case names its inputs (``[name, values, shape, dtype]``), its arguments (``"$x"`` for
input ``x``) and ``via``, how each library is called:

- ``dense_kernel``: phiops's ``_C_ops.embedding_grad_dense``; PaddlePaddle's
  ``_C_ops.embedding_grad``, the same kernel (EmbeddingGradKernel). PaddlePaddle 3.3.1's own
  ``_C_ops.embedding_grad_dense`` refuses every call on CPU with "(InvalidArgument) Required
  tensor shall not be nullptr" (recorded below as a refusal, checked live by
  tests/parity/test_misc24c_parity_paddle.py), so its kernel is reached through embedding_grad;
- ``dense_autograd``: phiops's ``_C_ops.embedding_grad_dense``; PaddlePaddle's ``paddle.grad``
  of ``F.embedding(x, weight, padding_idx, sparse=False)`` with out_grad as the upstream gradient;
- ``op`` / ``quant``: ``_C_ops.weight_quantize`` / ``nn.quant.weight_quantize`` on both;
- ``dgc``: phiops's ``_C_ops.dgc_momentum``; PaddlePaddle's legacy static ``dgc_momentum`` op with
  ``Grad_out`` written into ``Grad`` as its DGC optimizer wires it (its eager call fails with
  "Tensor holds no memory": its InferMeta gives grad_out no dims). Where 3.3.1's SGD branch
  leaves VelocityOut unwritten the recording holds None (phiops returns velocity unchanged).

Refusals record the first line of PaddlePaddle's error. tests/ops/test_misc24c_paddle.py
compares phiops with the recording; tests/parity/test_misc24c_parity_paddle.py runs both live.
The cases that crash 3.3.1's CPU kernel (weight-only arch >= 75 with m not a multiple of 64,
llm.int8 arch 70 with m != n: heap corruption) are left out; phiops refuses them.

Run with the side venv: ``PYTHONPATH=$PWD /work/paddle-venv/bin/python
tests/tools/make_misc24c_fixtures.py``.
"""

from __future__ import annotations

import importlib
import json
import math
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

OUT = Path(__file__).resolve().parents[1] / "data" / "misc24c" / "paddle_3_3_1.json"

__all__ = ["OUT", "cases", "refusals", "run", "refuse"]


def _normal(n: int, seed: int, scale: float = 1.0) -> list[float]:
    return np.round(np.random.default_rng(seed).normal(0.0, scale, n), 3).tolist()


def _case(via: str, fn: str, inputs: list[list], args: list[Any], **kwargs: Any) -> dict:
    return {"via": via, "fn": fn, "inputs": inputs, "args": args, "kwargs": kwargs}


def embedding_cases() -> dict[str, dict]:
    out: dict[str, dict] = {}
    ids = [0, 2, 2, 4, 1, 2]
    for dtype in ("float32", "float64", "float16", "bfloat16"):
        for id_dtype in ("int64", "int32"):
            for padding in (-1, 2, 0):
                inputs = [
                    ["x", ids, [2, 3], id_dtype],
                    ["weight", [0.0] * 20, [5, 4], dtype],
                    ["out_grad", _normal(24, 7), [2, 3, 4], dtype],
                ]
                key = f"embedding_grad_dense-{dtype}-{id_dtype}-pad{padding}"
                out[key] = _case("dense_kernel", "embedding_grad_dense", inputs,
                                 ["$x", "$weight", "$out_grad", padding, False])  # fmt: skip
    for dtype in ("float32", "float64"):
        inputs = [
            ["x", [3, 0, 3, 3], [4], "int64"],
            ["weight", [0.0] * 12, [4, 3], dtype],
            ["out_grad", _normal(12, 8), [4, 3], dtype],
        ]
        for padding in (-1, 3):
            out[f"embedding_grad_dense-{dtype}-autograd-pad{padding}"] = _case(
                "dense_autograd", "embedding_grad_dense", inputs,
                ["$x", "$weight", "$out_grad", padding, False],
            )  # fmt: skip
    inputs = [
        ["x", [1], [], "int64"],
        ["weight", [0.0] * 6, [3, 2], "float32"],
        ["out_grad", [0.5, -1.5], [2], "float32"],
    ]
    out["embedding_grad_dense-float32-0d-sparse"] = _case(
        "dense_kernel", "embedding_grad_dense", inputs, ["$x", "$weight", "$out_grad", -1, True]
    )
    return out


def quantize_cases() -> dict[str, dict]:
    out: dict[str, dict] = {}
    for dtype in ("float16", "bfloat16"):
        x64 = ["x", _normal(64 * 16, 11), [64, 16], dtype]
        x128 = ["x", _normal(128 * 16, 12, 0.05), [128, 16], dtype]
        for algo in ("weight_only_int8", "weight_only_int4"):
            for arch in (70, 75, 80, 86, 89, 90, 100):
                out[f"weight_quantize-{dtype}-{algo}-arch{arch}"] = _case(
                    "op", "weight_quantize", [x64], ["$x", algo, arch, -1]
                )
            for group in (64, 128):
                for arch in (70, 80):
                    out[f"weight_quantize-{dtype}-{algo}-arch{arch}-g{group}"] = _case(
                        "op", "weight_quantize", [x128], ["$x", algo, arch, group]
                    )
        for arch in (75, 90):
            out[f"weight_quantize-{dtype}-llm.int8-arch{arch}"] = _case(
                "op", "weight_quantize", [x64], ["$x", "llm.int8", arch, -1]
            )
        out[f"weight_quantize-{dtype}-llm.int8-arch80-g64-m60"] = _case(
            "op", "weight_quantize", [["x", _normal(60 * 16, 13), [60, 16], dtype]],
            ["$x", "llm.int8", 80, 64],
        )  # fmt: skip
        out[f"weight_quantize-{dtype}-llm.int8-arch70-square"] = _case(
            "op", "weight_quantize", [["x", _normal(16 * 16, 14), [16, 16], dtype]],
            ["$x", "llm.int8", 70, -1],
        )  # fmt: skip
        # rows of 0 (whole columns 0 per group), ties at .5 and a column of one large value
        edge = np.array(_normal(128 * 16, 15)).reshape(128, 16)
        edge[:64, 3] = 0.0
        edge[:, 5] = 0.0
        edge[:, 7] = np.tile([127.0, 0.5, -1.5, 2.5, -63.5, 63.5, 0.0, -127.0], 16)
        edge[:, 9] = 0.0
        edge[0, 9] = 1000.0
        for algo in ("weight_only_int8", "weight_only_int4", "llm.int8"):
            # llm.int8 with arch 70 needs a square x
            for arch, group in ((75, -1), (80, 64)) if algo == "llm.int8" else ((70, -1), (80, 64)):
                out[f"weight_quantize-{dtype}-{algo}-edge-arch{arch}-g{group}"] = _case(
                    "op", "weight_quantize", [["x", edge.reshape(-1).tolist(), [128, 16], dtype]],
                    ["$x", algo, arch, group],
                )  # fmt: skip
        out[f"weight_quantize-{dtype}-api-default"] = _case(
            "quant", "weight_quantize", [x64], ["$x"], arch=80
        )
        out[f"weight_quantize-{dtype}-api-int4-g128"] = _case(
            "quant", "weight_quantize", [x128], ["$x", "weight_only_int4", 86, 128]
        )
    return out


def dgc_cases() -> dict[str, dict]:
    out: dict[str, dict] = {}
    base = [
        ["param", _normal(6, 21), [2, 3], "float32"],
        ["grad", _normal(6, 22), [2, 3], "float32"],
        ["velocity", _normal(6, 23, 0.5), [2, 3], "float32"],
        ["learning_rate", [0.25], [1], "float32"],
    ]
    settings = {
        "momentum": (1, 2, 5.0, False, "", 0.0, 1.0),
        "momentum-nranks4": (0, 4, 3.0, False, "", 0.0, 1.0),
        "momentum-nranks3": (2, 3, 3.0, False, "", 0.0, 1.0),
        "nesterov": (1, 2, 5.0, True, "", 0.0, 1.0),
        "l2-decay": (1, 2, 5.0, False, "l2_decay", 0.1, 1.0),
        "rescale": (1, 2, 5.0, False, "", 0.0, 0.5),
        "nesterov-l2-rescale": (4, 8, 5.0, True, "l2_decay", 0.3, 2.0),
        "step-truncated": (4.9, 2, 5.0, False, "", 0.0, 1.0),
        "sgd-at-rampup": (5, 2, 5.0, False, "", 0.0, 1.0),
        "sgd-after": (9, 2, 5.0, True, "l2_decay", 0.1, 0.5),
        "sgd-rampup0": (0, 2, 0.0, False, "", 0.0, 1.0),
    }
    for label, (step, nranks, rampup, nesterov, reg, coeff, rescale) in settings.items():
        inputs = base + [
            ["current_step_tensor", [step], [1], "float32"],
            ["nranks_tensor", [nranks], [1], "float32"],
        ]
        out[f"dgc_momentum-float32-{label}"] = _case(
            "dgc", "dgc_momentum", inputs,
            ["$param", "$grad", "$velocity", "$learning_rate", None, "$current_step_tensor",
             "$nranks_tensor", 0.9, nesterov, reg, coeff, False, rescale, rampup],
        )  # fmt: skip
    return out


def cases() -> dict[str, dict]:
    return {**embedding_cases(), **quantize_cases(), **dgc_cases()}


def refusals() -> dict[str, dict]:
    """Calls 3.3.1 refuses, each recorded with its error's first line."""
    x = ["x", _normal(64 * 16, 31), [64, 16], "float16"]
    out = {
        f"weight_quantize-{label}": _case(via, "weight_quantize", [tensor], args)
        for label, via, tensor, args in (
            ("algo", "op", x, ["$x", "int2", 80, -1]),
            ("arch60", "op", x, ["$x", "weight_only_int8", 60, -1]),
            ("api-arch-none", "quant", x, ["$x", "weight_only_int8"]),
            ("group32", "op", x, ["$x", "weight_only_int8", 80, 32]),
            (
                "3d",
                "op",
                ["x", _normal(128, 32), [2, 4, 16], "float16"],
                ["$x", "weight_only_int8", 80, -1],
            ),
            (
                "n12",
                "op",
                ["x", _normal(64 * 12, 33), [64, 12], "float16"],
                ["$x", "weight_only_int8", 80, -1],
            ),
            (
                "float32",
                "op",
                ["x", _normal(64 * 16, 34), [64, 16], "float32"],
                ["$x", "weight_only_int8", 80, -1],
            ),
        )
    }
    dgc = dgc_cases()["dgc_momentum-float32-momentum"]
    one = [t if t[0] != "nranks_tensor" else ["nranks_tensor", [1], [1], "float32"]
           for t in dgc["inputs"]]  # fmt: skip
    out["dgc_momentum-nranks1"] = {**dgc, "inputs": one, "via": "op"}
    out["embedding_grad_dense-direct"] = {
        **embedding_cases()["embedding_grad_dense-float32-int64-pad-1"],
        "via": "op",
    }
    return out


def make_inputs(lib: ModuleType, case: dict) -> dict[str, Any]:
    tensors = {}
    for name, values, shape, dtype in case["inputs"]:
        array = np.array(values, "float32" if dtype == "bfloat16" else dtype).reshape(shape)
        made = lib.to_tensor(array, dtype="float32" if dtype == "bfloat16" else dtype)
        tensors[name] = made.astype("bfloat16") if dtype == "bfloat16" else made
    return tensors


def _resolve(value: Any, tensors: dict[str, Any]) -> Any:
    if isinstance(value, str) and value.startswith("$"):
        return tensors[value[1:]]
    return value


def _dgc_static(paddle: ModuleType, case: dict) -> list[Any]:
    """3.3.1's legacy static dgc_momentum, Grad_out written into Grad: [param_out,
    velocity_out (None where unwritten), None (no master_param), grad_out] as numpy."""
    from paddle.base.layer_helper import LayerHelper
    from paddle.pir_utils import OldIrGuard

    mu, nesterov, reg, coeff, _, rescale, rampup = case["args"][7:]
    legacy = {"param": "Param", "grad": "Grad", "velocity": "Velocity",
              "learning_rate": "LearningRate", "current_step_tensor": "current_step",
              "nranks_tensor": "nranks"}  # fmt: skip
    with OldIrGuard():
        paddle.enable_static()
        try:
            main, start = paddle.static.Program(), paddle.static.Program()
            with paddle.static.program_guard(main, start):
                data = {n: paddle.static.data(n, s, d) for n, _, s, d in case["inputs"]}
                helper = LayerHelper("dgc_momentum")
                param_out = helper.create_variable_for_type_inference("float32")
                velocity_out = helper.create_variable_for_type_inference("float32")
                helper.append_op(
                    type="dgc_momentum",
                    inputs={legacy[n]: v for n, v in data.items()},
                    outputs={"ParamOut": param_out, "VelocityOut": velocity_out,
                             "Grad_out": data["grad"]},  # fmt: skip
                    attrs={"mu": mu, "use_nesterov": nesterov, "regularization_method": reg,
                           "regularization_coeff": coeff, "rescale_grad": rescale,
                           "rampup_begin_step": rampup},  # fmt: skip
                )
            executor = paddle.static.Executor(paddle.CPUPlace())
            feed = {n: np.array(v, d).reshape(s) for n, v, s, d in case["inputs"]}
            fetched = [param_out, data["grad"]]
            sgd = int(case["inputs"][4][1][0]) >= int(rampup)
            if not sgd:
                fetched.insert(1, velocity_out)
            got = executor.run(main, feed=feed, fetch_list=fetched)
        finally:
            paddle.disable_static()
    return [got[0], None if sgd else got[1], None, got[-1]]


def _as_record(value: Any) -> dict | None:
    if value is None:
        return None
    if not isinstance(value, np.ndarray):
        dtype = str(value.dtype).split(".")[-1].lower()
        array = (value.astype("float32") if dtype == "bfloat16" else value).numpy()
    else:
        dtype, array = str(value.dtype), value
    values = [None if math.isnan(v) else v for v in array.reshape(-1).astype(float).tolist()]
    return {"dtype": dtype, "shape": list(array.shape), "values": values}


def call(lib: ModuleType, case: dict) -> list[Any]:
    """The case's outputs on ``lib`` (phiops or paddle), as a list."""
    paddle_side = lib.__name__ == "paddle"
    if paddle_side and case["via"] == "dgc":
        return _dgc_static(lib, case)
    tensors = make_inputs(lib, case)
    args = [_resolve(a, tensors) for a in case["args"]]
    kwargs = {k: _resolve(v, tensors) for k, v in case["kwargs"].items()}
    ops = importlib.import_module(f"{lib.__name__}._C_ops")
    via, fn = case["via"], case["fn"]
    if via == "quant":
        return list(importlib.import_module(f"{lib.__name__}.nn.quant").weight_quantize(
            *args, **kwargs))  # fmt: skip
    if paddle_side and via == "dense_kernel":
        return [ops.embedding_grad(*args[:4], False)]  # its sparse picks the SelectedRows kernel
    if paddle_side and via == "dense_autograd":
        weight = tensors["weight"]
        weight.stop_gradient = False
        padding = None if args[3] == -1 else args[3]  # F.embedding takes -1 as the last row
        looked_up = lib.nn.functional.embedding(tensors["x"], weight, padding, sparse=False)
        return list(lib.grad(looked_up, weight, tensors["out_grad"]))
    result = getattr(ops, fn)(*args, **kwargs)
    return list(result) if isinstance(result, (tuple, list)) else [result]


def run(lib: ModuleType, case: dict) -> list[dict | None]:
    return [_as_record(value) for value in call(lib, case)]


def refuse(lib: ModuleType, case: dict) -> BaseException:
    """The error ``lib`` raises for the refused case (AssertionError if none)."""
    try:
        call(lib, case)
    except Exception as error:  # noqa: BLE001  (the error is the result)
        return error
    raise AssertionError(f"{case['fn']} did not refuse {case['args']}")


def main() -> None:
    import paddle

    recorded = {}
    for key, c in sorted(cases().items()):
        print(key, flush=True)
        recorded[key] = {**c, "outs": run(paddle, c)}
    for key, c in sorted(refusals().items()):
        error = refuse(paddle, c)
        recorded[f"refused-{key}"] = {**c, "error": str(error).strip().splitlines()[0]}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    lines = [
        f"{json.dumps(k)}: {json.dumps(v, sort_keys=True)}" for k, v in sorted(recorded.items())
    ]
    OUT.write_text("{\n" + ",\n".join(lines) + "\n}\n")
    print(f"wrote {len(recorded)} cases to {OUT}")


if __name__ == "__main__":
    main()
