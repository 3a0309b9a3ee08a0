"""Writes tests/data/losscum/paddle_3_3_1.json: PaddlePaddle 3.3.1's results and gradients of the
losscum ops of issue 24 (bce_loss, sigmoid_cross_entropy_with_logits, kldiv_loss, huber_loss,
nll_loss, log_loss, hinge_loss, label_smooth, identity_loss, mean_all, ...) through the op
(``paddle._C_ops``), the ``paddle.nn.functional`` losses and the ``paddle.*`` functions, for every
dtype PaddlePaddle registers on CPU, on inputs with their edges (probabilities 0 and 1, ignored
labels, the Huber threshold, empty reductions).

A case names the function (``via``: ``op`` for ``_C_ops``, ``F`` for ``nn.functional``, ``api``
for the top level), its tensor inputs and its arguments, where ``"$x"`` stands for input ``x``.
``run(lib, case)`` runs it on ``paddle`` or on ``phiops`` alike (both have ``to_tensor``,
``_C_ops``, ``nn.functional`` and ``grad``): tests/ops/test_losscum_paddle.py compares phiops
with the recording (no PaddlePaddle needed) and tests/parity/test_losscum_parity_paddle.py runs
both live.

Run with the side venv: ``PYTHONPATH=$PWD /work/paddle-venv/bin/python
tests/tools/make_losscum_fixtures.py``.
"""

from __future__ import annotations

import importlib
import json
import math
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

OUT = Path(__file__).resolve().parents[1] / "data" / "losscum" / "paddle_3_3_1.json"

NAN, INF = math.nan, math.inf
FLOAT_KINDS = ("float16", "bfloat16", "float32", "float64", "complex64", "complex128")


def tensor(name: str, values: list, shape: list[int], dtype: str, grad: bool = True) -> list:
    return [name, values, shape, dtype, grad]


def case(
    via: str,
    fn: str,
    inputs: list[list],
    args: list[Any],
    kwargs: dict[str, Any] | None = None,
    grad_outputs: list[int] | None = None,
) -> dict[str, Any]:
    """A recorded call: ``grad_outputs`` are the outputs the gradients are taken through (every
    floating one when None); an input with ``grad`` false stops gradients."""
    return {
        "via": via,
        "fn": fn,
        "inputs": inputs,
        "args": args,
        "kwargs": kwargs or {},
        "grad_outputs": grad_outputs,
    }


def _probabilities(n: int, seed: int) -> list[float]:
    return np.round(np.random.default_rng(seed).uniform(0.05, 0.95, n), 4).tolist()


def _normal(n: int, seed: int) -> list[float]:
    return np.round(np.random.default_rng(seed).normal(0.0, 1.5, n), 4).tolist()


