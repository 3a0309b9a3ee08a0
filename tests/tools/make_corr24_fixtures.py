"""Writes tests/data/corr24/paddle_3_3_1.json: what PaddlePaddle 3.3.1 gives for the corr24 op,
``correlation`` (FlowNet's cost volume), on the CPU.

3.3.1's CPU kernel of ``correlation`` refuses to run ("Correlation only supports GPU now",
paddle/phi/kernels/cpu/correlation_kernel.cc), and so do ``paddle.incubate.layers.correlation``
(eager, through the legacy op) and the grad: there are no CPU values to record. phiops computes what
3.3.1's GPU kernel computes, checked against a numpy transcription of that kernel in
tests/ops/test_corr24.py. What 3.3.1 decides on the CPU, and this script records, is:

- ``"static"`` cases: the output's shape and dtype, which 3.3.1's ``CorrelationInferMeta`` gives
  while a static program is built (``paddle._C_ops.correlation`` on ``paddle.static.data``,
  nothing runs), over pad_size, kernel_size (odd and even), max_displacement, stride1, stride2 and
  float32/float64; and the kind of error for an input that is not 4-D;
- ``"eager"`` cases: the kind of error of an eager call on the CPU (the refusal), through the op
  and through ``paddle.incubate.layers.correlation``;
- under ``SIGNATURE_KEY``, the parameters of ``paddle.incubate.layers.correlation`` (name and
  default, in order), which ``phiops.incubate.layers.correlation`` keeps.

A case is ``{"mode", "via", "shape", "dtype", "args"}``; ``run(lib, case)`` runs one on ``paddle``
or ``phiops`` alike and returns ``{"shape", "dtype"}`` or ``{"error"}`` (the kind: ValueError,
NotImplementedError, ...). tests/ops/test_corr24_paddle.py compares phiops with the recording
(no PaddlePaddle needed) and tests/parity/test_corr24_parity_paddle.py runs both live.

Run with the side venv: ``PYTHONPATH=$PWD /work/paddle-venv/bin/python
tests/tools/make_corr24_fixtures.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

OUT = Path(__file__).resolve().parents[1] / "data" / "corr24" / "paddle_3_3_1.json"

SIGNATURE_KEY = "signature:incubate.layers.correlation"

# the kinds of error both libraries raise alike (phiops's errors subclass them)
ERROR_KINDS = (NotImplementedError, IndexError, ValueError, TypeError, RuntimeError)

# (pad_size, kernel_size, max_displacement, stride1, stride2, corr_type_multiply)
ATTRS = {
    "flownet": (4, 1, 4, 1, 1, 1),
    "k3": (1, 3, 2, 1, 1, 1),
    "k3-s1_2": (1, 3, 2, 2, 1, 1),
    "k2-even": (1, 2, 1, 1, 1, 1),
    "s2_2": (2, 1, 4, 1, 2, 1),
    "s2_3-uneven": (3, 1, 4, 2, 3, 1),
    "no-displacement": (0, 1, 0, 1, 1, 1),
    "k5-pad0": (0, 5, 1, 3, 1, 0),
    "exact-fit": (0, 3, 2, 1, 1, 1),
}


def cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for name, attrs in ATTRS.items():
        for dtype in ("float32", "float64"):
            out[f"static-{name}-{dtype}"] = {
                "mode": "static", "via": "op", "shape": [2, 3, 6, 7], "dtype": dtype,
                "args": list(attrs),
            }  # fmt: skip
    out["static-batch0"] = {
        "mode": "static", "via": "op", "shape": [0, 2, 5, 5], "dtype": "float32",
        "args": [1, 1, 1, 1, 1, 1],
    }  # fmt: skip
    out["static-3d-input-error"] = {
        "mode": "static", "via": "op", "shape": [3, 6, 7], "dtype": "float32",
        "args": [1, 1, 1, 1, 1, 1],
    }  # fmt: skip
    out["static-5d-input-error"] = {
        "mode": "static", "via": "op", "shape": [1, 2, 3, 6, 7], "dtype": "float64",
        "args": [1, 1, 1, 1, 1, 1],
    }  # fmt: skip
    for via in ("op", "incubate"):
        out[f"eager-{via}"] = {
            "mode": "eager", "via": via, "shape": [1, 2, 5, 5], "dtype": "float32",
            "args": [1, 1, 1, 1, 1, 1],
        }  # fmt: skip
    return out


def _dtype_name(dtype: Any) -> str:
    return str(dtype).rsplit(".", 1)[-1]


def _call(lib: ModuleType, via: str, x: Any, y: Any, args: list[int]) -> Any:
    if via == "incubate":
        return lib.incubate.layers.correlation(x, y, *args)
    return lib._C_ops.correlation(x, y, *args)


def run(lib: ModuleType, case: dict[str, Any]) -> dict[str, Any]:
    """One case on ``lib`` (paddle or phiops): the output's shape and dtype, or the kind of error."""
    if case["mode"] == "static":
        lib.enable_static()
        try:
            with lib.static.program_guard(lib.static.Program(), lib.static.Program()):
                x = lib.static.data("x", case["shape"], case["dtype"])
                y = lib.static.data("y", case["shape"], case["dtype"])
                try:
                    out = _call(lib, case["via"], x, y, case["args"])
                except ERROR_KINDS as error:
                    return {"error": _kind(error)}
                return {"shape": [int(d) for d in out.shape], "dtype": _dtype_name(out.dtype)}
        finally:
            lib.disable_static()
    rng = np.random.default_rng(24)
    x = lib.to_tensor(rng.standard_normal(case["shape"]).astype(case["dtype"]))
    y = lib.to_tensor(rng.standard_normal(case["shape"]).astype(case["dtype"]))
    try:
        out = _call(lib, case["via"], x, y, case["args"])
    except ERROR_KINDS as error:
        return {"error": _kind(error)}
    return {"shape": [int(d) for d in out.shape], "dtype": _dtype_name(out.dtype)}


def signature(lib: ModuleType) -> list[list[Any]]:
    """[name, repr of the default or None] of each parameter of ``lib.incubate.layers.correlation``."""
    import inspect

    params = inspect.signature(lib.incubate.layers.correlation).parameters.values()
    return [
        [p.name, None if p.default is inspect.Parameter.empty else repr(p.default)] for p in params
    ]


def _kind(error: BaseException) -> str:
    return next(kind.__name__ for kind in ERROR_KINDS if isinstance(error, kind))


def main() -> None:
    import paddle

    paddle.set_device("cpu")
    recorded = {key: run(paddle, case) for key, case in sorted(cases().items())}
    recorded[SIGNATURE_KEY] = signature(paddle)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(recorded)} cases to {OUT}")


if __name__ == "__main__":
    main()