def loss_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for dtype in ("float32", "float64"):
        # bce_loss: probabilities with the clamped ends 0 and 1
        x = [0.2, 0.9, 0.0, 1.0, 0.5, 1e-8] + _probabilities(6, 1)
        y = [0.0, 1.0, 1.0, 0.0, 0.3, 1.0] + _probabilities(6, 2)
        out[f"bce_loss-{dtype}"] = case(
            "op",
            "bce_loss",
            [tensor("input", x, [3, 4], dtype), tensor("label", y, [3, 4], dtype, False)],
            ["$input", "$label"],
        )
        for reduction in ("mean", "sum", "none"):
            out[f"binary_cross_entropy-{dtype}-{reduction}"] = case(
                "F",
                "binary_cross_entropy",
                [
                    tensor("input", _probabilities(6, 3), [2, 3], dtype),
                    tensor("label", _probabilities(6, 4), [2, 3], dtype, False),
                    tensor("weight", [0.5, 2.0, 1.0], [3], dtype, False),
                ],
                ["$input", "$label", "$weight", reduction],
            )
        # sigmoid_cross_entropy_with_logits: ignored labels, pos_weight, normalize, big logits
        logits = [-2.0, 0.5, 3.0, 1.0, -1.0, 0.0, 40.0, -40.0]
        labels = [0.0, 1.0, -100.0, 1.0, 0.3, 1.0, 0.0, 1.0]
        pos_weight = [2.0, 3.0, 4.0, 0.5, 1.0, 2.0, 1.5, 0.5]
        for normalize in (False, True):
            for weighted in (False, True):
                inputs = [
                    tensor("x", logits, [2, 4], dtype),
                    tensor("label", labels, [2, 4], dtype, False),
                ]
                if weighted:
                    inputs.append(tensor("pos_weight", pos_weight, [2, 4], dtype, False))
                out[f"sigmoid_cross_entropy_with_logits-{dtype}-{normalize}-{weighted}"] = case(
                    "op",
                    "sigmoid_cross_entropy_with_logits",
                    inputs,
                    ["$x", "$label", "$pos_weight" if weighted else None, normalize, -100],
                )
        for reduction in ("mean", "sum", "none"):
            out[f"binary_cross_entropy_with_logits-{dtype}-{reduction}"] = case(
                "F",
                "binary_cross_entropy_with_logits",
                [
                    tensor("logit", _normal(6, 5), [2, 3], dtype),
                    tensor("label", [0.0, 1.0, 1.0, 0.0, 0.5, 1.0], [2, 3], dtype, False),
                    tensor("weight", [1.0, 0.5, 2.0], [3], dtype, False),
                    tensor("pos_weight", [1.0, 3.0, 0.25], [3], dtype, False),
                ],
                ["$logit", "$label", "$weight", reduction, "$pos_weight"],
            )
        # kldiv_loss: non-positive targets give 0; every reduction, log_target
        kl_x = [-1.0, -2.0, -0.5, -3.0, -0.1, -1.2]
        kl_label = [0.3, 0.0, 0.7, -1.0, 0.25, 0.05]
        for reduction in ("none", "mean", "sum", "batchmean"):
            for log_target in (False, True):
                out[f"kldiv_loss-{dtype}-{reduction}-{log_target}"] = case(
                    "op",
                    "kldiv_loss",
                    [
                        tensor("x", kl_x, [2, 3], dtype),
                        tensor("label", kl_label, [2, 3], dtype, False),
                    ],
                    ["$x", "$label", reduction, log_target],
                )
            out[f"kl_div-{dtype}-{reduction}"] = case(
                "F",
                "kl_div",
                [
                    tensor("input", kl_x, [3, 2], dtype),
                    tensor("label", kl_label, [3, 2], dtype, False),
                ],
                ["$input", "$label", reduction],
            )
        # huber_loss: both sides of delta, and its exact value
        hx = [0.0, 2.0, 3.0, -1.0, 0.5, 0.0]
        hy = [0.5, 0.0, 3.0, 1.5, 1.0, -1.0]
        out[f"huber_loss-{dtype}"] = case(
            "op",
            "huber_loss",
            [tensor("input", hx, [2, 3], dtype), tensor("label", hy, [2, 3], dtype)],
            ["$input", "$label", 1.0],
        )
        for reduction, delta, is_huber in (
            ("mean", 1.0, True),
            ("sum", 0.7, False),
            ("none", 2.0, True),
        ):
            out[f"smooth_l1_loss-{dtype}-{reduction}"] = case(
                "F",
                "smooth_l1_loss",
                [tensor("input", hx, [3, 2], dtype), tensor("label", hy, [3, 2], dtype)],
                ["$input", "$label", reduction, delta, is_huber],
            )
        # nll_loss: ignored entries, class weights, 2-D and 4-D inputs, every reduction. The
        # ignored label comes first: PaddlePaddle 3.3.1's CPU kernel writes 0 to out[index] for an
        # ignored entry even when out is the 0-D reduction, past its end for any index but 0
        # (heap corruption that hangs or crashes the recorder later)
        log_probs = np.log(
            np.array([[0.2, 0.3, 0.5], [0.1, 0.6, 0.3], [0.3, 0.3, 0.4], [0.5, 0.25, 0.25]])
        )
        for reduction in ("none", "mean", "sum"):
            for weighted in (False, True):
                inputs = [
                    tensor("input", log_probs.ravel().tolist(), [4, 3], dtype),
                    tensor("label", [-100, 2, 0, 1], [4], "int64", False),
                ]
                if weighted:
                    inputs.append(tensor("weight", [1.0, 2.0, 3.0], [3], dtype, False))
                out[f"nll_loss-{dtype}-{reduction}-{weighted}"] = case(
                    "op",
                    "nll_loss",
                    inputs,
                    ["$input", "$label", "$weight" if weighted else None, -100, reduction],
                    grad_outputs=[0],
                )
            out[f"nll_loss4d-{dtype}-{reduction}"] = case(
                "op",
                "nll_loss",
                [
                    tensor("input", _normal(2 * 3 * 2 * 2, 6), [2, 3, 2, 2], dtype),
                    tensor("label", [-100, 1, 2, 1, 2, 0, 0, 1], [2, 2, 2], "int64", False),
                    tensor("weight", [0.5, 1.0, 2.0], [3], dtype, False),
                ],
                ["$input", "$label", "$weight", -100, reduction],
                grad_outputs=[0],
            )
            out[f"F_nll_loss3d-{dtype}-{reduction}"] = case(
                "F",
                "nll_loss",
                [
                    tensor("input", _normal(2 * 3 * 4, 7), [2, 3, 4], dtype),
                    tensor("label", [0, 1, 2, 1, 2, 0, 0, 1], [2, 4], "int64", False),
                ],
                ["$input", "$label", None, -100, reduction],
            )
        # label_smooth: uniform and a prior distribution
        one_hot = [0.0, 1.0, 0.0, 1.0, 0.0, 0.0]
        out[f"label_smooth-{dtype}"] = case(
            "op", "label_smooth", [tensor("label", one_hot, [2, 3], dtype)], ["$label", None, 0.1]
        )
        out[f"label_smooth-{dtype}-prior"] = case(
            "op",
            "label_smooth",
            [
                tensor("label", one_hot, [2, 3], dtype),
                tensor("prior_dist", [0.2, 0.3, 0.5], [1, 3], dtype, False),
            ],
            ["$label", "$prior_dist", 0.1],
        )
        out[f"F_label_smooth-{dtype}"] = case(
            "F",
            "label_smooth",
            [tensor("label", one_hot, [1, 2, 3], dtype)],
            ["$label"],
            {"epsilon": 0.3},
        )
        # identity_loss: the three reductions
        for reduction in (0, 1, 2):
            out[f"identity_loss-{dtype}-{reduction}"] = case(
                "op",
                "identity_loss",
                [tensor("x", [1.0, 2.0, -3.0, 4.5], [2, 2], dtype)],
                ["$x", reduction],
            )
        out[f"hinge_embedding_loss-{dtype}"] = case(
            "F",
            "hinge_embedding_loss",
            [
                tensor("input", [0.3, -0.5, 2.0, 0.9, 1.5, -1.0], [2, 3], dtype),
                tensor("label", [1.0, -1.0, -1.0, 1.0, -1.0, -1.0], [2, 3], dtype, False),
            ],
            ["$input", "$label", 1.0, "mean"],
        )
    # log_loss and hinge_loss: float32 only
    out["log_loss-float32"] = case(
        "op",
        "log_loss",
        [
            tensor("input", [0.2, 0.9, 0.0, 1.0, 0.5], [5, 1], "float32"),
            tensor("label", [0.0, 1.0, 1.0, 0.0, 0.3], [5, 1], "float32", False),
        ],
        ["$input", "$label", 1e-4],
    )
    out["F_log_loss-float32"] = case(
        "F",
        "log_loss",
        [
            tensor("input", [0.2, 0.7, 0.1], [3, 1], "float32"),
            tensor("label", [0.0, 1.0, 1.0], [3, 1], "float32", False),
        ],
        ["$input", "$label"],
    )
    out["hinge_loss-float32"] = case(
        "op",
        "hinge_loss",
        [
            tensor("logits", [-0.4, 2.0, -1.0, 0.5, 1.0], [5, 1], "float32"),
            tensor("labels", [0.0, 1.0, 1.0, 0.0, 1.0], [5, 1], "float32", False),
        ],
        ["$logits", "$labels"],
    )
    # mean_all: every registered dtype
    # (phiops records no gradients of bfloat16 tensors, so the bfloat16 case records none)
    for dtype in ("float32", "float64", "bfloat16"):
        values = [1.0, 2.0, -3.0, 4.5, 0.25, 7.0]
        x = tensor("x", values, [2, 3], dtype, dtype != "bfloat16")
        out[f"mean_all-{dtype}"] = case("op", "mean_all", [x], ["$x"])
    for dtype in ("complex64", "complex128"):
        out[f"mean_all-{dtype}"] = case(
            "op",
            "mean_all",
            [tensor("x", [[1.0, 2.0], [-3.0, 0.5], [0.0, -1.0]], [3], dtype)],
            ["$x"],
        )
    return out


def scan_cases() -> dict[str, dict[str, Any]]:
    """logcumsumexp, cummax, cummin: every flag, both axes, ties, NaN, +-inf, 0-D and empty."""
    out: dict[str, dict[str, Any]] = {}
    values = _normal(12, 20)
    for dtype in ("float32", "float64"):
        for axis in (0, -1):
            for flatten in (False, True):
                for exclusive in (False, True):
                    for reverse in (False, True):
                        key = f"logcumsumexp-{dtype}-{axis}-{flatten}-{exclusive}-{reverse}"
                        out[key] = case(
                            "op",
                            "logcumsumexp",
                            [tensor("x", values, [3, 4], dtype)],
                            ["$x", axis, flatten, exclusive, reverse],
                        )
        # -inf alone gives the lowest finite value; inf and NaN propagate (no gradients here)
        edge = [-INF, -INF, 1.0, INF, 2.0, -INF, NAN, 0.5]
        for exclusive in (False, True):
            out[f"logcumsumexp-{dtype}-edges-{exclusive}"] = case(
                "op",
                "logcumsumexp",
                [tensor("x", edge, [2, 4], dtype, False)],
                ["$x", 1, False, exclusive, False],
            )
        out[f"logcumsumexp-{dtype}-wide"] = case(
            "op",
            "logcumsumexp",
            [tensor("x", [-1000.0, 0.0, 700.0, -5.0, 30.0, 29.0], [6], dtype)],
            ["$x", 0, False, False, False],
        )
        out[f"logcumsumexp-{dtype}-0d"] = case(
            "op", "logcumsumexp", [tensor("x", [0.75], [], dtype)], ["$x", -1, False, False, False]
        )
        out[f"logcumsumexp-{dtype}-empty"] = case(
            "op",
            "logcumsumexp",
            [tensor("x", [], [0, 3], dtype)],
            ["$x", 0, False, False, False],
        )
        out[f"api-logcumsumexp-{dtype}-none"] = case(
            "api", "logcumsumexp", [tensor("x", values, [3, 4], dtype)], ["$x"]
        )
        out[f"api-logcumsumexp-{dtype}-axis-dtype"] = case(
            "api",
            "logcumsumexp",
            [tensor("x", values, [3, 4], dtype)],
            ["$x"],
            {"axis": 0, "dtype": "float64"},
        )
    ties = [1.0, 3.0, 3.0, -2.0, 2.0, 5.0, 0.0, 5.0, 4.0, -1.0, 4.0, -3.0]
    with_nan = [1.0, 3.0, 3.0, NAN, 2.0, NAN, 5.0, 0.0, -1.0, 4.0, NAN, -3.0]
    for op in ("cummax", "cummin"):
        for dtype in ("float32", "float64", "int32", "int64"):
            for axis in (0, 1, -1):
                for index_dtype in ("int32", "int64"):
                    out[f"{op}-{dtype}-{axis}-{index_dtype}"] = case(
                        "op",
                        op,
                        [tensor("x", ties, [3, 4], dtype)],
                        ["$x", axis, index_dtype],
                        grad_outputs=[0],
                    )
            out[f"{op}-{dtype}-0d"] = case(
                # no gradient: 3.3.1's cummax_grad scatter refuses a 0-D x too (phiops gives
                # out_grad, tests/ops/test_losscum_scan.py)
                "op",
                op,
                [tensor("x", [2.0], [], dtype, False)],
                ["$x", 0, "int64"],
                grad_outputs=[0],
            )
            out[f"{op}-{dtype}-empty"] = case(
                # no gradient: 3.3.1's cummax_grad scatter refuses an empty x (OutOfRange)
                "op",
                op,
                [tensor("x", [], [0, 3], dtype, False)],
                ["$x", 1, "int64"],
                grad_outputs=[0],
            )
            out[f"api-{op}-{dtype}-none"] = case(
                "api", op, [tensor("x", ties, [3, 4], dtype)], ["$x"], grad_outputs=[0]
            )
            out[f"api-{op}-{dtype}-axis-int32"] = case(
                "api",
                op,
                [tensor("x", ties, [2, 3, 2], dtype)],
                ["$x"],
                {"axis": 1, "dtype": "int32"},
                grad_outputs=[0],
            )
        for dtype in ("float32", "float64"):
            out[f"{op}-{dtype}-nan"] = case(
                "op",
                op,
                [tensor("x", with_nan, [2, 6], dtype)],
                ["$x", -1, "int64"],
                grad_outputs=[0],
            )
    return out


def predicate_cases() -> dict[str, dict[str, Any]]:
    """is_empty and equal_all: equal, unequal, NaN, other shapes (broadcastable too), empty."""
    out: dict[str, dict[str, Any]] = {}
    for dtype in ("float32", "float64", "int32", "int64"):
        for via in ("op", "api"):
            for shape in ([2, 3], [0, 3], [], [1, 0]):
                count = int(np.prod(shape)) if shape else 1
                out[f"{via}-is_empty-{dtype}-{shape}"] = case(
                    via, "is_empty", [tensor("x", [1.0] * count, shape, dtype)], ["$x"]
                )
    same = [1.0, 2.0, -3.0, 0.0, 5.0, 6.0]
    other = [1.0, 2.0, -3.0, 0.0, 5.0, 7.0]
    for dtype in ("bool", "float32", "float64", "int32", "int64"):
        pairs = {
            "equal": (same, [2, 3], same, [2, 3]),
            "unequal": (same, [2, 3], other, [2, 3]),
            "reshaped": (same, [2, 3], same, [3, 2]),
            "broadcastable": (same[:3], [3], same[:3] * 2, [2, 3]),
            "row": (same, [2, 3], same[:3], [3]),
            "0d": ([2.0], [], [2.0], []),
            "empty": ([], [0, 3], [], [0, 3]),
            "empty-other": ([], [0, 3], [], [0, 2]),
        }
        if dtype.startswith("float"):
            pairs["nan"] = ([1.0, NAN], [2], [1.0, NAN], [2])
        for label, (x, x_shape, y, y_shape) in pairs.items():
            for via in ("op", "api"):
                out[f"{via}-equal_all-{dtype}-{label}"] = case(
                    via,
                    "equal_all",
                    [tensor("x", x, x_shape, dtype), tensor("y", y, y_shape, dtype)],
                    ["$x", "$y"],
                )
    return out


def cases() -> dict[str, dict[str, Any]]:
    return {**loss_cases(), **scan_cases(), **predicate_cases()}


def as_numpy(values: list, dtype: str) -> np.ndarray:
    """Recorded values as numpy: complex numbers are [re, im] pairs, bfloat16 values float32."""
    if dtype.startswith("complex"):
        return np.array([complex(re, im) for re, im in values], dtype).reshape(-1)
    return np.array(values, "float32" if dtype == "bfloat16" else dtype).reshape(-1)


def to_json(array: np.ndarray) -> list:
    array = np.asarray(array).reshape(-1)
    if array.dtype.kind == "c":
        return [[float(v.real), float(v.imag)] for v in array]
    if array.dtype.kind == "f" or array.dtype.name == "bfloat16":
        return [float(v) for v in array.astype(np.float64)]
    if array.dtype.kind == "b":
        return [bool(v) for v in array]
    return [int(v) for v in array]


def dtype_name(dtype: Any) -> str:
    return str(dtype).replace("paddle.", "").lower().split(".")[-1]


def out_grad_for(shape: list[int], dtype: str) -> np.ndarray:
    """A fixed upstream gradient of ``shape`` (values in [-1, 1.5])."""
    count = int(np.prod(shape)) if shape else 1
    values = np.linspace(-1.0, 1.5, count) if count != 1 else np.array([1.5])
    if dtype.startswith("complex"):
        values = values + 0.5j * values[::-1]
    return values.reshape(shape)


def make_inputs(lib: ModuleType, case: dict[str, Any]) -> dict[str, Any]:
    tensors = {}
    for name, values, shape, dtype, grad in case["inputs"]:
        array = as_numpy(values, dtype).reshape(shape)
        created = lib.to_tensor(array, dtype="float32" if dtype == "bfloat16" else dtype)
        if dtype == "bfloat16":
            created = created.astype("bfloat16")
        created.stop_gradient = not (grad and dtype in FLOAT_KINDS)
        tensors[name] = created
    return tensors


def call(lib: ModuleType, case: dict[str, Any], tensors: dict[str, Any]) -> Any:
    owner = {
        "op": importlib.import_module(f"{lib.__name__}._C_ops"),
        "F": importlib.import_module(f"{lib.__name__}.nn.functional"),
        "api": lib,
    }[case["via"]]

    def resolve(value: Any) -> Any:
        if isinstance(value, str) and value.startswith("$"):
            return tensors[value[1:]]
        return value

    args = [resolve(a) for a in case["args"]]
    kwargs = {k: resolve(v) for k, v in case["kwargs"].items()}
    return getattr(owner, case["fn"])(*args, **kwargs)


def run(lib: ModuleType, case: dict[str, Any]) -> dict[str, Any]:
    """The case's outputs (dtype, shape, values) and gradients on ``lib``."""
    tensors = make_inputs(lib, case)
    result = call(lib, case, tensors)
    outs = list(result) if isinstance(result, (tuple, list)) else [result]
    recorded = {
        "outs": [
            {
                "dtype": dtype_name(o.dtype),
                "shape": list(o.shape),
                "values": to_json(
                    o.astype("float32").numpy() if dtype_name(o.dtype) == "bfloat16" else o.numpy()
                ),
            }
            for o in outs
        ],
        "grads": {},
    }
    wanted = [name for name, t in tensors.items() if not t.stop_gradient]
    picks = case["grad_outputs"]
    if picks is None:
        picks = [i for i, o in enumerate(outs) if dtype_name(o.dtype) in FLOAT_KINDS]
    if wanted and picks:
        targets = [outs[i] for i in picks]
        grad_outputs = []
        for target in targets:
            dtype = dtype_name(target.dtype)
            values = out_grad_for(list(target.shape), dtype)
            made = lib.to_tensor(values, dtype="float32" if dtype == "bfloat16" else dtype)
            grad_outputs.append(made.astype("bfloat16") if dtype == "bfloat16" else made)
        grads = lib.grad(
            targets, [tensors[n] for n in wanted], grad_outputs=grad_outputs, allow_unused=True
        )
        for name, grad in zip(wanted, grads):
            if grad is None:
                recorded["grads"][name] = None
            else:
                array = (
                    grad.astype("float32").numpy()
                    if dtype_name(grad.dtype) == "bfloat16"
                    else grad.numpy()
                )
                recorded["grads"][name] = to_json(array)
    return recorded


def main() -> None:
    import paddle

    recorded = {key: {**c, **run(paddle, c)} for key, c in sorted(cases().items())}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(recorded)} cases to {OUT}")


if __name__ == "__main__":
    main()
